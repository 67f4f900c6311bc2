/**
 * HTTP/1.1 framing on a raw socket, curl on the same server as the reference: heads with bare
 * LF line ends are read; chunk sizes are hex digits only and each chunk's data ends with CRLF,
 * and a body that breaks either rule fails before its bad chunk is printed.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { rawServer } from "./_raw_server.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function curl(url: string) {
  const output = await new Deno.Command("curl", { args: ["-s", url], stdout: "piped" }).output();
  return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
}

const CASES: Array<[string, string, string | undefined]> = [
  // name, response bytes, the body both print (undefined: both fail)
  ["bare LF head", "HTTP/1.1 200 OK\nContent-Length: 3\nX-A: b\n\nok\n", "ok\n"],
  ["mixed line ends", "HTTP/1.1 200 OK\r\nContent-Length: 3\n\r\nok\n", "ok\n"],
  [
    "chunked, extensions",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n0\r\n\r\n",
    "hello",
  ],
  [
    "negative chunk size",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
    undefined,
  ],
  [
    "no CRLF after chunk data",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXY0\r\n\r\n",
    undefined,
  ],
];

for (const [name, response, body] of CASES) {
  Deno.test(`h1 framing: ${name}, as curl reads it`, async () => {
    await using server = rawServer(() => encode(response));
    const theirs = await curl(`${server.origin}/`);
    const ours = await dial(["GET", `${server.origin}/`]);
    if (body === undefined) {
      assert.notEqual(theirs.code, 0, "curl refuses it");
      assert.notEqual(ours.code, 0, ours.stdout);
      // Nothing of the bad chunk is printed.
      assert.equal(ours.stdout, "");
      assert.match(ours.stderr, /malformed chunked body/);
    } else {
      assert.equal(theirs.code, 0);
      assert.equal(theirs.stdout, body);
      assert.equal(ours.code, 0, ours.stderr);
      assert.equal(ours.stdout, body);
    }
  });
}
