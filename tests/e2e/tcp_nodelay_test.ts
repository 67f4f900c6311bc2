/**
 * dial's sockets send without Nagle's delay, as curl's and the runtime's fetch's do: with it, a
 * small write after another (the TLS handshake's, a body after its head) waited for the peer's
 * delayed ACK. Seen in the system calls, beside curl's.
 * @module
 */
import assert from "node:assert/strict";
import { dial, dialEnv, serve } from "../_helpers.ts";

const STRACE = ["/usr/bin/strace", "/bin/strace"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/** The `setsockopt(…, TCP_NODELAY, [1], …)` calls of a command, as strace sees them. */
async function noDelayCalls(command: string[], env: Record<string, string>): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "dial-nodelay-" });
  try {
    const output = await new Deno.Command(STRACE!, {
      args: ["-f", "-qq", "-e", "trace=setsockopt", "-o", `${dir}/trace`, ...command],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env,
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const trace = await Deno.readTextFile(`${dir}/trace`);
    return [...trace.matchAll(/TCP_NODELAY, \[1\]/g)].length;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "tcp: dial's connection sets TCP_NODELAY, as curl's does",
  ignore: STRACE === undefined,
  async fn() {
    await using server = serve(() => new Response("ok"));
    const url = `${server.origin}/`;
    const env = { ...dialEnv(), PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    assert.equal(await noDelayCalls(["curl", "-s", url], env), 1);
    const main = new URL("../../main.ts", import.meta.url).pathname;
    const ours = [Deno.execPath(), "run", "-A", "--quiet", main, "GET", url];
    assert.equal(await noDelayCalls(ours, env), 1);
    // And the request still goes out whole.
    const result = await dial(["GET", url]);
    assert.equal(result.stdout, "ok");
    assert.equal(server.requests.length, 3);
  },
});
