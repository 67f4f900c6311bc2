/**
 * The auth flags every command shares: `-H`, `-u`, `-B`, `-K`, `--oauth2*`.
 * @module
 */
import { UsageError } from "../errors.ts";
import type { Authorization, AuthSpec } from "../auth/spec.ts";
import { DEFAULT_CALLBACK_PORT, DEFAULT_CALLBACK_TIMEOUT } from "../auth/oauth2/defaults.ts";
import type { HeaderField } from "../http/spec.ts";
import { Secret } from "../secret.ts";
import { type FlagDecl, flags, type FlagValues, isGiven } from "./declare.ts";
import { parseHeader, parseQueryKey } from "./values.ts";

const CODE = ["authorization_code"] as const;
const PASSWORD = ["password"] as const;

/** The `--oauth2-*` flags that refine `--oauth2` (each needs it; some belong to one flow). */
export const OAUTH2_EXTRA_FLAGS = flags([
  { long: "oauth2-scope", value: "scopes", help: "OAuth 2.0 scopes, space-separated" },
  {
    long: "oauth2-auth-url",
    value: "url",
    flows: CODE,
    help: "authorization URL (authorization_code)",
  },
  {
    long: "oauth2-username",
    value: "user",
    flows: PASSWORD,
    help: "resource owner (password flow)",
  },
  {
    long: "oauth2-password",
    value: "password",
    flows: PASSWORD,
    help: "resource owner's password (password flow)",
  },
  {
    long: "oauth2-port",
    value: "port",
    kind: "port",
    flows: CODE,
    help: `callback port (authorization_code, default ${DEFAULT_CALLBACK_PORT})`,
  },
  {
    long: "oauth2-client-auth",
    value: "method",
    choices: ["basic", "post"],
    help: "client authentication (default basic)",
  },
  {
    long: "oauth2-redirect-uri",
    value: "uri",
    flows: CODE,
    help: "redirect URI (authorization_code, default http://localhost:<port>/)",
  },
  {
    long: "oauth2-timeout",
    value: "seconds",
    kind: "seconds",
    flows: CODE,
    help: `how long to wait for the browser login (default ${DEFAULT_CALLBACK_TIMEOUT / 1000})`,
  },
  { long: "oauth2-no-cache", help: "neither read nor write the token cache" },
]);

/** The `--oauth2` flags: the flow and its refinements. */
export const OAUTH2_FLAGS = flags([
  {
    long: "oauth2",
    value: "flow:token_url:client_id[:secret]",
    help: "OAuth 2.0: client_credentials, authorization_code or password",
  },
  ...OAUTH2_EXTRA_FLAGS,
]);

/** The auth and header flags every command that sends shares (SPEC 5.1). */
export const AUTH_FLAGS = flags([
  {
    long: "header",
    short: "H",
    value: "header",
    repeatable: true,
    help: 'custom header "Name: value" (repeatable)',
  },
  {
    long: "auth",
    short: "u",
    value: "user:password",
    help: "HTTP Basic auth (prompts for a missing password)",
  },
  { long: "bearer", short: "B", value: "token", help: "Bearer token auth" },
  {
    long: "api-key-query",
    short: "K",
    value: "name=value",
    repeatable: true,
    help: "API key in the query (repeatable)",
  },
  ...OAUTH2_FLAGS,
]);

/** Flags that conflict among the auth flags: two ways to set one callback port. */
export const AUTH_CONFLICTS = [{
  flags: ["oauth2-port", "oauth2-redirect-uri"],
  hint: "write the port in the redirect URI, e.g. http://localhost:9000/callback",
}] as const;

/** The parsed values of the auth flags. */
export type AuthFlagValues = FlagValues<typeof AUTH_FLAGS>;

/** The parsed values of the `--oauth2` flags alone. */
export type OAuth2FlagValues = FlagValues<typeof OAUTH2_FLAGS>;

/** Auth and headers parsed from flags. */
export interface ParsedAuth {
  /** Authorization and query keys. */
  auth: AuthSpec;
  /** `-H` headers (credential-looking values wrapped as secrets). */
  headers: HeaderField[];
}

/**
 * Parses and validates the auth flags; prompts for a missing Basic password on a terminal.
 *
 * @param values the flag values
 * @returns auth spec and headers
 * @throws {UsageError} on a malformed value or two flags that both set Authorization
 */
export async function parseAuthFlags(values: AuthFlagValues): Promise<ParsedAuth> {
  const headers = values.header.map(parseHeader);
  const queryKeys = values.apiKeyQuery.map(parseQueryKey);
  const setters: string[] = [];
  if (values.auth !== undefined) setters.push("-u");
  if (values.bearer !== undefined) setters.push("-B");
  if (values.oauth2 !== undefined) setters.push("--oauth2");
  if (headers.some((h) => h.name.toLowerCase() === "authorization")) {
    setters.push('-H "Authorization: …"');
  }
  if (setters.length > 1) {
    throw new UsageError(
      `Conflicting flags ${setters.join(" and ")}: both set the Authorization header`,
      { hint: "use only one of them" },
    );
  }
  const extras: readonly FlagDecl[] = OAUTH2_EXTRA_FLAGS;
  // The --oauth2 parser (and its OAuth 2.0 value parsing) is loaded only when it is needed.
  const oauth2 = values.oauth2 === undefined && !extras.some((flag) => isGiven(values, flag))
    ? undefined
    : await (await import("./oauth2_flags.ts")).parseOAuth2Flags(values);
  let authorization: Authorization | undefined;
  if (values.auth !== undefined) {
    authorization = await basicFromFlag(values.auth);
  } else if (values.bearer !== undefined) {
    if (values.bearer === "") throw new UsageError("Empty token in -B");
    authorization = { kind: "bearer", token: new Secret(values.bearer) };
  } else if (oauth2) {
    authorization = { kind: "oauth2", oauth2 };
  }
  return { auth: { ...(authorization ? { authorization } : {}), queryKeys }, headers };
}

async function basicFromFlag(text: string): Promise<Authorization> {
  const colon = text.indexOf(":");
  if (colon === 0) throw new UsageError(`Cannot parse -u "${text}": missing user name`);
  if (colon > 0) {
    return {
      kind: "basic",
      username: text.slice(0, colon),
      password: new Secret(text.slice(colon + 1)),
    };
  }
  if (!Deno.stdin.isTerminal()) {
    throw new UsageError(`Missing password in -u "${text}"`, {
      hint: `write -u "${text}:PASSWORD", or run in a terminal to be prompted`,
    });
  }
  return {
    kind: "basic",
    username: text,
    password: await (await import("./prompt.ts")).promptSecret(`Password for "${text}": `),
  };
}
