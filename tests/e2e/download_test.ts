import assert from "node:assert/strict";
import { dial, dialOnTerminal, serve } from "../_helpers.ts";
import { assertBytesEqual } from "../assert.ts";

const payload = new Uint8Array(300_000).map((_, i) => i % 251);

function files() {
  return serve((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/missing.bin") return new Response("no such file", { status: 404 });
    const headers: Record<string, string> = { "content-type": "application/octet-stream" };
    if (url.pathname === "/export") {
      headers["content-disposition"] = 'attachment; filename="report.csv"';
    }
    return new Response(payload, { headers });
  });
}

Deno.test("download: --download names the file from Content-Disposition", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  const result = await dial(["GET", `${server.origin}/export?id=1`, "--download"], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "");
  assert.equal(result.stderr, 'Saved 293.0 KiB to "report.csv"\n');
  assertBytesEqual(await Deno.readFile(`${cwd}/report.csv`), payload);
});

Deno.test("download: --download never replaces a file and says which name it used", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  await Deno.writeTextFile(`${cwd}/image.raw`, "precious");
  const result = await dial(["GET", `${server.origin}/img/image.raw`, "--download"], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stderr,
    'warning: "image.raw" already exists: saved to "image-1.raw" instead\nSaved 293.0 KiB to "image-1.raw"\n',
  );
  assert.equal(await Deno.readTextFile(`${cwd}/image.raw`), "precious");
  assertBytesEqual(await Deno.readFile(`${cwd}/image-1.raw`), payload);
});

Deno.test("download: an error response is shown, not saved, and exits by status (as HTTPie)", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  const result = await dial(["GET", `${server.origin}/missing.bin`, "--download"], { cwd });
  assert.equal(result.code, 4);
  assert.equal(result.stdout, "no such file");
  assert.equal(result.stderr, "warning: Not saved: HTTP 404 Not Found\n");
  assert.deepEqual([...Deno.readDirSync(cwd)], []);
  const httpie = await new Deno.Command("http", {
    args: ["--ignore-stdin", "--download", `${server.origin}/missing.bin`],
    cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(httpie.code, result.code);
  assert.deepEqual([...Deno.readDirSync(cwd)], []);
});

Deno.test("download: -o with stderr piped writes the file and no progress", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  const result = await dial(["GET", `${server.origin}/a.bin`, "-o", "out.bin"], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  assertBytesEqual(await Deno.readFile(`${cwd}/out.bin`), payload);
});

async function onTerminal(args: string[], cwd: string): Promise<string> {
  const { code, screen } = await dialOnTerminal(args, { cwd, env: { TERM: "xterm" } });
  assert.equal(code, 0, screen);
  return screen;
}

Deno.test("download: -o on a terminal draws a progress bar with size, percentage and rate", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  const screen = await onTerminal(["GET", `${server.origin}/a.bin`, "-o", "out.bin"], cwd);
  assert.match(
    screen,
    // deno-lint-ignore no-control-regex
    /\r\[=+\] 100% {2}293\.0 KiB \/ 293\.0 KiB {2}[\d.]+ [KMG]?i?B\/s {2}in 0:0\d\x1b\[K/,
  );
  assertBytesEqual(await Deno.readFile(`${cwd}/out.bin`), payload);
});

Deno.test("download: --download on a terminal draws the bar, then names the file", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  const screen = await onTerminal(["GET", `${server.origin}/export`, "--download"], cwd);
  assert.match(screen, /\r\[=+\] 100% .*\r?\nSaved 293\.0 KiB to "report\.csv"/);
});

Deno.test("download: -s hides the bar even on a terminal", async () => {
  await using server = files();
  const cwd = await Deno.makeTempDir();
  const screen = await onTerminal(["GET", `${server.origin}/a.bin`, "-o", "out.bin", "-s"], cwd);
  assert.equal(screen, "");
});
