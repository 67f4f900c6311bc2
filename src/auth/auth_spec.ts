/**
 * The authentication part of a request spec, as plain data.
 * @module
 */
import type { Secret } from "../secret.ts";
import type { OAuth2Options } from "./oauth2/parse_value.ts";
import type { SigV4Options } from "./sigv4_value.ts";

/** What sets the `Authorization` header; at most one per request. */
export type Authorization =
  | { kind: "basic"; username: string; password: Secret }
  | { kind: "digest"; username: string; password: Secret }
  | { kind: "bearer"; token: Secret }
  | { kind: "oauth2"; oauth2: OAuth2Options }
  | { kind: "aws-sigv4"; sigv4: SigV4Options };

/** An API key sent as a query parameter (`-K name=value`). */
export interface QueryKey {
  /** The parameter name. */
  name: string;
  /** The key itself. */
  value: Secret;
}

/** All authentication a request carries besides plain `-H` headers. */
export interface AuthSpec {
  /** Basic, Bearer or OAuth 2.0. */
  authorization?: Authorization;
  /** API keys appended to the query string. */
  queryKeys: QueryKey[];
}
