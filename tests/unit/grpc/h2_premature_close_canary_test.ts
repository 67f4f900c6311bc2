/**
 * The canary of `src/grpc/h2_stream_reader.ts`, and that module's reader: a `node:http2` client
 * stream whose trailers came before it was read. Under Deno, Node's async iterator then fails a
 * slow reader with "Premature close" although every byte came; the reader delivers them all.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { readChunks } from "../../../src/grpc/h2_stream_reader.ts";

/** A server that answers two DATA frames and trailers (END_STREAM), as a streaming call does. */
async function withStream(
  read: (stream: http2.ClientHttp2Stream) => Promise<void>,
): Promise<void> {
  const server = http2.createServer();
  server.on("stream", (stream) => {
    stream.respond({ ":status": 200 }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.write("first;");
    stream.end("second;");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const session = http2.connect(`http://127.0.0.1:${port}`);
  try {
    const stream = session.request({ ":method": "POST", ":path": "/" });
    stream.end();
    // The trailers (END_STREAM) have come before the first read: the case that fails.
    await new Promise((resolve) => stream.once("trailers", resolve));
    await read(stream);
  } finally {
    session.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

const slowly = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("grpc canary: Node's async iterator of a finished http2 stream still fails a slow reader under Deno", async () => {
  await withStream(async (stream) => {
    await assert.rejects(
      async () => {
        for await (const _ of stream) await slowly();
      },
      { code: "ERR_STREAM_PREMATURE_CLOSE" },
      "Deno no longer fails this read: remove src/grpc/h2_stream_reader.ts (and its register row)",
    );
  });
});

Deno.test("grpc: the stream reader delivers every byte of a finished http2 stream to a slow reader", async () => {
  await withStream(async (stream) => {
    let text = "";
    for await (const chunk of readChunks(stream)) {
      text += new TextDecoder().decode(chunk);
      await slowly();
    }
    assert.equal(text, "first;second;");
  });
});
