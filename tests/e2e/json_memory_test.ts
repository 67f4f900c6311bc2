import assert from "node:assert/strict";
import { spawnDial } from "./_spawn.ts";

/** Writes a JSON array of about `size` bytes, one record at a time. */
async function bigJson(path: string, size: number): Promise<number> {
  const record = JSON.stringify({ id: 0, name: "café ☕ user", tags: ["a", "b"], score: 1.5 });
  const encoder = new TextEncoder();
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  let written = 0;
  const write = async (text: string) => {
    const bytes = encoder.encode(text);
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
    written += bytes.length;
  };
  await write("[");
  const block = Array.from({ length: 1000 }, () => record).join(",");
  for (let first = true; written < size; first = false) await write((first ? "" : ",") + block);
  await write("]");
  file.close();
  return written;
}

Deno.test("memory: --json @file is checked and sent with peak RSS under twice the file (VmHWM)", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/big.json`;
  const size = await bigJson(path, 56 * 1024 * 1024);
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  let received!: (bytes: number) => void;
  const arrived = new Promise<number>((resolve) => received = resolve);
  // The response waits until dial's high-water mark is read: by then it validated and sent all.
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      let bytes = 0;
      for await (const chunk of request.body!) bytes += chunk.length;
      received(bytes);
      await held;
      return new Response("ok");
    },
  );
  const child = spawnDial(["POST", `http://127.0.0.1:${server.addr.port}/`, "--json", `@${path}`], {
    stdin: "null",
  });
  assert.equal(await arrived, size);
  const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
  release();
  const output = await child.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
  assert.ok(peak < 2 * size, `peak RSS ${peak} bytes for a ${size}-byte file`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("memory: an invalid --json file is refused before sending, naming line and column", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/bad.json`, '{"a": [1,\n 2,, 3]}');
  await Deno.writeTextFile(`${dir}/bom.json`, '\ufeff{"a": 1}');
  const run = async (file: string) =>
    await spawnDial(["POST", "http://127.0.0.1:9/", "--json", `@${file}`, "--offline"], {
      stdin: "null",
    }).output();
  const bad = await run(`${dir}/bad.json`);
  assert.equal(bad.code, 2);
  assert.match(
    new TextDecoder().decode(bad.stderr),
    /^error: Invalid JSON in --json file ".*bad\.json": unexpected "," at line 2, column 4/m,
  );
  const bom = await run(`${dir}/bom.json`);
  assert.equal(bom.code, 0, new TextDecoder().decode(bom.stderr));
  await Deno.remove(dir, { recursive: true });
});
