/**
 * Local failures are exit 1 or 2 with the local cause, never the network's exit 7.
 */
import assert from "node:assert/strict";
import { dial, dialEnv, serve } from "../_helpers.ts";
import { runProgram } from "../_process.ts";
import { mainPath } from "./_spawn.ts";
import { rawServer } from "./_raw_server.ts";

function bodyServer() {
  return serve((request) =>
    new URL(request.url).pathname === "/events"
      ? new Response("data: one\n\ndata: two\n\n", {
        headers: { "content-type": "text/event-stream" },
      })
      : new Response("x".repeat(100_000))
  );
}

/** Runs dial with stdout sent to a path by the shell (e.g. /dev/full). */
async function dialTo(path: string, args: string[]) {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const command = [Deno.execPath(), "run", "-A", "--quiet", mainPath(), ...args].map(quote);
  return await runProgram("/bin/sh", ["-c", `${command.join(" ")} > ${quote(path)}`], {
    clearEnv: true,
    env: dialEnv(),
  });
}

Deno.test("local: CONNECT is a usage error, not a network failure; TRACE is sent, as curl sends it", async () => {
  await using server = bodyServer();
  const result = await dial(["CONNECT", `${server.origin}/`]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: Method "CONNECT" cannot be sent/m);
  assert.equal(server.requests.length, 0);
  await using raw = rawServer();
  const trace = await dial(["TRACE", `${raw.origin}/t`]);
  assert.equal(trace.code, 0, trace.stderr);
  assert.deepEqual(raw.requests.map((r) => r.line), ["TRACE /t HTTP/1.1"]);
});

Deno.test("local: -o to a directory names the cause, exit 1", async () => {
  await using server = bodyServer();
  const dir = await Deno.makeTempDir();
  const result = await dial(["GET", `${server.origin}/`, "-o", dir]);
  await Deno.remove(dir);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^error: Cannot write .*Is a directory/m);
});

Deno.test("local: a full disk names the cause, exit 1", async () => {
  await using server = bodyServer();
  for (
    const args of [
      ["GET", `${server.origin}/`, "-o", "/dev/full"],
      ["GET", `${server.origin}/`],
      ["sse", `${server.origin}/events`, "--no-reconnect"],
    ]
  ) {
    const result = args.includes("-o") ? await dial(args) : await dialTo("/dev/full", args);
    assert.equal(result.code, 1, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, /^error: Cannot write output: No space left on device/m);
  }
});

/** Sends half of a 20,000-byte body, then waits until the client leaves. */
function stallingServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { promise: gone, resolve: left } = Promise.withResolvers<void>();
  const served = (async () => {
    const conn = await listener.accept();
    try {
      const buffer = new Uint8Array(64 * 1024);
      let head = "";
      while (!head.includes("\r\n\r\n")) {
        const n = await conn.read(buffer);
        if (n === null) return;
        head += new TextDecoder().decode(buffer.subarray(0, n));
      }
      await conn.write(
        new TextEncoder().encode(
          `HTTP/1.1 200 OK\r\nContent-Length: 20000\r\n\r\n${"x".repeat(10_000)}`,
        ),
      );
      while (await conn.read(buffer) !== null) { /* until the client closes */ }
      left();
    } catch {
      left();
    } finally {
      conn.close();
    }
  })();
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    gone,
    async [Symbol.asyncDispose]() {
      listener.close();
      await served.catch(() => {});
    },
  };
}

Deno.test("local: a full disk while the body is still arriving ends at once, the connection closed", async () => {
  // A cancel used to drain the rest of a short body beside the read in flight: both read one
  // socket, and dial waited for bytes that never came (1 run in 8 of the test above hung).
  await using server = stallingServer();
  const result = await dialTo("/dev/full", ["GET", `${server.origin}/`]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^error: Cannot write output: No space left on device/m);
  await server.gone;
});

Deno.test("local: bad header bytes are a usage error naming the header", async () => {
  await using server = bodyServer();
  const result = await dial(["GET", `${server.origin}/`, "-H", "X-A: a\x01b"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: Cannot parse -H header "X-A": the value holds a line break/m,
  );
  assert.equal(server.requests.length, 0);
});
