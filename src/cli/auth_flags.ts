/**
 * The auth flags every command shares: `-H`, `-u`, `-B`, `-K`, `--oauth2*`.
 * @module
 */
import { UsageError } from "../errors.ts";
import type { Authorization, AuthSpec } from "../auth/spec.ts";
import {
  DEFAULT_CALLBACK_PORT,
  DEFAULT_CALLBACK_TIMEOUT,
  type OAuth2Options,
  parseOAuth2Value,
} from "../auth/oauth2/parse_value.ts";
import { showAuthorizationUrl } from "./open_browser.ts";
import type { HeaderField } from "../http/spec.ts";
import { Secret } from "../secret.ts";
import { promptSecret } from "./prompt.ts";
import { type FlagDecl, flags, type FlagValues, isGiven } from "./declare.ts";
import { parseHeader, parseQueryKey, parseUrl } from "./values.ts";

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
  const oauth2 = await parseOAuth2Flags(values);
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
    password: await promptSecret(`Password for "${text}": `),
  };
}

/**
 * Parses and validates the `--oauth2*` flags, flow by flow, before anything is sent; prompts
 * for a missing password-flow password on a terminal.
 *
 * @param values the flag values
 * @returns the OAuth 2.0 options, or undefined without `--oauth2`
 * @throws {UsageError} on a bad value, a missing flag the flow needs, or a flag it ignores
 */
export async function parseOAuth2Flags(
  values: OAuth2FlagValues,
): Promise<OAuth2Options | undefined> {
  const extras: readonly FlagDecl[] = OAUTH2_EXTRA_FLAGS;
  const given = extras.filter((flag) => isGiven(values, flag));
  if (values.oauth2 === undefined) {
    const stray = given[0];
    if (stray) throw new UsageError(`--${stray.long} needs --oauth2`);
    return undefined;
  }
  const value = parseOAuth2Value(values.oauth2);
  const stray = given.find((flag) => flag.flows && !flag.flows.includes(value.flow));
  if (stray?.flows) {
    throw new UsageError(`--${stray.long} is only used by the ${stray.flows[0]} flow`, {
      hint: `this is --oauth2 ${value.flow}:…`,
    });
  }
  if (value.flow === "client_credentials" && !value.clientSecret) {
    throw new UsageError("The client_credentials flow needs a client secret in --oauth2", {
      hint: "write --oauth2 client_credentials:<token_url>:<client_id>:<client_secret>",
    });
  }
  if (value.flow === "authorization_code" && values.oauth2AuthUrl === undefined) {
    throw new UsageError("The authorization_code flow needs --oauth2-auth-url", {
      hint:
        "give the provider's authorization endpoint, e.g. --oauth2-auth-url https://id.example.com/authorize",
    });
  }
  if (value.flow === "password" && values.oauth2Username === undefined) {
    throw new UsageError("The password flow needs --oauth2-username", {
      hint: "add --oauth2-username USER (and --oauth2-password, or type it when asked)",
    });
  }
  const clientAuth = values.oauth2ClientAuth;
  const port = values.oauth2Port ?? DEFAULT_CALLBACK_PORT;
  const authUrl = values.oauth2AuthUrl === undefined ? undefined : parseUrl(values.oauth2AuthUrl);
  const redirectUri = values.oauth2RedirectUri === undefined
    ? undefined
    : parseRedirectUri(values.oauth2RedirectUri);
  const timeout = values.oauth2Timeout ?? DEFAULT_CALLBACK_TIMEOUT;
  let password = values.oauth2Password === undefined
    ? undefined
    : new Secret(values.oauth2Password);
  if (value.flow === "password" && password === undefined) {
    const user = values.oauth2Username ?? "";
    if (!Deno.stdin.isTerminal()) {
      throw new UsageError(`Missing --oauth2-password for "${user}"`, {
        hint: "give --oauth2-password, or run in a terminal to be prompted",
      });
    }
    password = await promptSecret(`OAuth 2.0 password for "${user}": `);
  }
  return {
    ...value,
    port,
    timeout,
    openBrowser: showAuthorizationUrl,
    ...(clientAuth !== undefined ? { clientAuth } : {}),
    ...(redirectUri ? { redirectUri } : {}),
    ...(values.oauth2NoCache ? { noCache: true } : {}),
    ...(values.oauth2Scope !== undefined ? { scope: values.oauth2Scope } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(values.oauth2Username !== undefined ? { username: values.oauth2Username } : {}),
    ...(password ? { password } : {}),
  };
}

function parseRedirectUri(text: string): URL {
  const url = parseUrl(text, ["http:"]);
  if (!["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
    throw new UsageError(
      `Invalid --oauth2-redirect-uri "${text}": the host must be localhost, 127.0.0.1 or [::1]`,
      { hint: "dial listens for the callback on this machine's loopback interface only" },
    );
  }
  return url;
}
