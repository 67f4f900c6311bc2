/**
 * The only network step for HTTP: credentials (through `credentials.ts`), send, follow
 * redirects by hand.
 * @module
 */
import { DialError, ErrorCode, ExitCode, networkError, UsageError } from "../errors.ts";
import { reveal, Secret } from "../secret.ts";
import { bodyChunks, bodyLength, isReplayable, openBody } from "./body.ts";
import { redirectRequest, requestHeaders, requestUrl } from "./build_request.ts";
import type { TransportOptions } from "./client.ts";
import { withCredentials } from "./credentials.ts";
import { decodeContent } from "./content_encoding.ts";
import type { CookieJar } from "./cookies.ts";
import type { PreparedRequest, RequestSpec } from "./request_spec.ts";
import { type Framing, isSized, sendableHeaders, wireHead } from "./wire.ts";

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
  /** Cookies for this run (`-b`, `-c`); a fresh jar carries cookies across redirects. */
  cookies?: CookieJar;
  /** Called before each request goes out (each redirect hop too), with its body framing. */
  onRequest?: (request: PreparedRequest, framing: Framing) => void | Promise<void>;
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
  // Loaded when needed: a jar once a response sets a cookie, the replay copy for stdin.
  let jar = options.cookies;
  let request = prepared;
  const stdin = request.body?.kind === "stdin"
    ? new (await import("./replay.ts")).ReplayCopy(Deno.stdin.readable)
    : undefined;
  for (let hops = 0;; hops++) {
    const base = request;
    request = jar ? withCookies(base, jar) : base;
    const framing = await framingOf(request, sizedAllowed(options));
    await options.onRequest?.(request, framing);
    let response: Response;
    try {
      if (isSized(request, framing) && typeof framing === "object") {
        requestHeaders(request); // refuses control characters in values, as for fetch
        // Loaded when used: node:http and its kin cost start-up time on every other request.
        const { sizedFetch } = await import("./sized_send.ts");
        response = await sizedFetch({
          method: request.method,
          url: requestUrl(request),
          headers: sendableHeaders(wireHead(request, framing)),
          body: bodyChunks(request.body!),
          length: framing.length,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } else {
        const body = request.body?.kind === "stdin" && stdin
          ? stdin.stream()
          : request.body && openBody(request.body);
        response = await fetchFn(requestUrl(request), {
          method: request.method,
          headers: requestHeaders(request),
          redirect: "manual",
          ...(options.signal ? { signal: options.signal } : {}),
          ...(body !== undefined ? { body } : {}),
        });
      }
    } catch (error) {
      throw networkError(error, request.url, options.signal);
    }
    const setCookies = response.headers.getSetCookie();
    if (setCookies.length > 0) {
      jar ??= new (await import("./cookies.ts")).CookieJar();
      jar.store(requestUrl(request), setCookies);
    }
    await options.onResponse?.(request, response);
    const next = options.follow
      ? redirectRequest(base, response.status, response.headers.get("location"))
      : undefined;
    if (!next) {
      return { request, response: decodeContent(response, request.url.host), redirects: hops };
    }
    await response.body?.cancel();
    if (hops >= maxRedirects) {
      throw new DialError(
        `Too many redirects: more than ${maxRedirects}`,
        ErrorCode.TooManyRedirects,
        ExitCode.TooManyRedirects,
        { hint: "raise --max-redirects, or drop -L to see the redirect" },
      );
    }
    if (next.body?.kind === "stdin" && stdin) {
      const bytes = await stdin.rest();
      if (bytes) {
        next.body = {
          kind: "bytes",
          bytes,
          ...(next.body.contentType ? { contentType: next.body.contentType } : {}),
        };
      }
    }
    if (next.body && !isReplayable(next.body)) {
      throw new DialError(
        `Cannot follow the ${response.status} redirect to ${next.url.origin}: the request body from stdin is larger than 8 MiB and cannot be sent twice`,
        ErrorCode.RedirectBody,
        ExitCode.Failure,
        { hint: "send the body from a file with @file" },
      );
    }
    request = next;
  }
}

/** Fetches made by {@link defaultFetch}: a caller's own fetch (tests, the UI) is never bypassed. */
const DEFAULT_FETCHES = new WeakSet<typeof fetch>();

/**
 * Whether file and form uploads may go through the `Content-Length` transport (sized_send.ts):
 * not with a caller's own fetch, nor with TLS or proxy options, which only the fetch transport
 * applies; those uploads are sent chunked.
 */
function sizedAllowed(options: SendOptions): boolean {
  if (options.fetch && !DEFAULT_FETCHES.has(options.fetch)) return false;
  const t = options.transport ?? {};
  return !t.caCerts?.length && !t.cert && !t.key && !t.insecure && !t.proxy &&
    t.connectTimeoutMs === undefined;
}

/** The transport layer loads with the first request, not when dial starts (`--help`, usage errors). */
async function defaultFetch(transport?: TransportOptions): Promise<typeof fetch> {
  const { transportFetch } = await import("./client.ts");
  const made = transportFetch(transport);
  DEFAULT_FETCHES.add(made);
  return made;
}

/**
 * @param request a prepared request
 * @param sized whether the `Content-Length` transport may be used (see sizedAllowed)
 * @returns how its body is framed on the wire
 */
export async function framingOf(request: PreparedRequest, sized = true): Promise<Framing> {
  const body = request.body;
  if (!body) return "none";
  if (body.kind === "stdin") return "chunked";
  if ((body.kind === "file" || body.kind === "form") && (!sized || !isSized(request))) {
    return "chunked";
  }
  try {
    const length = await bodyLength(body);
    return length === undefined ? "chunked" : { length };
  } catch (error) {
    throw new DialError(
      `Cannot read the request body: ${(error as Error).message}`,
      ErrorCode.Body,
      ExitCode.Failure,
      { cause: error },
    );
  }
}

/**
 * @param request a request
 * @param jar the run's cookies
 * @returns the request with the jar's matching cookies after any `Cookie` it has
 */
export function withCookies(request: PreparedRequest, jar: CookieJar): PreparedRequest {
  const fromJar = jar.header(requestUrl(request));
  if (fromJar === undefined) return request;
  const index = request.headers.findIndex((h) => h.name.toLowerCase() === "cookie");
  const headers = [...request.headers];
  if (index < 0) headers.push({ name: "Cookie", value: new Secret(fromJar) });
  else {
    const own = headers[index]!;
    headers[index] = {
      name: own.name,
      value: new Secret(`${reveal(own.value)}; ${fromJar}`),
    };
  }
  return { ...request, headers };
}
