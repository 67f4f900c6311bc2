/**
 * A raw TCP HTTP/1.1 listener that records each request as it arrives: head, framing and body
 * exactly as sent, so tests see what fetch, node:http or curl put on the wire. (For responses
 * whose exact bytes matter, see _raw_server.ts.)
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

/** What the server answers: status line text, headers and body. */
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

/**
 * @param answer the answer to each request (default `200 OK`, body `ok`)
 * @returns the server
 */
export function rawServer(answer: (request: RawRequest) => RawAnswer = () => ({})): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: RawRequest[] = [];
  const conns = new Set<Deno.Conn>();
  const loop = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      handle(conn).catch(() => {}).finally(() => {
        conns.delete(conn);
        try {
          conn.close();
        } catch { /* closed */ }
      });
    }
  })();
  async function handle(conn: Deno.Conn) {
    const reader = new Reader(conn);
    const headBytes = await reader.until(new TextEncoder().encode("\r\n\r\n"));
    // One character per byte (TextDecoder's "latin1" is windows-1252 and remaps 0x80-0x9F).
    const text = Array.from(headBytes, (b) => String.fromCharCode(b)).join("");
    const [line = "", ...rest] = text.split("\r\n").filter((l) => l !== "");
    const headers = rest.map((l) => {
      const i = l.indexOf(":");
      return [l.slice(0, i), l.slice(i + 1).trim()] as [string, string];
    });
    const get = (n: string) => headers.find(([k]) => k.toLowerCase() === n)?.[1];
    let body: Uint8Array = new Uint8Array(0);
    let framing: RawRequest["framing"] = "none";
    if (get("transfer-encoding")?.toLowerCase() === "chunked") {
      framing = "chunked";
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
      body = concat(parts);
    } else if (get("content-length") !== undefined) {
      framing = "length";
      body = await reader.take(Number(get("content-length")));
    }
    const request = { line, headers, head: headBytes, body, framing };
    requests.push(request);
    const a = answer(request);
    const payload = new TextEncoder().encode(a.body ?? "ok");
    const lines = [`HTTP/1.1 ${a.status ?? "200 OK"}`];
    for (const [k, v] of a.headers ?? []) lines.push(`${k}: ${v}`);
    lines.push(`content-length: ${payload.byteLength}`, "connection: close", "", "");
    await conn.write(concat([new TextEncoder().encode(lines.join("\r\n")), payload]));
  }
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await loop.catch(() => {});
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

const CRLF = new Uint8Array([13, 10]);

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
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
