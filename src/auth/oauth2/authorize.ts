/**
 * OAuth 2.0 authorization for requests.
 * @module
 */
import { UsageError } from "../../errors.ts";
import type { Secret } from "../../secret.ts";
import type { AuthorizeOptions } from "../authorize.ts";
import type { OAuth2Options } from "./parse_value.ts";

/**
 * @param options the parsed `--oauth2` value and flags
 * @param _authorize fetch, signal, forceRefresh
 * @returns `Bearer <access token>`
 */
export function oauth2Authorization(
  options: OAuth2Options,
  _authorize: AuthorizeOptions,
): Promise<Secret> {
  return Promise.reject(new UsageError(`OAuth 2.0 flow "${options.flow}" is not available yet`));
}
