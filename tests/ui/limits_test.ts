import assert from "node:assert/strict";
import { startUiServer } from "../../src/ui/server.ts";
import { HEAD_TIMEOUT_MS, MAX_CONNECTIONS } from "../../src/ui/front_door.ts";

const ASSETS = { js: "", css: "/* css */" };

async function readAll(conn: Deno.Conn): Promise<string> {
  let text = "";
  const buffer = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) return text;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
}

Deno.test("ui limits: a connection that sends no request head is closed after a few seconds", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  const started = performance.now();
  // Half a head, then nothing.
  await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  assert.equal(await readAll(conn), "");
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= HEAD_TIMEOUT_MS - 100 && elapsed < HEAD_TIMEOUT_MS + 2000, `${elapsed}`);
  conn.close();
});

Deno.test("ui limits: beyond 256 open connections a new one gets 503 and is closed", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const host = `127.0.0.1:${server.port}`;
  const conns: Deno.Conn[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
      conns.push(conn);
      // A public request on a kept-alive connection: past the head timeout, still open.
      await conn.write(new TextEncoder().encode(`GET /app.css HTTP/1.1\r\nHost: ${host}\r\n\r\n`));
    }
    // Every one was answered, so every one is counted as open.
    for (const conn of conns) {
      const buffer = new Uint8Array(4096);
      let text = "";
      while (!text.includes("/* css */")) {
        const n = await conn.read(buffer);
        assert.ok(n !== null);
        text += new TextDecoder().decode(buffer.subarray(0, n));
      }
      assert.match(text, /^HTTP\/1.1 200 /);
    }
    const extra = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    const answer = await readAll(extra);
    extra.close();
    assert.match(answer, /^HTTP\/1.1 503 Service Unavailable\r\n/);
  } finally {
    for (const conn of conns) conn.close();
  }
});
