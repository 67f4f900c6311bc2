/**
 * The authorization-code grant with PKCE: browser login, loopback callback, code exchange.
 * @module
 */
import { missingSettingError } from "./required.ts";
import * as oauth from "oauth4webapi";
import { AuthError } from "../../errors/mod.ts";
import { openSystemBrowser } from "./browser.ts";
import { startCallbackServer } from "./callback_server.ts";
import {
  DEFAULT_CALLBACK_TIMEOUT,
  type OAuth2Options,
  oauth2ParamsFor,
  type ResolvedOAuth2Options,
} from "./parse_value.ts";
import { normalizeScope, type TokenEntry } from "./token_cache.ts";
import {
  authorizationServer,
  newEntry,
  sameOrigin,
  tokenCall,
  type TokenRequestOptions,
} from "./token_request.ts";

/**
 * @param options the OAuth 2.0 options
 * @returns `--oauth2-redirect-uri`, else `http://localhost:<port>/`
 */
export function redirectUriOf(options: OAuth2Options): URL {
  return options.redirectUri ?? new URL(`http://localhost:${options.port}/`);
}

/**
 * Builds the authorization request URL: the auth URL (its own query kept) plus
 * `response_type=code`, client id, redirect URI, scope, state and the S256 PKCE challenge.
 *
 * @param options the OAuth 2.0 options, with `authUrl`
 * @param state the random state
 * @param challenge the PKCE code challenge
 * @returns the URL to open in the browser
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.3
 */
export function authorizationUrl(
  options: ResolvedOAuth2Options,
  state: string,
  challenge: string,
): URL {
  if (!options.authUrl) throw missingSettingError(options.flow, "auth_url");
  const url = new URL(options.authUrl);
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", options.clientId);
  params.set("redirect_uri", redirectUriOf(options).href);
  const scope = normalizeScope(options.scope);
  if (scope) params.set("scope", scope);
  for (const [name, value] of oauth2ParamsFor(options, "auth")) params.append(name, value);
  params.set("state", state);
  params.set("code_challenge", challenge);
  params.set("code_challenge_method", "S256");
  return url;
}

/**
 * Runs the authorization-code grant: starts the callback server, shows the authorization URL
 * (`openBrowser`, default the system browser), waits for the callback, checks it and
 * exchanges the code (with the PKCE verifier) for tokens.
 *
 * @param options the OAuth 2.0 options, with `authUrl`
 * @param request fetch and signal
 * @returns a new cache entry
 * @throws {AuthError} on a denied login, a timeout, or a token endpoint error
 */
export async function authorizationCodeGrant(
  options: ResolvedOAuth2Options,
  request: TokenRequestOptions,
): Promise<TokenEntry> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizationUrl(options, state, await oauth.calculatePKCECodeChallenge(verifier));
  const redirectUri = redirectUriOf(options);
  const server = startCallbackServer(redirectUri, state, {
    timeout: options.timeout ?? DEFAULT_CALLBACK_TIMEOUT,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  let params: URLSearchParams;
  try {
    await (options.openBrowser ?? openSystemBrowser)(url, server.callback);
    params = await server.callback;
  } finally {
    await server.close();
  }
  const as = authorizationServer(options, callbackIssuer(options, params));
  const client: oauth.Client = { client_id: options.clientId };
  let callback: URLSearchParams;
  try {
    callback = oauth.validateAuthResponse(as, client, params, state);
  } catch (error) {
    throw loginError(error, options);
  }
  const result = await tokenCall(options, request, {
    send: (server, client, auth, http) =>
      oauth.authorizationCodeGrantRequest(
        server,
        client,
        auth,
        callback,
        redirectUri.href,
        verifier,
        http,
      ),
    read: oauth.processAuthorizationCodeResponse,
  }, as);
  return newEntry(options, result);
}

/**
 * The issuer the callback names (RFC 9207 `iss`), accepted when it has the origin of the
 * authorization or token URL: dial was given endpoints, not an issuer.
 */
function callbackIssuer(
  options: ResolvedOAuth2Options,
  params: URLSearchParams,
): string | undefined {
  const iss = params.get("iss");
  // With a discovered issuer oauth4webapi checks that the callback names exactly it.
  if (iss === null || options.discoveredIssuer !== undefined) return undefined;
  if (sameOrigin(iss, options.tokenUrl) || (options.authUrl && sameOrigin(iss, options.authUrl))) {
    return iss;
  }
  throw new AuthError(
    `OAuth 2.0 login failed: the callback came from issuer "${iss}", not from ${options.tokenUrl.origin}`,
    { remedy: { give: "issuer" }, details: { url: iss } },
  );
}

function loginError(error: unknown, options: ResolvedOAuth2Options): AuthError {
  const where = `OAuth 2.0 login at ${options.authUrl?.origin}${options.authUrl?.pathname} failed`;
  if (error instanceof oauth.AuthorizationResponseError) {
    const detail = error.error_description ? ` (${error.error_description})` : "";
    return new AuthError(`${where}: ${error.error}${detail}`, {
      cause: error,
      ...(error.error === "access_denied" ? { remedy: { check: "login" } as const } : {}),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AuthError(`${where}: invalid callback: ${message}`, { cause: error });
}
