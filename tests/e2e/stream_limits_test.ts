/**
 * Every stream ends: a WebSocket server that never answers the close frame, SSE time limits,
 * and the reconnection floor against `retry: 0` storms.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";

const encoder = new TextEncoder();

/**
 * A WebSocket server written against the socket: it completes the handshake, sends one
 * message, and never answers a close frame (Deno's own server always would).
 */
function deafWebSocketServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closeFrame = Promise.withResolvers<number>();
  const conns: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      (async () => {
        const buffer = new Uint8Array(8192);
        const n = await conn.read(buffer);
        const head = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
        const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? "";
        const digest = await crypto.subtle.digest(
          "SHA-1",
          encoder.encode(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
        );
        await conn.write(encoder.encode(
          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            `Sec-WebSocket-Accept: ${new Uint8Array(digest).toBase64()}\r\n\r\n`,
        ));
        await conn.write(new Uint8Array([0x81, 5, ...encoder.encode("hello")]));
        // Read on, answering nothing; note when the client's close frame (opcode 8) arrives.
        for (;;) {
          const m = await conn.read(buffer).catch(() => null);
          if (m === null) break;
          if ((buffer[0]! & 0x0f) === 8) closeFrame.resolve(performance.now());
        }
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    closeFrame: closeFrame.promise,
    close: async () => {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed by the client */ }
      }
      await accepting;
    },
  };
}

Deno.test("ws: a server that never answers the close frame is dropped after 2 s", async () => {
  const server = deafWebSocketServer();
  try {
    const running = dial(["ws", `ws://127.0.0.1:${server.port}/`, "--max-messages", "1", "-v"]);
    const closeSent = await server.closeFrame;
    const result = await running;
    const waited = performance.now() - closeSent;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "hello\n");
    assert.match(
      result.stderr,
      /Closed: code 1006 "the server did not answer the close frame within 2 s" by dial/,
    );
    assert.ok(waited < 3000, `exited ${waited.toFixed(0)} ms after the close frame`);
  } finally {
    await server.close();
  }
});

/** An event stream that sends one comment and then nothing (Deno cancels it when the client leaves). */
function silentStream() {
  return serve(() =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(": hello\n\n"));
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    )
  );
}

Deno.test("sse: --idle-timeout ends a silent stream with exit 8", async () => {
  await using server = silentStream();
  const result = await dial(["sse", server.origin, "--idle-timeout", "1"]);
  assert.equal(result.code, 8, result.stderr);
  assert.match(
    result.stderr,
    /^error: No event from 127\.0\.0\.1:\d+ for 1 s \(--idle-timeout\)$/m,
  );
});

Deno.test("sse: --timeout ends the whole session with exit 8", async () => {
  await using server = silentStream();
  const result = await dial(["sse", server.origin, "--timeout", "0.5"]);
  assert.equal(result.code, 8, result.stderr);
  assert.match(result.stderr, /^error: Timed out after 0\.5 s \(--timeout\)$/m);
});

Deno.test("sse: retry: 0 with a clean end reconnects at most 4 times a second", async () => {
  const times: number[] = [];
  await using server = serve(() => {
    times.push(performance.now());
    return new Response(`retry: 0\ndata: ${times.length}\n\n`, {
      headers: { "content-type": "text/event-stream" },
    });
  });
  const result = await dial(["sse", server.origin, "--max-events", "6"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "1\n2\n3\n4\n5\n6\n");
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  // A lower bound: load only makes the gaps longer.
  assert.ok(gaps.every((gap) => gap >= 245), `gaps ${gaps.map((g) => g.toFixed(0))}`);
});

Deno.test("sse: a stream that keeps ending without an event counts towards --max-retries", async () => {
  let connections = 0;
  await using server = serve(() => {
    connections++;
    return new Response("retry: 0\n\n", { headers: { "content-type": "text/event-stream" } });
  });
  const result = await dial(["sse", server.origin, "--max-retries", "2"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    /^error: Server-sent events from 127\.0\.0\.1:\d+ ended 3 times in a row without an event$/m,
  );
  assert.equal(connections, 3);
});

Deno.test("timeouts: more than 24 days is a usage error, not an instant timeout", async () => {
  for (
    const args of [
      ["GET", "http://127.0.0.1:9/", "--timeout", "2160000"],
      ["GET", "http://127.0.0.1:9/", "--timeout", "1e308"],
      ["sse", "http://127.0.0.1:9/", "--idle-timeout", "1e308"],
    ]
  ) {
    const result = await dial(args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, /too large \(at most 24 days\)/);
  }
});
