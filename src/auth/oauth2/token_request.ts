/**
 * Token endpoint requests (client_credentials, password, refresh_token, authorization_code)
 * through oauth4webapi, and the mapping of their failures to one clear {@link AuthError}.
 * @module
 */
import { load } from "../../load.ts";
import { redactUrl } from "../../redact_url.ts";
import * as oauth from "oauth4webapi";
import { AuthError, DialError, networkError, ProviderError, UsageError } from "../../errors/mod.ts";

export { ProviderError };
import { oauth2ParamsFor, type ResolvedOAuth2Options } from "./parse_value.ts";
import { dpopKeyPair } from "./dpop.ts";
import { providerError, withRemedy } from "./provider_error.ts";
import { readTokenResponse } from "./token_response.ts";
import { boundedTokenFetch } from "./token_fetch.ts";
import { normalizeScope, type TokenEntry, tokenKey } from "./token_cache.ts";

/** fetch and signal for token requests. */
export interface TokenRequestOptions {
  /** The fetch to use. */
  fetch?: typeof fetch;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Told what dial did on its own, e.g. a retry with another client authentication (`-v`). */
  onNote?: (text: string) => void;
}

/**
 * The authorization server as oauth4webapi sees it: the discovered issuer (`--oauth2-issuer`),
 * or, when dial is given endpoints only, the token URL's origin, replaced by the provider's
 * `iss` (callback parameter or ID token) only when that names the same origin.
 *
 * @param options the OAuth 2.0 options
 * @param issuer an issuer the provider stated, already checked by the caller
 * @returns authorization server metadata
 */
export function authorizationServer(
  options: ResolvedOAuth2Options,
  issuer?: string,
): oauth.AuthorizationServer {
  return {
    issuer: options.discoveredIssuer ?? issuer ?? options.tokenUrl.origin,
    token_endpoint: options.tokenUrl.href,
    ...(options.authUrl ? { authorization_endpoint: options.authUrl.href } : {}),
  };
}

/**
 * @param options the OAuth 2.0 options
 * @returns client_secret_basic (default), client_secret_post, private_key_jwt or
 * client_secret_jwt, or none for public clients
 */
export function clientAuthentication(options: ResolvedOAuth2Options): oauth.ClientAuth {
  const secret = options.clientSecret?.reveal();
  // The assertion's audience is the token endpoint (RFC 7523 3), which the providers accept.
  const audience = {
    [oauth.modifyAssertion]: (
      _header: Record<string, unknown>,
      payload: Record<string, unknown>,
    ) => {
      payload.aud = options.tokenUrl.href;
    },
  };
  if (options.clientAuth === "private_key_jwt") {
    const pem = options.clientKey;
    if (!pem) {
      throw new UsageError("private_key_jwt needs the client's private key", {
        remedy: { give: "client_key" },
      });
    }
    let signed: oauth.ClientAuth | undefined;
    return async (as, client, body, headers) => {
      if (!signed) {
        const { importClientKey } = await load.clientKey();
        const { key } = await importClientKey(pem, options.clientKeyAlg);
        signed = oauth.PrivateKeyJwt(key, audience);
      }
      await signed(as, client, body, headers);
    };
  }
  if (secret === undefined) return oauth.None();
  if (options.clientAuth === "client_secret_jwt") return oauth.ClientSecretJwt(secret, audience);
  return options.clientAuth === "post" ? oauth.ClientSecretPost(secret) : clientSecretBasic(secret);
}

/**
 * client_secret_basic as RFC 6749 2.3.1 says: id and secret encoded with the
 * application/x-www-form-urlencoded serializer (URLSearchParams, which leaves ASCII letters,
 * digits and `*-._` as they are), joined by a colon, in base64. oauth4webapi's own encoder
 * also escapes `-._`, which servers that do not form-decode (@node-oauth/oauth2-server) refuse.
 *
 * @param secret the client secret
 * @returns the client authentication
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 */
export function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${formEncode(client.client_id)}:${formEncode(secret)}`;
    headers.set("authorization", `Basic ${btoa(credentials)}`);
  };
}

/**
 * @param text any Unicode text
 * @returns the text as the WHATWG application/x-www-form-urlencoded serializer writes it
 */
export function formEncode(text: string): string {
  return new URLSearchParams([["", text]]).toString().slice(1);
}

/**
 * Runs a token request with the client authentication the options ask for. When that is the
 * default client_secret_basic and the endpoint answers `invalid_client`, it is retried once
 * with client_secret_post (some servers accept only one of them), and `onNote` is told.
 *
 * @param options the OAuth 2.0 options
 * @param request fetch, signal and the note callback
 * @param call the request, given the client authentication to use
 * @returns what `call` returns
 */
export async function withClientAuth<T>(
  options: ResolvedOAuth2Options,
  request: TokenRequestOptions,
  call: (auth: oauth.ClientAuth) => Promise<T>,
): Promise<T> {
  const secret = options.clientSecret;
  try {
    return await call(clientAuthentication(options));
  } catch (error) {
    const explicit = options.clientAuth;
    if (secret === undefined || (explicit !== undefined && explicit !== "basic")) throw error;
    if (options.clientAuth === "basic") {
      const refused = await tokenError(error, options.tokenUrl, request.signal);
      throw refused instanceof ProviderError && refused.oauthError === "invalid_request"
        ? withRemedy(refused, BASIC_REMEDY)
        : refused;
    }
    const refused = await tokenError(error, options.tokenUrl, request.signal);
    if (!(refused instanceof ProviderError)) throw refused;
    if (refused.oauthError === "invalid_request") throw withRemedy(refused, BASIC_REMEDY);
    if (refused.oauthError !== "invalid_client") throw refused;
    request.onNote?.(
      `The token endpoint ${options.tokenUrl.href} answered invalid_client to client_secret_basic: retrying once with client_secret_post`,
    );
    return await call(oauth.ClientSecretPost(secret.reveal()));
  }
}

/** What a provider refusing client_secret_basic with `invalid_request` is told to try. */
const BASIC_REMEDY = { use: "client_secret_post" } as const;

/**
 * @param request fetch and signal
 * @param options the OAuth 2.0 options: the token URL, where warnings go, DPoP
 * @returns oauth4webapi request options (with a DPoP handle under `--oauth2-dpop`): injected fetch within a time and a size limit
 * ({@link boundedTokenFetch}) whose token responses are read as providers write them
 * ({@link readTokenResponse}), plain http allowed (the user named the URL), the signal
 */
export async function httpOptions(
  request: TokenRequestOptions,
  options: ResolvedOAuth2Options,
): Promise<oauth.TokenEndpointRequestOptions> {
  const fetchFn = boundedTokenFetch(request.fetch);
  const warn = (message: string) => options.notify?.({ kind: "token_response", message });
  const tokenParams = oauth2ParamsFor(options, "token");
  const dpop = options.dpop ? oauth.DPoP({}, await dpopKeyPair(options)) : undefined;
  return {
    [oauth.allowInsecureRequests]: true,
    ...(tokenParams.length ? { additionalParameters: tokenParams } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(dpop ? { DPoP: dpop } : {}),
    [oauth.customFetch]: async (url: string, init: RequestInit) =>
      await readTokenResponse(await fetchFn(url, init), {
        tokenUrl: options.tokenUrl,
        warn,
        ...(options.dpop ? { dpop: true } : {}),
      }),
  };
}

type TokenResponse = oauth.TokenEndpointResponse;

/**
 * Runs a grant that needs no person: client_credentials or password.
 *
 * @param options the OAuth 2.0 options
 * @param request fetch and signal
 * @returns a new cache entry
 * @throws {AuthError} naming the token URL and the provider's error
 */
export async function silentGrant(
  options: ResolvedOAuth2Options,
  request: TokenRequestOptions,
): Promise<TokenEntry> {
  const scope = normalizeScope(options.scope);
  const tokenParams = () => oauth2ParamsFor(options, "token");
  if (options.flow === "password") {
    const parameters = new URLSearchParams({
      username: options.username ?? "",
      password: options.password?.reveal() ?? "",
    });
    if (scope) parameters.set("scope", scope);
    for (const [name, value] of tokenParams()) parameters.append(name, value);
    const result = await tokenCall(options, request, {
      send: (as, client, auth, http) =>
        oauth.genericTokenEndpointRequest(as, client, auth, "password", parameters, http),
      read: oauth.processGenericTokenEndpointResponse,
    });
    return newEntry(options, result);
  }
  const parameters = new URLSearchParams(scope ? { scope } : {});
  for (const [name, value] of tokenParams()) parameters.append(name, value);
  const result = await tokenCall(options, request, {
    send: (as, client, auth, http) =>
      oauth.clientCredentialsGrantRequest(as, client, auth, parameters, http),
    read: oauth.processClientCredentialsResponse,
  });
  return newEntry(options, result);
}

/**
 * Refreshes an entry with its refresh token, keeping the old refresh token when the provider
 * sends none.
 *
 * @param options the OAuth 2.0 options
 * @param entry the cached entry, with a refresh token
 * @param request fetch and signal
 * @returns the updated entry
 * @throws {AuthError} with code `invalid_grant` when the refresh token is no longer good
 */
export async function refreshGrant(
  options: ResolvedOAuth2Options,
  entry: TokenEntry,
  request: TokenRequestOptions,
): Promise<TokenEntry> {
  const result = await tokenCall(options, request, {
    send: (as, client, auth, http) =>
      oauth.refreshTokenGrantRequest(as, client, auth, entry.refreshToken ?? "", http),
    read: oauth.processRefreshTokenResponse,
  });
  const now = Date.now();
  return { ...entry, ...tokenFields(result, now, { refreshedAt: now }) };
}

/**
 * @param options the OAuth 2.0 options
 * @param result a validated token response
 * @returns a new cache entry
 */
export function newEntry(options: ResolvedOAuth2Options, result: TokenResponse): TokenEntry {
  const now = Date.now();
  return { ...tokenKey(options), ...tokenFields(result, now, { obtainedAt: now }) };
}

/** What a token response sets in a cache entry, stamped with when it came. */
function tokenFields<S extends { obtainedAt: number } | { refreshedAt: number }>(
  result: TokenResponse,
  now: number,
  stamp: S,
) {
  return {
    accessToken: result.access_token,
    tokenType: result.token_type,
    ...stamp,
    ...(result.refresh_token ? { refreshToken: result.refresh_token } : {}),
    ...(result.scope !== undefined ? { grantedScope: result.scope } : {}),
    ...expiry(result, now),
  };
}

function expiry(result: TokenResponse, now: number): { expiresAt?: number } {
  return typeof result.expires_in === "number" ? { expiresAt: now + result.expires_in * 1000 } : {};
}

/**
 * When a token response carries an ID token whose issuer has the token URL's origin, that is
 * the issuer to validate it against (dial is given endpoints, not issuer metadata).
 *
 * @param as the metadata so far
 * @param options the OAuth 2.0 options
 * @param response the token response (not consumed)
 * @returns the metadata to validate the response with
 */
export async function withIssuer(
  as: oauth.AuthorizationServer,
  options: ResolvedOAuth2Options,
  response: Response,
): Promise<oauth.AuthorizationServer> {
  // A discovered issuer is the one ID tokens must name.
  if (!response.ok || options.discoveredIssuer !== undefined) return as;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return as;
  }
  if (typeof body !== "object" || body === null || !("id_token" in body)) return as;
  const idToken = body.id_token;
  if (typeof idToken !== "string") return as;
  const iss = jwtIssuer(idToken);
  return iss !== undefined && sameOrigin(iss, options.tokenUrl) ? { ...as, issuer: iss } : as;
}

function jwtIssuer(jwt: string): string | undefined {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.fromBase64(payload, { alphabet: "base64url" })),
    );
    if (typeof claims === "object" && claims !== null && "iss" in claims) {
      return typeof claims.iss === "string" ? claims.iss : undefined;
    }
  } catch {
    // Not a JWT we can read: oauth4webapi will say so.
  }
  return undefined;
}

/**
 * @param text a URL
 * @param url another URL
 * @returns whether both have the same origin
 */
export function sameOrigin(text: string, url: URL): boolean {
  try {
    return new URL(text).origin === url.origin;
  } catch {
    return false;
  }
}

/** One grant's call of the token endpoint, in oauth4webapi's two steps. */
export interface GrantCall {
  /** Sends the grant's request (`oauth.…GrantRequest`) with these options. */
  send(
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    auth: oauth.ClientAuth,
    http: oauth.TokenEndpointRequestOptions,
  ): Promise<Response>;
  /** Checks and reads its response (`oauth.process…Response`). */
  read(
    as: oauth.AuthorizationServer,
    client: oauth.Client,
    response: Response,
  ): Promise<TokenResponse>;
}

/**
 * Runs one token endpoint exchange: the grant's request with the client's authentication
 * ({@link withClientAuth}) and dial's HTTP options ({@link httpOptions}), its response read
 * against the issuer it names ({@link withIssuer}); every failure becomes an
 * {@link AuthError} naming the token URL and the provider's error code and description.
 *
 * @param options the OAuth 2.0 options
 * @param request fetch and signal
 * @param call the grant's request and the reading of its response
 * @param server the authorization server, when the grant found its own (default: from options)
 * @returns the validated token response
 */
export async function tokenCall(
  options: ResolvedOAuth2Options,
  request: TokenRequestOptions,
  call: GrantCall,
  server?: oauth.AuthorizationServer,
): Promise<TokenResponse> {
  const client: oauth.Client = { client_id: options.clientId };
  try {
    return await withClientAuth(options, request, async (auth) => {
      const as = server ?? authorizationServer(options);
      const response = await call.send(as, client, auth, await httpOptions(request, options));
      return await call.read(await withIssuer(as, options, response), client, response);
    });
  } catch (error) {
    throw await tokenError(error, options.tokenUrl, request.signal);
  }
}

/**
 * @param error what oauth4webapi or fetch threw
 * @param tokenUrl the token endpoint
 * @param signal the request's signal, to tell an interrupt or timeout from a failure
 * @param label what the request was, for the message (default `token request`)
 * @returns the error to report
 */
export async function tokenError(
  error: unknown,
  tokenUrl: URL,
  signal?: AbortSignal,
  label = "token request",
): Promise<DialError> {
  if (error instanceof DialError) return error;
  if (signal?.aborted) return networkError(error, tokenUrl, signal);
  const where = `OAuth 2.0 ${label} to ${redactUrl(tokenUrl)} failed`;
  if (error instanceof oauth.ResponseBodyError) {
    return providerError(where, error.error, error.error_description, error.status, error);
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const params = error.cause[0]?.parameters;
    let code = params?.error;
    let description = params?.error_description;
    if (code === undefined) {
      const body = await error.response.json().catch(() => undefined);
      if (typeof body === "object" && body !== null && "error" in body) {
        code = typeof body.error === "string" ? body.error : undefined;
        if ("error_description" in body && typeof body.error_description === "string") {
          description = body.error_description;
        }
      }
    }
    return providerError(where, code ?? "unauthorized", description, error.status, error);
  }
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) {
    const status = error.cause.status;
    await error.cause.body?.cancel().catch(() => {});
    return new AuthError(`${where}: HTTP ${status} without an OAuth 2.0 error response`, {
      cause: error,
      remedy: { check: "token_endpoint" },
    });
  }
  const issuer = idTokenIssuer(error);
  if (issuer) {
    // Not the token URL's fault: the provider calls itself by another name than dial expects.
    return new AuthError(
      `${where}: the ID token names the issuer "${issuer.named}", where "${issuer.expected}" was expected`,
      { cause: error, remedy: { give: "issuer" }, details: { url: issuer.named } },
    );
  }
  if (error instanceof oauth.OperationProcessingError) {
    return new AuthError(`${where}: invalid token response: ${error.message}`, {
      cause: error,
      remedy: { check: "token_endpoint" },
    });
  }
  if (error instanceof oauth.UnsupportedOperationError) {
    return new AuthError(`${where}: ${error.message}`, { cause: error });
  }
  if (error instanceof TypeError) {
    const network = networkError(error, tokenUrl, signal);
    return new AuthError(`${where}: ${network.message}`, {
      details: network.details,
      cause: error,
      remedy: { check: "token_url" },
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AuthError(`${where}: ${message}`, { cause: error });
}

/** The issuer an ID token names and the one dial expected, when that is the failure. */
function idTokenIssuer(error: unknown): { named: string; expected: string } | undefined {
  if (
    !(error instanceof oauth.OperationProcessingError) ||
    error.code !== oauth.JWT_CLAIM_COMPARISON
  ) return undefined;
  const cause = error.cause;
  if (typeof cause !== "object" || cause === null) return undefined;
  const { claim, expected, claims } = cause as {
    claim?: unknown;
    expected?: unknown;
    claims?: unknown;
  };
  const named = typeof claims === "object" && claims !== null && "iss" in claims
    ? claims.iss
    : undefined;
  return claim === "iss" && typeof named === "string" && typeof expected === "string"
    ? { named, expected }
    : undefined;
}
