import assert from "node:assert/strict";
import { parseCurlArgs } from "../../src/import/curl_args.ts";
import { splitCurlCommands } from "../../src/import/curl_text.ts";
import { UsageError } from "../../src/errors/mod.ts";

Deno.test("curl text: continuations, $'…' quoting and several commands", () => {
  const text = [
    "curl -X POST https://api.test/a \\",
    "  -H 'Content-Type: application/json' \\",
    `  --data $'{"msg":"it\\'s\\nhere"}'`,
    "curl https://api.test/b | jq .",
    "# a comment line",
    'curl "https://api.test/c?x=$HOME" && curl https://api.test/d',
  ].join("\n");
  assert.deepEqual(splitCurlCommands(text), [
    [
      "-X",
      "POST",
      "https://api.test/a",
      "-H",
      "Content-Type: application/json",
      "--data",
      '{"msg":"it\'s\nhere"}',
    ],
    ["https://api.test/b"],
    ["https://api.test/c?x=$HOME"],
    ["https://api.test/d"],
  ]);
});

Deno.test("curl text: Chrome's Copy as cURL (bash) with a CRLF continuation", () => {
  const text = "curl 'https://api.test/x' \\\r\n  -H 'accept: */*' \\\r\n  --compressed";
  assert.deepEqual(splitCurlCommands(text), [[
    "https://api.test/x",
    "-H",
    "accept: */*",
    "--compressed",
  ]]);
});

Deno.test("curl text: no curl command, or an open quote, is a usage error", () => {
  assert.throws(() => splitCurlCommands("wget https://x"), UsageError);
  assert.throws(() => splitCurlCommands("curl 'https://x"), /Unclosed ' quote/);
});

Deno.test("curl args: clusters, implied methods and the data kinds", () => {
  const r = parseCurlArgs([
    "-sSL",
    "-XPUT",
    "https://api.test/x",
    "-d",
    "@f.txt",
    "--data-raw",
    "@lit",
    "--data-binary",
    "@bin",
  ]);
  assert.equal(r.method, "PUT");
  assert.equal(r.follow, true);
  assert.deepEqual(r.ignored, ["-s", "-S"]);
  assert.deepEqual(r.data, [
    { kind: "file-stripped", path: "f.txt" },
    { kind: "text", text: "@lit" },
    { kind: "file", path: "bin" },
  ]);
  assert.equal(parseCurlArgs(["https://x", "-d", "a"]).method, "POST");
  assert.equal(parseCurlArgs(["https://x", "-G", "-d", "a"]).method, "GET");
  assert.equal(parseCurlArgs(["https://x", "-T", "f"]).method, "PUT");
  assert.equal(parseCurlArgs(["-I", "https://x"]).method, "HEAD");
});

Deno.test("curl args: headers, empty headers, removals and cookies", () => {
  const r = parseCurlArgs([
    "https://x",
    "-H",
    "A: 1",
    "-H",
    "Empty;",
    "-H",
    "Gone:",
    "-b",
    "k=v",
    "-b",
    "jar.txt",
  ]);
  assert.deepEqual(r.headers, [
    { name: "A", value: "1" },
    { name: "Empty", value: "" },
    { name: "Cookie", value: "k=v" },
  ]);
  assert.equal(r.cookieFile, "jar.txt");
});

Deno.test("curl args: form fields with type, filename and quoted paths", () => {
  const r = parseCurlArgs([
    "https://x",
    "-F",
    'f=@"a;b.txt";type=text/plain;filename=n.txt',
    "-F",
    "t=<v.txt",
    "--form-string",
    "s=@not-a-file",
  ]);
  assert.deepEqual(r.form, [
    { name: "f", path: "a;b.txt", type: "text/plain", filename: "n.txt" },
    { name: "t", valueFrom: "v.txt" },
    { name: "s", value: "@not-a-file" },
  ]);
});

Deno.test("curl args: unsupported flags, missing values and URLs are usage errors", () => {
  assert.throws(() => parseCurlArgs(["--trace", "x", "https://x"]), /--trace is not supported/);
  assert.throws(() => parseCurlArgs(["https://x", "-H"]), /-H needs a value/);
  assert.throws(() => parseCurlArgs(["-v"]), /no URL/);
  assert.throws(() => parseCurlArgs(["https://a", "https://b"]), /more than one URL/);
});

Deno.test("curl import: --digest and --aws-sigv4 become the request file's Digest and AWS lines; dial run's flags are reported", async () => {
  const { readCurlCommands } = await import("../../src/import/curl_import.ts");
  const result = readCurlCommands(
    "curl --digest -u ann:pw https://api.test/a\n" +
      "curl --aws-sigv4 aws:amz:eu-west-1:s3 -u AKID:sk https://s3.test/b --resolve s3.test:443:127.0.0.1 -C - -n\n",
  );
  const authorization = result.requests.map((r) =>
    r.headers.find((h) => h.name === "Authorization")?.value
  );
  assert.equal(authorization[0], "Digest ann {{password}}");
  assert.equal(authorization[1], "AWS AKID {{aws_secret}} region:eu-west-1 service:s3");
  assert.deepEqual(result.privateEnvironments.imported, { password: "pw", aws_secret: "sk" });
  const lost = result.losses.map((l) => l.what);
  for (
    const what of [
      "--resolve (give it to dial run)",
      "-C -",
      "netrc (dial run reads ~/.netrc itself)",
    ]
  ) {
    assert.ok(lost.includes(what), `${what} not in ${JSON.stringify(lost)}`);
  }
});
