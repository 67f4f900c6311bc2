/**
 * The auth flags every command shares (SPEC 5.1): `-H`, `-u`, `-B`, `-K`, `--oauth2*`.
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { Authorization, AuthSpec } from "../auth/spec.ts";
import {
  DEFAULT_CALLBACK_PORT,
  type OAuth2Options,
  parseOAuth2Value,
} from "../auth/oauth2/parse_value.ts";
import type { HeaderField } from "../http/spec.ts";
import { Secret } from "../secret.ts";
import { promptSecret } from "./prompt.ts";
import { collect, parseHeader, parsePort, parseQueryKey, parseUrl } from "./values.ts";

/** The raw values of the auth flags. */
export interface AuthFlagValues {
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
}

/**
 * Adds the auth and header flags to a command.
 *
 * @param command a command
 * @returns the command, typed with the new options
 */
// deno-lint-ignore no-explicit-any
export function withAuthFlags<A extends any[], O extends Record<string, unknown>>(
  command: Command<A, O>,
) {
  return command
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
    );
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
  const oauth2 = parseOAuth2Flags(values);
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

function parseOAuth2Flags(values: AuthFlagValues): OAuth2Options | undefined {
  const extras: Array<[string, unknown]> = [
    ["--oauth2-scope", values.oauth2Scope],
    ["--oauth2-auth-url", values.oauth2AuthUrl],
    ["--oauth2-username", values.oauth2Username],
    ["--oauth2-password", values.oauth2Password],
    ["--oauth2-port", values.oauth2Port],
  ];
  if (values.oauth2 === undefined) {
    const stray = extras.find(([, v]) => v !== undefined);
    if (stray) throw new UsageError(`${stray[0]} needs --oauth2`);
    return undefined;
  }
  const value = parseOAuth2Value(values.oauth2);
  const port = values.oauth2Port === undefined
    ? DEFAULT_CALLBACK_PORT
    : parsePort(values.oauth2Port, "--oauth2-port");
  const authUrl = values.oauth2AuthUrl === undefined ? undefined : parseUrl(values.oauth2AuthUrl);
  return {
    ...value,
    port,
    ...(values.oauth2Scope !== undefined ? { scope: values.oauth2Scope } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(values.oauth2Username !== undefined ? { username: values.oauth2Username } : {}),
    ...(values.oauth2Password !== undefined ? { password: new Secret(values.oauth2Password) } : {}),
  };
}
