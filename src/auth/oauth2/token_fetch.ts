/**
 * The fetch every request to an OAuth 2.0 provider goes through (token endpoint, device
 * authorization, discovery): a time limit and a size limit, so a provider that never answers,
 * or answers with gigabytes, cannot hang dial or fill its memory (`dial auth token` included).
 * Such an answer is a small JSON object; it is read whole here, within both limits, before
 * oauth4webapi parses it.
 * @module
 */
import { readBounded } from "../../bytes.ts";
import { AuthError, networkError } from "../../errors/mod.ts";

/** The longest a token endpoint may take to answer completely, body included. */
export const TOKEN_TIMEOUT_MS = 30_000;

/** The largest token endpoint response read (JWT access and ID tokens fit many times over). */
export const MAX_TOKEN_RESPONSE = 1024 * 1024;

/** Statuses whose responses cannot carry a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps a fetch for token endpoint requests.
 *
 * @param fetchFn the fetch to call (the transport's)
 * @param timeoutMs the time limit; default {@link TOKEN_TIMEOUT_MS}
 * @returns a fetch that fails with a `timeout` error after the time limit and an `auth` error
 *   for a body over {@link MAX_TOKEN_RESPONSE}
 */
export function boundedTokenFetch(
  fetchFn: typeof fetch = fetch,
  timeoutMs: number = TOKEN_TIMEOUT_MS,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const response = await fetchFn(input, { ...init, signal });
      if (response.status < 200 || response.status > 599) return response;
      const declared = Number(response.headers.get("content-length") ?? NaN);
      if (declared > MAX_TOKEN_RESPONSE) {
        await response.body?.cancel().catch(() => {});
        throw tooLarge(url);
      }
      const bytes = await readBounded(response.body, MAX_TOKEN_RESPONSE, () => tooLarge(url));
      const read = new Response(NULL_BODY.has(response.status) ? null : bytes, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      // Messages name the URL that answered (after redirects), as fetch's Response does.
      Object.defineProperty(read, "url", { value: response.url });
      return read;
    } catch (error) {
      // Only the time limit is worded here; other failures are the token request's to word.
      if (init?.signal?.aborted || !timeout.aborted) throw error;
      throw networkError(timeout.reason, url);
    }
  };
}

function tooLarge(url: URL): AuthError {
  return new AuthError(
    `OAuth 2.0 response from ${url.host} is larger than ${
      MAX_TOKEN_RESPONSE / 1024 / 1024
    } MiB: refused`,
  );
}
