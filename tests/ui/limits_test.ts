import assert from "node:assert/strict";
import { startUiServer } from "../../src/ui/server.ts";
import { HEAD_TIMEOUT_MS, IDLE_TIMEOUT_MS, MAX_CONNECTIONS } from "../../src/ui/front_door.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

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

/** Opens a connection, asks for a public file (with a session header when given), reads it. */
async function keptAlive(port: number, session?: string): Promise<Deno.Conn | undefined> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const auth = session ? `X-Dial-Session: ${session}\r\n` : "";
  await conn.write(
    new TextEncoder().encode(`GET /app.css HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}\r\n`),
  );
  const buffer = new Uint8Array(4096);
  let text = "";
  while (!text.includes("/* css */")) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) {
      conn.close();
      return undefined;
    }
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  assert.match(text, /^HTTP\/1.1 200 /);
  return conn;
}

Deno.test("ui limits: 256 connections of the user's session are kept; a new one gets 503", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const conns: Deno.Conn[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const conn = await keptAlive(server.port, session);
      assert.ok(conn, `connection ${i} was answered`);
      conns.push(conn);
    }
    const extra = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    const answer = await readAll(extra);
    extra.close();
    assert.match(answer, /^HTTP\/1.1 503 Service Unavailable\r\n/);
  } finally {
    for (const conn of conns) conn.close();
  }
});

Deno.test("ui limits: 1,000 idle public connections held by another user do not lock the UI out", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const held: Deno.Conn[] = [];
  try {
    for (let batch = 0; batch < 20; batch++) {
      const opened = await Promise.all(
        Array.from({ length: 50 }, () => keptAlive(server.port).catch(() => undefined)),
      );
      for (const conn of opened) if (conn) held.push(conn);
    }
    // Every one of the 1,000 was let in and answered; the relay made room for each by closing
    // the public connection idle the longest (at most 256 are open on its side).
    assert.equal(held.length, 1000);
    const response = await fetch(new URL("/api/http/curl", server.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: JSON.stringify({ method: "GET", url: "http://127.0.0.1:9/x" }),
    });
    assert.equal(response.status, 200);
    assert.match((await response.json()).curl, /^curl /);
    // The page itself (no session yet) loads too.
    const page = await fetch(server.url);
    assert.equal(page.status, 200);
    await page.body?.cancel();
  } finally {
    for (const conn of held) conn.close();
  }
});

Deno.test("ui limits: a public keep-alive connection is closed after a few idle seconds", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const conn = await keptAlive(server.port);
  assert.ok(conn);
  const idleFrom = performance.now();
  assert.equal(await readAll(conn), "");
  const idle = performance.now() - idleFrom;
  assert.ok(idle >= IDLE_TIMEOUT_MS - 100, `${idle}`);
  conn.close();
});

Deno.test("ui limits: a connection that fetched the page and then carries the session is the user's", async () => {
  await using server = await startUiServer({ assets: ASSETS });
  const session = await sessionOf(server);
  const mine = await keptAlive(server.port);
  assert.ok(mine);
  const ask = async (conn: Deno.Conn, auth: string) => {
    await conn.write(
      new TextEncoder().encode(
        `GET /app.css HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${auth}\r\n`,
      ),
    );
    const buffer = new Uint8Array(4096);
    let text = "";
    while (!text.includes("/* css */")) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) return "closed";
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    return text.slice(0, 15);
  };
  assert.equal(await ask(mine, `X-Dial-Session: ${session}\r\n`), "HTTP/1.1 200 OK");
  // Another user fills the relay with public connections, and more: none takes its place.
  const held: Deno.Conn[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS + 10; i++) {
      const conn = await keptAlive(server.port);
      if (conn) held.push(conn);
    }
    assert.equal(await ask(mine, ""), "HTTP/1.1 200 OK");
  } finally {
    for (const conn of held) conn.close();
    mine.close();
  }
});
