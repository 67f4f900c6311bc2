/**
 * `dial auth token|status|logout`: the OAuth 2.0 token cache from the command line.
 * @module
 */
import { AUTH_CONFLICTS, AUTH_FLAGS } from "./auth_flags.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import { lazy } from "./lazy.ts";
import { command, flags, type FlagValues } from "./declare.ts";

const ORIGIN = "client_credentials:https://id.example.com/oauth/token:my-app:my-secret";

/** The flags of `dial auth status`. */
export const AUTH_STATUS_FLAGS = flags([...AUTH_FLAGS, { long: "json", help: "print JSON" }]);

/** The flags of `dial auth logout`. */
export const AUTH_LOGOUT_FLAGS = flags([
  ...AUTH_FLAGS,
  { long: "all", help: "remove every cached token" },
]);

/** The flag values of `dial auth status`. */
export type AuthStatusFlagValues = FlagValues<typeof AUTH_STATUS_FLAGS>;

/** The flag values of `dial auth logout`. */
export type AuthLogoutFlagValues = FlagValues<typeof AUTH_LOGOUT_FLAGS>;

/** The flags of `dial auth token`: auth, and how to reach the token endpoint. */
export const AUTH_TOKEN_FLAGS = flags([...AUTH_FLAGS, ...TRANSPORT_FLAGS]);

/** The flag values of `dial auth token`. */
export type AuthTokenFlagValues = FlagValues<typeof AUTH_TOKEN_FLAGS>;

const token = command({
  name: "token",
  summary: "Print a valid OAuth 2.0 access token (from the cache, refreshed or new)",
  flags: AUTH_TOKEN_FLAGS,
  conflicts: AUTH_CONFLICTS,
  epilog: `
Takes the same --oauth2 flags as a request and prints only the access token, for scripts.

Example:
  curl -H "Authorization: Bearer $(dial auth token --oauth2 ${ORIGIN})" https://api.example.com/me`,
  run: async ({ flags }, context) => (await lazy.authActions()).authToken(flags, context),
});

const status = command({
  name: "status",
  summary: "List cached OAuth 2.0 tokens (times and scopes, never the tokens)",
  flags: AUTH_STATUS_FLAGS,
  conflicts: AUTH_CONFLICTS,
  epilog: `
Without --oauth2 lists every cached token; with it, only the matching one.`,
  run: async ({ flags }, context) => (await lazy.authActions()).authStatus(flags, context),
});

const logout = command({
  name: "logout",
  summary: "Remove cached OAuth 2.0 tokens",
  flags: AUTH_LOGOUT_FLAGS,
  conflicts: [{ flags: ["oauth2", "all"] }, ...AUTH_CONFLICTS],
  epilog: `
With --oauth2 removes that token (every username when --oauth2-username is not given);
with --all removes every cached token.`,
  run: async ({ flags }, context) => (await lazy.authActions()).authLogout(flags, context),
});

/** `dial auth`. */
export const authCommand = command({
  name: "auth",
  summary: "Get, list and remove cached OAuth 2.0 tokens",
  epilog: `
Tokens are cached per flow, token URL, client id, scope and username in
$XDG_CACHE_HOME/dial/oauth2 (default ~/.cache/dial/oauth2), files 0600 in a 0700
directory. Client secrets and passwords are never stored.

Examples:
  dial auth token --oauth2 ${ORIGIN}
  TOKEN=$(dial auth token --oauth2 password:https://id.example.com/token:cli --oauth2-username ann)
  dial auth status
  dial auth logout --oauth2 ${ORIGIN}
  dial auth logout --all`,
  commands: [token, status, logout],
});
