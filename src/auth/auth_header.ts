/**
 * The one place that turns an {@link Authorization} into an `Authorization` header value.
 * @module
 */
import { load } from "../load.ts";
import { Secret } from "../secret.ts";
import type { Authorization } from "./auth_spec.ts";
import type { RequestSigner } from "../http/request_spec.ts";

/** Options for {@link authorizationHeader}. */
export interface AuthorizeOptions {
  /** The fetch used for token requests. */
  fetch?: typeof fetch;
  /** Aborts token requests. */
  signal?: AbortSignal;
  /** Discard any cached OAuth 2.0 token and get a new one (after a 401). */
  forceRefresh?: boolean;
  /** Told whether the OAuth 2.0 token was reused from the cache or just obtained. */
  onOAuth2Token?: (source: "cache" | "new") => void;
  /** Told what dial did on its own while getting a token (shown under `-v`). */
  onNote?: (text: string) => void;
}

/**
 * Computes the `Authorization` header value.
 *
 * @param authorization Basic, Bearer or OAuth 2.0
 * @param options fetch, signal and refresh control for OAuth 2.0
 * @returns the header value, wrapped as a secret; none for schemes whose credentials are
 * computed per request ({@link requestSigner})
 * @see https://www.rfc-editor.org/rfc/rfc7617 (Basic) and RFC 6750 (Bearer)
 */
export async function authorizationHeader(
  authorization: Authorization,
  options: AuthorizeOptions = {},
): Promise<Secret | undefined> {
  switch (authorization.kind) {
    case "digest":
    case "aws-sigv4":
      // Computed per request by its signer (see requestSigner).
      return undefined;
    case "basic":
      return basicAuthorization(authorization.username, authorization.password);
    case "bearer":
      return new Secret(`Bearer ${authorization.token.reveal()}`);
    case "oauth2": {
      // Loaded lazily so a plain request never pays for the OAuth library; the computed
      // specifier keeps Deno's start-up graph out of it (see src/cli/lazy.ts).
      const { oauth2Authorization } = await load.accessToken();
      return await oauth2Authorization(authorization.oauth2, options);
    }
  }
}

/**
 * Builds an HTTP Basic `Authorization` value.
 *
 * @param username the user, any Unicode
 * @param password the password, any Unicode
 * @returns `Basic base64(UTF-8("user:password"))`
 */
export function basicAuthorization(username: string, password: Secret): Secret {
  const bytes = new TextEncoder().encode(`${username}:${password.reveal()}`);
  return new Secret(`Basic ${bytes.toBase64()}`);
}

/**
 * The per-request signer of a scheme whose credentials depend on each request (Digest, AWS
 * SigV4, an OAuth 2.0 token bound by DPoP), or none. Its module is loaded only for that scheme.
 *
 * @param authorization the request's authorization
 * @returns the signer, or undefined for Basic, Bearer and OAuth 2.0 Bearer tokens
 */
export async function requestSigner(
  authorization: Authorization,
): Promise<RequestSigner | undefined> {
  if (authorization.kind === "digest") {
    const { digestSigner } = await load.digest();
    return digestSigner(authorization.username, authorization.password);
  }
  if (authorization.kind === "aws-sigv4") {
    const { sigv4Signer } = await load.sigv4();
    return sigv4Signer(authorization.sigv4);
  }
  if (authorization.kind === "oauth2" && authorization.oauth2.dpop) {
    const { dpopSigner } = await load.dpop();
    return dpopSigner(authorization.oauth2);
  }
  return undefined;
}
