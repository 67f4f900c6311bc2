/**
 * HTTP/2 on a connection whose TLS handshake chose `h2`, through `node:http2` (Deno has no
 * HTTP/2 client API of its own besides fetch, which cannot run on a connection dial opened).
 * Loaded only when a server chooses HTTP/2.
 * @module
 */
import { Buffer } from "node:buffer";
import http2 from "node:http2";
import { Duplex } from "node:stream";
import type { Connection } from "./connect.ts";
import { streamBody, type WireRequest, type WireResponse } from "./h1.ts";

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2); `Host` becomes `:authority`. */
const CONNECTION_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "host",
]);

/** A kept HTTP/2 connection: more requests go on it as streams of the same session. */
export interface SharedSession {
  /** The connection. */
  conn: Connection;
  /** Whether the session can take another request (not closed, no GOAWAY received). */
  alive(): boolean;
  /** Ends the session and closes the connection. */
  close(): void;
}

/** The session on each HTTP/2 connection (one per connection, made by its first request). */
const sessions = new WeakMap<Connection, http2.ClientHttp2Session>();

/**
 * Sends one request over HTTP/2 and reads the response head. Without `share`, the session
 * closes when the body ends or is cancelled; with it, the session is handed to `share` when it
 * is made and stays open for the next request to the same place, until the pool closes it.
 *
 * @param conn a TLS connection that negotiated `h2`
 * @param request the request
 * @param share keeps the session for more requests (the connection pool)
 * @returns the response
 */
export async function exchangeH2(
  conn: Connection,
  request: WireRequest,
  share?: (session: SharedSession) => void,
): Promise<WireResponse> {
  const live = sessionOf(conn, request, share);
  const endSession = () => {
    live.destroy();
    conn.close();
  };
  // A kept session ends with the pool; a request then ends only its own stream.
  const close = () => share ? stream.close() : endSession();
  let onError: ((error: unknown) => void) | undefined;
  const failed = new Promise<never>((_, reject) => live.once("error", onError = reject));
  failed.catch(() => {});
  const stream = live.request(h2Headers(request), { endStream: !request.body });
  const onAbort = () => share ? stream.destroy() : endSession();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  // Aborted while connecting or loading this module: the event has passed already.
  if (request.signal?.aborted) onAbort();
  stream.once("close", () => request.signal?.removeEventListener("abort", onAbort));
  const writing = writeBody(stream, request).catch((error) => stream.destroy(error));
  const head = await Promise.race([
    new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      stream.once("response", resolve);
      stream.once("error", reject);
      stream.once("close", () => reject(new Error("the server closed the HTTP/2 stream")));
    }),
    failed,
  ]).catch((error) => {
    close();
    throw request.signal?.aborted ? request.signal.reason : error;
  }).finally(() => live.off("error", onError!));
  void writing;
  const status = Number(head[":status"]);
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(head)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const one of [value].flat()) out.push([name, String(one)]);
  }
  // A response whose HEADERS ended the stream (a redirect without a body) has ended already:
  // no 'end' would come to a body made now.
  const noBody = request.method === "HEAD" || status === 204 || status === 304 ||
    stream.endAfterHeaders || stream.readableEnded;
  if (noBody) {
    stream.resume();
    if (stream.closed) close();
    else stream.once("close", close);
    return { version: "HTTP/2", status, reason: "", headers: out, body: null };
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream.on("data", (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) stream.pause();
      });
      stream.once("end", () => {
        controller.close();
        close();
      });
      stream.once("error", (error) => {
        controller.error(request.signal?.aborted ? request.signal.reason : error);
        close();
      });
    },
    pull() {
      stream.resume();
    },
    cancel() {
      close();
    },
  });
  return { version: "HTTP/2", status, reason: "", headers: out, body: streamBody(body) };
}

/**
 * The connection's session, made by its first request: a session error fails only the request
 * in flight, a GOAWAY stops new requests on it, and `share` (the pool) gets it to keep.
 */
function sessionOf(
  conn: Connection,
  request: WireRequest,
  share: ((session: SharedSession) => void) | undefined,
): http2.ClientHttp2Session {
  const session = sessions.get(conn);
  if (session && !session.closed && !session.destroyed) return session;
  const socket = Duplex.fromWeb(conn.streams());
  const made = http2.connect(`${request.scheme}://${request.authority}`, {
    createConnection: () => socket,
  });
  sessions.set(conn, made);
  // A session error also fails the request in flight (exchangeH2); here it only must not throw.
  made.on("error", () => {});
  let away = false;
  made.once("goaway", () => away = true);
  made.once("close", () => conn.close());
  share?.({
    conn,
    alive: () => !away && !made.closed && !made.destroyed,
    close: () => {
      made.destroy();
      conn.close();
    },
  });
  return made;
}

/**
 * The request's HTTP/2 header block: the pseudo-headers (`Host` becomes `:authority`), then
 * the headers HTTP/2 allows, lower-cased, repeated ones as lists.
 */
function h2Headers(request: WireRequest): Record<string, string | string[]> {
  const host = request.headers.find(([name]) => name.toLowerCase() === "host")?.[1];
  const headers: Record<string, string | string[]> = {
    ":method": request.method,
    ":path": request.target,
    ":scheme": request.scheme,
    ":authority": host ?? request.authority,
  };
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase();
    if (CONNECTION_HEADERS.has(key)) continue;
    const had = headers[key];
    headers[key] = had === undefined ? value : [...[had].flat(), value];
  }
  return headers;
}

async function writeBody(stream: http2.ClientHttp2Stream, request: WireRequest): Promise<void> {
  const body = request.body;
  if (!body) return;
  const write = (bytes: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      if (stream.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) {
        return resolve();
      }
      const onDrain = () => {
        stream.off("close", onClose);
        resolve();
      };
      const onClose = () => {
        stream.off("drain", onDrain);
        reject(new Error("the HTTP/2 stream closed while sending"));
      };
      stream.once("drain", onDrain).once("close", onClose);
    });
  if ("bytes" in body) await write(body.bytes);
  else {
    let sent = 0;
    for await (const chunk of body.stream) {
      sent += chunk.length;
      await write(chunk);
    }
    if (body.length !== undefined && sent !== body.length) {
      throw new Error(
        `the body changed while it was sent: ${body.length} bytes announced, ${sent} read`,
      );
    }
  }
  stream.end();
}
