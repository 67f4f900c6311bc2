import assert from "node:assert/strict";
import { jetbrainsMultipart } from "../../e2e/_files.ts";
import { HttpFileSyntaxError, parseHttpFile } from "../../../src/files/parse_http_file.ts";
import {
  appendRequest,
  removeRequest,
  replaceRequest,
  requestAt,
  writeHttpRequest,
} from "../../../src/files/write_http_file.ts";

Deno.test("parse: the JetBrains spec's example with handler and response reference", () => {
  // From the JetBrains HTTP Request in Editor spec, section 3.2.
  const source = `POST http://example.com/auth
Content-Type: application/json

< input.json
> {% client.global.set("auth", response.body.token); %}
<> previous-response.200.json
`;
  const [request] = parseHttpFile(source, "spec.http").requests;
  assert.ok(request);
  assert.equal(request.method, "POST");
  assert.equal(request.url, "http://example.com/auth");
  assert.deepEqual(request.headers.map((h) => [h.name, h.value]), [
    ["Content-Type", "application/json"],
  ]);
  assert.deepEqual(request.body.map((p) => p.kind === "file" ? p.path : p.text), ["input.json"]);
  assert.equal(request.handlers.length, 1);
  const handler = request.handlers[0]!;
  assert.equal(handler.kind, "inline");
  assert.equal(
    handler.kind === "inline" && handler.code.trim(),
    'client.global.set("auth", response.body.token);',
  );
  assert.deepEqual(request.responseRefs.map((r) => r.path), ["previous-response.200.json"]);
  assert.deepEqual(request.span, { start: 0, end: source.length, line: 1, endLine: 6 });
});

Deno.test("parse: separators, names, file variables, directives and multi-line URLs", () => {
  const source = `@host = example.com
@port=8080

### first one
GET http://{{host}}:{{port}}/
    api
    /get?id=1
    &x=2

###
# @name second
# @no-redirect
// @timeout 5
POST /items HTTP/1.1
Host: {{host}}
X-Long: a
  b

{"a": 1}


###
`;
  const lazy = parseHttpFile("@a := x{{b}}\nGET http://x/{{a}}\n").variables;
  assert.deepEqual(lazy.map((v) => [v.name, v.value]), [["a", "x{{b}}"]]);
  const file = parseHttpFile(source, "a.http");
  assert.deepEqual(file.variables.map((v) => [v.name, v.value]), [["host", "example.com"], [
    "port",
    "8080",
  ]]);
  assert.equal(file.requests.length, 2);
  const [first, second] = file.requests;
  assert.equal(first!.name, "first one");
  assert.equal(first!.url, "http://{{host}}:{{port}}/api/get?id=1&x=2");
  assert.equal(first!.methodWritten, true);
  assert.equal(second!.name, "second");
  assert.deepEqual(second!.directives.map((d) => [d.name, d.value]), [["name", "second"], [
    "no-redirect",
    "",
  ], ["timeout", "5"]]);
  assert.equal(second!.httpVersion, "HTTP/1.1");
  assert.deepEqual(second!.headers.map((h) => [h.name, h.value]), [["Host", "{{host}}"], [
    "X-Long",
    "a b",
  ]]);
  assert.deepEqual(second!.body.map((p) => p.kind === "text" && p.text), ['{"a": 1}']);
  // The span of a request: from its ### line to its last non-blank line, line break included.
  assert.equal(
    source.slice(second!.span.start, second!.span.end),
    source.slice(source.indexOf("###\n# @name"), source.indexOf('{"a": 1}') + 9),
  );
  assert.deepEqual(file.warnings, []);
});

Deno.test("parse: a method-less request line means GET; unknown directives are warnings", () => {
  const file = parseHttpFile("# @frobnicate yes\nhttp://example.com\n", "w.http");
  assert.equal(file.requests[0]!.method, "GET");
  assert.equal(file.requests[0]!.methodWritten, false);
  assert.deepEqual(file.warnings, [{
    message: 'Unknown directive "@frobnicate" is ignored',
    line: 1,
    column: 3,
  }]);
});

Deno.test("parse: errors name the file, line and column", () => {
  const cases: [string, string][] = [
    [
      "GET http://x\nNot a header\n",
      'bad.http:2:1: Cannot parse header "Not a header": missing ":" (a body needs a blank line above it)',
    ],
    [
      "GET http://x\n\n> {% client.log(1)\n",
      'bad.http:3:3: Unterminated script: "{%" without "%}"',
    ],
    ["POST\n", 'bad.http:1:5: Missing URL after method "POST"'],
    [
      "GET http://x extra HTTP/1.1\n",
      'bad.http:1:14: Cannot parse request line: unexpected "extra"',
    ],
  ];
  for (const [source, message] of cases) {
    assert.throws(() => parseHttpFile(source, "bad.http"), (error: unknown) => {
      assert.ok(error instanceof HttpFileSyntaxError);
      assert.equal(error.message, message);
      assert.equal(error.exitCode, 2);
      return true;
    });
  }
});

Deno.test("parse: multipart body with file parts (JetBrains spec 3.2.3.1)", () => {
  const source = jetbrainsMultipart("http://example.com");
  const body = parseHttpFile(source).requests[0]!.body;
  assert.deepEqual(body.map((p) => p.kind), ["text", "file", "text"]);
  assert.equal(body[1]!.kind === "file" && body[1]!.path, "./input.txt");
  assert.equal(body[2]!.kind === "text" && body[2]!.text, "--abcd--");
});

Deno.test("parse: multi-line pre-request script and handler keep the code's line", () => {
  const source = `< {%
  request.variables.set("x", "1");
%}
GET http://example.com/{{x}}

> {%
  client.test("ok", function () {
    client.assert(response.status === 200);
  });
%}
`;
  const request = parseHttpFile(source).requests[0]!;
  assert.equal(request.preScripts[0]!.kind, "inline");
  const handler = request.handlers[0]!;
  assert.ok(handler.kind === "inline");
  assert.equal(handler.codeLine, 6);
  assert.ok(handler.code.includes("client.assert"));
});

Deno.test("write: a written request reads back the same, and edits keep the rest byte for byte", () => {
  const text = writeHttpRequest({
    name: "create",
    directives: [{ name: "no-redirect" }],
    method: "post",
    url: "{{base}}/items",
    headers: [{ name: "Content-Type", value: "application/json" }],
    body: '{\n  "a": 1\n}',
    handlers: [{ code: 'client.global.set("id", response.body.id);' }],
  });
  const parsed = parseHttpFile(text).requests[0]!;
  assert.equal(parsed.name, "create");
  assert.equal(parsed.method, "POST");
  assert.equal(parsed.url, "{{base}}/items");
  assert.deepEqual(parsed.body.map((p) => p.kind === "text" && p.text), ['{\n  "a": 1\n}']);
  assert.equal(parsed.handlers.length, 1);

  const source =
    "# top comment\n@base = http://x\n\nGET {{base}}/a\n\n\n### two\nGET {{base}}/b\r\nAccept: */*\r\n\r\n// tail comment\n";
  const file = parseHttpFile(source);
  const edited = replaceRequest(source, file.requests[0]!, "GET {{base}}/changed");
  assert.equal(edited, source.replace("GET {{base}}/a\n", "GET {{base}}/changed\n"));
  const second = parseHttpFile(edited).requests[1]!;
  const again = replaceRequest(edited, second, "### two\nDELETE {{base}}/b");
  assert.equal(
    again,
    edited.replace("### two\nGET {{base}}/b\r\nAccept: */*\r\n", "### two\nDELETE {{base}}/b\r\n"),
  );
  const appended = appendRequest(source, writeHttpRequest({ method: "GET", url: "http://y" }));
  assert.deepEqual(parseHttpFile(appended).requests.map((r) => r.url), [
    "{{base}}/a",
    "{{base}}/b",
    "http://y",
  ]);
  assert.throws(
    () => writeHttpRequest({ method: "POST", url: "http://x", body: "###\n" }),
    /would read as request syntax/,
  );
});

Deno.test("parse: 10,000 requests parse quickly enough to measure in the bench", () => {
  const one =
    '### r\nPOST http://127.0.0.1/items?i={{i}}\nContent-Type: application/json\n\n{"a": 1}\n\n> {% client.global.set("i", response.body.i); %}\n\n';
  const file = parseHttpFile(one.repeat(10_000));
  assert.equal(file.requests.length, 10_000);
});

Deno.test("edit: remove one request, find the request at a cursor", () => {
  const source = "# top\nGET http://a/\n\n\n### b\nGET http://b/\n\n### c\nGET http://c/\n";
  const file = parseHttpFile(source);
  assert.equal(
    removeRequest(source, file.requests[1]!),
    "# top\nGET http://a/\n\n\n### c\nGET http://c/\n",
  );
  assert.equal(requestAt(file.requests, source.indexOf("http://b"))?.name, "b");
  assert.equal(requestAt(file.requests, source.indexOf("### c") - 1)?.name, "b");
  assert.equal(requestAt(file.requests, 0)?.url, "http://a/");
});

Deno.test("parse: an editor's recover mode leaves out a broken request and records its error", () => {
  const source = "GET http://a/\n\n###\nGET http://b/\nbroken header\n\n###\nGET http://c/\n";
  assert.throws(() => parseHttpFile(source, "e.http"), HttpFileSyntaxError);
  const file = parseHttpFile(source, "e.http", { recover: true });
  assert.deepEqual(file.requests.map((r) => r.url), ["http://a/", "http://c/"]);
  assert.deepEqual(file.errors, [{
    message:
      'Cannot parse header "broken header": missing ":" (a body needs a blank line above it)',
    line: 5,
    column: 1,
  }]);
});

Deno.test("parse: a byte order mark before the first request is not part of it", () => {
  const file = parseHttpFile("\uFEFFPOST http://a/\r\nX-A: 1\r\n\r\nbody\r\n");
  const request = file.requests[0]!;
  assert.equal(request.method, "POST");
  assert.equal(request.span.start, 1);
  assert.deepEqual(request.body.map((p) => p.kind === "text" && p.text), ["body"]);
});

Deno.test("parse: blank lines after ?? lines end the body before them, as httpyac sends it", () => {
  // httpyac 6.16.7 sends `{\n  "a": 1\n}` for this file (no newline at the end).
  const text = 'POST http://h/x\n\n{\n  "a": 1\n}\n\n?? status == 200\n\n### two\nGET http://h/y\n';
  const [first] = parseHttpFile(text, "x.http").requests;
  assert.deepEqual(first!.body.map((p) => p.kind === "text" ? p.text : p.path), [
    '{\n  "a": 1\n}',
  ]);
  assert.equal(first!.assertions.length, 1);
});

Deno.test("parse: httpyac's lenient forms are read as httpyac reads them, each with a warning", () => {
  const file = parseHttpFile(
    [
      "/*",
      "GET http://not/a/request",
      "*/",
      "GET /a",
      "GET /b",
      "Accept: x",
      "POST /c",
      "{",
      '  "a": 1',
      "}",
    ].join("\n"),
  );
  assert.deepEqual(file.requests.map((r) => `${r.method} ${r.url}`), [
    "GET /a",
    "GET /b",
    "POST /c",
  ]);
  assert.deepEqual(file.requests[0]!.comments, ["GET http://not/a/request"]);
  assert.deepEqual(file.requests[1]!.headers.map((h) => h.name), ["Accept"]);
  assert.deepEqual(file.requests[2]!.body.map((p) => p.kind === "text" && p.text), [
    '{\n  "a": 1\n}',
  ]);
  assert.deepEqual(file.warnings.map((w) => [w.line, w.message.slice(0, 30)]), [
    [5, "A request line inside the requ"],
    [7, "A request line inside the requ"],
    [8, "The body starts with no blank "],
  ]);
  // Directives or a JetBrains pre-request script in a block of their own are skipped, as
  // kulala skips them (a warning names the line), also when the file has no other request.
  const skipped = parseHttpFile(
    "# @name first\n###\n< {% request.variables.set('a', 1) %}\n###\nGET http://x/\n",
  );
  assert.equal(skipped.requests.length, 1);
  assert.equal(skipped.requests[0]!.preScripts.length, 0);
  assert.deepEqual(skipped.warnings.map((w) => [w.line, w.message.slice(0, 39)]), [
    [1, "Directives or a pre-request script with"],
    [3, "Directives or a pre-request script with"],
  ]);
  const lonely = parseHttpFile("### lonely\n# @name lonely\n");
  assert.deepEqual([lonely.requests.length, lonely.warnings.length], [0, 1]);
  // A header that is not one stays an error.
  assert.throws(
    () => parseHttpFile("GET http://x/\nContent-Type application/json\n"),
    /Cannot parse header "Content-Type application\/json": missing ":"/,
  );
});
