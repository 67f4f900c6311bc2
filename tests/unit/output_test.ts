import assert from "node:assert/strict";
import { BufferSink } from "../_run_cli.ts";
import { includes } from "../assert.ts";
import { authorizationHeader, basicAuthorization } from "../../src/auth/auth_header.ts";
import { toCurl } from "../../src/output/curl.ts";
import { prettyJson } from "../../src/output/json.ts";
import { printResponse } from "../../src/output/response.ts";
import { escapeControls, overlapped, shown } from "../../src/output/terminal.ts";
import { Secret } from "../../src/secret.ts";

Deno.test("auth: Basic encodes the UTF-8 bytes of user:password", () => {
  const header = basicAuthorization("jürgen", new Secret("p:ä:ss"));
  assert.equal(header.reveal(), `Basic ${btoa("j\xc3\xbcrgen:p:\xc3\xa4:ss")}`);
});

Deno.test("auth: Bearer header and secrets print redacted", async () => {
  const header = await authorizationHeader({ kind: "bearer", token: new Secret("tok") });
  assert.equal(header?.reveal(), "Bearer tok");
  assert.equal(`${header}`, "(redacted)");
  assert.equal(JSON.stringify({ header }), '{"header":"(redacted)"}');
  assert.equal(Deno.inspect(header).includes("tok"), false);
});

Deno.test("json: re-indents without changing numbers or strings", () => {
  const text = '{"a":1.50,"big":12345678901234567890,"s":"x:{,}\\"","e":[],"o":{},"l":[true,null]}';
  assert.equal(
    prettyJson(text, false),
    `{
  "a": 1.50,
  "big": 12345678901234567890,
  "s": "x:{,}\\"",
  "e": [],
  "o": {},
  "l": [
    true,
    null
  ]
}`,
  );
});

Deno.test("json: colours keys and values only when asked", () => {
  const coloured = prettyJson('{"k":"v"}', true);
  includes(coloured, "\x1b[");
  assert.equal(prettyJson('{"k":"v"}', false).includes("\x1b["), false);
});

Deno.test("curl: includes secrets, method, headers and body", () => {
  const command = toCurl({
    method: "PUT",
    url: new URL("https://api.test/x"),
    queryKeys: [{ name: "k", value: new Secret("v 1") }],
    headers: [{ name: "Authorization", value: new Secret("Bearer it's") }],
    body: { kind: "text", text: '{"a":1}' },
  });
  assert.equal(
    command,
    `curl -X PUT 'https://api.test/x?k=v%201' -H 'Authorization: Bearer it'\\''s' --data-raw '{"a":1}'`,
  );
});

Deno.test("curl: text form values that curl would read as a file are --form-string", () => {
  const command = toCurl({
    method: "POST",
    url: new URL("https://api.test/x"),
    queryKeys: [],
    headers: [],
    body: {
      kind: "form",
      boundary: "b",
      fields: [
        { name: "a", value: "@/etc/passwd" },
        { name: "b", value: "<secret;type=x" },
        { name: "f", path: 'dir/we"ird;.txt', filename: "r.csv", contentType: "text/csv" },
      ],
    },
  });
  assert.equal(
    command,
    `curl https://api.test/x --form-string a=@/etc/passwd --form-string 'b=<secret;type=x' ` +
      `-F 'f=@"dir/we\\"ird;.txt";filename="r.csv";type=text/csv'`,
  );
});

Deno.test("output: a terminal gets status, headers and pretty JSON", async () => {
  const out = new BufferSink(true);
  const err = new BufferSink(false);
  await printResponse(Response.json({ a: [1] }, { status: 201 }), { out, err });
  assert.equal(out.text().split("\n")[0], "201");
  includes(out.text(), "Content-Type: application/json");
  includes(out.text(), '{\n  "a": [\n    1\n  ]\n}\n');
});

Deno.test("output: invalid JSON on a terminal is printed as it came, with a warning", async () => {
  const out = new BufferSink(true);
  const err = new BufferSink(false);
  const response = new Response('{"a": 1,', { headers: { "content-type": "application/json" } });
  await printResponse(response, { out, err });
  includes(out.text(), '{"a": 1,\n');
  includes(err.text(), "warning: Response body is not valid JSON");
});

Deno.test("output: binary bodies are not dumped on a terminal", async () => {
  const out = new BufferSink(true);
  await printResponse(new Response(new Uint8Array([0, 1, 2, 255])), {
    out,
    err: new BufferSink(false),
    silent: true,
  });
  includes(out.text(), "binary body of 4 bytes not shown");
});

Deno.test("output: a truncated JSON body prints what arrived, then fails", async () => {
  const out = new BufferSink(true);
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('{"partial":'));
      else controller.error(new Error("connection reset"));
    },
  });
  const response = new Response(body, { headers: { "content-type": "application/json" } });
  await assert.rejects(
    () => printResponse(response, { out, err: new BufferSink(false) }),
    (error: unknown) => error instanceof Error && error.message.includes("reset"),
  );
  includes(out.text(), '{"partial":');
});

Deno.test("output: piped output is the body only, byte for byte", async () => {
  const out = new BufferSink(false);
  await printResponse(Response.json({ a: 1 }), { out, err: new BufferSink(false) });
  assert.equal(out.text(), '{"a":1}');
});

Deno.test("curl: cookie files and redirects turn curl's cookie engine on", () => {
  const request = { method: "GET", url: new URL("https://api.test/"), queryKeys: [], headers: [] };
  assert.equal(
    toCurl(request, { cookieFiles: { write: "jar.txt" } }),
    "curl https://api.test/ -b jar.txt -c jar.txt",
  );
  assert.equal(
    toCurl(request, { cookieFiles: { read: "in.txt" } }),
    "curl https://api.test/ -b in.txt",
  );
  assert.equal(toCurl(request), "curl https://api.test/");
});

Deno.test("terminal: one rule escapes C0, DEL, C1 and bidi controls, and keeps tab and newline", () => {
  const text = "a\x1b[2J\x07\x7f\x9b\u202a\u202e\u2066\u2069\t\nz\u00e9\u200d";
  assert.equal(
    escapeControls(text),
    "a\\x1b[2J\\x07\\x7f\\x9b\\u202a\\u202e\\u2066\\u2069\t\nz\u00e9\u200d",
  );
  assert.equal(shown({ isTerminal: true }, "\x1b]52;c;x\x07"), "\\x1b]52;c;x\\x07");
  assert.equal(shown({ isTerminal: false }, "\x1b]52;c;x\x07"), "\x1b]52;c;x\x07");
});

Deno.test("-o: the connection is read on while a write waits, and what it gathered is written next", async () => {
  const chunks = [1, 2, 3, 4, 5].map((n) => new Uint8Array(1000).fill(n));
  let allRead!: () => void;
  const readAll = new Promise<void>((resolve) => allRead = resolve);
  const read = (view: Uint8Array) => {
    const chunk = chunks.shift();
    if (chunks.length === 0) allRead();
    if (!chunk) return Promise.resolve(0);
    view.set(chunk);
    return Promise.resolve(chunk.length);
  };
  // The first write waits (a disk the kernel throttles) until every chunk was read.
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const written: Uint8Array[] = [];
  const write = async (bytes: Uint8Array) => {
    written.push(bytes.slice());
    if (written.length === 1) await held;
  };
  const copied = overlapped(read, write, () => undefined);
  // A last guard, never a pass: without the reads going on, they would wait for the write.
  const guard = AbortSignal.timeout(30_000);
  const stopped = new Promise<never>((_, reject) =>
    guard.addEventListener("abort", () => reject(new Error("reads waited for the write")))
  );
  try {
    await Promise.race([readAll, stopped]);
  } finally {
    release();
    await copied;
  }
  assert.deepEqual(written.map((w) => w.length), [1000, 4000]);
  assert.deepEqual([...new Set(written[1])], [2, 3, 4, 5]);
});

Deno.test("-o/stdout: each read is written as soon as the write before is done", async () => {
  const chunks = [1, 2, 3].map((n) => new Uint8Array(10).fill(n));
  const written: number[] = [];
  await overlapped(
    (view) => {
      const chunk = chunks.shift();
      if (!chunk) return Promise.resolve(0);
      view.set(chunk);
      return Promise.resolve(chunk.length);
    },
    (bytes) => Promise.resolve(void written.push(bytes[0]!)),
    () => undefined,
  );
  assert.deepEqual(written, [1, 2, 3]);
});

Deno.test("-o: a failed write ends the copy with its error and cancels the source", async () => {
  let reads = 0;
  let cancelled: unknown;
  await assert.rejects(
    overlapped(
      (view) => Promise.resolve(++reads > 100 ? 0 : (view[0] = 1, 1)),
      () => Promise.reject(new Error("No space left on device")),
      (error) => Promise.resolve(void (cancelled = error)),
    ),
    /No space left on device/,
  );
  assert.match(String(cancelled), /No space left/);
  assert.ok(reads < 100);
});

Deno.test("-o: a body cut off while a write waits still writes what arrived (-C resumes after it)", async () => {
  const chunks = [1, 2, 3].map((n) => new Uint8Array(100).fill(n));
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const read = (view: Uint8Array) => {
    const chunk = chunks.shift();
    if (!chunk) {
      release(); // the first write ends only now: the others were gathered meanwhile
      return Promise.reject(new Error("connection closed early"));
    }
    view.set(chunk);
    return Promise.resolve(chunk.length);
  };
  const written: number[] = [];
  let cancelled = false;
  await assert.rejects(
    overlapped(
      read,
      async (bytes) => {
        written.push(...bytes);
        if (written.length === 100) await held;
      },
      () => Promise.resolve(void (cancelled = true)),
    ),
    /connection closed early/,
  );
  assert.deepEqual(written, [1, 2, 3].flatMap((n) => new Array(100).fill(n)));
  assert.ok(cancelled);
});

Deno.test("-o: what arrived while a write waited is written when it ends, though the next read waits (a stalled server)", async () => {
  let stall!: () => void;
  const stalled = new Promise<number>((resolve) => stall = () => resolve(0));
  const chunks = [1, 2].map((n) => new Uint8Array(100).fill(n));
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const written: number[] = [];
  let second!: () => void;
  const secondWritten = new Promise<void>((resolve) => second = resolve);
  const read = (view: Uint8Array) => {
    const chunk = chunks.shift();
    if (!chunk) {
      release(); // the first write ends while this read waits for bytes that do not come
      return stalled;
    }
    view.set(chunk);
    return Promise.resolve(chunk.length);
  };
  const copied = overlapped(read, async (bytes) => {
    written.push(...bytes);
    if (written.length === 100) await held;
    else second();
  }, () => undefined);
  // A last guard, never a pass: the second chunk must reach the output before the body ends.
  const guard = AbortSignal.timeout(30_000);
  const stopped = new Promise<never>((_, reject) =>
    guard.addEventListener("abort", () => reject(new Error("the second chunk was held back")))
  );
  try {
    await Promise.race([secondWritten, stopped]);
  } finally {
    stall();
    await copied;
  }
  assert.deepEqual(written, [1, 2].flatMap((n) => new Array(100).fill(n)));
});

Deno.test("-o/stdout: the first read fills 256 KiB, later ones a whole 1 MiB buffer, so each later write starts 256 KiB past a MiB", async () => {
  const MiB = 1024 * 1024;
  let left = 3 * MiB;
  const offered: number[] = [];
  const offsets: number[] = [];
  let at = 0;
  await overlapped(
    (view) => {
      offered.push(view.length);
      const n = Math.min(view.length, left);
      left -= n;
      return Promise.resolve(n);
    },
    (bytes) => {
      offsets.push(at);
      at += bytes.length;
      return Promise.resolve();
    },
    () => undefined,
  );
  assert.deepEqual(offered.slice(0, 3), [256 * 1024, MiB, MiB]);
  assert.equal(at, 3 * MiB);
  assert.deepEqual(offsets, [0, 256 * 1024, 1280 * 1024, 2304 * 1024]);
});
