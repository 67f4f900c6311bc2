import { deflateRawSync, deflateSync } from "node:zlib";
import assert from "node:assert/strict";
import { assertBytesEqual, excludes, includes } from "../assert.ts";
import { dial, dialOnTerminal, hasScript } from "../_helpers.ts";
import { dialIntoHead } from "./_spawn.ts";
import { rawResponse, rawServer, requestPath } from "./_raw_server.ts";

Deno.test("response: the status line names the version the server answered with, as curl does", async () => {
  await using server = rawServer(() => rawResponse("200 OK", { "X-One": "1" }, "old", "HTTP/1.0"));
  const result = await dial(["GET", `${server.origin}/`, "-i"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    "HTTP/1.0 200 OK\nConnection: close\nContent-Length: 3\nX-One: 1\n\nold",
  );
  const verbose = await dial(["GET", `${server.origin}/`, "-v"]);
  includes(verbose.stderr, "\nHTTP/1.0 200 OK\n");
  const curl = await new Deno.Command("curl", { args: ["-si", `${server.origin}/`] }).output();
  assert.equal(new TextDecoder().decode(curl.stdout).split("\r\n")[0], "HTTP/1.0 200 OK");
});

Deno.test("response: a UTF-8 header value prints as the server sent it (as curl; HTTPie shows cafÃ©)", async () => {
  const value = new TextEncoder().encode("café €");
  await using server = rawServer(() => {
    const head = new TextEncoder().encode("HTTP/1.1 200 OK\r\nX-Name: ");
    const rest = new TextEncoder().encode("\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
    return new Uint8Array([...head, ...value, ...rest]);
  });
  const result = await dial(["GET", `${server.origin}/`, "-i"]);
  assert.equal(result.code, 0, result.stderr);
  includes(result.stdout, "\nX-Name: café €\n");
  const latin1 = rawServer(() =>
    Uint8Array.from(
      "HTTP/1.1 200 OK\r\nX-Name: caf\xe9\r\nContent-Length: 0\r\n\r\n",
      (c) => c.charCodeAt(0),
    )
  );
  await using _latin1 = latin1;
  const old = await dial(["GET", `${latin1.origin}/`, "-i"]);
  includes(old.stdout, "\nX-Name: café\n");
});

Deno.test("response: the server's own reason phrase is shown, as curl shows it", async () => {
  await using server = rawServer(() => rawResponse("299 Custom Thing", {}, "x"));
  const result = await dial(["GET", `${server.origin}/`, "-i"]);
  assert.equal(result.code, 0, result.stderr);
  const curl = await new Deno.Command("curl", { args: ["-si", `${server.origin}/`] }).output();
  const curlLine = new TextDecoder().decode(curl.stdout).split("\r\n")[0];
  assert.equal(result.stdout.split("\n")[0], curlLine);
  assert.equal(curlLine, "HTTP/1.1 299 Custom Thing");
  const odd = rawServer(() => rawResponse("404 Nowhere To Be Found", {}, "x"));
  await using _odd = odd;
  const notFound = await dial(["GET", `${odd.origin}/`, "-i"]);
  assert.equal(notFound.stdout.split("\n")[0], "HTTP/1.1 404 Nowhere To Be Found");
});

Deno.test("response: a reader that stops early (| head -1) ends dial quietly with exit 0", async () => {
  const body = "line\n".repeat(400_000);
  await using server = rawServer((request) =>
    rawResponse(requestPath(request) === "/missing" ? "404 Not Found" : "200 OK", {
      "Content-Type": "text/plain",
    }, body)
  );
  const result = await dialIntoHead("head -1", [`${server.origin}/`]);
  assert.equal(result.stdout, "line\n");
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
  // --check-status still reports the status; the closed pipe adds nothing.
  const missing = await dialIntoHead("head -1", ["--check-status", `${server.origin}/missing`]);
  assert.equal(missing.code, 4, missing.stderr);
  assert.equal(missing.stderr, "warning: HTTP 404 Not Found\n");
});

function encodingServer() {
  const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a]); // "café €\n" in windows-1252
  const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00, 0x0a, 0x00]); // BOM "hé\n"
  const bodies: Record<string, [Record<string, string>, Uint8Array | string]> = {
    "/latin1": [{ "Content-Type": "text/plain; charset=ISO-8859-1" }, latin1],
    "/cp1252": [{ "Content-Type": "text/plain; charset=windows-1252" }, latin1],
    "/utf16": [{ "Content-Type": "text/plain; charset=utf-16" }, utf16],
    "/zlib": [
      { "Content-Type": "text/plain", "Content-Encoding": "deflate" },
      deflateSync("hello from zlib\n"),
    ],
    "/raw": [
      { "Content-Type": "text/plain", "Content-Encoding": "deflate" },
      deflateRawSync("hello from raw deflate\n"),
    ],
    "/bad": [{ "Content-Type": "text/plain", "Content-Encoding": "deflate" }, "not deflate at all"],
    "/xfoo": [{ "Content-Type": "text/plain", "Content-Encoding": "x-foo" }, "ENCODED?\n"],
  };
  return rawServer((request) => {
    const [headers, body] = bodies[requestPath(request)]!;
    return rawResponse("200 OK", headers, body);
  });
}

Deno.test("response: a terminal shows charset= text decoded (iso-8859-1, windows-1252, utf-16)", {
  ignore: !hasScript,
}, async () => {
  await using server = encodingServer();
  for (const path of ["/latin1", "/cp1252"]) {
    const { code, screen } = await dialOnTerminal(["-s", `${server.origin}${path}`]);
    assert.equal(code, 0, screen);
    includes(screen, "café €");
    excludes(screen, "\uFFFD");
  }
  const utf16 = await dialOnTerminal(["-s", `${server.origin}/utf16`]);
  includes(utf16.screen, "hé");
  excludes(utf16.screen, "binary");
});

Deno.test("response: piped output keeps the charset's bytes exactly", async () => {
  await using server = encodingServer();
  const result = await dial([`${server.origin}/latin1`]);
  assert.equal(result.code, 0, result.stderr);
  assertBytesEqual(result.stdoutBytes, new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a]));
});

Deno.test("response: Content-Encoding deflate is decoded, zlib and raw, piped and to -o (as HTTPie)", async () => {
  await using server = encodingServer();
  const zlib = await dial([`${server.origin}/zlib`]);
  assert.deepEqual([zlib.code, zlib.stdout], [0, "hello from zlib\n"], zlib.stderr);
  const raw = await dial([`${server.origin}/raw`]);
  assert.deepEqual([raw.code, raw.stdout], [0, "hello from raw deflate\n"], raw.stderr);
  const file = await Deno.makeTempFile();
  const saved = await dial([`${server.origin}/raw`, "-o", file]);
  assert.equal(saved.code, 0, saved.stderr);
  assert.equal(await Deno.readTextFile(file), "hello from raw deflate\n");
  await Deno.remove(file);
  for (const path of ["/zlib", "/raw"]) {
    const httpie = await new Deno.Command("http", {
      args: ["--ignore-stdin", "--body", `${server.origin}${path}`],
      stdout: "piped",
      stderr: "null",
    }).output();
    assert.equal(
      new TextDecoder().decode(httpie.stdout),
      path === "/zlib" ? zlib.stdout : raw.stdout,
    );
  }
});

Deno.test("response: a body that is not deflate data says so", async () => {
  await using server = encodingServer();
  const result = await dial([`${server.origin}/bad`]);
  assert.equal(result.code, 1);
  includes(
    result.stderr,
    `Response body from ${server.origin.slice(7)} is not valid deflate data`,
  );
});

Deno.test("response: an encoding dial cannot decode is binary on a terminal, bytes when piped", {
  ignore: !hasScript,
}, async () => {
  await using server = encodingServer();
  const { screen } = await dialOnTerminal([`${server.origin}/xfoo`]);
  includes(screen, 'Content-Encoding "x-foo", which dial does not decode');
  excludes(screen, "ENCODED?");
  const piped = await dial([`${server.origin}/xfoo`]);
  assert.equal(piped.stdout, "ENCODED?\n");
});
