/**
 * JetBrains HTTP Client OAuth 2.0 (`Security.Auth` in an environment file, used as
 * `{{$auth.token("id")}}`) on dial's own OAuth 2.0 flows and token cache: the same grants,
 * refresh, cache file and browser login as `--oauth2`.
 * @module
 */
import { load } from "../load.ts";
import { missingOAuth2Setting, type OAuth2Requirement } from "../auth/oauth2/required.ts";
import { UsageError } from "../errors/mod.ts";
import {
  type OAuth2ClientAuth,
  type OAuth2Flow,
  type OAuth2Options,
  RESERVED_PARAMS,
} from "../auth/oauth2/parse_value.ts";
import { DEFAULT_CALLBACK_PORT } from "../auth/oauth2/defaults.ts";
import { Secret } from "../secret.ts";
import { type AuthConfig, type Environment, SECRET_AUTH_KEYS } from "./environment.ts";
import { Reference } from "./trust_rule.ts";
import { transportFetch } from "../http/client.ts";
import type { SendOptions } from "../http/send.ts";
import { substitute, type VariableScope } from "./substitute.ts";

/** JetBrains' grant type names and dial's flows. */
const GRANTS: Record<string, OAuth2Flow> = {
  "client credentials": "client_credentials",
  "password": "password",
  "authorization code": "authorization_code",
  "device authorization": "device_code",
};

/**
 * `"Client Credentials"`: JetBrains' `basic`, `in body` and `none`, and dial's signed client
 * assertions (RFC 7523).
 */
const CLIENT_AUTHS: Record<string, OAuth2ClientAuth | "none"> = {
  "basic": "basic",
  "in body": "post",
  "none": "none",
  "private_key_jwt": "private_key_jwt",
  "client_secret_jwt": "client_secret_jwt",
};

/** `"Use"` of a custom request parameter. */
const PARAM_USES: Record<string, "params" | "authParams" | "tokenParams"> = {
  "everywhere": "params",
  "in auth request": "authParams",
  "in token request": "tokenParams",
};

const KEY_ALGS = ["RS256", "PS256", "ES256"] as const;

/** Hooks of the face: how a login URL or a device code is shown, notices, the token cache. */
export type OAuth2Hooks = Pick<
  OAuth2Options,
  "openBrowser" | "showDeviceCode" | "notify" | "askPassword" | "cacheDir"
>;

/**
 * Turns one `Security.Auth` configuration into dial's OAuth 2.0 options.
 *
 * JetBrains' keys: `Type`, `Grant Type` (`Client Credentials`, `Password`, `Authorization Code`,
 * `Device Authorization`), `Token URL`, `Auth URL`, `Device Auth URL`, `Open Complete URI`
 * (open the device login page in the browser), `Redirect URL`,
 * `Client ID`, `Client Secret`, `Client Credentials` (`basic`, `in body`, `none`), `Scope`,
 * `Username`, `Password`, `Custom Request Parameters` (a value, a list of values, or
 * `{"Value": …, "Use": "Everywhere" | "In Auth Request" | "In Token Request"}`). dial's own:
 * `Issuer` (discovery; the token URL may then be left out), `Client Credentials`
 * `private_key_jwt` or `client_secret_jwt`, `Client Key` (the PEM key, by reference) and
 * `Client Key Algorithm`.
 *
 * @param id the configuration's id
 * @param config its keys, values substituted and references resolved
 * @param hooks the face's browser, device code, notice and password hooks
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
  const read = configReader(config, where);
  const type = read.text("Type") ?? "OAuth2";
  if (type.toLowerCase() !== "oauth2") {
    throw new UsageError(`Unsupported Type "${type}" in ${where}: dial runs OAuth2`);
  }
  const flow = read.choice("Grant Type", GRANTS, "Authorization Code");
  const tokenUrl = read.url("Token URL");
  const issuer = read.url("Issuer");
  const clientId = read.text("Client ID");
  if ((!tokenUrl && !issuer) || !clientId) {
    throw new UsageError(
      `Missing ${clientId ? `"Token URL" or "Issuer"` : `"Client ID"`} in ${where}`,
    );
  }
  const { method, secret, keyText, alg } = clientAuthentication(read, where);
  const redirectUri = read.url("Redirect URL");
  const authUrl = read.url("Auth URL");
  const deviceUrl = read.url("Device Auth URL");
  const scope = read.text("Scope");
  const username = read.text("Username");
  const password = read.text("Password");
  const missing = missingOAuth2Setting({
    flow,
    clientSecret: secret,
    clientKey: keyText,
    authUrl,
    deviceUrl,
    issuer,
    username,
  });
  if (missing) {
    throw new UsageError(
      `Missing "${SETTING_KEYS[missing]}" in ${where}: ${GRANT_NAMES[flow]} needs one`,
    );
  }
  const params = customParameters(config["Custom Request Parameters"], where);
  const openPage = config["Open Complete URI"] === true ||
    read.text("Open Complete URI") === "true";
  const port = redirectUri?.port ? Number(redirectUri.port) : DEFAULT_CALLBACK_PORT;
  return {
    flow,
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(issuer ? { issuer } : {}),
    clientId,
    ...(secret && method !== "private_key_jwt" ? { clientSecret: new Secret(secret) } : {}),
    ...(scope ? { scope } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(deviceUrl ? { deviceUrl } : {}),
    ...(username ? { username } : {}),
    ...(password ? { password: new Secret(password) } : {}),
    ...(redirectUri ? { redirectUri } : {}),
    ...(method !== "none" && method !== "basic" ? { clientAuth: method } : {}),
    ...(keyText ? { clientKey: new Secret(keyText) } : {}),
    ...(alg ? { clientKeyAlg: alg } : {}),
    ...params,
    ...(openPage && flow === "device_code" ? { openDevicePage: true } : {}),
    port,
    ...hooks,
  };
}

/** Reads a configuration's values by kind; a value of the wrong kind is a UsageError. */
interface ConfigReader {
  /** A string (numbers and booleans as written, a secret revealed), or undefined. */
  text(key: string): string | undefined;
  /** An absolute URL, or undefined when absent or empty. */
  url(key: string): URL | undefined;
  /** One of the table's names, any case (the fallback when absent). */
  choice<T>(key: string, table: Record<string, T>, fallback: string): T;
}

function configReader(config: AuthConfig, where: string): ConfigReader {
  const text = (key: string): string | undefined => {
    const value = config[key];
    if (value === undefined || value === null) return undefined;
    if (value instanceof Secret) return value.reveal();
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new UsageError(`Invalid "${key}" in ${where}: expected a string`);
    }
    return String(value);
  };
  return {
    text,
    url(key) {
      const value = text(key);
      if (value === undefined || value === "") return undefined;
      try {
        return new URL(value);
      } catch {
        throw new UsageError(`Invalid "${key}" in ${where}: not an absolute URL`);
      }
    },
    choice(key, table, fallback) {
      const value = text(key) ?? fallback;
      const chosen = table[value.toLowerCase()];
      if (chosen === undefined) {
        const names = Object.keys(table).map((name) => `"${name}"`).join(", ");
        throw new UsageError(`Unsupported "${key}": "${value}" in ${where}: dial reads ${names}`);
      }
      return chosen;
    },
  };
}

/** `"Client Credentials"` and what it needs: the secret, or the key and its algorithm. */
function clientAuthentication(read: ConfigReader, where: string) {
  const method = read.choice("Client Credentials", CLIENT_AUTHS, "basic");
  // "none": the client does not authenticate, whatever secret the file holds.
  const secret = method === "none" ? undefined : read.text("Client Secret") || undefined;
  const keyText = method === "private_key_jwt" ? read.text("Client Key") || undefined : undefined;
  if (method === "private_key_jwt" && !keyText) {
    throw new UsageError(
      `Missing "Client Key" in ${where}: private_key_jwt signs with it (a PEM key by reference: "@env:NAME", "@path/key.pem")`,
    );
  }
  if (method === "client_secret_jwt" && !secret) {
    throw new UsageError(`Missing "Client Secret" in ${where}: client_secret_jwt signs with it`);
  }
  const alg = read.text("Client Key Algorithm");
  if (alg !== undefined && !(KEY_ALGS as readonly string[]).includes(alg)) {
    throw new UsageError(
      `Unsupported "Client Key Algorithm": "${alg}" in ${where}: dial signs with ${
        KEY_ALGS.join(", ")
      }`,
    );
  }
  return { method, secret, keyText, alg: alg as (typeof KEY_ALGS)[number] | undefined };
}

/**
 * Reads `"Custom Request Parameters"`: `{"audience": "https://api", "resource": ["a", "b"],
 * "prompt": {"Value": "consent", "Use": "In Auth Request"}}`.
 */
function customParameters(
  value: unknown,
  where: string,
): Pick<OAuth2Options, "params" | "authParams" | "tokenParams"> {
  if (value === undefined || value === null) return {};
  const key = `"Custom Request Parameters" in ${where}`;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`Invalid ${key}: expected an object of parameters`);
  }
  const out: Record<"params" | "authParams" | "tokenParams", Array<[string, string]>> = {
    params: [],
    authParams: [],
    tokenParams: [],
  };
  const values = (name: string, v: unknown): string[] => {
    const list = Array.isArray(v) ? v : [v];
    return list.map((item) => {
      if (item instanceof Secret) return item.reveal();
      if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") {
        return String(item);
      }
      throw new UsageError(`Invalid "${name}" of ${key}: expected a string or a list of strings`);
    });
  };
  for (const [name, entry] of Object.entries(value)) {
    if (RESERVED_PARAMS.has(name)) {
      throw new UsageError(`Invalid "${name}" of ${key}: dial sets it`, {
        remedy: { use: name === "scope" ? "scope_setting" : "own_setting" },
      });
    }
    const scoped = entry !== null && typeof entry === "object" && !Array.isArray(entry) &&
      !(entry instanceof Secret);
    const use = scoped ? (entry as Record<string, unknown>).Use ?? "Everywhere" : "Everywhere";
    const list = PARAM_USES[String(use).toLowerCase()];
    if (list === undefined) {
      throw new UsageError(
        `Invalid "Use": "${use}" of "${name}" in ${key}: expected "Everywhere", "In Auth Request" or "In Token Request"`,
      );
    }
    const raw = scoped ? (entry as Record<string, unknown>).Value : entry;
    for (const v of values(name, raw)) out[list].push([name, v]);
  }
  return Object.fromEntries(Object.entries(out).filter(([, list]) => list.length));
}

/** What {@link securityAuthToken} needs besides the configuration. */
export interface SecurityAuthContext {
  /** The scope the configuration's `{{variables}}` are substituted from. */
  scope: VariableScope;
  /** The request file, for messages; empty for a request that is in no file (a UI tab). */
  path: string;
  /** The face's browser, notice and password hooks. */
  hooks: OAuth2Hooks;
  /** Transport, fetch and signal of the run. */
  send?: SendOptions;
}

/**
 * The OAuth 2.0 options of a `Security.Auth` configuration, its `{{variables}}` substituted:
 * what {@link securityAuthToken} runs, and what a face asks the token cache about.
 *
 * @param environment the chosen environment
 * @param id the configuration's id
 * @param context scope, file, hooks
 * @returns the options for dial's OAuth 2.0 token step
 * @throws {UsageError} when the environment has no such configuration, or it is incomplete
 */
export async function securityAuthOptions(
  environment: Environment | undefined,
  id: string,
  context: Pick<SecurityAuthContext, "scope" | "path" | "hooks">,
): Promise<OAuth2Options> {
  const config = environment?.auth.get(id);
  if (!config) {
    throw new UsageError(
      `${
        fileOf(context)
      }{{$auth.token("${id}")}} names no Security.Auth configuration of the environment`,
      { details: { name: id }, remedy: { write: "security_auth" } },
    );
  }
  return oauth2FromConfig(
    id,
    await resolvedConfig(id, config, context),
    context.hooks,
  );
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
  const where = `${fileOf(context)}{{$auth.${kind}("${id}")}}`;
  if (!environment?.auth.get(id)) {
    throw new UsageError(`${where} names no Security.Auth configuration of the environment`, {
      details: { name: id },
      remedy: { write: "security_auth" },
    });
  }
  if (kind === "idToken") {
    throw new UsageError(`${where}: dial's OAuth 2.0 step keeps access tokens, not ID tokens`);
  }
  return await tokenOf(await securityAuthOptions(environment, id, context), context);
}

/** httpyac's flow names (`oauth2 FLOW PREFIX`) and the grant types they are. */
const HTTPYAC_FLOWS: Record<string, string> = {
  client: "Client Credentials",
  client_credentials: "Client Credentials",
  password: "Password",
  device: "Device Authorization",
  device_code: "Device Authorization",
  code: "Authorization Code",
  authorization_code: "Authorization Code",
};

/** httpyac's variables (`PREFIX_name`, else `oauth2_name`) and the keys they are. */
const HTTPYAC_KEYS: [string, string][] = [
  ["tokenEndpoint", "Token URL"],
  ["authorizationEndpoint", "Auth URL"],
  ["deviceCodeEndpoint", "Device Auth URL"],
  ["clientId", "Client ID"],
  ["clientSecret", "Client Secret"],
  ["scope", "Scope"],
  ["username", "Username"],
  ["password", "Password"],
  ["redirectUri", "Redirect URL"],
  ["useAuthorizationHeader", "useAuthorizationHeader"],
  ["useDeviceCodeClientSecret", "useDeviceCodeClientSecret"],
  ["audience", "audience"],
  ["resource", "resource"],
];

/** httpyac's redirect URI when a file names none. */
const HTTPYAC_REDIRECT = "http://localhost:3000/callback";

/**
 * Gets the access token of httpyac's `Authorization: oauth2 FLOW [PREFIX]` (or `openid …`) from
 * its variables (`PREFIX_tokenEndpoint`, `_clientId`, `_clientSecret`, `_scope`, `_username`,
 * `_password`, `_authorizationEndpoint`, `_deviceCodeEndpoint`, `_redirectUri`,
 * `_useAuthorizationHeader`, `_useDeviceCodeClientSecret`, `_audience`, `_resource`; each
 * `oauth2_…` when the prefix has none) through the same OAuth 2.0 step as `Security.Auth`.
 *
 * @param text the header's value
 * @param defined whether a variable is defined
 * @param context scope, file, hooks, transport
 * @returns the access token, as a secret
 * @throws {UsageError} for a flow dial does not run (implicit, hybrid, token exchange) or a
 *   missing variable
 */
export async function httpyacOAuth2Token(
  text: string,
  defined: (name: string) => boolean,
  context: SecurityAuthContext,
): Promise<Secret> {
  const where = `${fileOf(context)}"Authorization: ${text.trim()}"`;
  const [, flow = "client_credentials", prefix, exchange] =
    /^\s*(?:openid|oauth2)(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(token_exchange)\b)?/i.exec(text) ?? [];
  const grant = HTTPYAC_FLOWS[flow.toLowerCase()];
  if (!grant || exchange) {
    throw new UsageError(
      `${where}: dial runs httpyac's client_credentials, password, device_code and authorization_code flows, not ${
        exchange ? "token_exchange" : flow
      }`,
    );
  }
  const config: AuthConfig = { "Type": "OAuth2", "Grant Type": grant };
  for (const [name, key] of HTTPYAC_KEYS) {
    const variable = [prefix, "oauth2"].filter(Boolean).map((p) => `${p}_${name}`).find(defined);
    if (variable) config[key] = `{{${variable}}}`;
  }
  if (!config["Token URL"]) {
    throw new UsageError(
      `${where}: no token endpoint: define ${
        prefix ? `${prefix}_tokenEndpoint or ` : ""
      }oauth2_tokenEndpoint`,
    );
  }
  const id = `httpyac ${prefix ?? "oauth2"}`;
  const resolved = await resolvedConfig(id, config, context);
  const flag = (key: string, otherwise: boolean) => {
    const value = resolved[key];
    delete resolved[key];
    return value === undefined ? otherwise : String(value).toLowerCase() === "true";
  };
  // httpyac sends the client's secret with Basic unless told not to; a device code without it.
  const header = flag("useAuthorizationHeader", true);
  const deviceSecret = flag("useDeviceCodeClientSecret", false);
  if (grant === "Device Authorization" && !deviceSecret) {
    delete resolved["Client Secret"];
    resolved["Client Credentials"] = "none";
  } else if (!header) resolved["Client Credentials"] = "in body";
  // httpyac's device code asks for `openid` when the file names no scope.
  if (grant === "Device Authorization") resolved["Scope"] ??= "openid";
  const params: Record<string, unknown> = {};
  for (const key of ["audience", "resource"]) {
    if (resolved[key] !== undefined) params[key] = resolved[key];
    delete resolved[key];
  }
  if (Object.keys(params).length) resolved["Custom Request Parameters"] = params;
  resolved["Redirect URL"] ??= HTTPYAC_REDIRECT;
  return await tokenOf(oauth2FromConfig(id, resolved, context.hooks), context);
}

/** The token of these options, by dial's OAuth 2.0 step (cache, refresh, the grant). */
async function tokenOf(options: OAuth2Options, context: SecurityAuthContext): Promise<Secret> {
  const { oauth2Token } = await load.accessToken();
  const send = context.send ?? {};
  const fetch = send.fetch ?? transportFetch(send.transport);
  const token = await oauth2Token(options, {
    fetch,
    ...(send.signal ? { signal: send.signal } : {}),
  });
  return token.accessToken;
}

/**
 * A configuration with its `{{variables}}` substituted (nested values too: custom parameters)
 * and its secrets' references (`@env:NAME`, `@PATH`, `@exec:COMMAND`) resolved as secrets.
 */
async function resolvedConfig(
  id: string,
  config: AuthConfig,
  context: Pick<SecurityAuthContext, "scope" | "path">,
): Promise<AuthConfig> {
  // The value is in the environment file, whose lines dial does not track: no position.
  const place = (key: string) => ({
    what: `"${key}" of Security.Auth "${id}"`,
    path: "",
    line: 1,
    column: 1,
  });
  const deep = (key: string, value: unknown): unknown => {
    if (typeof value === "string") return substitute(value, context.scope, place(key)).text;
    if (Array.isArray(value)) return value.map((item) => deep(key, item));
    if (value !== null && typeof value === "object" && !(value instanceof Secret)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(key, v)]));
    }
    return value;
  };
  const out: AuthConfig = {};
  for (const [key, value] of Object.entries(config)) {
    const text = deep(key, value);
    if (text instanceof Reference) {
      // Read now that the configuration is used (trust_rule.ts).
      out[key] = new Secret(await text.resolve());
    } else if (SECRET_AUTH_KEYS.includes(key) && typeof text === "string") {
      out[key] = new Secret(text.startsWith("@@") ? text.slice(1) : text);
    } else {
      out[key] = text;
    }
  }
  return out;
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
  device_code: "Device Authorization",
  password: "Password",
};

/** `api.http: ` before a message about the file's `{{$auth…}}`; nothing without a file. */
function fileOf(context: Pick<SecurityAuthContext, "path">): string {
  return context.path === "" ? "" : `${context.path}: `;
}
