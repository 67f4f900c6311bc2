/**
 * Parsing of the `--oauth2 <flow>:<token_url>:<client_id>[:<client_secret>]` value.
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import { Secret } from "../../secret.ts";
import type { DeviceCodePrompt } from "./device_prompt.ts";

export type { DeviceCodePrompt };

/** The OAuth 2.0 grants dial performs. */
export const OAUTH2_FLOWS = [
  "client_credentials",
  "authorization_code",
  "password",
  "device_code",
] as const;

/** One of {@link OAUTH2_FLOWS}. */
export type OAuth2Flow = (typeof OAUTH2_FLOWS)[number];

/** The four parts of an `--oauth2` value. */
export interface OAuth2Value {
  /** The grant. */
  flow: OAuth2Flow;
  /** The token endpoint. */
  tokenUrl: URL;
  /** The client id. */
  clientId: string;
  /** The client secret; absent for public clients. */
  clientSecret?: Secret;
}

/**
 * Everything needed to obtain an OAuth 2.0 access token. The token URL may be left out when
 * an `issuer` is given: it is then discovered (see {@link ResolvedOAuth2Options}).
 */
export interface OAuth2Options extends Omit<OAuth2Value, "tokenUrl"> {
  /** The token endpoint; discovered from `issuer` when absent. */
  tokenUrl?: URL;
  /**
   * The issuer (`--oauth2-issuer`): its OpenID Connect or RFC 8414 metadata supplies the
   * endpoints not given, and ID tokens and login callbacks must name it.
   */
  issuer?: URL;
  /** Space-separated scopes (`--oauth2-scope`). */
  scope?: string;
  /**
   * Extra parameters for the token and authorization requests (`--oauth2-param NAME=VALUE`),
   * in order; a name may repeat (RFC 8707 `resource`). Auth0 needs `audience`, Azure v1
   * `resource`.
   */
  params?: Array<[string, string]>;
  /**
   * Extra parameters for the authorization requests only: the authorization URL and the device
   * authorization request (a request file's `"Use": "In Auth Request"`).
   */
  authParams?: Array<[string, string]>;
  /**
   * Extra parameters for the token requests only: grants, code exchange, device polls and
   * refreshes (a request file's `"Use": "In Token Request"`).
   */
  tokenParams?: Array<[string, string]>;
  /** Authorization endpoint, for `authorization_code` (`--oauth2-auth-url`). */
  authUrl?: URL;
  /**
   * Device authorization endpoint, for `device_code` (`--oauth2-device-url`); discovered from
   * the issuer when absent.
   */
  deviceUrl?: URL;
  /** Resource owner, for `password` (`--oauth2-username`). */
  username?: string;
  /** Resource owner's password, for `password` (`--oauth2-password`). */
  password?: Secret;
  /** Callback port for `authorization_code` (`--oauth2-port`, default 8484). */
  port: number;
  /** How the client authenticates at the token endpoint (`--oauth2-client-auth`, default basic). */
  clientAuth?: OAuth2ClientAuth;
  /** The PEM private key that signs `private_key_jwt` assertions (`--oauth2-client-key`). */
  clientKey?: Secret;
  /** Its algorithm (`--oauth2-client-key-alg`); default by key type: RS256, PS256 or ES256. */
  clientKeyAlg?: "RS256" | "PS256" | "ES256";
  /** Redirect URI for `authorization_code` (`--oauth2-redirect-uri`); default `http://localhost:<port>/`. */
  redirectUri?: URL;
  /** How long to wait for the login callback, in milliseconds (`--oauth2-timeout`, default 300 s). */
  timeout?: number;
  /** Keep tokens in memory only, never in the cache directory (`--oauth2-no-cache`). */
  noCache?: boolean;
  /**
   * Bind the token to a key of this process (DPoP, RFC 9449, `--oauth2-dpop`): token requests
   * carry a proof, and each request sends `Authorization: DPoP <token>` with a proof of its
   * own. Such tokens are kept in memory only.
   */
  dpop?: boolean;
  /** The token cache directory; default `$XDG_CACHE_HOME/dial` or the platform's cache directory. */
  cacheDir?: string;
  /**
   * Shows the authorization URL to the person logging in (authorization_code). The CLI prints
   * it and starts the system browser; the desktop UI opens it itself. Default: start the
   * system browser ($BROWSER, xdg-open, open, cmd /c start) on a private handover file,
   * without printing anything. `done` settles when the login ends.
   */
  openBrowser?: (url: URL, done?: Promise<unknown>) => unknown;
  /**
   * Shows the device flow's user code and verification URI to the person logging in
   * (device_code). The CLI prints them to stderr (and opens the browser when asked); the
   * desktop UI shows them in a dialog. Without it a new device login is refused (the cache and
   * refreshes still serve).
   */
  showDeviceCode?: (prompt: DeviceCodePrompt) => void | Promise<void>;
  /**
   * Ask `showDeviceCode` to open the verification page in the browser (a request file's
   * `"Open Complete URI": true`; the CLI's `--oauth2-browser` opens it too).
   */
  openDevicePage?: boolean;
  /**
   * Asks for the resource owner's password when the password flow needs a new grant and no
   * `password` was given (the CLI prompts on a terminal). Not called while a cached or
   * refreshable token serves.
   */
  askPassword?: () => Promise<Secret>;
  /** Told what the person should know: a wait for another process, a cache write that failed. */
  notify?: (notice: OAuth2Notice) => void;
}

/** Options whose endpoints are known: given, or discovered from the issuer. */
export type ResolvedOAuth2Options = OAuth2Options & {
  /** The token endpoint. */
  tokenUrl: URL;
  /** The issuer as its metadata names it, when it was discovered. */
  discoveredIssuer?: string;
};

/** Something the person running dial should be told about the token cache. */
export interface OAuth2Notice {
  /**
   * `lock_wait`: another process is getting a token; `cache_write`: a token was not saved;
   * `token_response`: the token endpoint's answer needed repair (no `token_type`).
   */
  kind: "lock_wait" | "cache_write" | "token_response";
  /** One line, naming the path and the reason; never a secret. */
  message: string;
}

/**
 * Client authentication at the token endpoint: `client_secret_basic`, `client_secret_post`,
 * or a signed client assertion (RFC 7523): `private_key_jwt` or `client_secret_jwt`.
 */
export type OAuth2ClientAuth = "basic" | "post" | "private_key_jwt" | "client_secret_jwt";

/** The client auth methods, as `--oauth2-client-auth` takes them. */
export const OAUTH2_CLIENT_AUTHS: readonly OAuth2ClientAuth[] = [
  "basic",
  "post",
  "private_key_jwt",
  "client_secret_jwt",
];

export { DEFAULT_CALLBACK_PORT, DEFAULT_CALLBACK_TIMEOUT } from "./defaults.ts";

const SCHEME = /^(https?):\/\//i;

/**
 * Splits an `--oauth2` value. The token URL keeps its colons: it is `scheme://authority`
 * (with an optional numeric port or a bracketed IPv6 literal) plus the path up to the next
 * colon; the client id runs to the next colon and the rest is the secret.
 *
 * @param value e.g. `client_credentials:https://id.example:8443/token:my-app:s3cr:et`
 * @returns the parts
 * @throws {UsageError} on an unknown flow, a token URL that is not absolute http(s), or a
 * missing client id
 * @example
 * ```ts
 * parseOAuth2Value("password:http://[::1]:9000/token:cli").tokenUrl.href;
 * // "http://[::1]:9000/token"
 * ```
 */
export function parseOAuth2Value(value: string): OAuth2Value {
  const parts = splitOAuth2Value(value);
  if (!parts.tokenUrl) {
    throw new UsageError("Invalid token URL: must be an absolute http(s) URL", SHAPE);
  }
  if (parts.clientId === undefined) {
    throw new UsageError("Missing client id", SHAPE);
  }
  return { ...parts, tokenUrl: parts.tokenUrl, clientId: parts.clientId };
}

/** The parts of an `--oauth2` value; only the flow is required. */
export type OAuth2ValueParts = Partial<OAuth2Value> & { flow: OAuth2Flow };

/**
 * Splits an `--oauth2` value that may stop after the flow or the token URL (the rest then
 * comes from `--oauth2-token-url`, `--oauth2-client-id` and `--oauth2-client-secret`).
 *
 * @param value e.g. `password` or `client_credentials:https://id.example/token`
 * @returns the parts given
 * @throws {UsageError} on an unknown flow or a token URL that is not absolute http(s)
 */
export function splitOAuth2Value(value: string): OAuth2ValueParts {
  const firstColon = value.indexOf(":");
  const flowText = firstColon < 0 ? value : value.slice(0, firstColon);
  if (!(OAUTH2_FLOWS as readonly string[]).includes(flowText)) {
    throw new UsageError(`Unknown OAuth 2.0 flow "${flowText}"`, {
      details: { choices: OAUTH2_FLOWS },
      remedy: { choose: "oauth2_flow" },
    });
  }
  const flow = flowText as OAuth2Flow;
  const rest = firstColon < 0 ? "" : value.slice(firstColon + 1);
  if (firstColon < 0) return { flow };
  const scheme = SCHEME.exec(rest);
  if (!scheme) {
    throw new UsageError("Invalid token URL: must be an absolute http(s) URL", SHAPE);
  }
  const end = tokenUrlEnd(rest, scheme[0].length);
  const urlText = rest.slice(0, end);
  // WHATWG URL parsing would read "http:///token" as host "token"; an empty authority is an error.
  if (/^[/:?#]|^$/.test(rest.slice(scheme[0].length))) {
    throw new UsageError(`Invalid token URL "${urlText}": missing host`, SHAPE);
  }
  let tokenUrl: URL;
  try {
    tokenUrl = new URL(urlText);
  } catch {
    throw new UsageError(`Invalid token URL "${urlText}"`, SHAPE);
  }
  if (tokenUrl.hostname === "") {
    throw new UsageError(`Invalid token URL "${urlText}": missing host`, SHAPE);
  }
  if (end >= rest.length) return { flow, tokenUrl };
  const afterUrl = rest.slice(end + 1);
  const idEnd = afterUrl.indexOf(":");
  const clientId = idEnd < 0 ? afterUrl : afterUrl.slice(0, idEnd);
  const secretText = idEnd < 0 ? "" : afterUrl.slice(idEnd + 1);
  return {
    flow,
    tokenUrl,
    ...(clientId === "" ? {} : { clientId }),
    ...(secretText === "" ? {} : { clientSecret: new Secret(secretText) }),
  };
}

const SHAPE = { remedy: { write: "oauth2" } } as const;

/** Index of the colon that ends the token URL (or the length when there is none). */
function tokenUrlEnd(text: string, authorityStart: number): number {
  let i = authorityStart;
  if (text[i] === "[") {
    const close = text.indexOf("]", i);
    i = close < 0 ? text.length : close + 1;
  } else {
    while (i < text.length && text[i] !== ":" && text[i] !== "/") i++;
  }
  // A colon followed by digits and then "/", ":" or the end is the port.
  const port = /^:(\d+)(?=[/:]|$)/.exec(text.slice(i));
  if (port) i += port[0].length;
  const next = text.indexOf(":", i);
  return next < 0 ? text.length : next;
}

/** Parameters dial sets itself: `--oauth2-param` may not give them. */
export const RESERVED_PARAMS: ReadonlySet<string> = new Set([
  "grant_type",
  "client_id",
  "client_secret",
  "client_assertion",
  "client_assertion_type",
  "scope",
  "username",
  "password",
  "refresh_token",
  "code",
  "code_verifier",
  "code_challenge",
  "code_challenge_method",
  "redirect_uri",
  "response_type",
  "state",
  "device_code",
]);

/**
 * Parses one `--oauth2-param NAME=VALUE`.
 *
 * @param text e.g. `audience=https://api.example.com`
 * @returns the name and value (the value may be empty)
 * @throws {UsageError} without `=`, with an empty name, or for a parameter dial sets itself
 */
export function parseOAuth2Param(text: string): [string, string] {
  const eq = text.indexOf("=");
  const name = eq < 0 ? text : text.slice(0, eq);
  if (eq <= 0) {
    throw new UsageError(`Invalid OAuth 2.0 parameter "${text}": expected NAME=VALUE`, {
      remedy: { write: "oauth2_param" },
    });
  }
  if (RESERVED_PARAMS.has(name)) {
    throw new UsageError(`The OAuth 2.0 parameter "${name}" cannot be set: dial sets it`, {
      remedy: { use: name === "scope" ? "scope_setting" : "own_setting" },
    });
  }
  return [name, text.slice(eq + 1)];
}

/**
 * The extra parameters of one kind of request, in order: those for every request, then those
 * for this kind only.
 *
 * @param options the OAuth 2.0 options
 * @param request `auth` for the authorization URL and the device authorization request, `token`
 * for the token endpoint
 * @returns the name-value pairs to append
 */
export function oauth2ParamsFor(
  options: Pick<OAuth2Options, "params" | "authParams" | "tokenParams">,
  request: "auth" | "token",
): Array<[string, string]> {
  return [
    ...(options.params ?? []),
    ...((request === "auth" ? options.authParams : options.tokenParams) ?? []),
  ];
}
