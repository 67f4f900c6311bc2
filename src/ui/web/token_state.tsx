/**
 * OAuth 2.0 token state as the server reports it (obtained, expires in, refreshed), never the
 * token itself.
 * @module
 */
import type { JSX } from "preact";

/** @returns the token state line */
export function TokenState(): JSX.Element {
  return <p class="token-state" role="status">Token: not obtained yet</p>;
}
