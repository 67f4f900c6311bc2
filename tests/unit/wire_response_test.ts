import assert from "node:assert/strict";
import { DialResponse, type DialResponseInit, WireHeaders } from "../../src/http/wire_response.ts";
import { directBody } from "../../src/http/direct_body.ts";
import { streamBody } from "../../src/http/h1.ts";

const LINES: Array<[string, string]> = [
  ["Content-Type", "text/plain"],
  ["Set-Cookie", "a=1; Path=/"],
  ["X-Dup", "one"],
  ["set-cookie", "b=2"],
  ["x-dup", " two "],
  ["Date", "Sat, 28 Nov 2026 09:00:00 GMT"],
];

Deno.test("wire headers: read as the runtime's Headers reads the same lines", () => {
  const ours = new WireHeaders(LINES);
  const theirs = new Headers(LINES);
  assert.deepEqual([...ours], [...theirs]);
  assert.deepEqual([...ours.keys()], [...theirs.keys()]);
  assert.deepEqual([...ours.values()], [...theirs.values()]);
  for (const name of ["x-dup", "X-DUP", "set-cookie", "content-type", "missing"]) {
    assert.equal(ours.get(name), theirs.get(name), name);
    assert.equal(ours.has(name), theirs.has(name), name);
  }
  assert.deepEqual(ours.getSetCookie(), theirs.getSetCookie());
  for (const headers of [ours, theirs]) {
    headers.set("X-Dup", "three");
    headers.append("Vary", "Accept");
    headers.delete("date");
  }
  assert.deepEqual([...ours], [...theirs]);
  const seen: string[] = [];
  ours.forEach((value, name) => seen.push(`${name}=${value}`));
  assert.deepEqual(seen, [...theirs].map(([n, v]) => `${n}=${v}`));
  // A Headers built from them holds the same.
  assert.deepEqual([...new Headers(ours)], [...theirs]);
});

Deno.test("wire headers: a name that is not a token or a value with CR/LF is refused, as by Headers", () => {
  for (const line of [["Bad Name", "x"], ["X", "a\r\nInjected: 1"], ["X", "a\0"]]) {
    assert.throws(() => new Headers([line as [string, string]]), TypeError);
    assert.throws(() => new WireHeaders([line as [string, string]]), TypeError);
  }
});

Deno.test("dial response: status, headers and body as a Response; the runtime's methods on demand", async () => {
  const body = () => streamBody(ReadableStream.from([new TextEncoder().encode('{"a":1}')]));
  const make = () =>
    new DialResponse({
      status: 201,
      statusText: "Created",
      headers: new WireHeaders([["Content-Type", "application/json"]]),
      url: "http://127.0.0.1/x",
      body: body(),
    });
  const response = make();
  assert.equal(response.ok, true);
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(Object.prototype.toString.call(response), "[object Response]");
  const copy = response.clone();
  assert.deepEqual(await response.json(), { a: 1 });
  assert.equal(await copy.text(), '{"a":1}');
  assert.equal(response.bodyUsed, true);
  // A stream body (no direct read) gives none; a response whose stream was made gives none.
  assert.equal(directBody(make()), undefined);
  const other = make();
  assert.ok(other.body);
  assert.equal(directBody(other), undefined);
  assert.equal(await new Response(other.body).text(), '{"a":1}');
  const empty = new DialResponse({
    status: 204,
    statusText: "",
    headers: new WireHeaders(),
    url: "http://127.0.0.1/",
    body: null,
  });
  assert.equal(empty.body, null);
  assert.equal(await empty.text(), "");
});

/**
 * @param body the response's body source
 * @returns a 200 OK of http://127.0.0.1/ without headers, with that body
 */
function okResponse(body: DialResponseInit["body"]): DialResponse {
  return new DialResponse({
    status: 200,
    statusText: "OK",
    headers: new WireHeaders(),
    url: "http://127.0.0.1/",
    body,
  });
}

Deno.test("dial response: an identity body is read directly once, and then not again", async () => {
  const bytes = new TextEncoder().encode("hello");
  let at = 0;
  const response = okResponse({
    open: () => ReadableStream.from([bytes.subarray(at)]),
    read: (view) => {
      const n = Math.min(view.length, bytes.length - at);
      view.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    cancel: () => Promise.resolve(),
  });
  const read = directBody(response)!;
  assert.ok(read);
  assert.equal(directBody(response), undefined);
  const view = new Uint8Array(16);
  assert.equal(await read(view), 5);
  assert.equal(new TextDecoder().decode(view.subarray(0, 5)), "hello");
  assert.equal(await read(view), 0);
  assert.equal(response.bodyUsed, true);
  await assert.rejects(response.text(), TypeError);
});

Deno.test("dial response: text() and json() of an identity body read it directly, once", async () => {
  const bytes = new TextEncoder().encode(JSON.stringify({ big: "x".repeat(200_000) }));
  let at = 0;
  let opened = false;
  const response = okResponse({
    open: () => {
      opened = true;
      return ReadableStream.from([]);
    },
    read: (view) => {
      // A socket gives what it has: at most 1,000 bytes here.
      const n = Math.min(view.length, bytes.length - at, 1000);
      view.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    cancel: () => Promise.resolve(),
  });
  assert.deepEqual(await response.json(), { big: "x".repeat(200_000) });
  assert.equal(opened, false);
  await assert.rejects(response.text(), TypeError);
});

Deno.test("dial response: bytes() of an identity body is exactly what was read, whatever Content-Length says (a size hint only)", async () => {
  for (const size of [0, 5, 65_535, 65_536, 70_000]) {
    for (const declared of [size, 0, size + 7, "x"]) {
      const bytes = new Uint8Array(size).map((_, i) => i % 251);
      let at = 0;
      const response = new DialResponse({
        status: 200,
        statusText: "OK",
        headers: new WireHeaders([["Content-Length", String(declared)]]),
        url: "http://127.0.0.1/",
        body: {
          open: () => ReadableStream.from([]),
          read: (view) => {
            const n = Math.min(view.length, bytes.length - at, 4000);
            view.set(bytes.subarray(at, at + n));
            at += n;
            return Promise.resolve(n);
          },
          cancel: () => Promise.resolve(),
        },
      });
      assert.deepEqual(await response.bytes(), bytes, `${size} bytes, declared ${declared}`);
    }
  }
});
