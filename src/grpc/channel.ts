/**
 * The connection of a gRPC call: opened by dial's own transport step (the same plan as HTTP:
 * `--cacert`, `-k`, client certificates, proxies, `--resolve`, `--connect-to`, Unix sockets,
 * the connect timeout), then handed to Connect's gRPC transport, which speaks HTTP/2 on it
 * through `node:http2`. TLS must choose `h2` by ALPN; `--plaintext` speaks h2c with prior
 * knowledge, as every gRPC client does.
 * @module
 */
import { load } from "../load.ts";
import { Duplex } from "node:stream";
import type { Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Http2Sessions } from "./h2_stream_reader.ts";
import { type Connection, openConnection } from "../http/connect.ts";
import { planFor, type TransportOptions, type TransportPlan } from "../http/plan.ts";
import { DialError, networkError, TransportError } from "../errors/mod.ts";

/** An open channel to one server. */
export interface Channel {
  /** The transport calls go through. */
  transport: Transport;
  /** The plan the connection was opened by (for `-v`). */
  plan: TransportPlan;
  /** Closes the connection. */
  close(): void;
}

/**
 * The plan of a gRPC connection: HTTP/2 only, and an HTTP proxy always as a tunnel (HTTP/2
 * cannot go through a forwarding proxy; a SOCKS5 proxy carries it as it is).
 *
 * @param url `http://host:port` (plaintext) or `https://host:port`
 * @param options the transport options, as for HTTP
 * @returns the plan
 */
export function grpcPlan(url: URL, options: TransportOptions): TransportPlan {
  const plan = planFor(url, options);
  return {
    ...plan,
    ...(plan.proxy?.mode === "forward"
      ? { proxy: { ...plan.proxy, mode: "tunnel" as const } }
      : {}),
    ...(plan.tls ? { tls: { ...plan.tls, alpn: ["h2"] } } : {}),
  };
}

/**
 * Opens a channel.
 *
 * @param url `http://host:port` (plaintext) or `https://host:port`
 * @param options the transport options, as for HTTP
 * @param signal aborts connecting
 * @returns the channel
 * @throws {DialError} when the connection or TLS fails, as for HTTP
 */
export async function openChannel(
  url: URL,
  options: TransportOptions,
  signal?: AbortSignal,
): Promise<Channel> {
  const plan = grpcPlan(url, options);
  options.onRoute?.(plan);
  let conn: Connection;
  try {
    conn = await openConnection(plan, signal);
  } catch (error) {
    // As HTTP words them: a certificate check by what failed, anything else as unreachable.
    if (signal?.aborted || error instanceof DialError) throw error;
    const { tlsError } = await load.transportError();
    throw (plan.tls ? tlsError(error, plan.target) : undefined) ?? networkError(error, url);
  }
  if (plan.tls && conn.protocol !== "h2") {
    conn.close();
    throw new TransportError(
      `Cannot speak gRPC with ${plan.target}: the server did not choose HTTP/2 in the TLS handshake`,
      { details: { target: plan.target } },
    );
  }
  if (plan.tls) options.onConnected?.(plan, "h2");
  let used = false;
  const transport = createGrpcTransport({
    baseUrl: url.origin,
    sessionManager: new Http2Sessions(url.origin, undefined, {
      // One connection per run, opened above; Connect asks again only after it was lost.
      createConnection: () => {
        if (used) throw new TransportError(`The connection to ${plan.target} was closed`);
        used = true;
        return socketOf(conn);
      },
    }),
  });
  return { transport, plan, close: () => conn.close() };
}

/**
 * dial's connection as the socket `node:http2` expects: Connect's session manager calls
 * `ref()` and `unref()` on the session, which calls them on its socket, and a stream from
 * `Duplex.fromWeb` has neither. Errors after the end (the connection closed under a read)
 * are the session's to report, not an uncaught exception.
 */
function socketOf(conn: Connection): Duplex {
  const socket = Duplex.fromWeb(conn.streams()) as Duplex & { ref(): void; unref(): void };
  socket.ref = () => {};
  socket.unref = () => {};
  socket.on("error", () => {});
  return socket;
}
