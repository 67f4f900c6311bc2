import assert from "node:assert/strict";
import { BoundedWriter } from "../../src/output/bounded_writer.ts";
import type { Sink } from "../../src/output/terminal.ts";

/** A sink that holds every write until released. */
function stalledSink() {
  const written: string[] = [];
  let release = Promise.withResolvers<void>();
  const sink: Sink = {
    isTerminal: false,
    color: false,
    write: async (data) => {
      await release.promise;
      written.push(typeof data === "string" ? data : new TextDecoder().decode(data));
    },
  };
  return {
    sink,
    written,
    release: () => {
      release.resolve();
      release = Promise.withResolvers();
      release.resolve();
    },
  };
}

const line = (i: number) => `${String(i).padStart(9, "0")}\n`; // 10 bytes

Deno.test("bounded writer: wait mode asks the producer to pause while full, loses nothing", async () => {
  const { sink, written, release } = stalledSink();
  const writer = new BoundedWriter(sink, { limitBytes: 100_000 });
  let i = 0;
  while (!writer.ready()) writer.push(line(i++));
  assert.equal(writer.full, true);
  const pushed = i;
  release();
  await writer.ready();
  await writer.flush();
  assert.equal(written.join("").length, pushed * 10);
});

Deno.test("bounded writer: large and multi-byte messages are written whole, in order", async () => {
  const { sink, written, release } = stalledSink();
  const writer = new BoundedWriter(sink);
  const big = "é".repeat(100_000) + "\n";
  writer.push("a\n");
  writer.push(big);
  writer.push("b\n");
  assert.equal(writer.queuedBytes, 2 + 200_001 + 2);
  release();
  await writer.flush();
  assert.equal(written.join(""), `a\n${big}b\n`);
});
