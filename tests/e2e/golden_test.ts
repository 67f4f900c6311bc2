/**
 * Golden files: each folder of tests/golden/ is one dial command line (`args`, one argument per
 * line) with the output it must print (`expected.out`, `expected.err`) and its exit code
 * (`expected.exit`, 0 when absent), as Hurl pins its printed formats. Commands run in process
 * against one raw-socket server on 127.0.0.1 whose answers are fixed bytes, so every byte of a
 * head or a report is the same on every run.
 *
 * A word of `args` that starts with `SECRET-` must not be printed (checked before the
 * comparison, in update mode too): cases of redacted output say so with such values.
 *
 * In `args` and in the expected files, `$SERVER` stands for `http://127.0.0.1:PORT` and `$CASE`
 * for the case's folder, `$INPUTS` for tests/golden/_inputs/ (request files several cases share). Timings in reports are written as `$MS`.
 *
 * Update mode: `GOLDEN_UPDATE=1 deno task test tests/e2e/golden_test.ts` rewrites the expected
 * files from what dial prints now; review the diff before committing it.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";

const GOLDEN = new URL("../golden/", import.meta.url);
const INPUTS = decodeURIComponent(new URL("_inputs", GOLDEN).pathname);
const UPDATE = Deno.env.get("GOLDEN_UPDATE") === "1";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The fixed answers of the golden server, by request path. */
const ANSWERS: Record<string, { status: string; type: string; body: string }> = {
  "/json": {
    status: "200 OK",
    type: "application/json",
    body: '{"id":1,"name":"ann","tags":["a","b"]}',
  },
  "/text": { status: "200 OK", type: "text/plain; charset=utf-8", body: "hello\n" },
  "/created": { status: "201 Created", type: "application/json", body: '{"id":2}' },
  "/missing": { status: "404 Not Found", type: "text/plain", body: "no such thing\n" },
  "/broken": { status: "500 Internal Server Error", type: "text/plain", body: "oops\n" },
};

/** Reads one request (head and a Content-Length body) from `conn`; returns its path. */
async function readRequest(conn: Deno.Conn): Promise<string | undefined> {
  let data = new Uint8Array(0);
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const text = decoder.decode(data);
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) {
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (data.length >= encoder.encode(text.slice(0, end + 4)).length + length) {
        return text.slice(0, text.indexOf("\r\n")).split(" ")[1];
      }
    }
    const n = await conn.read(buffer);
    if (n === null) return undefined;
    const next = new Uint8Array(data.length + n);
    next.set(data);
    next.set(buffer.subarray(0, n), data.length);
    data = next;
  }
}

/** Answers one request per connection with the fixed bytes of its path, then closes. */
async function answer(conn: Deno.Conn): Promise<void> {
  try {
    const path = await readRequest(conn);
    if (path === undefined) return;
    const found = ANSWERS[path.split("?")[0]!] ??
      { status: "404 Not Found", type: "text/plain", body: "unknown path\n" };
    const body = encoder.encode(found.body);
    const head = `HTTP/1.1 ${found.status}\r\nContent-Type: ${found.type}\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    await conn.write(encoder.encode(head));
    await conn.write(body);
  } catch {
    // a client that went away: nothing to answer
  } finally {
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
}

/** Starts the golden server; dispose to stop it and wait for its connections. */
function goldenServer(): { url: string } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const conn of listener) {
      const done = answer(conn);
      open.add(done);
      done.finally(() => open.delete(done));
    }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop.catch(() => {});
      await Promise.all(open);
    },
  };
}

/** Replaces the run's own values (server, folder, timings) by their placeholders. */
export function normalize(text: string, server: string, folder: string): string {
  return text.replaceAll(server, "$SERVER").replaceAll(server.replace("http://", ""), "$HOST")
    .replaceAll(INPUTS, "$INPUTS").replaceAll(folder, "$CASE")
    .replace(/\b\d+(\.\d+)? ?ms\b/g, "$MS")
    .replace(/\btime="[\d.]+"/g, 'time="$MS"')
    .replace(
      /"(duration|durationMs|time|blockedMs|dnsMs|connectMs|tlsMs|waitMs|firstByteMs|downloadMs|totalMs)": ?[\d.]+/g,
      '"$1": "$MS"',
    )
    .replace(/\btimestamp="[^"]+"/g, 'timestamp="$TIME"')
    .replace(/\bduration_ms: \d+(\.\d+)?/g, "duration_ms: $MS");
}

async function readIf(url: URL): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(url);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

const cases: string[] = [];
for await (const entry of Deno.readDir(GOLDEN)) {
  if (entry.isDirectory && !entry.name.startsWith("_")) cases.push(entry.name);
}
cases.sort();

for (const name of cases) {
  Deno.test(`golden: ${name}`, async () => {
    const dir = new URL(`${name}/`, GOLDEN);
    const folder = decodeURIComponent(dir.pathname).replace(/\/$/, "");
    await using server = goldenServer();
    const args = (await Deno.readTextFile(new URL("args", dir))).split("\n")
      .filter((line) => line !== "")
      .map((line) =>
        line.replaceAll("$SERVER", server.url).replaceAll("$CASE", folder)
          .replaceAll("$INPUTS", INPUTS)
      );
    const stdin = await readIf(new URL("stdin", dir));
    const result = await dial(args, stdin === undefined ? {} : { stdin });
    const actual = {
      out: normalize(result.stdout, server.url, folder),
      err: normalize(result.stderr, server.url, folder),
      exit: `${result.code}\n`,
    };
    const hint = ` (tests/golden/${name}; GOLDEN_UPDATE=1 rewrites it: review the diff)`;
    // A secret of the command line (a word starting with SECRET-) is never printed, whatever
    // the expected files say, and is never written into them by the update mode.
    for (const secret of args.join("\n").match(/SECRET-[\w-]+/g) ?? []) {
      assert.ok(!result.stdout.includes(secret), `stdout prints ${secret}${hint}`);
      assert.ok(!result.stderr.includes(secret), `stderr prints ${secret}${hint}`);
    }
    if (UPDATE) {
      await Deno.writeTextFile(new URL("expected.out", dir), actual.out);
      await Deno.writeTextFile(new URL("expected.err", dir), actual.err);
      if (result.code === 0) await Deno.remove(new URL("expected.exit", dir)).catch(() => {});
      else await Deno.writeTextFile(new URL("expected.exit", dir), actual.exit);
      return;
    }
    assert.equal(actual.out, await readIf(new URL("expected.out", dir)) ?? "", `stdout${hint}`);
    assert.equal(actual.err, await readIf(new URL("expected.err", dir)) ?? "", `stderr${hint}`);
    assert.equal(
      actual.exit,
      (await readIf(new URL("expected.exit", dir))) ?? "0\n",
      `exit${hint}`,
    );
  });
}

Deno.test("golden: placeholders replace the run's own values only", () => {
  const text =
    'GET http://127.0.0.1:4321/x 12 ms time="0.013" /tmp/c/a.http 127.0.0.1:4321 duration_ms: 3';
  assert.equal(
    normalize(text, "http://127.0.0.1:4321", "/tmp/c"),
    'GET $SERVER/x $MS time="$MS" $CASE/a.http $HOST duration_ms: $MS',
  );
});
