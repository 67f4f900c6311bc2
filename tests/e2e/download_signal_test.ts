/**
 * SIGTERM (docker stop, timeout, a cancelled CI job) during `-o`/`--download` ends dial as
 * Ctrl-C does: the hidden temporary file is removed; with `-C` what arrived is kept.
 * @module
 */
import assert from "node:assert/strict";
import { waitFor } from "../_helpers.ts";
import { spawnDial } from "./_spawn.ts";

const first = new Uint8Array(70_000).fill(7);

/** A server that sends the head and part of the body, then waits until released. */
function stallingServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { promise: sent, resolve: onSent } = Promise.withResolvers<void>();
  const { promise: release, resolve: releaseIt } = Promise.withResolvers<void>();
  const serving = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(8192));
    const head = `HTTP/1.1 200 OK\r\nContent-Length: ${first.length * 4}\r\n\r\n`;
    await conn.write(new TextEncoder().encode(head));
    for (let at = 0; at < first.length;) at += await conn.write(first.subarray(at));
    onSent();
    await release;
    conn.close();
  })();
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    sent,
    async close() {
      releaseIt();
      await serving.catch(() => {});
      listener.close();
    },
  };
}

/** Waits until a file in `dir` holds every byte sent so far. */
async function arrived(dir: string): Promise<void> {
  await waitFor(
    () =>
      [...Deno.readDirSync(dir)].some((e) =>
        Deno.statSync(`${dir}/${e.name}`).size >= first.length
      ),
    { message: `the first ${first.length} bytes in ${dir}` },
  );
}

async function run(args: string[], cwd: string, url: string) {
  const child = spawnDial([url, ...args], { cwd, stdin: "null" });
  await arrived(cwd);
  child.kill("SIGTERM");
  return await child.output();
}

Deno.test("download: SIGTERM during -o removes the temporary file, as Ctrl-C does (exit 143)", async () => {
  const server = stallingServer();
  const cwd = await Deno.makeTempDir();
  try {
    const output = await run(["-o", "out.bin"], cwd, `${server.origin}/f`);
    assert.equal(output.code, 143, new TextDecoder().decode(output.stderr));
    assert.deepEqual([...Deno.readDirSync(cwd)], []);
  } finally {
    await server.close();
  }
});

Deno.test("download: SIGTERM during -C keeps what arrived", async () => {
  const server = stallingServer();
  const cwd = await Deno.makeTempDir();
  try {
    const output = await run(["-C", "-o", "part.bin"], cwd, `${server.origin}/f`);
    assert.equal(output.code, 143, new TextDecoder().decode(output.stderr));
    assert.deepEqual(await Deno.readFile(`${cwd}/part.bin`), first);
  } finally {
    await server.close();
  }
});
