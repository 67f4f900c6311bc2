/**
 * Control sequences from servers (here OSC 52, a clipboard write) are shown escaped on a
 * terminal and passed through byte for byte when piped.
 */
import assert from "node:assert/strict";
import { dial, dialOnTerminal, hasScript, serve } from "../_helpers.ts";
import { rawServer } from "./_raw_server.ts";

const OSC52 = "\x1b]52;c;aGVsbG8=\x07";
const SHOWN = "\\x1b]52;c;aGVsbG8=\\x07";

function hostile() {
  return serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/events") {
      return new Response(`data: before ${OSC52} after\n\n`, {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (path === "/socket") {
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onopen = () => socket.send(`hello ${OSC52}\x9b2J`);
      return response;
    }
    if (path === "/token") {
      return Response.json({ error: "invalid_client", error_description: `bad ${OSC52}` }, {
        status: 400,
      });
    }
    return new Response(`body ${OSC52}\x1b[2J end\n`, {
      headers: { "content-type": "text/plain" },
    });
  });
}

const onTerminal = { ignore: !hasScript };

/**
 * Runs dial on a terminal: asserts its exit code, that `shown` is on the screen, and that no raw
 * OSC 52 reached it.
 */
async function shownEscaped(args: string[], exitCode: number, shown: string): Promise<void> {
  const { code, screen } = await dialOnTerminal(args);
  assert.equal(code, exitCode, screen);
  assert.ok(screen.includes(shown), screen);
  assert.ok(!screen.includes("\x1b]52"), screen);
}

Deno.test("terminal: a text body's control sequences are shown escaped", onTerminal, async () => {
  await using server = hostile();
  await shownEscaped(["GET", `${server.origin}/text`], 0, `body ${SHOWN}\\x1b[2J end`);
});

Deno.test("terminal: SSE data with OSC 52 is shown escaped", onTerminal, async () => {
  await using server = hostile();
  await shownEscaped(
    ["sse", `${server.origin}/events`, "--max-events", "1"],
    0,
    `before ${SHOWN} after`,
  );
});

Deno.test(
  "terminal: a WebSocket message's controls (C1 too) are shown escaped",
  onTerminal,
  async () => {
    await using server = hostile();
    await shownEscaped(
      ["ws", `ws://127.0.0.1:${server.port}/socket`, "--max-messages", "1"],
      0,
      `hello ${SHOWN}\\x9b2J`,
    );
  },
);

Deno.test("terminal: a provider's error_description is shown escaped", onTerminal, async () => {
  await using server = hostile();
  await shownEscaped(
    [
      "GET",
      `${server.origin}/text`,
      "--oauth2",
      `client_credentials:${server.origin}/token:app:secret`,
    ],
    9,
    `bad ${SHOWN}`,
  );
});

/**
 * A header with C1 CSI (the byte 0x9b, "clear screen" on terminals that take 8-bit controls),
 * from a raw server: Deno.serve refuses such a value, and Deno's client refuses ESC in one.
 */
function hostileHead() {
  const head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Note: head \x9b2J end\r\n" +
    "Content-Length: 3\r\nConnection: close\r\n\r\nok\n";
  return rawServer(() => Uint8Array.from(head, (c) => c.charCodeAt(0)));
}

Deno.test(
  "terminal: a response header's control sequences are shown escaped (-v, -i)",
  onTerminal,
  async () => {
    await using server = hostileHead();
    for (const flag of ["-v", "-i"]) {
      const { code, screen } = await dialOnTerminal(["GET", server.origin, flag]);
      assert.equal(code, 0, screen);
      assert.ok(screen.includes("X-Note: head \\x9b2J end"), `${flag}: ${screen}`);
      assert.ok(!screen.includes("\x9b"), `${flag}: ${screen}`);
    }
  },
);

Deno.test("terminal: piped output stays byte-exact", async () => {
  await using server = hostile();
  const body = await dial(["GET", `${server.origin}/text`]);
  assert.equal(body.stdout, `body ${OSC52}\x1b[2J end\n`);
  await using raw = hostileHead();
  const head = await dial(["GET", raw.origin, "-i"]);
  assert.ok(head.stdout.includes("X-Note: head \x9b2J end\n"), head.stdout);
  const sse = await dial(["sse", `${server.origin}/events`, "--max-events", "1"]);
  assert.equal(sse.stdout, `before ${OSC52} after\n`);
  const ws = await dial(["ws", `ws://127.0.0.1:${server.port}/socket`, "--max-messages", "1"]);
  assert.equal(ws.stdout, `hello ${OSC52}\x9b2J\n`);
});
