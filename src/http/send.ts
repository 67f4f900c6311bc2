/**
 * The only network step for HTTP: credentials (through `credentials.ts`), send, follow
 * redirects by hand.
 * @module
 */
import { DialError, ExitCode, networkError, UsageError } from "../errors.ts";
import { isReplayable, openBody } from "./body.ts";
import { redirectRequest, requestHeaders, requestUrl } from "./build_request.ts";
import type { TransportOptions } from "./client.ts";
import { withCredentials } from "./credentials.ts";
import { decodeContent } from "./content_encoding.ts";
import type { PreparedRequest, RequestSpec } from "./spec.ts";

/** Methods the Fetch standard forbids; Deno's fetch refuses them before sending. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Options for {@link send}. */
export interface SendOptions {
  /** Follow redirects (`-L`). Default false. */
  follow?: boolean;
  /** The most redirects to follow. Default 10. */
  maxRedirects?: number;
  /** Aborts the whole exchange, body included (timeout, Ctrl-C). */
  signal?: AbortSignal;
  /** The fetch to use; tests may pass an in-memory handler. Default: one made from `transport`. */
  fetch?: typeof fetch;
  /** CA certificates, client certificate, `-k`, proxy, connect timeout (when `fetch` is not given). */
  transport?: TransportOptions;
  /** Called before each request goes out (each redirect hop too). */
  onRequest?: (request: PreparedRequest) => void | Promise<void>;
  /** Told what dial did on its own while getting credentials (a client-auth retry). */
  onNote?: (text: string) => void;
  /** Called with each response (each redirect hop too), before its body is read. */
  onResponse?: (request: PreparedRequest, response: Response) => void | Promise<void>;
}

/** The outcome of {@link send}. */
export interface Exchange {
  /** The last request sent. */
  request: PreparedRequest;
  /** Its response; the caller reads or cancels the body. */
  response: Response;
  /** How many redirects were followed. */
  redirects: number;
}

/**
 * Sends a request: resolves its authorization, follows redirects when asked (stripping
 * credentials on cross-origin hops), and retries once with a fresh OAuth 2.0 token after a
 * 401 when the rejected token came from the cache and the body can be sent again.
 *
 * @param spec the request
 * @param options redirects, signal, fetch and observers
 * @returns the final request and response
 * @throws {DialError} transport, timeout, auth and too-many-redirects errors
 */
export async function send(spec: RequestSpec, options: SendOptions = {}): Promise<Exchange> {
  options = { ...options, fetch: options.fetch ?? await defaultFetch(options.transport) };
  const credentials = {
    fetch: options.fetch,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onNote ? { onNote: options.onNote } : {}),
  };
  return await withCredentials(spec, credentials, (request) => sendPrepared(request, options), {
    unauthorized: (outcome) =>
      outcome.ok && outcome.value.response.status === 401 && isReplayable(spec.body),
    discard: async (exchange) => await exchange.response.body?.cancel(),
  });
}

/**
 * Sends a prepared request, following redirects by hand when asked.
 *
 * @param prepared the first request
 * @param options redirects, signal, fetch and observers
 * @returns the final request and response
 */
export async function sendPrepared(
  prepared: PreparedRequest,
  options: SendOptions = {},
): Promise<Exchange> {
  const fetchFn = options.fetch ?? await defaultFetch(options.transport);
  const maxRedirects = options.maxRedirects ?? 10;
  if (FORBIDDEN_METHODS.has(prepared.method.toUpperCase())) {
    throw new UsageError(
      `Method "${prepared.method}" cannot be sent: fetch forbids CONNECT, TRACE and TRACK`,
      { hint: "use curl for these methods" },
    );
  }
  let request = prepared;
  for (let hops = 0;; hops++) {
    await options.onRequest?.(request);
    let response: Response;
    try {
      response = await fetchFn(requestUrl(request), {
        method: request.method,
        headers: requestHeaders(request),
        redirect: "manual",
        ...(options.signal ? { signal: options.signal } : {}),
        ...(request.body ? { body: await openBody(request.body) } : {}),
      });
    } catch (error) {
      throw networkError(error, request.url, options.signal);
    }
    await options.onResponse?.(request, response);
    const next = options.follow
      ? redirectRequest(request, response.status, response.headers.get("location"))
      : undefined;
    if (!next) {
      return { request, response: decodeContent(response, request.url.host), redirects: hops };
    }
    await response.body?.cancel();
    if (hops >= maxRedirects) {
      throw new DialError(
        `Too many redirects: more than ${maxRedirects}`,
        "too_many_redirects",
        ExitCode.TooManyRedirects,
        { hint: "raise --max-redirects, or drop -L to see the redirect" },
      );
    }
    if (next.body && !isReplayable(next.body)) {
      throw new DialError(
        `Cannot follow the ${response.status} redirect to ${next.url.origin}: the request body from stdin cannot be sent twice`,
        "redirect_body",
        ExitCode.Failure,
        { hint: "send the body from a file with @file" },
      );
    }
    request = next;
  }
}

/** The transport layer loads with the first request, not when dial starts (`--help`, usage errors). */
async function defaultFetch(transport?: TransportOptions): Promise<typeof fetch> {
  const { transportFetch } = await import("./client.ts");
  return transportFetch(transport);
}
