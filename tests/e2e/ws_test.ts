/**
 * `dial ws` end to end: main.ts against a Deno.upgradeWebSocket server on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { dial, serve, type TestServer } from "../_helpers.ts";
import { dialIntoHead, mainPath, spawnDial } from "./_spawn.ts";
import { unusedPort } from "../_ports.ts";

interface EchoOptions {
  /** The Authorization value the server demands. */
  authorization?: string;
  /** Subprotocols the server supports, in preference order. */
  protocols?: string[];
  /** The server closes with this code and reason after the first message. */
  closeAfterFirst?: { code: number; reason: string };
}

/** An echo server that checks the handshake the way real APIs do. */
function echoServer(options: EchoOptions = {}): TestServer {
  return serve((request) => {
    const url = new URL(request.url);
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("not a websocket request", { status: 426 });
    }
    if (
      options.authorization !== undefined &&
      request.headers.get("authorization") !== options.authorization &&
      url.searchParams.get("api_key") !== "k3y"
    ) {
      return new Response("unauthorized", { status: 401 });
    }
    const offered = (request.headers.get("sec-websocket-protocol") ?? "")
      .split(",").map((p) => p.trim()).filter(Boolean);
    let protocol: string | undefined;
    if (options.protocols) {
      protocol = options.protocols.find((p) => offered.includes(p));
      if (!protocol) return new Response("unsupported subprotocol", { status: 400 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request, protocol ? { protocol } : {});
    socket.onmessage = (event) => {
      if (options.closeAfterFirst) {
        socket.close(options.closeAfterFirst.code, options.closeAfterFirst.reason);
        return;
      }
      if (typeof event.data === "string") socket.send(`echo: ${event.data}`);
      else socket.send(event.data);
    };
    return response;
  });
}

function wsUrl(server: TestServer, path = "/socket"): string {
  return `ws://127.0.0.1:${server.port}${path}`;
}

Deno.test("ws: each stdin line is one message and each reply one stdout line", async () => {
  await using server = echoServer();
  const result = await dial(["ws", wsUrl(server)], { stdin: "hello\nworld\n" });
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
  assert.equal(result.stdout, "echo: hello\necho: world\n");
});

Deno.test("ws: -B sends the bearer token on the handshake", async () => {
  await using server = echoServer({ authorization: "Bearer t0ken" });
  const result = await dial(["ws", wsUrl(server), "-B", "t0ken", "--wait", "0.3"], {
    stdin: "hi\n",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "echo: hi\n");
  assert.equal(server.requests[0]?.headers.get("authorization"), "Bearer t0ken");
});

Deno.test("ws: -u sends Basic auth and -H headers on the handshake", async () => {
  const basic = `Basic ${new TextEncoder().encode("ann:pw").toBase64()}`;
  await using server = echoServer({ authorization: basic });
  const result = await dial([
    "ws",
    wsUrl(server),
    "-u",
    "ann:pw",
    "-H",
    "X-Trace: 42",
    "--wait",
    "0.3",
  ], {
    stdin: "hi\n",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]?.headers.get("x-trace"), "42");
});

Deno.test("ws: -K puts the API key in the handshake query", async () => {
  await using server = echoServer({ authorization: "none" });
  const result = await dial([
    "ws",
    wsUrl(server, "/socket?v=1"),
    "-K",
    "api_key=k3y",
    "--wait",
    "0.3",
  ], {
    stdin: "hi\n",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(new URL(server.requests[0]!.url).search, "?v=1&api_key=k3y");
});

Deno.test("ws: a handshake refused with 401 is an error with the status, exit 4", async () => {
  await using server = echoServer({ authorization: "Bearer right" });
  const result = await dial(["ws", wsUrl(server), "-B", "wrong"], { stdin: "hi\n" });
  assert.equal(result.code, 4);
  assert.match(result.stderr, /error: WebSocket handshake refused by 127\.0\.0\.1:\d+: HTTP 401/);
  assert.match(result.stderr, /hint: check the credentials/);
  assert.equal(result.stdout, "");
});

Deno.test("ws: --subprotocol is offered and the chosen one shown with -v", async () => {
  await using server = echoServer({ protocols: ["chat.v2", "chat.v1"] });
  const result = await dial(
    [
      "ws",
      wsUrl(server),
      "--subprotocol",
      "chat.v1",
      "--subprotocol",
      "chat.v2",
      "-v",
      "-B",
      "s3cret",
      "--wait",
      "0.3",
    ],
    { stdin: "hi\n" },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests[0]?.headers.get("sec-websocket-protocol"), "chat.v1, chat.v2");
  assert.match(result.stderr, /Connected to 127\.0\.0\.1:\d+, subprotocol "chat\.v2"/);
  assert.match(result.stderr, /\nAuthorization: \(redacted\)\n/);
  assert.doesNotMatch(result.stderr, /s3cret/);
  assert.match(result.stderr, /Closed: code 1000 by dial/);
});

Deno.test("ws: a subprotocol the server does not support is refused with its status", async () => {
  await using server = echoServer({ protocols: ["chat.v2"] });
  const result = await dial(["ws", wsUrl(server), "--subprotocol", "mqtt"], { stdin: "hi\n" });
  assert.equal(result.code, 4);
  assert.match(result.stderr, /WebSocket handshake refused by 127\.0\.0\.1:\d+: HTTP 400/);
});

Deno.test("ws: a server that ignores the offered subprotocol fails the handshake", async () => {
  await using server = echoServer();
  const result = await dial(["ws", wsUrl(server), "--subprotocol", "chat.v1"], { stdin: "hi\n" });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /the server accepted none of the offered subprotocols "chat\.v1"/,
  );
});

Deno.test("ws: --binary sends stdin as one binary message, printed as base64 or hex", async () => {
  await using server = echoServer();
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  const b64 = await dial(["ws", wsUrl(server), "--binary", "--wait", "0.3"], { stdin: bytes });
  assert.equal(b64.code, 0, b64.stderr);
  assert.equal(b64.stdout, "base64:AAEC+v8=\n");
  const hex = await dial(["ws", wsUrl(server), "--binary", "--hex", "--wait", "0.3"], {
    stdin: bytes,
  });
  assert.equal(hex.stdout, "hex:000102faff\n");
});

Deno.test("ws: --json refuses a line that is not JSON", async () => {
  await using server = echoServer();
  const result = await dial(["ws", wsUrl(server), "--json"], { stdin: '{"a":1}\n{oops\n' });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, 'echo: {"a":1}\n');
  assert.match(result.stderr, /error: Invalid JSON on stdin line 2: /);
});

Deno.test("ws: --max-messages exits after N messages", async () => {
  await using server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onopen = () => {
      for (let i = 1; i <= 5; i++) socket.send(`tick ${i}`);
    };
    return response;
  });
  const result = await dial(["ws", wsUrl(server), "--max-messages", "2", "--wait", "30"], {
    stdin: "",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "tick 1\ntick 2\n");
});

Deno.test("ws: a close with an error code reports the code and reason", async () => {
  await using server = echoServer({ closeAfterFirst: { code: 4003, reason: "quota exceeded" } });
  const result = await dial(["ws", wsUrl(server)], { stdin: "hi\n" });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /error: WebSocket closed by 127\.0\.0\.1:\d+ with code 4003: quota exceeded/,
  );
});

Deno.test("ws: a refused connection is a network error, exit 7", async () => {
  const port = unusedPort();
  const result = await dial(["ws", `ws://127.0.0.1:${port}/`], { stdin: "" });
  assert.equal(result.code, 7);
  assert.match(
    result.stderr,
    /error: Cannot open a WebSocket to 127\.0\.0\.1:\d+: connection refused/,
  );
});

Deno.test("ws: a bad URL scheme is a usage error and nothing is sent", async () => {
  const result = await dial(["ws", "ftp://127.0.0.1/"]);
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /error: Invalid URL "ftp:\/\/127\.0\.0\.1\/": scheme must be ws: or wss:/,
  );
});

Deno.test("ws: Ctrl-C closes the connection with 1000 and exits 130", async () => {
  const closed = Promise.withResolvers<number>();
  await using server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onopen = () => socket.send("ready");
    socket.onclose = (event) => closed.resolve(event.code);
    return response;
  });
  const child = spawnDial(["ws", wsUrl(server)]);
  // Interrupt once dial has printed a message: the connection is open on its side too.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, "ready\n");
  child.kill("SIGINT");
  await reader.cancel();
  await child.stderr.cancel();
  const status = await child.status;
  await child.stdin.close().catch(() => {});
  assert.equal(status.code, 130);
  assert.equal(await closed.promise, 1000);
});

Deno.test("ws: --ping sends the keep-alive message while the connection is idle", async () => {
  const received: string[] = [];
  await using server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => received.push(String(event.data));
    return response;
  });
  const result = await dial(
    ["ws", wsUrl(server), "--ping", "0.1", "--ping-message", '{"type":"ping"}', "--wait", "0.6"],
    { stdin: "" },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.ok(received.length >= 2, `received ${received.length} pings`);
  assert.ok(received.every((m) => m === '{"type":"ping"}'));
});

Deno.test("ws: a connection lost without a close frame is a network error, exit 7", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    const conn = await listener.accept();
    const buffer = new Uint8Array(4096);
    const n = await conn.read(buffer) ?? 0;
    const head = new TextDecoder().decode(buffer.subarray(0, n));
    const key = /sec-websocket-key: *(\S+)/i.exec(head)?.[1] ?? "";
    const digest = await crypto.subtle.digest(
      "SHA-1",
      new TextEncoder().encode(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"),
    );
    await conn.write(new TextEncoder().encode(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Accept: ${new Uint8Array(digest).toBase64()}\r\n\r\n`,
    ));
    await new Promise((resolve) => setTimeout(resolve, 100));
    conn.close();
  })();
  const result = await dial(["ws", `ws://127.0.0.1:${listener.addr.port}/`, "--wait", "5"], {
    stdin: "",
  });
  await serving;
  listener.close();
  assert.equal(result.code, 7);
  assert.match(
    result.stderr,
    /error: WebSocket connection to 127\.0\.0\.1:\d+ closed abnormally \(code 1006, no close frame\)/,
  );
});

Deno.test("ws: on a terminal, messages show timestamps and direction marks", async () => {
  await using server = echoServer();
  // `script` gives dial a pseudo-terminal; what we write to its stdin is typed there.
  const child = new Deno.Command("script", {
    args: [
      "-qec",
      `${Deno.execPath()} run -A ${mainPath()} ws ${wsUrl(server)} --wait 0.3`,
      "/dev/null",
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let screen = "";
  /** Reads the terminal until it shows `pattern` (or to its end, with nothing left to wait for). */
  const until = async (pattern?: RegExp) => {
    while (!pattern?.test(screen)) {
      const { value, done } = await reader.read();
      if (done && pattern) throw new Error(`dial ended before ${pattern}:\n${screen}`);
      if (done) return;
      screen += value;
    }
  };
  // Type once dial is connected, and end once the echo is on the screen.
  await until(/Connected to/);
  await writer.write(new TextEncoder().encode("hello\r"));
  await until(/← echo: hello/);
  await writer.write(new TextEncoder().encode("\x04"));
  await writer.close().catch(() => {});
  await until();
  const [status] = await Promise.all([child.status, child.stderr.cancel()]);
  assert.equal(status.code, 0, screen);
  assert.match(screen, /Connected to 127\.0\.0\.1:\d+/);
  assert.match(screen, /\d\d:\d\d:\d\d\.\d{3} → hello/);
  assert.match(screen, /\d\d:\d\d:\d\d\.\d{3} ← echo: hello/);
  assert.match(screen, /Closed: code 1000 by dial/);
});

Deno.test("ws: a reader that stops early (| head -2) ends dial quietly with exit 0", async () => {
  await using server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    let n = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const send = () => socket.readyState === WebSocket.OPEN && socket.send(`m${n++}`);
    socket.onopen = () => timer = setInterval(send, 2);
    socket.onclose = () => clearInterval(timer);
    return response;
  });
  const result = await dialIntoHead("head -2", ["ws", server.origin.replace("http", "ws")]);
  assert.equal(result.stdout, "m0\nm1\n");
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
});
