/**
 * A server that never finishes: it answers 200 with a chunked body and sends one byte every
 * 100 ms, and records when each connection is closed by the other side.
 * @module
 */

/** One connection to the trickling server. */
export interface TrickleConnection {
  /** When the request head had arrived (performance.now()). */
  openedAt: number;
  /** Resolves with performance.now() when the client closed the connection. */
  closed: Promise<number>;
}

/** A running trickling server. */
export interface TrickleServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The connections so far. */
  connections: TrickleConnection[];
  /** Resolves with the n-th connection (1-based) once its head has arrived. */
  connection(n: number): Promise<TrickleConnection>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** @returns a trickling server on 127.0.0.1, port 0 */
export function trickleServer(): TrickleServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections: TrickleConnection[] = [];
  const waiters: Array<() => void> = [];
  const open = new Set<Deno.Conn>();
  const handle = async (conn: Deno.Conn) => {
    open.add(conn);
    const buffer = new Uint8Array(65536);
    let head = "";
    while (!head.includes("\r\n\r\n")) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) return;
      head += new TextDecoder().decode(buffer.subarray(0, n));
    }
    const closed = (async () => {
      while ((await conn.read(buffer).catch(() => null)) !== null) {
        // a request body or a pipelined request: ignored
      }
      return performance.now();
    })();
    connections.push({ openedAt: performance.now(), closed });
    for (const wake of waiters.splice(0)) wake();
    const encoder = new TextEncoder();
    try {
      await conn.write(encoder.encode(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n",
      ));
      let done = false;
      closed.then(() => done = true);
      while (!done) {
        await conn.write(encoder.encode("1\r\nx\r\n"));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } catch {
      // the client went away
    } finally {
      open.delete(conn);
      try {
        conn.close();
      } catch {
        // closed already
      }
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) void handle(conn);
  })().catch(() => {});
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    connections,
    connection(n) {
      return new Promise((resolve) => {
        const check = () => {
          const found = connections[n - 1];
          if (found) resolve(found);
          else waiters.push(check);
        };
        check();
      });
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // closed already
        }
      }
      await accepting;
    },
  };
}
