import assert from "node:assert/strict";
import { deflateRawSync, deflateSync } from "node:zlib";
import { type DialError, ErrorCode } from "../../src/errors/mod.ts";
import { decodeContent, isZlibHeader, undecodedEncoding } from "../../src/http/content_encoding.ts";

/** A deflate response whose body arrives one byte at a time, then optionally fails. */
function deflated(bytes: Uint8Array, failure?: Error): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < bytes.length) controller.enqueue(bytes.subarray(i, ++i));
      else if (failure) controller.error(failure);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-encoding": "deflate" } });
}

Deno.test("content encoding: zlib and raw deflate are decoded from split chunks", async () => {
  const text = "hello ".repeat(100);
  for (const bytes of [deflateSync(text), deflateRawSync(text)]) {
    const response = decodeContent(deflated(new Uint8Array(bytes)), "h.test");
    assert.equal(await response.text(), text);
    assert.equal(response.headers.get("content-encoding"), "deflate");
  }
});

Deno.test("content encoding: bad data is named; a connection error passes through", async () => {
  const bad = decodeContent(deflated(new TextEncoder().encode("plain text")), "h.test");
  await assert.rejects(bad.text(), (error: DialError) => {
    assert.equal(error.code, ErrorCode.ContentEncoding);
    assert.match(error.message, /Response body from h\.test is not valid deflate data/);
    return true;
  });
  const cut = new TypeError("connection reset");
  const half = new Uint8Array(deflateSync("x".repeat(1000))).subarray(0, 6);
  const broken = decodeContent(deflated(half, cut), "h.test");
  await assert.rejects(broken.text(), (error) => error === cut);
});

Deno.test("content encoding: what dial leaves encoded, and the zlib header check", () => {
  const headers = (value: string) => new Headers({ "content-encoding": value });
  assert.equal(undecodedEncoding(headers("gzip")), undefined);
  assert.equal(undecodedEncoding(headers("Deflate")), undefined);
  assert.equal(undecodedEncoding(headers("zstd")), "zstd");
  assert.equal(undecodedEncoding(new Headers()), undefined);
  assert.equal(isZlibHeader(new Uint8Array([0x78, 0x9c])), true);
  assert.equal(isZlibHeader(new Uint8Array([0x78, 0x9d])), false);
});
