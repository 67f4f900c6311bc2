/**
 * The upload path of `-T file`, `-d @file` and `-F name=@file`: what python3-httpbin receives
 * is what it receives from curl with the same flags, and sending a file makes no web stream (the
 * file is read straight into the HTTP/1.1 writer's buffer; the first `ReadableStream` of a
 * process costs ~80 of the runtime's functions compiled, as V8's function log shows); a file
 * of several of those buffers goes out byte for byte as curl sends it.
 * @module
 */
import assert from "node:assert/strict";
import { dial, dialTracingStreams } from "../_helpers.ts";
import { installed, runProgram } from "../_process.ts";
import { startHttpbin } from "./_httpbin.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";

const CURL = installed("/usr/bin/curl");

/** What httpbin's `/anything` echo says arrived. */
function arrived(text: string): Record<string, unknown> {
  const echo = JSON.parse(text);
  return {
    method: echo.method,
    data: echo.data,
    files: echo.files,
    form: echo.form,
    // Framed by length, not chunked (the multipart boundaries' lengths differ from curl's).
    framed: echo.headers["Content-Length"] !== undefined &&
      echo.headers["Transfer-Encoding"] === undefined,
  };
}

Deno.test({
  name:
    "uploads: -T, -d @file and -F send what curl sends to httpbin, and no ReadableStream is made for the file (V8's log: none of the runtime's stream functions compiled)",
  ignore: !CURL,
  async fn() {
    await using httpbin = await startHttpbin();
    const dir = await Deno.makeTempDir({ prefix: "dial-upload-path-" });
    try {
      const file = `${dir}/body.txt`;
      await Deno.writeTextFile(file, "line one\nline two: ünïcode\n".repeat(500));
      const url = `${httpbin.origin}/anything`;
      const cases = [
        { dial: ["PUT", url, "-T", file], curl: ["-T", file, url] },
        { dial: ["POST", url, "-d", `@${file}`], curl: ["--data-binary", `@${file}`, url] },
        { dial: ["POST", url, "-F", `part=@${file}`], curl: ["-F", `part=@${file}`, url] },
      ];
      for (const { dial, curl } of cases) {
        const log = `${dir}/v8.log`;
        const { run: ours, streams } = await dialTracingStreams(dial, log);
        assert.equal(ours.code, 0, ours.stderr);
        const theirs = await runProgram("/usr/bin/curl", ["-s", ...curl]);
        assert.equal(theirs.code, 0, theirs.stderr);
        const sent = arrived(ours.stdout);
        assert.deepEqual(sent, arrived(theirs.stdout), dial.join(" "));
        assert.equal(sent.framed, true, "sent without Content-Length");
        assert.deepEqual(streams, [], `${dial.join(" ")} made a web stream`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** A recorded body as text, its multipart boundary (if any) replaced by one placeholder. */
function bodyText(request: RawRequest): string {
  const type = headerValues(request, "content-type")[0] ?? "";
  const boundary = /boundary=([^;\s]+)/.exec(type)?.[1];
  // windows-1252 maps every byte to its own character: equal text, equal bytes.
  const text = new TextDecoder("windows-1252").decode(request.body);
  return boundary ? text.replaceAll(boundary, "BOUNDARY") : text;
}

Deno.test({
  name:
    "uploads: a file of several write buffers (2.5 MiB and 17 bytes) goes out by -T, -d @file and -F as curl sends it, every byte in order, framed by length (raw socket)",
  ignore: !CURL,
  async fn() {
    await using server = rawServer();
    const dir = await Deno.makeTempDir({ prefix: "dial-upload-path-" });
    try {
      const file = `${dir}/body.bin`;
      const bytes = new Uint8Array(2.5 * 1024 * 1024 + 17);
      // Random bytes: a part sent twice, out of order or left out changes the body.
      for (let at = 0; at < bytes.length; at += 65536) {
        crypto.getRandomValues(bytes.subarray(at, at + 65536));
      }
      await Deno.writeFile(file, bytes);
      const url = `${server.origin}/up`;
      const cases = [
        { dial: ["PUT", url, "-T", file], curl: ["-T", file] },
        { dial: ["POST", url, "-d", `@${file}`], curl: ["--data-binary", `@${file}`] },
        { dial: ["POST", url, "-F", `f=@${file}`], curl: ["-F", `f=@${file}`] },
      ];
      for (const { dial: args, curl } of cases) {
        const ours = await dial([...args, "-s"]);
        assert.equal(ours.code, 0, ours.stderr);
        // `Expect:` off: this server sends no 100 Continue, curl would wait a second for one.
        const theirs = await runProgram("/usr/bin/curl", ["-s", "-H", "Expect:", ...curl, url]);
        assert.equal(theirs.code, 0, theirs.stderr);
        const [mine, reference] = server.requests.splice(0, 2);
        assert.equal(mine!.framing, "length", args.join(" "));
        assert.equal(headerValues(mine!, "content-length")[0], String(mine!.body.length));
        assert.ok(bodyText(mine!) === bodyText(reference!), `${args.join(" ")}: not curl's body`);
        if (args.includes("-T")) assert.deepEqual(mine!.body, bytes);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
