/**
 * JetBrains HTTP Client OAuth 2.0 (`Security.Auth` in an environment file, used as
 * `{{$auth.token("id")}}`) on dial's own OAuth 2.0 flows and token cache: the same grants,
 * refresh, cache file and browser login as `--oauth2`.
 * @module
 */
import { missingOAuth2Setting, type OAuth2Requirement } from "../auth/oauth2/required.ts";
import { UsageError } from "../errors.ts";
import type { OAuth2Flow, OAuth2Options } from "../auth/oauth2/parse_value.ts";
import { DEFAULT_CALLBACK_PORT } from "../auth/oauth2/defaults.ts";
import { Secret } from "../secret.ts";
import type { AuthConfig, Environment } from "./environment.ts";
import { transportFetch } from "../http/client.ts";
import type { SendOptions } from "../http/send.ts";
import { substitute, type VariableScope } from "./substitute.ts";

/** JetBrains' grant type names and dial's flows. */
const GRANTS: Record<string, OAuth2Flow> = {
  "client credentials": "client_credentials",
  "password": "password",
  "authorization code": "authorization_code",
};

/** Hooks of the face: how a login URL is shown, how notices are told, where tokens are cached. */
export type OAuth2Hooks = Pick<
  OAuth2Options,
  "openBrowser" | "notify" | "askPassword" | "cacheDir"
>;

/**
 * Turns one `Security.Auth` configuration into dial's OAuth 2.0 options.
 *
 * @param id the configuration's id
 * @param config its keys (`Type`, `Grant Type`, `Token URL`, `Client ID` …), values substituted
 * @param hooks the face's browser, notice and password hooks
 * @returns the options for dial's OAuth 2.0 token step
 * @throws {UsageError} for a grant dial does not run, or a missing or bad value
 * @see https://www.jetbrains.com/help/idea/oauth-2-0-authorization.html
 */
export function oauth2FromConfig(
  id: string,
  config: AuthConfig,
  hooks: OAuth2Hooks = {},
): OAuth2Options {
  const where = `Security.Auth "${id}"`;
  const text = (key: string): string | undefined => {
    const value = config[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new UsageError(`Invalid "${key}" in ${where}: expected a string`);
    }
    return String(value);
  };
  const url = (key: string): URL | undefined => {
    const value = text(key);
    if (value === undefined) return undefined;
    try {
      return new URL(value);
    } catch {
      throw new UsageError(`Invalid "${key}" in ${where}: not an absolute URL`);
    }
  };
  const type = text("Type") ?? "OAuth2";
  if (type.toLowerCase() !== "oauth2") {
    throw new UsageError(`Unsupported Type "${type}" in ${where}: dial runs OAuth2`);
  }
  const grant = text("Grant Type") ?? "Authorization Code";
  const flow = GRANTS[grant.toLowerCase()];
  if (!flow) {
    throw new UsageError(
      `Unsupported "Grant Type": "${grant}" in ${where}: dial runs Client Credentials, Password and Authorization Code`,
    );
  }
  const tokenUrl = url("Token URL");
  const clientId = text("Client ID");
  if (!tokenUrl || !clientId) {
    throw new UsageError(`Missing "${tokenUrl ? "Client ID" : "Token URL"}" in ${where}`);
  }
  const secret = text("Client Secret");
  const redirectUri = url("Redirect URL");
  const authUrl = url("Auth URL");
  const scope = text("Scope");
  const username = text("Username");
  const password = text("Password");
  const clientCredentials = text("Client Credentials")?.toLowerCase();
  const missing = missingOAuth2Setting({ flow, clientSecret: secret, authUrl, username });
  if (missing) {
    throw new UsageError(
      `Missing "${SETTING_KEYS[missing]}" in ${where}: ${GRANT_NAMES[flow]} needs one`,
    );
  }
  const port = redirectUri?.port ? Number(redirectUri.port) : DEFAULT_CALLBACK_PORT;
  return {
    flow,
    tokenUrl,
    clientId,
    ...(secret ? { clientSecret: new Secret(secret) } : {}),
    ...(scope ? { scope } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(username ? { username } : {}),
    ...(password ? { password: new Secret(password) } : {}),
    ...(redirectUri ? { redirectUri } : {}),
    ...(clientCredentials === "in body" ? { clientAuth: "post" as const } : {}),
    port,
    ...hooks,
  };
}

/** What {@link securityAuthToken} needs besides the configuration. */
export interface SecurityAuthContext {
  /** The scope the configuration's `{{variables}}` are substituted from. */
  scope: VariableScope;
  /** The request file, for messages. */
  path: string;
  /** The face's browser, notice and password hooks. */
  hooks: OAuth2Hooks;
  /** Transport, fetch and signal of the run. */
  send?: SendOptions;
}

/**
 * Gets the access token of a `Security.Auth` configuration (`{{$auth.token("id")}}`) through
 * dial's OAuth 2.0 step: cached tokens, refresh, the grant, the browser login.
 *
 * @param environment the chosen environment
 * @param id the configuration's id
 * @param kind `token`; `idToken` is refused (dial keeps access tokens only)
 * @param context scope, file, hooks, transport
 * @returns the access token, as a secret
 * @throws {UsageError} when the environment has no such configuration
 * @throws {AuthError} when the provider refuses
 */
export async function securityAuthToken(
  environment: Environment | undefined,
  id: string,
  kind: "token" | "idToken",
  context: SecurityAuthContext,
): Promise<Secret> {
  const where = `${context.path}: {{$auth.${kind}("${id}")}}`;
  const config = environment?.auth.get(id);
  if (!config) {
    throw new UsageError(`${where} names no Security.Auth configuration of the environment`, {
      details: { name: id },
      remedy: { write: "security_auth" },
    });
  }
  if (kind === "idToken") {
    throw new UsageError(`${where}: dial's OAuth 2.0 step keeps access tokens, not ID tokens`);
  }
  // Configuration values may hold variables ("Client Secret": "{{secret}}").
  const substituted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const place = {
      what: `"${key}" of Security.Auth "${id}"`,
      path: context.path,
      line: 1,
      column: 1,
    };
    substituted[key] = typeof value === "string"
      ? substitute(value, context.scope, place).text
      : value;
  }
  const options = oauth2FromConfig(id, substituted, context.hooks);
  const { oauth2Token } = await import("../auth/oauth2/access_token.ts");
  const send = context.send ?? {};
  const fetch = send.fetch ?? transportFetch(send.transport);
  const token = await oauth2Token(options, {
    fetch,
    ...(send.signal ? { signal: send.signal } : {}),
  });
  return token.accessToken;
}

/** A setting a flow needs, as a Security.Auth configuration names it. */
const SETTING_KEYS: { readonly [R in OAuth2Requirement]: string } = {
  client_secret: "Client Secret",
  auth_url: "Auth URL",
  device_url: "Device Auth URL",
  username: "Username",
};

/** The flows, as a Security.Auth configuration names their grants. */
const GRANT_NAMES: { readonly [F in OAuth2Flow]: string } = {
  client_credentials: "Client Credentials",
  authorization_code: "Authorization Code",
  device_code: "Device Code",
  password: "Password",
};
