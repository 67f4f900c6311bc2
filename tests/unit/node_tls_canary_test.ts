/**
 * Canaries for the Deno limitations node_tls.ts works around: each fails once Deno's own TLS
 * can do the thing, and then node_tls.ts (and its ~40 ms of node:tls) can go.
 * @module
 */
import assert from "node:assert/strict";
import tls from "node:tls";
import { makeCertificates, serveTls } from "../e2e/_tls.ts";

const certs = await makeCertificates();
const read = (path: string) => Deno.readTextFileSync(path);

/** Opens TCP to a TLS listener and starts Deno's TLS with these options. */
async function startTls(port: number, options: Record<string, unknown>): Promise<string> {
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const conn = await Deno.startTls(tcp, { hostname: "localhost", ...options });
    try {
      await conn.handshake();
      // A TLS 1.3 server refuses a missing client certificate in the first read.
      await conn.write(new TextEncoder().encode("GET / HTTP/1.0\r\n\r\n"));
      const n = await conn.read(new Uint8Array(1024));
      return n === null ? "closed" : "ok";
    } finally {
      conn.close();
    }
  } catch (error) {
    return String(error);
  }
}

Deno.test("canary: Deno's TLS refuses a self-signed server certificate given as its own CA", async () => {
  await using server = serveTls(certs.self, certs.selfKey, () => new Response("x"));
  const outcome = await startTls(server.addr.port, { caCerts: [read(certs.self)] });
  assert.match(
    outcome,
    /CaUsedAsEndEntity/,
    "Deno accepts it now: node_tls.ts's self-signed case can go",
  );
});

Deno.test("canary: Deno.startTls has no option that skips certificate verification (-k)", async () => {
  await using server = serveTls(certs.leaf, certs.leafKey, () => new Response("x"));
  const outcome = await startTls(server.addr.port, {
    unsafelyIgnoreCertificateErrors: true,
    insecure: true,
    rejectUnauthorized: false,
    verify: false,
  });
  assert.match(
    outcome,
    /UnknownIssuer|invalid peer certificate/,
    "Deno can skip verification now: use it for -k",
  );
});

Deno.test("canary: Deno.startTls presents no client certificate", async () => {
  const server = tls.createServer({
    cert: read(certs.leaf),
    key: read(certs.leafKey),
    ca: [read(certs.ca)],
    requestCert: true,
    rejectUnauthorized: true,
  }, (socket) => socket.end("HTTP/1.0 200 OK\r\n\r\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const outcome = await startTls(port, {
      caCerts: [read(certs.ca)],
      cert: read(certs.client),
      key: read(certs.clientKey),
    });
    assert.notEqual(
      outcome,
      "ok",
      "Deno.startTls sends client certificates now: use it for --cert",
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
