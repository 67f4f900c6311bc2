import assert from "node:assert/strict";
import { BufferSink } from "../_run_cli.ts";
import {
  formatBytes,
  formatDuration,
  formatProgress,
  ProgressBar,
} from "../../src/output/progress.ts";
import { downloadName } from "../../src/output/download.ts";
import { expectedSize, saveAsNew } from "../../src/output/save_file.ts";

Deno.test("progress: sizes and durations read like curl's", () => {
  assert.equal(formatBytes(512), "512 B");
  assert.equal(formatBytes(1536), "1.5 KiB");
  assert.equal(formatBytes(1024 ** 3), "1.0 GiB");
  assert.equal(formatDuration(5.4), "0:05");
  assert.equal(formatDuration(125), "2:05");
  assert.equal(formatDuration(3725), "1:02:05");
});

Deno.test("progress: a known size shows a bar, percentage, rate and ETA", () => {
  const line = formatProgress({
    bytes: 5 * 1024 ** 2,
    total: 10 * 1024 ** 2,
    elapsedMs: 2000,
    columns: 100,
  });
  assert.equal(
    line,
    "[===============>              ]  50%  5.0 MiB / 10.0 MiB  2.5 MiB/s  ETA 0:02",
  );
  const done = formatProgress({ bytes: 10, total: 10, elapsedMs: 61_000, columns: 100 });
  assert.match(done, /^\[=+\] 100% {2}10 B \/ 10 B {2}0 B\/s {2}in 1:01$/);
});

Deno.test("progress: an unknown size shows bytes, rate and time; narrow terminals drop the bar", () => {
  assert.equal(
    formatProgress({ bytes: 3 * 1024, elapsedMs: 1000, columns: 80 }),
    "3.0 KiB  3.0 KiB/s  0:01",
  );
  const narrow = formatProgress({ bytes: 1, total: 2, elapsedMs: 1000, columns: 40 });
  assert.equal(narrow.startsWith("["), false);
  assert.ok(narrow.length < 40);
});

Deno.test("progress: redraws at most once per interval on a terminal, then ends the line", async () => {
  let now = 0;
  const sink = new BufferSink(true);
  const bar = new ProgressBar(sink, { total: 100, now: () => now, columns: 100 });
  bar.add(10); // drawn: first update
  now = 50;
  bar.add(10); // within the interval: not drawn
  now = 150;
  bar.add(30); // drawn
  now = 200;
  bar.add(50);
  await bar.finish();
  const frames = sink.text().split("\r").filter(Boolean);
  assert.equal(frames.length, 3, JSON.stringify(sink.text()));
  assert.match(frames[0]!, / {2}10% {2}10 B \/ 100 B/);
  assert.match(frames[1]!, / {2}50% {2}50 B \/ 100 B/);
  // deno-lint-ignore no-control-regex
  assert.match(frames[2]!, / 100% {2}100 B \/ 100 B .*\x1b\[K\n$/);
});

Deno.test("progress: nothing is drawn when the sink is not a terminal", async () => {
  const sink = new BufferSink(false);
  const bar = new ProgressBar(sink, { total: 10 });
  bar.add(10);
  await bar.finish();
  await bar.clear();
  assert.equal(sink.text(), "");
});

Deno.test("download: the name comes from Content-Disposition, filename* first", () => {
  const url = new URL("https://x.test/files/fallback.bin");
  const name = (cd: string) => downloadName(new Headers({ "content-disposition": cd }), url);
  assert.equal(name('attachment; filename="report 2024.pdf"'), "report 2024.pdf");
  assert.equal(name("attachment; filename=plain.txt"), "plain.txt");
  assert.equal(
    name(`attachment; filename="a.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`),
    "résumé.pdf",
  );
  assert.equal(name(`attachment; filename*=iso-8859-1'en'caf%E9.txt`), "café.txt");
  assert.equal(name('attachment; filename="q\\"uote.txt"'), 'q"uote.txt');
});

Deno.test("download: names cannot leave the current directory or hide", () => {
  const url = new URL("https://x.test/files/fallback.bin");
  const name = (cd: string) => downloadName(new Headers({ "content-disposition": cd }), url);
  assert.equal(name('attachment; filename="../../etc/passwd"'), "passwd");
  assert.equal(name('attachment; filename="C:\\\\Windows\\\\evil.exe"'), "evil.exe");
  assert.equal(name('attachment; filename=".bashrc"'), "bashrc");
  assert.equal(name('attachment; filename="a\x01b"'), "ab");
  assert.equal(name('attachment; filename=".."'), "fallback.bin");
});

Deno.test("download: without Content-Disposition the URL path names the file", () => {
  assert.equal(
    downloadName(new Headers(), new URL("https://x.test/a/my%20file.tar.gz?x=1")),
    "my file.tar.gz",
  );
  assert.equal(
    downloadName(
      new Headers({ "content-type": "application/json; charset=utf-8" }),
      new URL("https://x.test/"),
    ),
    "index.json",
  );
  assert.equal(downloadName(new Headers(), new URL("https://x.test/api/")), "index");
});

Deno.test("download: an existing file is never replaced; a numbered name is used", async () => {
  const dir = await Deno.makeTempDir();
  const wanted = `${dir}/data.tar.gz`;
  await Deno.writeTextFile(wanted, "keep me");
  await Deno.writeTextFile(`${dir}/data.tar-1.gz`, "keep me too");
  const err = { write: () => Promise.resolve(), isTerminal: false, color: false };
  const { path } = await saveAsNew(new Response("new"), wanted, { err, silent: true });
  assert.equal(path, `${dir}/data.tar-2.gz`);
  assert.equal(await Deno.readTextFile(wanted), "keep me");
  assert.equal(await Deno.readTextFile(path), "new");
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).length, 3);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("download: the expected size is Content-Length unless the body is re-encoded", () => {
  assert.deepEqual(expectedSize(new Response("", { headers: { "content-length": "42" } })), {
    total: 42,
  });
  assert.deepEqual(
    expectedSize(
      new Response("", { headers: { "content-length": "42", "content-encoding": "gzip" } }),
    ),
    {},
  );
  assert.deepEqual(expectedSize(new Response("", { headers: { "content-length": "x" } })), {});
});

Deno.test("download: names lose bidi controls and C1, and keep at most 255 bytes", () => {
  const url = new URL("https://x.test/files/fallback.bin");
  const name = (cd: string) => downloadName(new Headers({ "content-disposition": cd }), url);
  const rlo = encodeURIComponent("invoice\u202efdp.exe");
  assert.equal(name(`attachment; filename*=UTF-8''${rlo}`), "invoicefdp.exe");
  assert.equal(name(`attachment; filename*=UTF-8''a%C2%9B2Jb%E2%81%A6.txt`), "a2Jb.txt");
  const long = name(`attachment; filename*=UTF-8''${encodeURIComponent("é".repeat(300))}.tar.gz`);
  assert.ok(new TextEncoder().encode(long).length <= 255, long);
  assert.ok(long.endsWith("é.gz"), long);
  const url300 = new URL(`https://x.test/${"x".repeat(300)}.json`);
  assert.equal(downloadName(new Headers(), url300), `${"x".repeat(250)}.json`);
});

Deno.test("download: a taken 255-byte name gets a numbered name within 255 bytes", async () => {
  const dir = await Deno.makeTempDir();
  const wanted = `${dir}/${"n".repeat(251)}.txt`;
  await Deno.writeTextFile(wanted, "keep me");
  const err = { write: () => Promise.resolve(), isTerminal: false, color: false };
  const { path } = await saveAsNew(new Response("new"), wanted, { err, silent: true });
  assert.equal(path, `${dir}/${"n".repeat(249)}-1.txt`);
  assert.equal(await Deno.readTextFile(path), "new");
  await Deno.remove(dir, { recursive: true });
});
