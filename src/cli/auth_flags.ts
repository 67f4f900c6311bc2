/**
 * The auth flags every command shares: `-H`, `-u`, `-B`, `-K`, `--oauth2*`.
 * @module
 */
import type { Command, CommandUnknownOpts } from "@commander-js/extra-typings";
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
import {
  collect,
  parseHeader,
  parsePort,
  parseQueryKey,
  parseSeconds,
  parseUrl,
} from "./values.ts";

/** The raw values of the auth flags (a type, not an interface, so it fits commander's option records). */
export type AuthFlagValues = {
  header: string[];
  auth?: string;
  bearer?: string;
  apiKeyQuery: string[];
  oauth2?: string;
  oauth2Scope?: string;
  oauth2AuthUrl?: string;
  oauth2Username?: string;
  oauth2Password?: string;
  oauth2Port?: string;
  oauth2ClientAuth?: string;
  oauth2RedirectUri?: string;
  oauth2Timeout?: string;
  oauth2NoCache?: true;
};

/**
 * Adds the auth and header flags to a command.
 *
 * @param command a command
 * @returns the command, typed with the new options
 */
// deno-lint-ignore no-explicit-any
export function withAuthFlags<A extends any[], O extends Record<string, unknown>>(
  command: Command<A, O>,
): Command<A, O & AuthFlagValues> {
  // Declared on an untyped view: a dozen chained generic .option() types make type checking
  // take minutes (each wraps the last); the result type is spelled out once instead.
  const untyped = command as unknown as CommandUnknownOpts;
  untyped
    .option("-H, --header <header>", 'custom header "Name: value" (repeatable)', collect, [])
    .option("-u, --auth <user:password>", "HTTP Basic auth (prompts for a missing password)")
    .option("-B, --bearer <token>", "Bearer token auth")
    .option("-K, --api-key-query <name=value>", "API key in the query (repeatable)", collect, [])
    .option(
      "--oauth2 <flow:token_url:client_id[:secret]>",
      "OAuth 2.0: client_credentials, authorization_code or password",
    )
    .option("--oauth2-scope <scopes>", "OAuth 2.0 scopes, space-separated")
    .option("--oauth2-auth-url <url>", "authorization URL (authorization_code)")
    .option("--oauth2-username <user>", "resource owner (password flow)")
    .option("--oauth2-password <password>", "resource owner's password (password flow)")
    .option(
      "--oauth2-port <port>",
      `callback port (authorization_code, default ${DEFAULT_CALLBACK_PORT})`,
    )
    .option("--oauth2-client-auth <basic|post>", "client authentication (default basic)")
    .option(
      "--oauth2-redirect-uri <uri>",
      "redirect URI (authorization_code, default http://localhost:<port>/)",
    )
    .option(
      "--oauth2-timeout <seconds>",
      `how long to wait for the browser login (default ${DEFAULT_CALLBACK_TIMEOUT / 1000})`,
    )
    .option("--oauth2-no-cache", "neither read nor write the token cache");
  return command as unknown as Command<A, O & AuthFlagValues>;
}

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
  values: AuthFlagValues,
): Promise<OAuth2Options | undefined> {
  const extras: Array<[string, unknown]> = [
    ["--oauth2-scope", values.oauth2Scope],
    ["--oauth2-auth-url", values.oauth2AuthUrl],
    ["--oauth2-username", values.oauth2Username],
    ["--oauth2-password", values.oauth2Password],
    ["--oauth2-port", values.oauth2Port],
    ["--oauth2-client-auth", values.oauth2ClientAuth],
    ["--oauth2-redirect-uri", values.oauth2RedirectUri],
    ["--oauth2-timeout", values.oauth2Timeout],
    ["--oauth2-no-cache", values.oauth2NoCache],
  ];
  if (values.oauth2 === undefined) {
    const stray = extras.find(([, v]) => v !== undefined);
    if (stray) throw new UsageError(`${stray[0]} needs --oauth2`);
    return undefined;
  }
  const value = parseOAuth2Value(values.oauth2);
  const only: Record<string, string[]> = {
    authorization_code: [
      "--oauth2-auth-url",
      "--oauth2-port",
      "--oauth2-redirect-uri",
      "--oauth2-timeout",
    ],
    password: ["--oauth2-username", "--oauth2-password"],
  };
  for (const [flow, flags] of Object.entries(only)) {
    const stray = value.flow === flow
      ? undefined
      : extras.find(([name, v]) => flags.includes(name) && v !== undefined);
    if (stray) {
      throw new UsageError(`${stray[0]} is only used by the ${flow} flow`, {
        hint: `this is --oauth2 ${value.flow}:…`,
      });
    }
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
  if (clientAuth !== undefined && clientAuth !== "basic" && clientAuth !== "post") {
    throw new UsageError(`Invalid --oauth2-client-auth "${clientAuth}": expected basic or post`, {
      hint: "basic sends the client id and secret in an Authorization header, post in the form",
    });
  }
  if (values.oauth2Port !== undefined && values.oauth2RedirectUri !== undefined) {
    throw new UsageError("Conflicting flags --oauth2-port and --oauth2-redirect-uri", {
      hint: "write the port in the redirect URI, e.g. http://localhost:9000/callback",
    });
  }
  const port = values.oauth2Port === undefined
    ? DEFAULT_CALLBACK_PORT
    : parsePort(values.oauth2Port, "--oauth2-port");
  const authUrl = values.oauth2AuthUrl === undefined ? undefined : parseUrl(values.oauth2AuthUrl);
  const redirectUri = values.oauth2RedirectUri === undefined
    ? undefined
    : parseRedirectUri(values.oauth2RedirectUri);
  const timeout = values.oauth2Timeout === undefined
    ? DEFAULT_CALLBACK_TIMEOUT
    : parseSeconds(values.oauth2Timeout, "--oauth2-timeout");
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
