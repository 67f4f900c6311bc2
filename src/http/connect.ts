/**
 * Opening the connection a {@link TransportPlan} describes: the socket (TCP or Unix), the
 * proxy's CONNECT tunnel, and TLS with the plan's trust and ALPN. The connect timeout bounds
 * all of it, as curl's `--connect-timeout` does.
 * @module
 */
import { load } from "../load.ts";
import { TlsError } from "../errors/mod.ts";
import { bareHost, isIpAddress } from "./authority.ts";
import { TransportError } from "../errors/mod.ts";
import type { TransportPlan } from "./plan.ts";
import { proxyTarget } from "./proxy.ts";
import { utf8ByteString } from "./build_request.ts";

/** An open connection to the server. */
export interface Connection {
  /** @returns the next bytes from the server, null at the end */
  read(): Promise<Uint8Array | null>;
  /** Reads the next bytes into a buffer (the runtime's own sockets); null at the end. */
  readInto?(view: Uint8Array): Promise<number | null>;
  /** Writes all of the bytes. */
  write(bytes: Uint8Array): Promise<void>;
  /** The connection as web streams (for node:http2); not mixed with read and write. */
  streams(): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
  /** The protocol to speak: `h2` when ALPN chose it, else HTTP/1.1. */
  protocol: "http/1.1" | "h2";
  /** Whether it may wait idle in a pool: no read is pending between exchanges. */
  keepable?: boolean;
  /**
   * When the name was resolved (only when timed apart: {@link TransportPlan.measureLookup}),
   * the socket was open and TLS was done (`performance.now()`).
   */
  opened?: { namelookup?: number; connect: number; appconnect: number };
  /** The peer's address. */
  remote?: { ip: string; port: number };
  /** Closes the connection (idempotent). */
  close(): void;
}

type Errors = typeof import("./transport_error.ts");

/**
 * Opens the connection for a plan.
 *
 * @param plan the plan
 * @param signal aborts connecting (Ctrl-C, `--timeout`)
 * @param onReplan told the plan that replaces it (a self-signed certificate: node:tls)
 * @returns the connection, TLS done
 * @throws {DialError} for a connect timeout, a refused tunnel or a failed certificate check
 */
export async function openConnection(
  plan: TransportPlan,
  signal?: AbortSignal,
  onReplan?: (plan: TransportPlan) => void,
): Promise<Connection> {
  try {
    return withFacts(await connectOnce(plan, signal));
  } catch (error) {
    // An issuer found in none of the trusted files may be in SSL_CERT_DIR, read only now (as
    // OpenSSL looks there only then): the store keeps them for the run's next connections.
    const check = error instanceof TlsError ? error.details.tlsCheck : undefined;
    const trust = plan.tls?.trust ?? plan.proxy?.trust;
    if (check === "unknown_issuer" && !signal?.aborted && trust?.addDirectories()) {
      return await openConnection(plan, signal, onReplan);
    }
    // Deno's verifier refuses a self-signed certificate given as its own CA: when a trusted
    // file holds it for this host, node:tls connects again (see node_tls.ts).
    const selfSigned = check === "self_signed";
    if (signal?.aborted || !selfSigned || plan.tls?.connector !== "deno") throw error;
    const { selfSignedPlan } = await load.plan();
    const again = selfSignedPlan(plan);
    if (!again) throw error;
    onReplan?.(again);
    return withFacts(await connectOnce(again, signal));
  }
}

/** The lookup's end, the socket's open time and peer, kept while connecting. */
const facts = new WeakMap<
  Connection,
  { namelookup?: number; connect: number; remote?: { ip: string; port: number } }
>();

function withFacts(conn: Connection): Connection {
  const known = facts.get(conn);
  return {
    ...conn,
    opened: {
      ...(known?.namelookup !== undefined ? { namelookup: known.namelookup } : {}),
      connect: known?.connect ?? performance.now(),
      appconnect: performance.now(),
    },
    ...(known?.remote ? { remote: known.remote } : {}),
  };
}

async function connectOnce(plan: TransportPlan, signal?: AbortSignal): Promise<Connection> {
  const controller = new AbortController();
  const errors: Errors | undefined = plan.connectTimeoutMs !== undefined || plan.proxy || plan.tls
    ? await load.transportError()
    : undefined;
  const timer = plan.connectTimeoutMs === undefined ? undefined : setTimeout(() => {
    controller.abort(
      errors!.connectTimeoutError(plan.target, plan.connectTimeoutMs! / 1000, plan.proxy),
    );
  }, plan.connectTimeoutMs);
  // One signal of both only when a connect timeout can abort: AbortSignal.any costs start-up
  // (the runtime's dependent-signal code compiled) on every plain request.
  const abort = !signal
    ? controller.signal
    : timer === undefined
    ? signal
    : AbortSignal.any([signal, controller.signal]);
  let conn: Deno.Conn | undefined;
  let opened: Opened | undefined;
  const tag = (made: Connection): Connection => {
    facts.set(made, {
      ...(opened?.namelookup !== undefined ? { namelookup: opened.namelookup } : {}),
      connect: opened?.connected ?? performance.now(),
      ...(opened?.remote ? { remote: opened.remote } : {}),
    });
    return made;
  };
  const bounded = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (abort.aborted) return reject(abort.reason);
      const onAbort = () => reject(abort.reason);
      abort.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => abort.removeEventListener("abort", onAbort));
    });
  try {
    try {
      opened = await openSocket(plan, abort, bounded);
      conn = opened.conn;
    } catch (error) {
      if (abort.aborted) throw abort.reason;
      if (plan.proxy) throw errors!.proxyError(error, plan.proxy, plan.target) ?? error;
      throw error;
    }
    if (plan.proxy?.url.protocol === "https:") {
      try {
        conn = await proxyTls(conn, plan.proxy, bounded);
      } catch (error) {
        if (abort.aborted) throw abort.reason;
        throw proxyTlsError(error, plan.proxy, errors!);
      }
    }
    if (plan.proxy?.mode === "tunnel") await bounded(tunnel(conn, plan, errors!));
    if (plan.proxy?.mode === "socks") {
      const { socksConnect } = await load.socks();
      await bounded(socksConnect(conn, plan));
    }
    const tls = plan.tls;
    if (!tls) return tag(fromConn(conn, "http/1.1"));
    try {
      if (tls.connector === "deno" && !(plan.proxy?.url.protocol === "https:")) {
        const secure = await bounded(Deno.startTls(conn as Deno.TcpConn, {
          hostname: tls.servername,
          caCerts: tls.trust.pems,
          alpnProtocols: tls.alpn,
        }));
        conn = secure;
        const { alpnProtocol } = await bounded(secure.handshake());
        return tag(fromConn(secure, alpnProtocol === "h2" ? "h2" : "http/1.1"));
      }
      // Deno's TLS cannot do this one (see node_tls.ts).
      const { startNodeTls } = await load.nodeTls();
      const open = conn;
      const secure = await bounded(startNodeTls(open, tls));
      return tag({
        ...fromStreams(secure.readable, secure.writable),
        protocol: secure.alpn === "h2" ? "h2" : "http/1.1",
        close: once(() => {
          secure.close();
          closeQuietly(open);
        }),
      });
    } catch (error) {
      if (abort.aborted) throw abort.reason;
      throw errors!.tlsError(error, plan.target) ?? error;
    }
  } catch (error) {
    if (conn) closeQuietly(conn);
    throw error;
  } finally {
    // Deno's timers load Node's timer code on first use (~5 ms): only touched when set.
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** A socket open: when its name was resolved, when it opened, its peer. */
interface Opened {
  conn: Deno.Conn;
  namelookup?: number;
  connected: number;
  remote?: { ip: string; port: number };
}

type Bounded = <T>(promise: Promise<T>) => Promise<T>;

/** Opens the plan's socket (TCP or Unix); a name resolved apart when the plan times it. */
async function openSocket(plan: TransportPlan, abort: AbortSignal, bounded: Bounded) {
  const endpoint = plan.endpoint;
  let hostname = endpoint.kind === "tcp" ? endpoint.hostname : "";
  if (plan.measureLookup) {
    const { lookupHost } = await load.lookup();
    hostname = await bounded(lookupHost(hostname));
  }
  // No name to resolve (an address, a Unix socket) or resolved apart: the lookup is over.
  const namelookup = plan.measureLookup || endpoint.kind === "unix" || isIpAddress(hostname)
    ? performance.now()
    : undefined;
  const conn = endpoint.kind === "unix"
    ? await bounded(Deno.connect({ transport: "unix", path: endpoint.path }))
    : await Deno.connect({ hostname, port: endpoint.port, signal: abort });
  // As curl and the runtime's fetch: no Nagle delay. With it, a small write after another
  // (the TLS handshake's, a request body after its head) waited for the peer's delayed ACK:
  // 40 ms more for an HTTPS GET to a loopback server.
  if (endpoint.kind === "tcp") (conn as Deno.TcpConn).setNoDelay(true);
  const opened: Opened = {
    conn,
    ...(namelookup !== undefined ? { namelookup } : {}),
    connected: performance.now(),
  };
  const address = conn.remoteAddr as Deno.NetAddr;
  if (address.transport === "tcp") opened.remote = { ip: address.hostname, port: address.port };
  return opened;
}

/** TLS with an `https://` proxy, verified against its trust. */
async function proxyTls(
  conn: Deno.Conn,
  proxy: NonNullable<TransportPlan["proxy"]>,
  bounded: Bounded,
): Promise<Deno.Conn> {
  const secure = await bounded(
    Deno.startTls(conn as Deno.TcpConn, {
      hostname: bareHost(proxy.url.hostname),
      caCerts: proxy.trust?.pems ?? [],
    }),
  );
  await bounded(secure.handshake());
  return secure;
}

function proxyTlsError(
  error: unknown,
  proxy: NonNullable<TransportPlan["proxy"]>,
  errors: Errors,
): unknown {
  const failed = errors.tlsError(error, `proxy ${proxyTarget(proxy.url)} (${proxy.source})`);
  if (!failed) return error;
  // -k is for the server's certificate, not the proxy's: only trusting its CA helps.
  return new TlsError(failed.message, failed.check, {
    details: failed.details,
    remedy: { trust: "proxy_certificate" },
    cause: error,
  });
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

/** The most bytes one read of a connection returns (fewer reads, fewer thread hand-offs). */
const READ_SIZE = 256 * 1024;

/** Reads and writes go straight to the runtime (web streams cost start-up time). */
function fromConn(conn: Deno.Conn, protocol: "http/1.1" | "h2"): Connection {
  // One buffer for every read; what a read returns is copied out at its exact size, so a
  // short read does not pin a large buffer.
  const buffer = new Uint8Array(READ_SIZE);
  return {
    async read() {
      const n = await conn.read(buffer);
      return n === null ? null : buffer.slice(0, n);
    },
    readInto: (view) => conn.read(view),
    write: (bytes) => writeAll(conn, bytes),
    streams: () => ({ readable: conn.readable, writable: conn.writable }),
    protocol,
    keepable: true,
    close: once(() => closeQuietly(conn)),
  };
}

function fromStreams(
  readable: ReadableStream<Uint8Array>,
  writable: WritableStream<Uint8Array>,
): Pick<Connection, "read" | "write" | "streams"> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  return {
    async read() {
      const { value, done } = await (reader ??= readable.getReader()).read();
      return done ? null : value;
    },
    write: (bytes) => (writer ??= writable.getWriter()).write(bytes),
    streams: () => ({ readable, writable }),
  };
}

/** Asks the proxy for a tunnel to the server; the reply is read byte-exact, leaving none. */
async function tunnel(conn: Deno.Conn, plan: TransportPlan, errors: Errors): Promise<void> {
  const proxy = plan.proxy!;
  const authority = proxy.authority;
  const credentials = proxy.url.username || proxy.url.password
    ? `Proxy-Authorization: Basic ${
      btoa(
        utf8ByteString(
          `${decodeURIComponent(proxy.url.username)}:${decodeURIComponent(proxy.url.password)}`,
        ),
      )
    }\r\n`
    : "";
  const request = `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`;
  await writeAll(conn, Uint8Array.from(request, (c) => c.charCodeAt(0)));
  // Byte by byte up to the blank line: TLS starts right after, on the same socket.
  let head = "";
  const byte = new Uint8Array(1);
  while (!head.endsWith("\r\n\r\n")) {
    const n = await conn.read(byte);
    if (n === null) {
      throw errors.proxyError(
        new Error("unsuccessful tunnel: the proxy closed the connection during CONNECT"),
        proxy,
        plan.target,
      )!;
    }
    head += String.fromCharCode(byte[0]!);
    if (head.length > 64 * 1024) break;
  }
  const status = /^HTTP\/1\.[01] (\d{3})([^\r\n]*)/.exec(head);
  if (!status || status[1] !== "200") {
    throw errors.proxyError(
      new Error(
        `unsuccessful tunnel: the proxy answered CONNECT with ${
          status ? `HTTP ${status[1]}${status[2]}` : "no HTTP status"
        }`,
      ),
      proxy,
      plan.target,
    ) ?? new TransportError(`Proxy ${proxyTarget(proxy.url)} refused the tunnel`);
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}
