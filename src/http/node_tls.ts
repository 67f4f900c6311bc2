/**
 * TLS through `node:tls`, for what Deno's own TLS client cannot do. This file is the one
 * workaround for these Deno limitations (each has a canary in tests/unit/node_tls_canary_test.ts
 * that fails once the runtime no longer needs it):
 *
 * - `Deno.startTls` and `Deno.connectTls` have no option to skip certificate verification
 *   (`-k`); only the process-wide `--unsafely-ignore-certificate-errors` flag does that.
 * - Deno's verifier refuses a self-signed server certificate given as its own CA
 *   (`CaUsedAsEndEntity`), where curl and Node accept it.
 * - `Deno.startTls` takes no client certificate, so mutual TLS cannot be started on a socket
 *   dial opened itself (connect timeout, proxy tunnel, Unix socket).
 *
 * node:tls costs ~40 ms to load, so it is imported only for the requests that need it.
 * @module
 */
import type { Buffer } from "node:buffer";
import { Duplex } from "node:stream";
import tls from "node:tls";
import type { TlsPlan } from "./plan.ts";

/** A TLS connection as web streams, with the protocol ALPN chose. */
export interface NodeTlsConnection {
  /** Bytes from the server. */
  readable: ReadableStream<Uint8Array>;
  /** Bytes to the server. */
  writable: WritableStream<Uint8Array>;
  /** The protocol ALPN chose, if any. */
  alpn?: string;
  /** Closes the connection. */
  close(): void;
}

/**
 * Starts TLS on an open connection with node:tls.
 *
 * @param socket the open connection (TCP, Unix socket or proxy tunnel)
 * @param plan the TLS plan
 * @returns the TLS connection once the handshake is done
 */
export async function startNodeTls(
  socket: { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> },
  plan: TlsPlan,
): Promise<NodeTlsConnection> {
  const raw = Duplex.fromWeb(socket, { objectMode: false });
  const ip = /^[\d.]+$|:/.test(plan.servername);
  const secure = tls.connect({
    socket: raw,
    // node:tls sends no SNI for an address and checks the address against the certificate.
    servername: ip ? undefined : plan.servername,
    host: plan.servername,
    rejectUnauthorized: plan.verify,
    ALPNProtocols: plan.alpn,
    // node:tls replaces its roots with `ca`; dial's trust adds to them.
    ca: [...tls.rootCertificates, ...plan.trust.pems],
    ...(plan.cert !== undefined && plan.key !== undefined
      ? { cert: plan.cert, key: plan.key.reveal() }
      : {}),
  } as tls.ConnectionOptions);
  await new Promise<void>((resolve, reject) => {
    secure.once("secureConnect", () => {
      secure.off("error", reject);
      resolve();
    });
    secure.once("error", reject);
  });
  // A TLS 1.3 server refuses a client certificate after the handshake, in the first read.
  let late: Error | undefined;
  secure.on("error", (error: Error) => late = error);
  const web = Duplex.toWeb(secure) as unknown as {
    readable: ReadableStream<Uint8Array>;
    writable: WritableStream<Uint8Array>;
  };
  const readable = web.readable.pipeThrough(
    new TransformStream<Uint8Array | Buffer, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      },
      flush() {
        if (late) throw late;
      },
    }),
  );
  return {
    readable,
    writable: web.writable,
    ...(typeof secure.alpnProtocol === "string" ? { alpn: secure.alpnProtocol } : {}),
    close: () => {
      secure.destroy();
      raw.destroy();
    },
  };
}
