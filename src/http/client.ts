/**
 * dial's one HTTP client, behind a `fetch`-shaped function: each request is planned
 * (plan.ts), connected (connect.ts) or given a kept-alive connection (pool.ts), and spoken in
 * HTTP/1.1 (h1.ts) or, when the server's TLS chooses it, HTTP/2 (h2.ts). Every command and the
 * UI send through {@link transportFetch}. A head from `send()` is complete (wire.ts) and goes
 * out as given; for other callers (oauth4webapi, graphql-ws, the stream clients) the client
 * adds dial's defaults. Headers given as a `Headers` object arrive sorted and lower-cased
 * (that is what `Headers` iterates); an array keeps its order and case.
 * @module
 */
import { load } from "../load.ts";
import { DialError, TransportError } from "../errors/mod.ts";
import { type Connection, openConnection } from "./connect.ts";
import {
  exchangeH1,
  type ResponseBody,
  type WireBody,
  type WireRequest,
  type WireResponse,
} from "./h1.ts";
import { DialResponse, WireHeaders } from "./wire_response.ts";
import { planFor, type TransportOptions, type TransportPlan } from "./plan.ts";
import { completeHead, REQUEST_TARGET, WIRE_HEAD } from "./wire.ts";
import { setResponseMeta } from "./response_meta.ts";
import { decodeBounded } from "./content_encoding.ts";
import {
  type ConnectionPool,
  keepConnection,
  planKey,
  shareConnection,
  sharedConnection,
  takeConnection,
} from "./pool.ts";
import { utf8ByteString } from "./build_request.ts";

export type { TransportOptions, TransportPlan } from "./plan.ts";
export { ConnectionPool } from "./pool.ts";
export { copyMeta, type ExchangeTiming, type ResponseMeta, responseMeta } from "./response_meta.ts";

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that sends through dial's own client with the given options. Header order and
 * case are kept as given (an array keeps its order); a `ReadableStream` body, or an async
 * iterable of chunks (as `openBody` makes of files), goes out with the `Content-Length` given
 * with it, chunked without one. Redirects are followed only when `redirect` is not `"manual"`
 * (send() follows them itself).
 *
 * @param options the transport options
 * @returns a fetch for `send()` and everything built on it
 * @example
 * ```ts
 * const fetch = transportFetch({ caCerts: [await Deno.readTextFile("ca.pem")] });
 * await send(spec, { fetch });
 * ```
 */
export function transportFetch(options: TransportOptions = {}): typeof fetch {
  const one = (url: URL, init: RequestInit) => fetchOnce(url, init, options);
  return async (input, init = {}) => {
    // Not `instanceof Request`: reading the global loads Deno's Request and Body code (~3 ms
    // of start-up) for every send, which passes a URL.
    const request = typeof input === "object" && !(input instanceof URL) ? input : undefined;
    if (request) {
      init = {
        method: request.method,
        headers: request.headers,
        ...(request.body ? { body: request.body } : {}),
        signal: request.signal,
        ...init,
      };
    }
    // A URL is read, never changed: send() hands over the request's own (no copy to parse).
    let url = input instanceof URL ? input : new URL(request ? request.url : input as string);
    if (init.redirect === "manual") return await one(url, init);
    // fetch's default: follow up to 20 redirects (a body that is a stream is not sent again).
    for (let hops = 0;; hops++) {
      const response = await one(url, init);
      const location = response.headers.get("location");
      if (![301, 302, 303, 307, 308].includes(response.status) || !location || hops >= 20) {
        return response;
      }
      await response.body?.cancel();
      const next = new URL(location, url);
      const method: string = (init.method ?? "GET").toUpperCase();
      const drop: boolean = response.status === 303 && method !== "HEAD" ||
        (response.status <= 302 && method === "POST");
      const headers: Headers = new Headers(init.headers);
      if (next.origin !== url.origin) headers.delete("authorization");
      if (drop) {
        for (const name of ["content-type", "content-length"]) headers.delete(name);
      }
      init = {
        ...init,
        method: drop ? "GET" : method,
        headers,
        ...(drop ? { body: null } : {}),
      };
      url = next;
    }
  };
}

async function fetchOnce(url: URL, init: RequestInit, options: TransportOptions) {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`Cannot send to ${url.protocol} URLs`);
  }
  init.signal?.throwIfAborted();
  const start = performance.now();
  const plan = planFor(url, options);
  options.onRoute?.(plan);
  // A body to extract is awaited; most requests (none, or chunks) build their head at once.
  const raw = init.body;
  const extracted = raw === undefined || raw === null || isChunks(raw)
    ? undefined
    : await extractBody(raw);
  const request = wireRequest(url, init, plan, extracted);
  const pool = options.pool;
  const key = pool ? planKey(plan, options) : "";
  let conn: Connection | undefined;
  try {
    // A kept connection the server closed meanwhile fails before any response: a request
    // that can be written again then goes on a new connection.
    const replayable = !request.body || "bytes" in request.body;
    const kept = replayable
      ? pool && (sharedConnection(pool, key) ?? takeConnection(pool, key))
      : undefined;
    if (kept) {
      try {
        const facts = {
          start,
          namelookup: start,
          connect: start,
          appconnect: start,
          reused: true,
          conn: kept,
        };
        return toResponse(await exchange(kept, request, pool, key), url, facts);
      } catch (error) {
        if (init.signal?.aborted || error instanceof DialError) throw error;
      }
    }
    conn = await openConnection(plan, init.signal ?? undefined, options.onRoute);
    if (pool) pool.opened++;
    if (plan.tls) options.onConnected?.(plan, conn.protocol);
    const facts = {
      start,
      namelookup: conn.opened?.namelookup,
      connect: conn.opened?.connect ?? start,
      appconnect: conn.opened?.appconnect ?? start,
      reused: false,
      conn,
    };
    return toResponse(await exchange(conn, request, pool, key), url, facts);
  } catch (error) {
    conn?.close();
    if (init.signal?.aborted || error instanceof DialError) throw error;
    // A TLS 1.3 server refuses a client certificate after the handshake, in the first read.
    const { tlsError } = await load.transportError();
    const tls = plan.tls ? tlsError(error, plan.target) : undefined;
    if (tls) throw tls;
    // fetch's contract: a network failure is a TypeError (its cause the runtime's error).
    throw new TypeError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

async function exchange(
  conn: Connection,
  request: WireRequest,
  pool: ConnectionPool | undefined,
  key: string,
): Promise<WireResponse> {
  if (conn.protocol === "h2") {
    const { exchangeH2 } = await load.h2();
    return await exchangeH2(
      conn,
      request,
      pool ? (session) => shareConnection(pool, key, session) : undefined,
    );
  }
  // node:tls connections keep a read going: only the runtime's own sockets are kept idle.
  const release = pool && conn.keepable
    ? (reusable: boolean) => reusable && keepConnection(pool, key, conn)
    : undefined;
  return await exchangeH1(conn, request, release);
}

/**
 * @param body a fetch body
 * @returns whether it is read chunk by chunk: a stream, or an async iterable of chunks (files
 *   and forms from `openBody`), as Deno's fetch takes one. Not `instanceof ReadableStream`:
 *   reading that global loads Deno's streams code (~2 ms of start-up) for every send.
 */
function isChunks(
  body: BodyInit | null | undefined,
): body is ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> {
  const chunks = body as Partial<AsyncIterable<Uint8Array>> | null | undefined;
  return typeof chunks?.[Symbol.asyncIterator] === "function";
}

/** A body that is not chunks as bytes, and the Content-Type it implies (as fetch takes it). */
async function extractBody(raw: BodyInit): Promise<{ bytes: Uint8Array; type?: string }> {
  const extracted = new Response(raw);
  const type = extracted.headers.get("content-type") ?? undefined;
  return { bytes: new Uint8Array(await extracted.arrayBuffer()), ...(type ? { type } : {}) };
}

/**
 * Builds the bytes of the request: target form, head completed, body framed.
 *
 * @param extracted the body's bytes when it is not chunks ({@link extractBody})
 */
function wireRequest(
  url: URL,
  init: RequestInit,
  plan: TransportPlan,
  extracted?: { bytes: Uint8Array; type?: string },
): WireRequest {
  const method = init.method ?? "GET";
  // Pairs copied by index (see h1.ts's bodyFraming).
  const given: Array<[string, string]> = Array.isArray(init.headers)
    ? init.headers.map((line) => [line[0]!, line[1]!])
    : init.headers instanceof Headers
    ? [...init.headers]
    : Object.entries(init.headers ?? {});
  let body: WireBody | undefined;
  let defaultType: string | undefined;
  const raw = init.body;
  if (isChunks(raw)) {
    const declared = given.find(([name]) => name.toLowerCase() === "content-length")?.[1];
    body = { stream: raw, ...(declared !== undefined ? { length: Number(declared) } : {}) };
  } else if (extracted) {
    body = { bytes: extracted.bytes };
    defaultType = extracted.type;
  }
  const framing = !body
    ? "none"
    : "bytes" in body
    ? { length: body.bytes.length }
    : body.length === undefined
    ? "chunked"
    : { length: body.length };
  // A head from send() is complete as given; other callers (libraries) get dial's defaults.
  const complete = (init as { [WIRE_HEAD]?: boolean })[WIRE_HEAD] === true;
  // send()'s values are byte strings already, as fetch takes them.
  const head = complete
    ? given
    : byteStrings(completeHead(given, url, method, framing, defaultType));
  // OPTIONS *: a forwarding proxy gets the absolute form without a path (RFC 9112 §3.2.4).
  const asterisk = (init as { [REQUEST_TARGET]?: "*" })[REQUEST_TARGET] === "*";
  const target = plan.proxy?.mode === "forward"
    ? `${url.protocol}//${url.host}${asterisk ? "" : `${url.pathname}${url.search}`}`
    : asterisk
    ? "*"
    : `${url.pathname || "/"}${url.search}`;
  return {
    method,
    target,
    authority: url.host,
    scheme: url.protocol.slice(0, -1),
    headers: plan.proxy?.mode === "forward" ? [...head, ...proxyAuthorization(plan)] : head,
    ...(body ? { body } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  };
}

/** Header values as byte strings, as fetch takes them: text beyond Latin-1 goes as UTF-8. */
function byteStrings(head: Array<[string, unknown]>): Array<[string, string]> {
  return head.map(([name, value]) => {
    const text = String(value);
    return [name, /[\u0100-\uffff]/.test(text) ? utf8ByteString(text) : text];
  });
}

function proxyAuthorization(plan: TransportPlan): Array<[string, string]> {
  const url = plan.proxy!.url;
  if (!url.username && !url.password) return [];
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return [["proxy-authorization", `Basic ${btoa(utf8ByteString(pair))}`]];
}

/**
 * The wire response as a web Response (wire_response.ts: the runtime's Headers, stream and
 * Response are made only when asked for): codings undone (gzip, br), version and reason kept.
 */
function toResponse(
  wire: WireResponse,
  url: URL,
  facts: {
    start: number;
    namelookup: number | undefined;
    connect: number;
    appconnect: number;
    reused: boolean;
    conn: Connection;
  },
): Response {
  if (wire.status < 200 || wire.status > 599) {
    void wire.body?.cancel();
    throw new TransportError(
      `Cannot use the response of ${url.host}: status ${wire.status} is not a final HTTP status`,
    );
  }
  let headers: WireHeaders;
  try {
    headers = new WireHeaders(wire.headers);
  } catch {
    void wire.body?.cancel();
    const bad = wire.headers.find(([name, value]) => {
      try {
        new WireHeaders([[name, value]]);
        return false;
      } catch {
        return true;
      }
    });
    throw new TransportError(
      `Cannot use the response of ${url.host}: malformed header ${JSON.stringify(bad?.[0])}`,
    );
  }
  let body: ResponseBody | ReadableStream<Uint8Array> | null = NULL_BODY.has(wire.status)
    ? null
    : wire.body;
  if (body === null) void wire.body?.cancel();
  const coding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  const format = coding === "gzip" || coding === "x-gzip"
    ? "gzip"
    : coding === "br"
    ? "brotli"
    : undefined;
  if (body && format) body = decodeBounded((body as ResponseBody).open(), format, url.host);
  const reason = /^[\t\x20-\x7e\x80-\xff]*$/.test(wire.reason) ? wire.reason : "";
  const response = new DialResponse({
    status: wire.status,
    statusText: reason,
    headers,
    url: url.href,
    body,
  });
  const now = performance.now();
  setResponseMeta(response, {
    version: wire.version,
    reason,
    timing: {
      start: facts.start,
      ...(facts.namelookup !== undefined ? { namelookup: facts.namelookup } : {}),
      connect: facts.connect,
      appconnect: facts.appconnect,
      pretransfer: wire.timing?.pretransfer ?? facts.appconnect,
      starttransfer: wire.timing?.starttransfer ?? now,
    },
    ...(facts.conn.remote ? { remote: facts.conn.remote } : {}),
    ...(wire.headSize !== undefined ? { headSize: wire.headSize } : {}),
    reused: facts.reused,
  });
  return response;
}
