/**
 * A local bridge for connections Deno's own TLS cannot make: a Unix socket in a private
 * directory that Deno's HTTP client uses as its transport, and behind it `node:tls` (which
 * accepts a self-signed certificate given as a CA, and can skip verification for `-k`),
 * optionally tunnelled through an HTTP proxy with CONNECT (for `ws://` through a proxy).
 * Requests through a bridge are plain HTTP/1.1 on the Unix socket; TLS starts at the bridge.
 * @module
 */
import net from "node:net";
import tls from "node:tls";
import { Buffer } from "node:buffer";
import type { ProxyChoice } from "./proxy.ts";

/** Where a bridge connects and how. */
export interface BridgeTarget {
  /** The server's host name or address. */
  hostname: string;
  /** The server's port. */
  port: number;
  /** TLS settings; absent for a plain tunnel. */
  tls?: {
    /** Trusted certificates (PEM); default the runtime's roots. */
    ca?: string[];
    /** Client certificate chain and key (PEM). */
    cert?: string;
    key?: string;
    /** false for `-k`. */
    verify: boolean;
  };
  /** Tunnel through this proxy with CONNECT. */
  proxy?: ProxyChoice;
}

/** A running bridge. */
export interface Bridge {
  /** The Unix socket path to give Deno's HTTP client. */
  path: string;
  /** The last failure to reach the server (e.g. a certificate check), for error messages. */
  lastError?: Error;
  /** Stops listening and removes the socket. */
  close(): void;
}

/**
 * Starts a bridge to one server. Listening starts before this returns, so a client may
 * connect at once.
 *
 * @param target the server, TLS settings and proxy
 * @returns the bridge, listening
 */
export function openBridge(target: BridgeTarget): Bridge {
  const dir = Deno.makeTempDirSync({ prefix: "dial-bridge-" });
  Deno.chmodSync(dir, 0o700);
  const path = `${dir}/s`;
  const listener = Deno.listen({ transport: "unix", path });
  const open = new Set<{ close(): void }>();
  const bridge: Bridge = {
    path,
    close() {
      listener.close();
      for (const conn of open) conn.close();
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* already gone */ }
    },
  };
  (async () => {
    for await (const local of listener) {
      let upstream: net.Socket | undefined;
      const entry = {
        close() {
          upstream?.destroy();
          try {
            local.close();
          } catch { /* closed */ }
        },
      };
      open.add(entry);
      connectUpstream(target).then((socket) => {
        upstream = socket;
        return splice(local, socket);
      }).catch((error: Error) => {
        bridge.lastError = error;
      }).finally(() => {
        const late = upstream && lateErrors.get(upstream);
        if (late) bridge.lastError = late;
        entry.close();
        open.delete(entry);
      });
    }
  })().catch(() => {/* listener closed */});
  return bridge;
}

/** Copies bytes both ways until either side ends. */
async function splice(local: Deno.Conn, upstream: net.Socket): Promise<void> {
  const down = new Promise<void>((resolve) => {
    upstream.on("data", (chunk: Buffer) => {
      upstream.pause();
      local.write(chunk).then(() => upstream.resume(), () => upstream.destroy());
    });
    upstream.once("end", () => resolve());
    upstream.once("close", () => resolve());
    upstream.once("close", () => resolve());
    upstream.resume();
  });
  const up = (async () => {
    try {
      for await (const chunk of local.readable) {
        if (!upstream.write(chunk)) await new Promise((r) => upstream.once("drain", r));
      }
      upstream.end();
    } catch { /* local side closed */ }
  })();
  await Promise.race([down, up.then(() => down)]);
}

async function connectUpstream(target: BridgeTarget): Promise<net.Socket> {
  const raw = target.proxy ? await tunnel(target.proxy, target.hostname, target.port) : undefined;
  if (!target.tls) {
    return raw ?? await opened(net.connect({ host: target.hostname, port: target.port }));
  }
  const options: tls.ConnectionOptions = {
    servername: net.isIP(target.hostname) ? "" : target.hostname,
    rejectUnauthorized: target.tls.verify,
    ALPNProtocols: ["http/1.1"],
    // node:tls replaces the default roots with `ca`; dial's --cacert adds to them.
    ...(target.tls.ca ? { ca: [...tls.rootCertificates, ...target.tls.ca] } : {}),
    ...(target.tls.cert ? { cert: target.tls.cert } : {}),
    ...(target.tls.key ? { key: target.tls.key } : {}),
  };
  const socket = raw
    ? tls.connect({ ...options, socket: raw, host: target.hostname })
    : tls.connect({ ...options, host: target.hostname, port: target.port });
  return await opened(socket, "secureConnect");
}

/**
 * Waits for a socket to connect. Its errors are kept for the bridge for good: a TLS 1.3 server
 * refuses a client certificate only after the handshake, often in the same read.
 */
function opened<S extends net.Socket>(socket: S, event = "connect"): Promise<S> {
  return new Promise((resolve, reject) => {
    socket.once(event, () => resolve(socket));
    socket.on("error", (error: Error) => {
      lateErrors.set(socket, error);
      reject(error);
    });
  });
}

/** The last error of each upstream socket, kept past its connection. */
const lateErrors = new WeakMap<net.Socket, Error>();

/** Opens a CONNECT tunnel through an HTTP(S) proxy. */
async function tunnel(proxy: ProxyChoice, hostname: string, port: number): Promise<net.Socket> {
  const url = proxy.url;
  const proxyPort = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const socket: net.Socket = url.protocol === "https:"
    ? await opened(
      tls.connect({ host: url.hostname, port: proxyPort, servername: url.hostname }),
      "secureConnect",
    )
    : await opened(net.connect({ host: url.hostname, port: proxyPort }));
  const authority = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  const credentials = url.username || url.password
    ? `Proxy-Authorization: Basic ${
      Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`)
        .toString("base64")
    }\r\n`
    : "";
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      socket.off("error", reject);
      socket.pause();
      const rest = buffered.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(buffered.subarray(0, end).toString("latin1"));
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.once("end", () => reject(new Error("proxy closed the connection during CONNECT")));
  });
  const status = /^HTTP\/1\.[01] (\d{3})(.*)/.exec(head);
  if (!status || status[1] !== "200") {
    socket.destroy();
    throw new Error(
      `unsuccessful tunnel: the proxy answered CONNECT with ${
        status ? `HTTP ${status[1]}${status[2]}` : "no HTTP status"
      }`,
    );
  }
  return socket;
}
