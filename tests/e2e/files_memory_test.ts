/**
 * Bounded memory in `dial run` / `dial test` (issue 34 item 6): a 256 MiB body with a handler,
 * an assertion and a `>>` file streams to the file and the screen; handlers see its first
 * 16 MiB. Peak RSS from GNU time's report, not timed.
 */
import assert from "node:assert/strict";
import { dialEnv, serve } from "../_helpers.ts";
import { mainPath } from "./_spawn.ts";
import { project } from "./_files.ts";

const MB = 1024 * 1024;

/** A body of `size` bytes of text, sent in 64 KiB chunks. */
function bigBody(size: number) {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  return serve(() => {
    let sent = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          controller.enqueue(chunk);
          sent += chunk.length;
        },
      }, { highWaterMark: 1 }),
      { headers: { "content-type": "text/plain" } },
    );
  });
}

async function peakRun(args: string[]) {
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "PEAK_KB=%M", Deno.execPath(), "run", "-A", "--quiet", mainPath(), ...args],
    stdout: "null",
    stderr: "piped",
    clearEnv: true,
    env: dialEnv(),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  const kb = Number(/PEAK_KB=(\d+)/.exec(stderr)?.[1]);
  return { code: output.code, stderr, peak: kb * 1024 };
}

function bigFile(origin: string) {
  return [
    `GET ${origin}/big`,
    "",
    "?? status == 200",
    "?? js response.body.length == 16777216",
    '> {% client.test("seen", function () { client.assert(response.body.length > 0); }); %}',
    ">>! ./big.out",
    "",
  ].join("\n");
}

/** The file in a folder of its own, removed with the body it saved (up to 512 MiB) at the end. */
async function bigProject(origin: string) {
  const dir = await project({ "big.http": bigFile(origin) });
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("memory: a body with a handler, an assertion and >> costs the same at 64 and 512 MiB", async () => {
  const peaks: number[] = [];
  for (const size of [64 * MB, 512 * MB]) {
    await using server = bigBody(size);
    await using files = await bigProject(server.origin);
    const dir = files.dir;
    const run = await peakRun(["run", `${dir}/big.http`]);
    assert.equal(run.code, 0, run.stderr);
    // The >> file has all of it; handlers and assertions saw the first 16 MiB.
    assert.equal((await Deno.stat(`${dir}/big.out`)).size, size);
    assert.match(
      run.stderr,
      /The response body is over 16 MiB: handlers, assertions and request variables see its first 16 MiB/,
    );
    assert.match(run.stderr, /✓ .*js response\.body\.length == 16777216/);
    peaks.push(run.peak);
  }
  // Eight times the body, not eight times the memory: the growth stays under 48 MB (before,
  // each body was held whole, several times over).
  assert.ok(peaks[1]! - peaks[0]! < 48 * MB, `peak RSS ${peaks.map((p) => Math.round(p / MB))} MB`);
  assert.ok(peaks[1]! < 400 * MB, `peak RSS ${Math.round(peaks[1]! / MB)} MB`);
});

Deno.test("memory: dial test streams a large body past its assertions too", async () => {
  await using server = bigBody(256 * MB);
  await using files = await bigProject(server.origin);
  const dir = files.dir;
  const test = await peakRun(["test", `${dir}/big.http`]);
  assert.equal(test.code, 0, test.stderr);
  assert.equal((await Deno.stat(`${dir}/big.out`)).size, 256 * MB);
  assert.ok(test.peak < 400 * MB, `peak RSS ${Math.round(test.peak / MB)} MB`);
});
