/**
 * OAuth 2.0 for Deno scripts: parse a `--oauth2` value, get a token (client credentials,
 * password, authorization code with PKCE) through dial's private token cache, inspect and remove
 * cached tokens. Imported as `@dial/dial/oauth2`.
 *
 * @example
 * ```ts
 * import { oauth2Authorization, parseOAuth2Value } from "./mod.ts";
 * const value = parseOAuth2Value("client_credentials:https://id.example.com/token:my-app");
 * ```
 * @module
 */
export {
  DEFAULT_CALLBACK_PORT,
  DEFAULT_CALLBACK_TIMEOUT,
  OAUTH2_FLOWS,
  parseOAuth2Value,
} from "./parse_value.ts";
export type {
  DeviceCodePrompt,
  OAuth2ClientAuth,
  OAuth2Flow,
  OAuth2Notice,
  OAuth2Options,
  OAuth2Value,
  ResolvedOAuth2Options,
} from "./parse_value.ts";
export { resolveEndpoints, type ResolveOptions } from "./endpoints.ts";
export { isFresh, oauth2Authorization, type OAuth2Token, oauth2Token } from "./access_token.ts";
export {
  listOAuth2Tokens,
  oauth2TokenState,
  removeOAuth2Tokens,
  type TokenFilter,
  type TokenState,
} from "./token_state.ts";
export { defaultCacheDir } from "../../cache.ts";
export { browserCommand, openSystemBrowser } from "./browser.ts";
export type { AuthorizeOptions } from "../auth_header.ts";
export type { TokenEntry, TokenKey } from "./token_cache.ts";
