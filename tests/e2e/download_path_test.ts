/**
 * The download path of `-o`: an HTTP/1.1 identity body goes from the connection into the file
 * through the same buffers as stdout's, without a web stream (the first `ReadableStream` of a
 * process costs the runtime's stream functions compiled, as V8's function log shows), and the
 * file holds what curl's `-o` holds, from Debian's lighttpd.
 * @module
 */
import assert from "node:assert/strict";
import { dialTracingStreams } from "../_helpers.ts";
import { installed, runProgram } from "../_process.ts";
import { hasLighttpd, startFileServer } from "./_lighttpd.ts";

const CURL = installed("/usr/bin/curl");

Deno.test({
  name:
    "download: -o of a 3 MiB file from lighttpd saves what curl -o saves, and no ReadableStream is made (V8's log: none of the runtime's stream functions compiled)",
  ignore: !hasLighttpd || !CURL,
  async fn() {
    await using server = await startFileServer({});
    const dir = await Deno.makeTempDir({ prefix: "dial-download-path-" });
    try {
      // Larger than one buffer, and not a multiple of it: several reads, buffers in turn, a
      // short last read.
      const body = new Uint8Array(3 * 1024 * 1024 + 12345).map((_, i) =>
        (i * 31 + (i >> 16)) & 0xff
      );
      await Deno.writeFile(`${server.root}/big.bin`, body);
      const url = `${server.origin}/big.bin`;
      const log = `${dir}/v8.log`;
      const { run: ours, streams } = await dialTracingStreams(
        ["GET", url, "-o", `${dir}/dial.bin`],
        log,
      );
      assert.equal(ours.code, 0, ours.stderr);
      const theirs = await runProgram("/usr/bin/curl", ["-s", "-o", `${dir}/curl.bin`, url]);
      assert.equal(theirs.code, 0, theirs.stderr);
      const saved = await Deno.readFile(`${dir}/dial.bin`);
      assert.deepEqual(saved, await Deno.readFile(`${dir}/curl.bin`));
      assert.deepEqual(saved, body);
      // Nothing but the file is left in the folder (the temporary name was renamed).
      const names = [];
      for await (const entry of Deno.readDir(dir)) names.push(entry.name);
      assert.deepEqual(names.sort(), ["curl.bin", "dial.bin", "v8.log"]);
      assert.deepEqual(streams, [], "dial -o made a web stream");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
