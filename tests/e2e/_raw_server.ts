/**
 * A raw TCP HTTP/1.1 server for tests where exact bytes matter: it records each request as it
 * arrives (head, framing and body exactly as sent, so tests see what fetch, node:http or curl
 * put on the wire) and answers with a status, headers and body, or with exact response bytes
 * (fetch-based servers normalise the status line, headers and framing).
 * @module
 */

/** One request as received. */
export interface RawRequest {
  /** The request line, e.g. `GET /x HTTP/1.1`. */
  line: string;
  /** Header lines as received (name case kept), in order; values one character per byte. */
  headers: Array<[string, string]>;
  /** The head's bytes as received, for byte-level checks. */
  head: Uint8Array;
  /** The body with framing removed. */
  body: Uint8Array;
  /** `length`, `chunked` or `none`. */
  framing: "length" | "chunked" | "none";
}

/** An answer as parts: status line text, headers and body (Content-Length added). */
export interface RawAnswer {
  status?: string;
  headers?: Array<[string, string]>;
  body?: string;
}

/** A running raw server. */
export interface RawServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The port. */
  port: number;
  /** Requests received so far. */
  requests: RawRequest[];
}

/** Options of {@link rawServer}. */
export interface RawServerOptions {
  /** Listen with TLS (HTTP/1.1 offered by ALPN): PEM certificate and key text. */
  tls?: { cert: string; key: string };
}

/**
 * Starts a server that answers each request, then closes the connection.
 *
 * @param answer the answer to each request: parts (default `200 OK`, body `ok`), or the exact
 *   response bytes (see {@link rawResponse})
 * @param options TLS
 * @returns the server; its origin is `https://localhost:<port>` with TLS
 */
export function rawServer(
  answer: (request: RawRequest) => RawAnswer | Uint8Array = () => ({}),
  options: RawServerOptions = {},
): RawServer {
  const listener: Deno.Listener = options.tls
    ? Deno.listenTls({
      hostname: "127.0.0.1",
      port: 0,
      cert: options.tls.cert,
      key: options.tls.key,
      alpnProtocols: ["http/1.1"],
    })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: RawRequest[] = [];
  const conns = new Map<Deno.Conn, Promise<void>>();
  const loop = (async () => {
    for await (const conn of listener) {
      const done = handle(conn).catch(() => {
        // The client went away.
      }).finally(() => {
        conns.delete(conn);
        try {
          conn.close();
        } catch { /* closed */ }
      });
      conns.set(conn, done);
    }
  })();
  async function handle(conn: Deno.Conn) {
    const request = await readRequest(new Reader(conn));
    requests.push(request);
    const reply = answer(request);
    let bytes = reply instanceof Uint8Array ? reply : answerBytes(reply);
    while (bytes.byteLength > 0) bytes = bytes.subarray(await conn.write(bytes));
  }
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    origin: options.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    port,
    requests,
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop.catch(() => {});
      for (const conn of conns.keys()) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await Promise.all(conns.values());
    },
  };
}

/**
 * @param request a recorded request
 * @param name a header name, any case
 * @returns every value of that header
 */
export function headerValues(request: RawRequest, name: string): string[] {
  return request.headers.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
}

/**
 * @param request a recorded request
 * @returns its path and query, from the request line
 */
export function requestPath(request: RawRequest): string {
  return request.line.split(" ")[1] ?? "";
}

/**
 * @param body the JSON text
 * @returns an answer of `200 OK` with that body as `application/json`, for {@link rawServer}
 */
export function jsonAnswer(body: string): () => RawAnswer {
  return () => ({ headers: [["Content-Type", "application/json"]], body });
}

/**
 * Exact response bytes, for a server that must send what fetch-based servers would not.
 *
 * @param status the status line after the version, e.g. `299 Custom Thing`
 * @param headers header lines
 * @param body the body
 * @param version the protocol version on the status line
 * @returns a complete response with Content-Length and `Connection: close`
 */
export function rawResponse(
  status: string,
  headers: Record<string, string>,
  body: Uint8Array | string,
  version = "HTTP/1.1",
): Uint8Array {
  const lines = [`${version} ${status}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return withHead(lines, typeof body === "string" ? new TextEncoder().encode(body) : body);
}

function answerBytes(answer: RawAnswer): Uint8Array {
  const lines = [`HTTP/1.1 ${answer.status ?? "200 OK"}`];
  for (const [name, value] of answer.headers ?? []) lines.push(`${name}: ${value}`);
  return withHead(lines, new TextEncoder().encode(answer.body ?? "ok"));
}

function withHead(lines: string[], body: Uint8Array): Uint8Array {
  const head = [...lines, `Content-Length: ${body.byteLength}`, "Connection: close", "", ""];
  return concat([new TextEncoder().encode(head.join("\r\n")), body]);
}

async function readRequest(reader: Reader): Promise<RawRequest> {
  const head = await reader.until(CRLF2);
  // One character per byte (TextDecoder's "latin1" is windows-1252 and remaps 0x80-0x9F).
  const text = Array.from(head, (b) => String.fromCharCode(b)).join("");
  const [line = "", ...rest] = text.split("\r\n").filter((l) => l !== "");
  const headers = rest.map((l) => {
    const i = l.indexOf(":");
    return [l.slice(0, i), l.slice(i + 1).trim()] as [string, string];
  });
  const get = (n: string) => headers.find(([k]) => k.toLowerCase() === n)?.[1];
  if (get("transfer-encoding")?.toLowerCase() === "chunked") {
    const parts: Uint8Array[] = [];
    for (;;) {
      const size = parseInt(new TextDecoder().decode(await reader.until(CRLF)), 16);
      if (size === 0) {
        await reader.until(CRLF);
        break;
      }
      parts.push(await reader.take(size));
      await reader.take(2);
    }
    return { line, headers, head, body: concat(parts), framing: "chunked" };
  }
  const length = get("content-length");
  if (length === undefined) {
    return { line, headers, head, body: new Uint8Array(0), framing: "none" };
  }
  return { line, headers, head, body: await reader.take(Number(length)), framing: "length" };
}

const CRLF = new Uint8Array([13, 10]);
const CRLF2 = new Uint8Array([13, 10, 13, 10]);

/**
 * @param parts byte arrays
 * @returns them one after the other in one array
 */
export function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

class Reader {
  #conn: Deno.Conn;
  #buffer: Uint8Array = new Uint8Array(0);
  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }
  async #fill(): Promise<void> {
    const chunk = new Uint8Array(65536);
    const n = await this.#conn.read(chunk);
    if (n === null) throw new Error("connection closed");
    this.#buffer = concat([this.#buffer, chunk.subarray(0, n)]);
  }
  async until(marker: Uint8Array): Promise<Uint8Array> {
    for (;;) {
      const at = indexOf(this.#buffer, marker);
      if (at >= 0) {
        const out = this.#buffer.slice(0, at);
        this.#buffer = this.#buffer.slice(at + marker.byteLength);
        return out;
      }
      await this.#fill();
    }
  }
  async take(n: number): Promise<Uint8Array> {
    while (this.#buffer.byteLength < n) await this.#fill();
    const out = this.#buffer.slice(0, n);
    this.#buffer = this.#buffer.slice(n);
    return out;
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.byteLength <= haystack.byteLength; i++) {
    for (let j = 0; j < needle.byteLength; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}
