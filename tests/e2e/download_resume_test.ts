import assert from "node:assert/strict";
import { pythonFileServer, runProgram } from "../_process.ts";
import { dial, type DialResult } from "../_helpers.ts";
import { assertBytesEqual } from "../assert.ts";
import { hasLighttpd, startFileServer } from "./_lighttpd.ts";
import { hasNginx, startNginx } from "./_nginx.ts";
import { concat, headerValues, rawServer, requestPath } from "./_raw_server.ts";

const payload = new Uint8Array(200_000).map((_, i) => (i * 7) % 253);

function head(status: string, headers: Record<string, string | number>): Uint8Array {
  const lines = [`HTTP/1.1 ${status}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
}

/**
 * Serves `payload` at /file.bin honouring `Range: bytes=N-` (206, or 416 past the end);
 * /cut.bin announces the full length and sends only the first half; /ignore.bin ignores Range.
 */
function rangeServer() {
  return rawServer((request) => {
    const path = requestPath(request);
    const range = /^bytes=(\d+)-/.exec(headerValues(request, "range")[0] ?? "");
    const type = { "Content-Type": "application/octet-stream" };
    if (path === "/cut.bin") {
      const start = range ? Number(range[1]) : 0;
      const status = range ? "206 Partial Content" : "200 OK";
      return concat([
        head(status, {
          ...type,
          "Content-Length": payload.length - start,
          ...(range
            ? { "Content-Range": `bytes ${start}-${payload.length - 1}/${payload.length}` }
            : {}),
        }),
        payload.subarray(start, start + 50_000),
      ]);
    }
    if (!range || path === "/ignore.bin") {
      return concat([head("200 OK", { ...type, "Content-Length": payload.length }), payload]);
    }
    const start = Number(range[1]);
    if (start >= payload.length) {
      return head("416 Range Not Satisfiable", {
        "Content-Range": `bytes */${payload.length}`,
        "Content-Length": 0,
      });
    }
    return concat([
      head("206 Partial Content", {
        ...type,
        "Content-Length": payload.length - start,
        "Content-Range": `bytes ${start}-${payload.length - 1}/${payload.length}`,
      }),
      payload.subarray(start),
    ]);
  });
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("download: a body cut off leaves no file under its name and no temporary file", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  const result = await dial([`${server.origin}/cut.bin`, "--download"], { cwd });
  assert.equal(result.code, 7, result.stderr);
  assert.match(result.stderr, /Response body from .* was cut off/);
  assert.deepEqual(await names(cwd), []);
});

Deno.test("download: -o replaces the file only when the body is complete", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  await Deno.writeTextFile(`${cwd}/out.bin`, "previous version");
  const cut = await dial([`${server.origin}/cut.bin`, "-o", "out.bin"], { cwd });
  assert.equal(cut.code, 7, cut.stderr);
  assert.equal(await Deno.readTextFile(`${cwd}/out.bin`), "previous version");
  assert.deepEqual(await names(cwd), ["out.bin"]);
  await Deno.chmod(`${cwd}/out.bin`, 0o600);
  const whole = await dial([`${server.origin}/file.bin`, "-o", "out.bin"], { cwd });
  assert.equal(whole.code, 0, whole.stderr);
  assertBytesEqual(await Deno.readFile(`${cwd}/out.bin`), payload);
  assert.equal((await Deno.stat(`${cwd}/out.bin`)).mode! & 0o777, 0o600);
  assert.deepEqual(await names(cwd), ["out.bin"]);
});

Deno.test("download: -o /dev/null is written, not replaced", async () => {
  await using server = rangeServer();
  const result = await dial([`${server.origin}/file.bin`, "-o", "/dev/null"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal((await Deno.stat("/dev/null")).isCharDevice, true);
});

Deno.test("download: -C resumes a partial file with Range and gets the same bytes as curl -C -", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  await Deno.writeFile(`${cwd}/file.bin`, payload.subarray(0, 12_345));
  await Deno.writeFile(`${cwd}/curl.bin`, payload.subarray(0, 12_345));
  const result = await dial([`${server.origin}/file.bin`, "-C", "--download"], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(headerValues(server.requests.at(-1)!, "range"), ["bytes=12345-"]);
  assert.equal(result.stderr, 'Resumed "file.bin" at 12.1 KiB: 183.3 KiB more\n');
  assertBytesEqual(await Deno.readFile(`${cwd}/file.bin`), payload);
  const curl = await new Deno.Command("curl", {
    args: ["-sS", "-C", "-", "-o", "curl.bin", `${server.origin}/file.bin`],
    cwd,
  }).output();
  assert.equal(curl.code, 0);
  assertBytesEqual(await Deno.readFile(`${cwd}/curl.bin`), await Deno.readFile(`${cwd}/file.bin`));
});

Deno.test("download: curl's spelling -C - (also --continue-at -, -C-) resumes as -C does; an offset is refused", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  const spellings = [["-C", "-"], ["--continue-at", "-"], ["-C-"], ["--continue-at=-"]];
  for (const [i, spelling] of spellings.entries()) {
    await Deno.writeFile(`${cwd}/${i}.bin`, payload.subarray(0, 1000 * (i + 1)));
    const result = await dial([...spelling, "-o", `${i}.bin`, `${server.origin}/file.bin`], {
      cwd,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(headerValues(server.requests.at(-1)!, "range"), [`bytes=${1000 * (i + 1)}-`]);
    assertBytesEqual(await Deno.readFile(`${cwd}/${i}.bin`), payload);
  }
  const sent = server.requests.length;
  const offset = await dial(["-C", "100", "-o", "0.bin", `${server.origin}/file.bin`], { cwd });
  assert.equal(offset.code, 2);
  assert.match(
    offset.stderr,
    /^error: Cannot resume at offset 100: dial resumes from the file's size$/m,
  );
  assert.equal(server.requests.length, sent);
});

Deno.test("download: -C keeps what arrived when cut off, and the next run completes it", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  const first = await dial([`${server.origin}/cut.bin`, "-C", "-o", "part.bin"], { cwd });
  assert.equal(first.code, 7, first.stderr);
  assert.match(first.stderr, /Kept 48\.8 KiB in "part\.bin": run the same command to resume/);
  assertBytesEqual(await Deno.readFile(`${cwd}/part.bin`), payload.subarray(0, 50_000));
  const second = await dial([`${server.origin}/file.bin`, "-C", "-o", "part.bin"], { cwd });
  assert.equal(second.code, 0, second.stderr);
  assertBytesEqual(await Deno.readFile(`${cwd}/part.bin`), payload);
});

/**
 * Asserts that `-C` against a server that ignored Range said so, wrote the whole payload again
 * and left no other file.
 */
async function downloadedAgain(result: DialResult, cwd: string, name: string): Promise<void> {
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stderr,
    `warning: The server ignored Range: downloading all of "${name}" again\n`,
  );
  assertBytesEqual(await Deno.readFile(`${cwd}/${name}`), payload);
  assert.deepEqual(await names(cwd), [name]);
}

Deno.test("download: -C falls back to the whole file when the server ignores Range", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  await Deno.writeTextFile(`${cwd}/ignore.bin`, "stale start");
  const result = await dial([`${server.origin}/ignore.bin`, "-C", "-o", "ignore.bin"], { cwd });
  await downloadedAgain(result, cwd, "ignore.bin");
});

Deno.test("download: -C on a complete file says so and exits 0", async () => {
  await using server = rangeServer();
  const cwd = await Deno.makeTempDir();
  await Deno.writeFile(`${cwd}/file.bin`, payload);
  const result = await dial([`${server.origin}/file.bin`, "-C", "-o", "file.bin"], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '"file.bin" is already complete (195.3 KiB)\n');
  assertBytesEqual(await Deno.readFile(`${cwd}/file.bin`), payload);
});

Deno.test({
  name:
    "download: -C on a complete file against lighttpd (a 416 without Content-Range) keeps it and exits 0, as curl -C -",
  ignore: !hasLighttpd,
  async fn() {
    const text = "A".repeat(5000);
    await using server = await startFileServer({ "f.bin": text });
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(`${cwd}/f.bin`, text);
    await Deno.writeTextFile(`${cwd}/curl.bin`, text);
    const curl = await runProgram("curl", [
      "-sS",
      "-C",
      "-",
      "-o",
      "curl.bin",
      `${server.origin}/f.bin`,
    ], { cwd });
    assert.equal(curl.code, 0, curl.stderr);
    const result = await dial([`${server.origin}/f.bin`, "-C", "-o", "f.bin"], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      '"f.bin" is kept as it is (4.9 KiB): the server answered 416 Range Not Satisfiable to a resume from its end\n',
    );
    assert.equal(result.stdout, "");
    assert.equal(await Deno.readTextFile(`${cwd}/f.bin`), text);
    assert.equal(await Deno.readTextFile(`${cwd}/curl.bin`), text);
    await Deno.remove(cwd, { recursive: true });
  },
});

Deno.test("download: -C without -o or --download is a usage error", async () => {
  const result = await dial(["http://127.0.0.1:9/x", "-C"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /-C\/--continue needs a file to resume/);
});

Deno.test("download: -C against Python's http.server (no Range support) downloads the whole file again", async () => {
  const served = await Deno.makeTempDir();
  await Deno.writeFile(`${served}/data.bin`, payload);
  await using server = await pythonFileServer(served);
  const cwd = await Deno.makeTempDir();
  await Deno.writeFile(`${cwd}/data.bin`, payload.subarray(0, 1000));
  const result = await dial([`${server.origin}/data.bin`, "-C", "--download"], { cwd });
  await downloadedAgain(result, cwd, "data.bin");
});

Deno.test({
  name: "download: -C resumes from nginx (206), and a complete file gets its 416, as curl -C -",
  ignore: !hasNginx,
  fn: async () => {
    const root = await Deno.makeTempDir();
    await Deno.chmod(root, 0o755);
    await Deno.writeFile(`${root}/big.bin`, payload);
    await using nginx = await startNginx(root);
    const cwd = await Deno.makeTempDir();
    await Deno.writeFile(`${cwd}/big.bin`, payload.subarray(0, 70_000));
    const resumed = await dial([`${nginx.origin}/big.bin`, "-C", "--download"], { cwd });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /^Resumed "big\.bin" at 68\.4 KiB: 127\.0 KiB more\n$/);
    assertBytesEqual(await Deno.readFile(`${cwd}/big.bin`), payload);
    const again = await dial([`${nginx.origin}/big.bin`, "-C", "-o", "big.bin"], { cwd });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, '"big.bin" is already complete (195.3 KiB)\n');
    await Deno.writeFile(`${cwd}/curl.bin`, payload.subarray(0, 70_000));
    const curl = await new Deno.Command("curl", {
      args: ["-sS", "-C", "-", "-o", "curl.bin", `${nginx.origin}/big.bin`],
      cwd,
    }).output();
    assert.equal(curl.code, 0);
    assertBytesEqual(await Deno.readFile(`${cwd}/curl.bin`), payload);
  },
});
