/**
 * The one credential step and the one 401 rule, shared by HTTP requests, both WebSocket
 * clients, `--offline`, `--curl` and the UI's Copy as curl (the shape of xh's auth
 * middleware): {@link authorize} turns a spec into a prepared request with its credentials,
 * and {@link withCredentials} sends it, retrying once with a fresh OAuth 2.0 token when a
 * token from the cache was refused with 401.
 * @module
 */
import { authorizationHeader, requestSigner } from "../auth/auth_header.ts";
import { Secret } from "../secret.ts";
import { buildRequest } from "./build_request.ts";
import type { PreparedRequest, RequestSpec } from "./request_spec.ts";

/** Options for {@link authorize} and {@link withCredentials}. */
export interface CredentialOptions {
  /** The fetch used for OAuth 2.0 token requests. */
  fetch?: typeof fetch;
  /** Aborts token requests. */
  signal?: AbortSignal;
  /** Told what dial did on its own while getting a token (shown under `-v`). */
  onNote?: (text: string) => void;
  /**
   * Contact no token endpoint (`--offline`): an OAuth 2.0 Authorization header is shown as a
   * placeholder instead of a token.
   */
  offline?: boolean;
}

/** A request with its credentials, and the way to renew them after a 401. */
export interface Authorized {
  /** The request, Authorization header and `-K` keys in place. */
  request: PreparedRequest;
  /**
   * Whether a 401 may be retried: only an OAuth 2.0 token that came from the cache may have
   * been revoked meanwhile (a token just obtained would fail again), and only once.
   */
  readonly renewable: boolean;
  /**
   * Gets a fresh OAuth 2.0 token (dropping the cached one) and returns the request again with
   * it. Call only when {@link Authorized.renewable}; afterwards it is false.
   */
  renew(): Promise<PreparedRequest>;
}

/**
 * The credential step: resolves the spec's Authorization (Basic, Bearer, OAuth 2.0 from the
 * cache or a grant) into a prepared request.
 *
 * @param spec the request as data
 * @param options fetch and signal for token requests, offline mode
 * @returns the prepared request and its 401 rule
 * @throws {DialError} when a token cannot be obtained
 */
export async function authorize(
  spec: RequestSpec,
  options: CredentialOptions = {},
): Promise<Authorized> {
  const authorization = spec.auth.authorization;
  const tokenOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onNote ? { onNote: options.onNote } : {}),
  };
  let cached = false;
  let header: Secret | undefined;
  if (authorization?.kind === "oauth2" && options.offline) {
    header = new Secret("");
  } else if (authorization) {
    header = await authorizationHeader(authorization, {
      ...tokenOptions,
      onOAuth2Token: (source) => cached = source === "cache",
    });
  }
  let renewable = authorization?.kind === "oauth2" && cached;
  const signer = authorization && await requestSigner(authorization);
  const request = buildRequest(spec, header);
  return {
    request: signer ? { ...request, signer } : request,
    get renewable() {
      return renewable;
    },
    async renew() {
      renewable = false;
      const fresh = authorization &&
        await authorizationHeader(authorization, { ...tokenOptions, forceRefresh: true });
      return buildRequest(spec, fresh);
    },
  };
}

/** What one attempt ended with. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** How {@link withCredentials} recognises a refusal and frees an attempt it drops. */
export interface UnauthorizedRule<T> {
  /** Whether the attempt was refused with 401 and can be made again (e.g. its body replays). */
  unauthorized(outcome: Outcome<T>): boolean;
  /** Frees a result that is dropped for the retry (e.g. cancels its body). */
  discard?(value: T): Promise<void>;
}

/**
 * Runs an attempt with the spec's credentials; when it is refused with 401 and the token came
 * from the cache, gets a fresh token and runs it once more.
 *
 * @param spec the request as data
 * @param options fetch and signal for token requests
 * @param attempt sends a prepared request
 * @param rule recognises a 401 and frees a dropped result
 * @returns the last attempt's result
 * @throws whatever the last attempt threw, or a token error
 */
export async function withCredentials<T>(
  spec: RequestSpec,
  options: CredentialOptions,
  attempt: (request: PreparedRequest) => Promise<T>,
  rule: UnauthorizedRule<T>,
): Promise<T> {
  const authorized = await authorize(spec, options);
  let outcome: Outcome<T>;
  try {
    outcome = { ok: true, value: await attempt(authorized.request) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  if (!authorized.renewable || !rule.unauthorized(outcome)) {
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  }
  if (outcome.ok) await rule.discard?.(outcome.value);
  return await attempt(await authorized.renew());
}
