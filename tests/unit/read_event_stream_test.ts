/**
 * readEventStream against malformed and awkwardly chunked streams.
 */
import assert from "node:assert/strict";
import { readEventStream, type ServerSentEvent } from "../../src/stream/read_event_stream.ts";

/** A byte stream that delivers `bytes` in chunks of `size` bytes. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

interface Collected {
  events: ServerSentEvent[];
  ids: string[];
  retries: number[];
  comments: string[];
}

async function collect(input: string | Uint8Array, size: number): Promise<Collected> {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const got: Collected = { events: [], ids: [], retries: [], comments: [] };
  await readEventStream(chunked(bytes, size), {
    onEvent: (e) => got.events.push(e),
    onId: (id) => got.ids.push(id),
    onRetry: (ms) => got.retries.push(ms),
    onComment: (text) => got.comments.push(text),
  });
  return got;
}

const SIZES = [1, 2, 3, 7, 1024];

Deno.test("sse parsing: a code point split across chunks is decoded whole", async () => {
  for (const size of SIZES) {
    const got = await collect("data: grüße 🚀 日本\n\n", size);
    assert.deepEqual(got.events, [{ event: "message", data: "grüße 🚀 日本" }], `size ${size}`);
  }
});

Deno.test("sse parsing: CRLF and lone CR end lines", async () => {
  for (const size of SIZES) {
    const got = await collect("event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r", size);
    assert.deepEqual(got.events, [
      { event: "a", data: "1" },
      { event: "b", data: "2" },
    ], `size ${size}`);
  }
});

Deno.test("sse parsing: one leading BOM is ignored, split or whole", async () => {
  const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
  const rest = new TextEncoder().encode("data: after bom\n\n");
  for (const size of SIZES) {
    const got = await collect(new Uint8Array([...bom, ...rest]), size);
    assert.deepEqual(got.events, [{ event: "message", data: "after bom" }], `size ${size}`);
  }
});

Deno.test("sse parsing: a last event without its blank line is discarded", async () => {
  for (const size of SIZES) {
    const got = await collect("data: kept\n\ndata: lost", size);
    assert.deepEqual(got.events, [{ event: "message", data: "kept" }], `size ${size}`);
    const alsoLost = await collect("data: kept\n\ndata: lost\n", size);
    assert.deepEqual(alsoLost.events, [{ event: "message", data: "kept" }], `size ${size}`);
  }
});

Deno.test("sse parsing: multi-line data, comments, id and retry", async () => {
  for (const size of SIZES) {
    const got = await collect(
      ": keep-alive\nretry: 1500\nid: 9\nevent: update\ndata: line 1\ndata:line 2\ndata\n\nid: 10\n\n",
      size,
    );
    assert.deepEqual(got.events, [{ event: "update", id: "9", data: "line 1\nline 2\n" }]);
    assert.deepEqual(got.ids, ["9", "10"]);
    assert.deepEqual(got.retries, [1500]);
    assert.deepEqual(got.comments, ["keep-alive"]);
  }
});

Deno.test("sse parsing: invalid UTF-8 becomes U+FFFD instead of failing", async () => {
  const bytes = new Uint8Array([...new TextEncoder().encode("data: a"), 0xff, 0x0a, 0x0a]);
  const got = await collect(bytes, 1);
  assert.deepEqual(got.events, [{ event: "message", data: "a\uFFFD" }]);
});

Deno.test("sse parsing: unknown fields and a bad retry are ignored", async () => {
  const got = await collect("foo: bar\nretry: soon\ndata: ok\n\n", 2);
  assert.deepEqual(got.events, [{ event: "message", data: "ok" }]);
  assert.deepEqual(got.retries, []);
});
