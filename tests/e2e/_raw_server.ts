/**
 * A raw TCP HTTP server for tests where the exact bytes of the status line, headers or
 * framing matter (fetch-based servers normalise them).
 * @module
 */

/** A running raw server. */
export interface RawServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The request heads received, in order (request line and headers as sent). */
  heads: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a server that reads each request head and writes back whatever `respond` returns,
 * then closes the connection.
 *
 * @param respond the raw response bytes for a request head
 * @returns the server
 */
export function rawServer(respond: (head: string) => Uint8Array | string): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heads: string[] = [];
  const connections = new Set<Promise<void>>();
  const serveOne = async (conn: Deno.Conn) => {
    try {
      let text = "";
      const buffer = new Uint8Array(16384);
      while (!text.includes("\r\n\r\n")) {
        const n = await conn.read(buffer);
        if (n === null) return;
        text += new TextDecoder().decode(buffer.subarray(0, n));
      }
      const head = text.slice(0, text.indexOf("\r\n\r\n"));
      heads.push(head);
      const reply = respond(head);
      let bytes = typeof reply === "string" ? new TextEncoder().encode(reply) : reply;
      while (bytes.length > 0) bytes = bytes.subarray(await conn.write(bytes));
    } catch {
      // The client went away.
    } finally {
      conn.close();
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      const done = serveOne(conn);
      connections.add(done);
      done.finally(() => connections.delete(done));
    }
  })();
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    heads,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting.catch(() => {});
      await Promise.all(connections);
    },
  };
}

/**
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
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const lines = [`${version} ${status}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${bytes.length}`, "Connection: close", "", "");
  const head = new TextEncoder().encode(lines.join("\r\n"));
  const all = new Uint8Array(head.length + bytes.length);
  all.set(head);
  all.set(bytes, head.length);
  return all;
}
