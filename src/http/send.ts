/**
 * The only network step for HTTP: credentials (through `credentials.ts`), send, follow
 * redirects by hand.
 * @module
 */
import { load } from "../load.ts";
import { DialError, ErrorCode, networkError, UsageError } from "../errors/mod.ts";
import { reveal, Secret } from "../secret.ts";
import { BUFFER_LIMIT, isReplayable, openBody, settleBody } from "./body.ts";
import { redirectRequest, requestHeaders, requestUrl } from "./build_request.ts";
import type { TransportOptions } from "./plan.ts";
import { withCredentials } from "./credentials.ts";
import { decodeContent } from "./content_encoding.ts";
import type { CookieJar } from "./cookies.ts";
import type { PreparedRequest, RequestSpec } from "./request_spec.ts";
import { type Framing, REQUEST_TARGET, sendableHeaders, WIRE_HEAD, wireHead } from "./wire.ts";

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
  /** Cookies for this run (`-b`, `-c`); a fresh jar carries cookies across redirects. */
  cookies?: CookieJar;
  /** Called before each request goes out (each redirect hop too), with its body framing. */
  onRequest?: (request: PreparedRequest, framing: Framing) => void | Promise<void>;
  /** Told what dial did on its own while getting credentials (a client-auth retry). */
  onNote?: (text: string) => void;
  /** Told what the user must know even without `-v` (a pipe body sent chunked). */
  onNotice?: (text: string) => void;
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
  const fetch = options.fetch ?? madeFetch(options.transport) ??
    await defaultFetch(options.transport);
  options = { ...options, fetch };
  const credentials = {
    fetch,
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
  const fetchFn = options.fetch ?? madeFetch(options.transport) ??
    await defaultFetch(options.transport);
  const maxRedirects = options.maxRedirects ?? 10;
  if (prepared.method.toUpperCase() === "CONNECT") {
    throw new UsageError(
      `Method "${prepared.method}" cannot be sent: CONNECT asks a proxy for a tunnel, with host:port as its target`,
      { remedy: { use: "proxy_tunnel" } },
    );
  }
  // Loaded when needed: a jar once a response sets a cookie.
  let jar = options.cookies;
  let request = prepared;
  // A Digest challenge is answered once per hop: a second 401 is the answer to show.
  let challenged = false;
  for (let hops = 0;;) {
    // Awaited only when there is something to wait for (each await is a turn of the microtask
    // queue on every request): a body to settle, an observer.
    const settled = request.body
      ? await settleBody(request, options.onNotice)
      : { request, framing: "none" as const };
    const base = settled.request;
    const framing = settled.framing;
    request = jar ? withCookies(base, jar) : base;
    if (request.signer) request = await request.signer.sign(request);
    if (options.onRequest) await options.onRequest(request, framing);
    let response: Response;
    try {
      requestHeaders(request); // refuses control characters in values
      const body = request.body && openBody(request.body);
      const init: RequestInit & { [WIRE_HEAD]: true; [REQUEST_TARGET]?: "*" } = {
        method: request.method,
        headers: sendableHeaders(wireHead(request, framing)),
        // The head is complete: the client adds nothing (one head, built once).
        [WIRE_HEAD]: true,
        ...(request.target ? { [REQUEST_TARGET]: request.target } : {}),
        redirect: "manual",
        ...(options.signal ? { signal: options.signal } : {}),
        ...(body !== undefined ? { body } : {}),
      };
      response = await fetchFn(requestUrl(request), init);
    } catch (error) {
      throw networkError(error, request.url, options.signal);
    }
    const setCookies = response.headers.getSetCookie();
    if (setCookies.length > 0) {
      jar ??= new (await load.cookies()).CookieJar();
      await jar.store(requestUrl(request), setCookies);
    }
    if (options.onResponse) await options.onResponse(request, response);
    if (response.status === 401 && !challenged && request.signer?.challenge?.(response)) {
      challenged = true;
      await response.body?.cancel();
      request = replayable(base, response.status);
      continue;
    }
    const next = options.follow ? nextHop(base, response) : undefined;
    if (!next) {
      return { request, response: decodeContent(response, request.url.host), redirects: hops };
    }
    await response.body?.cancel();
    if (hops++ >= maxRedirects) {
      throw new DialError(
        `Too many redirects: more than ${maxRedirects}`,
        ErrorCode.TooManyRedirects,
        { remedy: { raise: "max_redirects" } },
      );
    }
    challenged = false;
    request = replayable(next, response.status);
  }
}

/**
 * The request to send again (after a redirect or a Digest challenge).
 *
 * @throws {DialError} when its body came from a pipe too large to keep
 */
function replayable(next: PreparedRequest, status: number): PreparedRequest {
  if (next.body && !isReplayable(next.body)) {
    const what = status === 401
      ? `answer the Digest challenge of ${next.url.origin}`
      : `follow the ${status} redirect to ${next.url.origin}`;
    throw new DialError(
      `Cannot ${what}: the request body from a pipe is larger than ${
        BUFFER_LIMIT / 1024 / 1024
      } MiB and cannot be sent twice`,
      ErrorCode.RedirectBody,
      { remedy: { use: "body_file" } },
    );
  }
  return next;
}

/** The transport layer loads with the first request, not when dial starts (`--help`, usage errors). */
async function defaultFetch(transport?: TransportOptions): Promise<typeof fetch> {
  const { transportFetch } = await load.client();
  const fetch = transportFetch(transport);
  if (transport) fetches.set(transport, fetch);
  return fetch;
}

/**
 * The fetch of each transport's options, made at its first send: a run's sends share one (it
 * reads the options when it sends, so it is the fetch a later call would make).
 */
const fetches = new WeakMap<TransportOptions, typeof fetch>();

/** @returns the fetch made for these options already, if any */
function madeFetch(transport?: TransportOptions): typeof fetch | undefined {
  return transport && fetches.get(transport);
}

/**
 * How a request's body goes on the wire, pipes read as the send would read them: `--offline`
 * shows the framing the send uses.
 *
 * @param request a prepared request
 * @returns its body framing
 */
export async function framingOf(request: PreparedRequest): Promise<Framing> {
  return (await settleBody(request)).framing;
}

/**
 * @param request a request
 * @param jar the run's cookies
 * @returns the request with the jar's matching cookies before any `Cookie` it has (one header,
 *   as httpyac sends it; curl sends the jar's in a `Cookie` header above the request's own)
 */
export function withCookies(request: PreparedRequest, jar: CookieJar): PreparedRequest {
  // A run's jar is passed to every send, and is empty until a response sets a cookie.
  if (jar.cookies.length === 0) return request;
  const fromJar = jar.header(requestUrl(request));
  if (fromJar === undefined) return request;
  const index = request.headers.findIndex((h) => h.name.toLowerCase() === "cookie");
  const headers = [...request.headers];
  if (index < 0) headers.push({ name: "Cookie", value: new Secret(fromJar) });
  else {
    const own = headers[index]!;
    headers[index] = {
      name: own.name,
      value: new Secret(`${fromJar}; ${reveal(own.value)}`),
    };
  }
  return { ...request, headers };
}

/** The next request of a redirect; a refused hop (`file:` …) cancels the response first. */
function nextHop(request: PreparedRequest, response: Response): PreparedRequest | undefined {
  try {
    return redirectRequest(request, response.status, response.headers.get("location"));
  } catch (error) {
    response.body?.cancel().catch(() => {});
    throw error;
  }
}
