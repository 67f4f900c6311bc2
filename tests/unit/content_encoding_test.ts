import assert from "node:assert/strict";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { type DialError, ErrorCode } from "../../src/errors/mod.ts";
import {
  decodeBounded,
  decodeContent,
  EXPANSION_FLOOR,
  isZlibHeader,
  undecodedEncoding,
} from "../../src/http/content_encoding.ts";

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

Deno.test("content encoding: a brotli bomb arriving in one read is refused after a few of its bytes, not its whole expansion", async () => {
  // 32 MiB of zeros: a few dozen bytes of brotli, in one chunk as one network read brings it.
  const whole = new Uint8Array(brotliCompressSync(new Uint8Array(32 * 1024 * 1024)));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(whole);
      controller.close();
    },
  });
  let decoded = 0;
  const error = await (async () => {
    for await (const chunk of decodeBounded(body, "brotli", "h.test")) decoded += chunk.length;
  })().then(() => undefined, (e: DialError) => e);
  assert.equal(error?.code, ErrorCode.ContentEncoding, String(error));
  const fed = Number(/: (\d+) compressed bytes/.exec(error!.message)?.[1]);
  assert.ok(fed < whole.length, `${fed} of ${whole.length} bytes fed`);
  assert.ok(decoded <= EXPANSION_FLOOR, `${decoded} bytes delivered`);
  // gzip cannot expand 2000 times: the same zeros decode whole, from one chunk.
  const gzip = new Uint8Array(gzipSync(new Uint8Array(32 * 1024 * 1024)));
  let size = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(gzip);
      controller.close();
    },
  });
  for await (const chunk of decodeBounded(stream, "gzip", "h.test")) size += chunk.length;
  assert.equal(size, 32 * 1024 * 1024);
});
