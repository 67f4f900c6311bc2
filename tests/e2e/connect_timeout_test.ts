import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { childServer } from "../_process.ts";
import { startProxy } from "./_tls.ts";

/**
 * A listener that never completes a handshake: Python listens with a backlog of 0 and fills
 * it, so the kernel drops further SYNs and connecting hangs (a firewalled host, on loopback).
 */
async function blackhole(run: (port: number) => Promise<void>): Promise<void> {
  const script = `
import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
port = s.getsockname()[1]
held = []
for _ in range(3):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(("127.0.0.1", port))
    except BlockingIOError: pass
    held.append(c)
time.sleep(0.2)
print(port, flush=True)
time.sleep(60)
`;
  await using server = await childServer("python3", ["-c", script]);
  await run(Number(server.line));
}

Deno.test("connect timeout: --connect-timeout bounds opening the connection (exit 8, like curl's 28)", async () => {
  await blackhole(async (port) => {
    const result = await dial([`http://127.0.0.1:${port}/`, "--connect-timeout", "0.3"]);
    assert.equal(result.code, 8);
    assert.equal(
      result.stderr,
      `error: Timed out connecting to 127.0.0.1:${port} after 0.3 s\nhint: raise --connect-timeout\n`,
    );
    const ws = await dial(["ws", `ws://127.0.0.1:${port}/`, "--connect-timeout", "0.3"]);
    assert.equal(ws.code, 8);
    assert.match(ws.stderr, /Timed out connecting to 127\.0\.0\.1:\d+ after 0\.3 s/);
  });
});

Deno.test("connect timeout: through a proxy it bounds connecting to the proxy, and names it", async () => {
  await blackhole(async (port) => {
    const result = await dial([
      "http://localhost:8080/",
      "--proxy",
      `http://127.0.0.1:${port}`,
      "--connect-timeout",
      "0.3",
    ]);
    assert.equal(result.code, 8);
    assert.match(
      result.stderr,
      new RegExp(`Timed out connecting to 127.0.0.1:${port} \\(proxy for localhost:8080\\)`),
    );
  });
});

Deno.test("proxy: user:pass@ in --proxy is sent as Proxy-Authorization and never printed", async () => {
  await using server = serve(() => new Response("ok"));
  const proxy = startProxy();
  try {
    const result = await dial([
      `http://localhost:${server.port}/`,
      "-v",
      "--proxy",
      `http://ann:s3cret@127.0.0.1:${proxy.port}`,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(proxy.credentials, [`Basic ${btoa("ann:s3cret")}`]);
    assert.doesNotMatch(result.stderr + result.stdout, /s3cret/);
    assert.match(
      result.stderr,
      new RegExp(`\\* Proxy http://127.0.0.1:${proxy.port} \\(--proxy\\)`),
    );
  } finally {
    await proxy.close();
  }
});
