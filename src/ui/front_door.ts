/**
 * Connection limits in front of the UI server: the public TCP port is a small relay to the
 * HTTP server, which listens on a Unix socket in a private directory. The relay admits at most
 * {@link MAX_CONNECTIONS} open connections and gives a new connection
 * {@link HEAD_TIMEOUT_MS} to send its first request head (a client that has a session sends it
 * at once); then it only copies bytes both ways, and closing either side closes both, so the
 * server notices at once when the browser goes away.
 *
 * The first head tells what a connection is ({@link Standing}): one that carries the session
 * is the user's and is never cut; a public one (the app shell, the session trade: anyone on
 * the machine can send those) is closed after {@link IDLE_TIMEOUT_MS} without a byte either
 * way, and when the relay is full a new connection takes the place of the public one idle the
 * longest. So another local user holding a thousand idle connections cannot lock the UI: each
 * of the user's own connections still gets in. A stream bridge upgrade proves its session in
 * its first message, which the relay does not see: it counts as public until the server's
 * hello deadline ({@link HELLO_DEADLINE_MS}) has passed, after which only a proven one is left.
 * @module
 */

/** The most connections open at once; beyond, a new one replaces an idle public one, or gets 503. */
export const MAX_CONNECTIONS = 256;
/** How long a new connection has to send its first request head. */
export const HEAD_TIMEOUT_MS = 5_000;
/** How long a public connection (no session) may stay open without a byte either way. */
export const IDLE_TIMEOUT_MS = 5_000;
/** The stream bridge closes a socket that has not proven its session by then. */
export const HELLO_DEADLINE_MS = 5_000;
/** The longest first request head accepted. */
const MAX_HEAD = 64 * 1024;

/** What a connection's first request head shows it to be. */
export type Standing = "session" | "upgrade" | "public";

/** Options for {@link openFrontDoor}. */
export interface FrontDoorOptions {
  /** Tells a connection's standing from its first head; default: every one is public. */
  standing?: (head: Uint8Array) => Standing;
  /**
   * Whether later bytes from a public connection carry the session (a browser reuses the
   * connection that fetched the app shell for its API calls); such a connection becomes the
   * user's.
   */
  proves?: (bytes: Uint8Array) => boolean;
}

interface Client {
  conn: Deno.Conn;
  standing: Standing | "new";
  openedAt: number;
  lastActive: number;
  idleTimer?: ReturnType<typeof setTimeout>;
}

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

async function copy(
  from: Deno.Conn,
  to: Deno.Conn,
  onActive: (bytes: Uint8Array) => void,
): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) return;
      onActive(buffer.subarray(0, n));
      let written = 0;
      while (written < n) written += await to.write(buffer.subarray(written, n));
    }
  } catch {
    // either side went away
  }
}

/** @returns whether the client may be closed to make room for a new connection */
function evictable(client: Client, now: number): boolean {
  return client.standing === "new" || client.standing === "public" ||
    (client.standing === "upgrade" && now - client.openedAt < HELLO_DEADLINE_MS);
}

/**
 * Starts relaying a public TCP port to a Unix socket.
 *
 * @param listen where to listen
 * @param socketPath the HTTP server's Unix socket
 * @param options how to tell a connection's standing from its first head
 * @returns the relay
 * @throws {Deno.errors.AddrInUse} when the port is taken
 */
export function openFrontDoor(
  listen: { hostname: string; port: number },
  socketPath: string,
  options: FrontDoorOptions = {},
): FrontDoor {
  const listener = Deno.listen({ ...listen, transport: "tcp" });
  const clients = new Map<Deno.Conn, Client>();
  const conns = new Set<Deno.Conn>();
  const drop = (client: Client) => {
    clearTimeout(client.idleTimer);
    clients.delete(client.conn);
    closeQuietly(client.conn);
  };
  /** Closes the public connection idle the longest; false when every one is the user's. */
  const makeRoom = (): boolean => {
    const now = performance.now();
    let oldest: Client | undefined;
    for (const client of clients.values()) {
      if (evictable(client, now) && (!oldest || client.lastActive < oldest.lastActive)) {
        oldest = client;
      }
    }
    if (oldest) drop(oldest);
    return oldest !== undefined;
  };
  const relay = async (conn: Deno.Conn) => {
    if (clients.size >= MAX_CONNECTIONS && !makeRoom()) {
      await conn.write(
        new TextEncoder().encode(
          "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
        ),
      ).catch(() => {});
      closeQuietly(conn);
      return;
    }
    const now = performance.now();
    const client: Client = { conn, standing: "new", openedAt: now, lastActive: now };
    clients.set(conn, client);
    conns.add(conn);
    const onActive = (fromClient?: Uint8Array) => {
      client.lastActive = performance.now();
      if (client.standing !== "public") return;
      clearTimeout(client.idleTimer);
      if (fromClient && options.proves?.(fromClient)) client.standing = "session";
      else client.idleTimer = setTimeout(() => drop(client), IDLE_TIMEOUT_MS);
    };
    let server: Deno.Conn | undefined;
    try {
      const head = await readHead(conn);
      if (!head || !clients.has(conn)) return;
      client.standing = options.standing?.(head) ?? "public";
      onActive();
      server = await Deno.connect({ transport: "unix", path: socketPath });
      conns.add(server);
      let written = 0;
      while (written < head.length) written += await server.write(head.subarray(written));
      // Whichever side ends first ends both.
      await Promise.race([copy(conn, server, onActive), copy(server, conn, () => onActive())]);
    } catch {
      // the server stopped or the client went away
    } finally {
      drop(client);
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
      for (const client of clients.values()) clearTimeout(client.idleTimer);
      for (const conn of conns) closeQuietly(conn);
      await accepting;
    },
  };
}
