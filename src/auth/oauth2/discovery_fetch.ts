/**
 * Fetching one authorization server metadata document through oauth4webapi (loaded only when
 * the cached metadata cannot serve).
 * @module
 */
import * as oauth from "oauth4webapi";
import { boundedTokenFetch } from "./token_fetch.ts";
import { AuthError } from "../../errors/mod.ts";
import { redactUrl } from "../../redact_url.ts";
import type { DiscoveryOptions, ServerMetadata } from "./discovery.ts";

/**
 * Fetches and checks one metadata document.
 *
 * @param issuer the issuer identifier
 * @param algorithm `oidc` (openid-configuration) or `oauth2` (RFC 8414)
 * @param options fetch and signal
 * @returns the endpoints
 * @throws {AuthError} when the document names another issuer or an unusable endpoint; other
 * errors when it cannot be read (see {@link describe})
 */
export async function fetchMetadata(
  issuer: URL,
  algorithm: "oidc" | "oauth2",
  options: DiscoveryOptions,
): Promise<ServerMetadata> {
  // Within the same time and size limits as a token request.
  const fetchFn = boundedTokenFetch(options.fetch);
  const response = await oauth.discoveryRequest(issuer, {
    algorithm,
    [oauth.allowInsecureRequests]: true,
    ...(options.signal ? { signal: options.signal } : {}),
    [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<"GET", undefined>) =>
      fetchFn(url, {
        method: init.method,
        headers: init.headers,
        redirect: init.redirect,
        ...(init.signal ? { signal: init.signal } : {}),
      }),
  });
  let as: oauth.AuthorizationServer;
  try {
    as = await oauth.processDiscoveryResponse(issuer, response);
  } catch (error) {
    if (
      error instanceof oauth.OperationProcessingError &&
      error.code === oauth.JSON_ATTRIBUTE_COMPARISON
    ) {
      const body = (error.cause as { body?: { issuer?: unknown } } | undefined)?.body;
      throw new AuthError(
        `OAuth 2.0 discovery for issuer ${redactUrl(issuer)} failed: the metadata at ${
          redactUrl(new URL(response.url || issuer.href))
        } names the issuer "${String(body?.issuer)}"`,
        { remedy: { write: "issuer" } },
      );
    }
    await response.body?.cancel().catch(() => {});
    throw error;
  }
  if (typeof as.token_endpoint !== "string") {
    throw new Error("the metadata has no token_endpoint");
  }
  const endpoints = {
    tokenEndpoint: endpoint(as.token_endpoint, issuer),
    ...(as.authorization_endpoint
      ? { authorizationEndpoint: endpoint(as.authorization_endpoint, issuer) }
      : {}),
    ...(as.device_authorization_endpoint
      ? { deviceAuthorizationEndpoint: endpoint(as.device_authorization_endpoint, issuer) }
      : {}),
  };
  return { issuer: as.issuer, ...endpoints };
}

/** An endpoint from the metadata: absolute http(s), and https when the issuer is. */
function endpoint(text: string, issuer: URL): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AuthError(
      `OAuth 2.0 discovery for issuer ${redactUrl(issuer)} failed: "${text}" is not a URL`,
    );
  }
  const allowed = issuer.protocol === "https:" ? ["https:"] : ["https:", "http:"];
  if (!allowed.includes(url.protocol)) {
    throw new AuthError(
      `OAuth 2.0 discovery for issuer ${redactUrl(issuer)} failed: the endpoint ${
        redactUrl(url)
      } is not ${allowed.join(" or ").replaceAll(":", "")}`,
    );
  }
  return url.href;
}

/**
 * @param error why a document could not be read
 * @returns one short phrase, e.g. `http://…/.well-known/openid-configuration answered HTTP 404`
 */
export function describe(error: unknown): string {
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) {
    const status = error.cause.status;
    void error.cause.body?.cancel().catch(() => {});
    return `${redactUrl(new URL(error.cause.url || "about:blank"))} answered HTTP ${status}`;
  }
  if (error instanceof TypeError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
