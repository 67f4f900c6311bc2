/**
 * Connection limits in front of the UI server: the public TCP port is a small relay to the
 * HTTP server, which listens on a Unix socket in a private directory. The relay admits at most
 * {@link MAX_CONNECTIONS} open connections and gives a new connection
 * {@link HEAD_TIMEOUT_MS} to send its first request head (a client that has a session sends it
 * at once); then it only copies bytes both ways, and closing either side closes both, so the
 * server notices at once when the browser goes away.
 * @module
 */

/** The most connections open at once; beyond, a new one gets 503 and is closed. */
export const MAX_CONNECTIONS = 256;
/** How long a new connection has to send its first request head. */
export const HEAD_TIMEOUT_MS = 5_000;
/** The longest first request head accepted. */
const MAX_HEAD = 64 * 1024;

/** A running relay. */
export interface FrontDoor {
  /** The public port. */
  port: number;
  /** How many connections are open now. */
  readonly open: number;
  /** Stops accepting and closes every connection. */
  close(): Promise<void>;
}

const END_OF_HEAD = new TextEncoder().encode("\r\n\r\n");

function endOfHead(bytes: Uint8Array, length: number): boolean {
  outer: for (let i = 0; i + 4 <= length; i++) {
    for (let j = 0; j < 4; j++) if (bytes[i + j] !== END_OF_HEAD[j]) continue outer;
    return true;
  }
  return false;
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // closed already
  }
}

/** Reads until the first head is complete, or gives up at the deadline or the size limit. */
async function readHead(conn: Deno.Conn): Promise<Uint8Array | undefined> {
  const buffer = new Uint8Array(MAX_HEAD);
  let length = 0;
  const timer = setTimeout(() => closeQuietly(conn), HEAD_TIMEOUT_MS);
  try {
    while (length < MAX_HEAD) {
      const n = await conn.read(buffer.subarray(length));
      if (n === null) return undefined;
      length += n;
      if (endOfHead(buffer, length)) return buffer.subarray(0, length);
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function copy(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) return;
      let written = 0;
      while (written < n) written += await to.write(buffer.subarray(written, n));
    }
  } catch {
    // either side went away
  }
}

/**
 * Starts relaying a public TCP port to a Unix socket.
 *
 * @param listen where to listen
 * @param socketPath the HTTP server's Unix socket
 * @returns the relay
 * @throws {Deno.errors.AddrInUse} when the port is taken
 */
export function openFrontDoor(
  listen: { hostname: string; port: number },
  socketPath: string,
): FrontDoor {
  const listener = Deno.listen({ ...listen, transport: "tcp" });
  const clients = new Set<Deno.Conn>();
  const conns = new Set<Deno.Conn>();
  const relay = async (conn: Deno.Conn) => {
    if (clients.size >= MAX_CONNECTIONS) {
      await conn.write(
        new TextEncoder().encode(
          "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
        ),
      ).catch(() => {});
      closeQuietly(conn);
      return;
    }
    clients.add(conn);
    conns.add(conn);
    let server: Deno.Conn | undefined;
    try {
      const head = await readHead(conn);
      if (!head) return;
      server = await Deno.connect({ transport: "unix", path: socketPath });
      conns.add(server);
      let written = 0;
      while (written < head.length) written += await server.write(head.subarray(written));
      // Whichever side ends first ends both.
      await Promise.race([copy(conn, server), copy(server, conn)]);
    } catch {
      // the server stopped or the client went away
    } finally {
      closeQuietly(conn);
      clients.delete(conn);
      conns.delete(conn);
      if (server) {
        closeQuietly(server);
        conns.delete(server);
      }
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) void relay(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    get open() {
      return clients.size;
    },
    async close() {
      try {
        listener.close();
      } catch {
        // closed already
      }
      for (const conn of conns) closeQuietly(conn);
      await accepting;
    },
  };
}
