// One test per production of the request-file grammar (docs/request-files.md, "Grammar"): each
// reads its own line kind, leaves every other kind to the next production, and records what it
// read; then the phases that order them.
import assert from "node:assert/strict";
import { Block, type FileContext, type Production } from "../../../src/files/_http_block.ts";
import { HttpFileSyntaxError, type Line, LineReader } from "../../../src/files/_http_lines.ts";
import * as p from "../../../src/files/_http_productions.ts";
import { parseHttpFile } from "../../../src/files/parse_http_file.ts";
import { writeHttpRequest } from "../../../src/files/write_http_file.ts";

function block(source: string, options: { separator?: boolean; request?: boolean } = {}): Block {
  const reader = new LineReader(source);
  const lines: Line[] = [];
  for (let line = reader.next(); line; line = reader.next()) lines.push(line);
  const file: FileContext = {
    variables: [],
    warnings: [],
    runs: [],
    protos: [],
    index: 3,
    fail: (line, column, message) => {
      throw new HttpFileSyntaxError("t.http", line.number, column, message);
    },
  };
  const separator = options.separator
    ? { text: "### sep", start: 0, end: 0, textEnd: 0, number: 0 }
    : undefined;
  const made = new Block(lines, separator, file);
  if (options.request) {
    const line = { text: "GET http://x/", start: 0, end: 0, textEnd: 0, number: 0 };
    made.requestLine = {
      parts: { method: "GET", methodWritten: true, target: "http://x/", version: undefined },
      first: line,
      last: line,
    };
  }
  return made;
}

/** The production reads the first line (true, cursor moved) or leaves it (false, unmoved). */
function reads(production: Production, source: string, options = {}): Block | undefined {
  const b = block(source, options);
  const read = production(b);
  assert.equal(b.i > 0, read, `cursor after ${JSON.stringify(source)}`);
  return read ? b : undefined;
}

function fails(production: Production, source: string, message: RegExp, options = {}): void {
  assert.throws(() => production(block(source, options)), message);
}

Deno.test("production head-blank: a blank line detaches the comments above it", () => {
  const b = block("# file comment\n\nGET http://x/");
  p.headComment(b);
  assert.equal(b.first?.number, 1);
  assert.ok(p.headBlank(b));
  assert.equal(b.first, undefined);
  assert.equal(reads(p.headBlank, "# c"), undefined);
});

Deno.test("production file-variable: @name = value, @name=value and httpyac's @name := value", () => {
  for (
    const [text, name, value] of [["@a = 1 ", "a", "1"], ["@b.c=x{{y}}", "b.c", "x{{y}}"], [
      "@lazy := {{z}}",
      "lazy",
      "{{z}}",
    ]]
  ) {
    const b = reads(p.fileVariable, text!)!;
    assert.deepEqual(b.file.variables.map((v) => [v.name, v.value]), [[name, value]]);
  }
  assert.equal(reads(p.fileVariable, "@ not a variable"), undefined);
  assert.equal(reads(p.fileVariable, "# @name x"), undefined);
});

Deno.test("production xpath-namespace: httpyac's @xpath_ns prefix=uri, for the whole file", () => {
  const b = reads(p.xpathNamespace, "@xpath_ns soap = http://schemas.xmlsoap.org/soap/envelope/")!;
  assert.deepEqual(b.file.xpathNamespaces?.map((n) => [n.prefix, n.uri]), [
    ["soap", "http://schemas.xmlsoap.org/soap/envelope/"],
  ]);
  assert.equal(reads(p.xpathNamespace, "@xpath_ns = urn:x"), undefined);
  assert.equal(reads(p.xpathNamespace, "@xpath_nsx=1"), undefined);
  assert.equal(reads(p.xpathNamespace, "# @xpath_ns x=urn:x"), undefined);
  // Before the first request too: every request of the file reads it.
  const file = parseHttpFile("@xpath_ns x=urn:x\n\n### a\nGET http://x/\n", "t.http");
  assert.deepEqual(file.xpathNamespaces?.map((n) => [n.prefix, n.uri, n.span.line]), [
    ["x", "urn:x", 1],
  ]);
  assert.equal(file.requests.length, 1);
});

Deno.test("production directive: # @name and // @name, unknown ones warned", () => {
  const b = reads(p.directive, "// @timeout 5 s ")!;
  assert.deepEqual(b.directives.map((d) => [d.name, d.value]), [["timeout", "5 s"]]);
  const unknown = reads(p.directive, "# @frobnicate")!;
  assert.deepEqual(unknown.file.warnings.map((w) => w.message), [
    'Unknown directive "@frobnicate" is ignored',
  ]);
  assert.equal(reads(p.directive, "# a comment"), undefined);
  assert.equal(reads(p.directive, "@a = 1"), undefined);
});

Deno.test("production head-comment: # and // lines, the text kept", () => {
  const b = reads(p.headComment, "  //   the login")!;
  assert.deepEqual(b.comments, ["the login"]);
  assert.equal(reads(p.headComment, "GET http://x/#frag"), undefined);
});

Deno.test("production pre-script: < {% … %} over lines, or < file.js", () => {
  const b = reads(p.preScript, "< {%\n  request.variables.set('a', 1);\n%}\nGET http://x/")!;
  assert.equal(b.i, 3);
  assert.equal(b.preScripts[0]!.kind, "inline");
  const file = reads(p.preScript, "< ./before.js")!;
  assert.deepEqual(file.preScripts.map((s) => s.kind === "file" && s.path), ["./before.js"]);
  assert.equal(reads(p.preScript, "<>ref.json"), undefined);
  fails(p.preScript, "< {% never closed", /Unterminated script/);
});

Deno.test("production proto-import: httpyac's proto < file, its includeDirs lines (JSON), other proto-loader options ignored with a warning", () => {
  const source = `proto < ./greeter.proto\nincludeDirs: ["./protos", "../shared"]\n` +
    `keepCase: true\nincludeDirs: './more',\nGRPC localhost:50051/a.B/C`;
  const b = reads(p.protoImport, source)!;
  assert.equal(b.i, 4);
  assert.deepEqual(b.protos, [{
    path: "./greeter.proto",
    importPaths: ["./protos", "../shared", "./more"],
    span: { start: 0, end: 101, line: 1, endLine: 4 },
  }]);
  assert.deepEqual(b.file.warnings.map((w) => [w.line, w.message]), [
    [
      3,
      `The proto-loader option "keepCase" is ignored: dial's replies are the proto3 JSON mapping`,
    ],
  ]);
  assert.equal(reads(p.protoImport, "proto <"), undefined);
  assert.equal(reads(p.protoImport, "< ./before.js"), undefined);
  fails(p.protoImport, "proto < a.proto\nincludeDirs: [1]", /Cannot parse includeDirs "\[1\]"/);
  // In a block without a request it describes the file's GRPC requests; a GET ignores it.
  const file = parseHttpFile(
    "proto < all.proto\n\n###\nproto < one.proto\nGRPC h:1/a.B/C\n\n###\nproto < x.proto\nGET http://x/\n",
  );
  assert.deepEqual(file.protos?.map((i) => i.path), ["all.proto"]);
  assert.deepEqual(file.requests.map((r) => r.protos?.map((i) => i.path)), [["one.proto"], [
    "x.proto",
  ]]);
  assert.equal(file.requests[0]!.span.line, 3);
  assert.deepEqual(file.warnings.map((w) => [w.line, w.message]), [
    [8, `"proto <" describes GRPC requests only: GET ignores it`],
  ]);
});

Deno.test("production run: run #name and run ./file.http with (@var=value) overrides", () => {
  const b = reads(p.runLine, "run #Get a user (@id=7, @host = example.com)")!;
  assert.deepEqual(b.file.runs, [{
    target: { kind: "request", name: "Get a user" },
    variables: [{ name: "id", value: "7" }, { name: "host", value: "example.com" }],
    after: 2,
    span: { start: 0, end: 44, line: 1, endLine: 1 },
  }]);
  const file = reads(p.runLine, "run ./other.http")!;
  assert.deepEqual(file.file.runs[0]!.target, { kind: "file", path: "./other.http" });
  assert.equal(reads(p.runLine, "GET http://run/"), undefined);
  fails(p.runLine, "run #", /Cannot parse run line "run #"/);
  fails(p.runLine, "run #a (@x)", /"@x" is not @name=value/);
});

Deno.test("production import: import ./file.http, for run #name; a block of them is no request", () => {
  const b = reads(p.importLine, "import ./lib/auth.http ")!;
  assert.deepEqual(b.file.imports?.map((i) => i.path), ["./lib/auth.http"]);
  assert.equal(reads(p.importLine, "important.http"), undefined);
  fails(p.importLine, "import ", /Cannot parse import line "import "/);
  fails(p.importLine, "import a.http b.http", /expected "import \.\/file\.http"/);
  const file = parseHttpFile("import ./a.http\nimport ./b.http\n\n###\nrun #x\n", "t.http");
  assert.deepEqual(file.imports?.map((i) => [i.path, i.span.line]), [["./a.http", 1], [
    "./b.http",
    2,
  ]]);
  assert.equal(file.requests.length, 0);
});

Deno.test("production request-line: [METHOD] target [HTTP/x.y]", () => {
  const b = reads(p.requestLine, "POST http://x/{{a b}} HTTP/2")!;
  assert.deepEqual(b.requestLine!.parts, {
    method: "POST",
    methodWritten: true,
    target: "http://x/{{a b}}",
    version: "HTTP/2",
  });
  const bare = reads(p.requestLine, "example.com/a")!;
  assert.deepEqual([bare.requestLine!.parts.method, bare.requestLine!.parts.methodWritten], [
    "GET",
    false,
  ]);
  // The hook for other request kinds: any method word is read; file_request.ts decides the kind.
  assert.equal(
    reads(p.requestLine, "GRPC localhost:50051/pkg.Svc/Call")!.requestLine!.parts.method,
    "GRPC",
  );
  fails(p.requestLine, "POST", /Missing URL after method "POST"/);
  fails(p.requestLine, "GET http://x extra", /unexpected "extra"/);
});

Deno.test("production url-continuation: indented lines and ?/& query lines", () => {
  const b = block("  /api\n?a=1\n&b=2\nAccept: x", { request: true });
  b.phase(p.REQUEST_LINE_CONTINUATION);
  assert.equal(b.requestLine!.parts.target, "http://x//api?a=1&b=2");
  assert.equal(b.i, 3);
  assert.equal(reads(p.urlContinuation, "Accept: x", { request: true }), undefined);
});

Deno.test("production header-comment: a comment between headers stays in the request", () => {
  const b = reads(p.headerComment, "# why", { request: true })!;
  assert.deepEqual(b.comments, ["why"]);
  assert.equal(b.lastContent?.number, 1);
  assert.equal(reads(p.headerComment, "X-A: #1", { request: true }), undefined);
});

Deno.test("production header and header-continuation: Name: value, folded lines", () => {
  const b = block("X-Long: a\n  b\nBad header", { request: true });
  assert.ok(p.header(b));
  assert.ok(p.headerContinuation(b));
  assert.deepEqual(b.headers.map((h) => [h.name, h.value]), [["X-Long", "a b"]]);
  assert.throws(() => p.header(b), /Cannot parse header "Bad header": missing ":"/);
  fails(p.header, "Bad name: x", /invalid name "Bad name"/, { request: true });
  assert.equal(reads(p.headerContinuation, "  folded", { request: true }), undefined);
});

Deno.test("production handler: > {% … %} and > file.js; response-ref; output", () => {
  const b = reads(p.handler, "> {%\n client.log(1);\n%}", { request: true })!;
  assert.equal(b.handlers.length, 1);
  assert.equal(b.i, 3);
  assert.equal(reads(p.handler, ">> out.json", { request: true }), undefined);
  const ref = reads(p.responseRef, "<> ./previous.200.json", { request: true })!;
  assert.deepEqual(ref.responseRefs.map((r) => r.path), ["./previous.200.json"]);
  const out = reads(p.output, ">>! ./saved.json", { request: true })!;
  assert.deepEqual(out.outputs.map((o) => [o.path, o.overwrite]), [["./saved.json", true]]);
  assert.equal(reads(p.output, ">>", { request: true }), undefined);
});

Deno.test("production assertion: ?? SUBJECT [ARGUMENT] OPERATOR [EXPECTED], as httpyac reads it", () => {
  const cases: [string, Record<string, string>][] = [
    ["?? status == 200", { subject: "status", operator: "==", expected: "200" }],
    ["?? header content-type includes json", {
      subject: "header",
      argument: "content-type",
      operator: "includes",
      expected: "json",
    }],
    ["?? body slideshow.author == Yours Truly", {
      subject: "body",
      argument: "slideshow.author",
      operator: "==",
      expected: "Yours Truly",
    }],
    ["?? header range exists", { subject: "header", argument: "range", operator: "exists" }],
    ["?? duration < 300", { subject: "duration", operator: "<", expected: "300" }],
    ["?? js response.parsedBody.a.length >= 2", {
      subject: "js",
      argument: "response.parsedBody.a.length",
      operator: ">=",
      expected: "2",
    }],
    // dial's JSONPath form: the subject is the whole expression, up to the last operator.
    ["?? $[?@.price < 10].title == Cheap", {
      subject: "$[?@.price",
      argument: "< 10].title",
      operator: "==",
      expected: "Cheap",
    }],
  ];
  for (const [line, expected] of cases) {
    const b = reads(p.assertion, line, { request: true })!;
    const { span: _, text, ...read } = b.assertions[0]!;
    assert.equal(`?? ${text}`, line, "the test's name is the line as written");
    assert.deepEqual(read, expected, line);
  }
  assert.equal(reads(p.assertion, "? a=1", { request: true }), undefined);
  // A line httpyac reads no test from is read (never body text), makes no test, and warns.
  for (
    const [line, why] of [
      ["?? status", /"\?\? status" is skipped: expected "\?\? SUBJECT OPERATOR/],
      ["?? status EQUALS 200", /skipped: httpyac reads no test from it \(its operator "EQUALS"/],
      ["?? body a == File Exists", /its operator "Exists"/],
    ] as const
  ) {
    const b = reads(p.assertion, line, { request: true })!;
    assert.deepEqual(b.assertions, [], line);
    assert.match(b.file.warnings[0]!.message, why);
  }
  // httpyac's pattern: case-insensitive, the value greedy, the expected text's trailing spaces kept.
  const kept = reads(p.assertion, "?? header x == a b  ", { request: true })!;
  assert.equal(kept.assertions[0]!.expected, "a b  ");
  const unknown = reads(p.assertion, "?? Status == 200", { request: true })!;
  assert.equal(unknown.assertions.length, 1);
  assert.match(unknown.file.warnings[0]!.message, /Unknown assertion subject "Status"/);
});

Deno.test("production tail-filler: after a handler only blank lines and comments", () => {
  const b = block("> ./h.js\n\n# note", { request: true });
  b.phase(p.BODY);
  assert.deepEqual([b.i, b.comments, b.lastContent?.number], [3, [], 1]);
  const text = block("> ./h.js\ntext", { request: true });
  assert.throws(() => text.phase(p.BODY), /t.http:2:1: Unexpected text after a response handler/);
  assert.equal(reads(p.tailFiller, "", { request: true }), undefined);
});

Deno.test("production body-comment, file-include and body-text", () => {
  const b = block("a\n# not sent\n<@latin1 ./in.txt\n< ./raw.bin\nb", { request: true });
  b.phase(p.BODY);
  assert.deepEqual(
    b.request().body.map((part) =>
      part.kind === "text" ? part.text : [part.path, part.substitute, part.encoding]
    ),
    ["a", ["./in.txt", true, "latin1"], ["./raw.bin", false, undefined], "b"],
  );
  assert.deepEqual(b.comments, ["not sent"]);
  assert.equal(reads(p.bodyComment, "{}", { request: true }), undefined);
  assert.equal(reads(p.fileInclude, "<html>", { request: true }), undefined);
});

Deno.test("phases: ?? lines are never URL, header or body text; run lines stand alone", () => {
  const file = parseHttpFile(
    "GET http://x/a\n?? status == 200\nAccept: x\n?? header a exists\n\n{}\n?? body a == 1\n> {% %}\n?? duration < 9\n\n###\nrun #first (@id=2)\n\n###\nPOST http://x/b\n",
    "a.http",
  );
  const [first, second] = file.requests;
  assert.equal(first!.url, "http://x/a");
  assert.deepEqual(first!.headers.map((h) => h.name), ["Accept"]);
  assert.deepEqual(first!.body.map((b) => b.kind === "text" && b.text), ["{}"]);
  assert.deepEqual(first!.assertions.map((a) => a.subject), [
    "status",
    "header",
    "body",
    "duration",
  ]);
  assert.equal(first!.span.endLine, 9);
  assert.equal(second!.url, "http://x/b");
  assert.deepEqual(file.runs.map((r) => [r.target, r.after]), [[{
    kind: "request",
    name: "first",
  }, 1]]);
});

Deno.test("production trailing-variable: REST Client's @name = value after the body", () => {
  const b = block('{"a": 1}\n\n@token = {{login.response.body.$.t}}\n# note\n@b = 2\n', {
    request: true,
  });
  b.phase(p.BODY);
  assert.deepEqual(b.file.variables.map((v) => [v.name, v.value]), [
    ["token", "{{login.response.body.$.t}}"],
    ["b", "2"],
  ]);
  assert.deepEqual(b.request().body.map((part) => part.kind === "text" && part.text), [
    '{"a": 1}',
  ]);
  // Followed by body text, it is body text.
  const inside = block("@a = 1\nmore", { request: true });
  assert.equal(p.trailingVariable(inside), false);
});

Deno.test("phases: a request line in a body starts a new request, as httpyac reads it, with a warning", () => {
  const file = parseHttpFile("GET http://x/a\n\n\nGET http://x/b\n", "w.http");
  assert.deepEqual(file.requests.map((r) => r.url), ["http://x/a", "http://x/b"]);
  assert.deepEqual(file.warnings, [{
    message:
      "A request line inside the request above starts a new request, as httpyac reads it: start it with ###",
    line: 4,
    column: 1,
  }]);
  // After a body and after a handler too; in a multipart/mixed body (a batch) it is a part's.
  const after = parseHttpFile(
    "POST http://x/a\n\n{}\nPUT http://x/b\n> {% client.log(1) %}\nDELETE http://x/c\n",
  );
  assert.deepEqual(after.requests.map((r) => r.method), ["POST", "PUT", "DELETE"]);
  const batch = parseHttpFile(
    "POST http://x/$batch\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nGET /c HTTP/1.1\n\n--b--\n",
  );
  assert.equal(batch.requests.length, 1);
});

Deno.test("phases: an assertion above the request line belongs to the request", () => {
  const file = parseHttpFile("###\n?? status == 200\nGET http://x/\n", "a.http");
  assert.deepEqual(file.requests[0]!.assertions.map((a) => a.text), ["status == 200"]);
  assert.equal(file.requests[0]!.span.line, 1);
});

Deno.test("production httpyac-script: httpyac's {{ … }} JavaScript block, placed by its event", () => {
  // Above the request line: before the request (a block without a request: the file's).
  const head = reads(p.httpyacScript, "{{\nexports.a = 1;\n}}\nGET http://x/")!;
  assert.deepEqual(head.preScripts, [{
    kind: "inline",
    code: "exports.a = 1;",
    codeLine: 2,
    codeColumn: 1,
    span: { start: 0, end: 21, line: 1, endLine: 3 },
    httpyac: { event: "", every: false },
  }]);
  assert.equal(head.i, 3);
  // Below it: after the response; `{{@request` still before; `{{+…` the file's.
  const below = block("{{\n}}\n{{@request\n}}\n{{+after\n}}\n{{@js @response\n}}", {
    request: true,
  });
  below.phase(p.phase([p.httpyacScript]));
  assert.deepEqual(below.handlers.map((s) => s.kind === "inline" && s.httpyac), [
    { event: "", every: false },
    { event: "response", every: false },
  ]);
  assert.deepEqual(below.preScripts.map((s) => s.kind === "inline" && s.httpyac), [
    { event: "request", every: false },
  ]);
  assert.deepEqual(below.file.scripts?.map((s) => s.httpyac), [{ event: "after", every: true }]);
  // {{@streaming runs while the response is read: the request's; {{@responseLogging only logs:
  // skipped.
  const streaming = reads(p.httpyacScript, "{{@streaming\nawait sleep(1);\n}}", { request: true })!;
  assert.deepEqual(streaming.streaming.map((s) => s.kind === "inline" && [s.code, s.httpyac]), [
    ["await sleep(1);", { event: "streaming", every: false }],
  ]);
  assert.equal(streaming.handlers.length, 0);
  assert.equal(streaming.request().streaming?.length, 1);
  const logging = reads(p.httpyacScript, "{{@responseLogging\nx\n}}", { request: true })!;
  assert.equal(logging.handlers.length, 0);
  assert.match(logging.file.warnings[0]!.message, /only changes what httpyac logs/);
  // Not closed, or a variable on its own line: not a script block.
  assert.equal(reads(p.httpyacScript, "{{\nGET http://x/"), undefined);
  assert.equal(reads(p.httpyacScript, "{{token}}\n}}"), undefined);
});

Deno.test("production url-continuation: the HTTP version may end the last line (spec 4.2.1)", () => {
  const b = block("  &b=2 HTTP/1.1", { request: true });
  assert.ok(p.urlContinuation(b));
  assert.deepEqual([b.requestLine!.parts.target, b.requestLine!.parts.version], [
    "http://x/&b=2",
    "HTTP/1.1",
  ]);
});

Deno.test("production example-response: httpyac's response under a request is never sent", () => {
  const b = block("a\n\nHTTP/1.1 200 - OK\nx: 1\n\n{}", { request: true });
  b.phase(p.BODY);
  assert.deepEqual(b.request().body.map((part) => part.kind === "text" && part.text), ["a"]);
  assert.equal(reads(p.exampleResponse, "HTTP/1.1 is a protocol", { request: true }), undefined);
});

Deno.test("production graphql-fragment: httpyac's fragment block up to a blank line is the file's", () => {
  const b = reads(p.graphqlFragment, "fragment IOParts on Repository {\n  a\n}\n\nPOST http://x/")!;
  assert.deepEqual(b.file.fragments, [{
    name: "IOParts",
    text: "fragment IOParts on Repository {\n  a\n}",
  }]);
  assert.equal(b.i, 3);
  assert.equal(reads(p.graphqlFragment, "fragments are here"), undefined);
});

Deno.test("write: an httpyac block is written back as httpyac's block, not as a JetBrains script", () => {
  const text = writeHttpRequest({
    method: "GET",
    url: "http://x/",
    preScripts: [{ code: "  exports.a = 1;", httpyac: { event: "", every: false } }],
    handlers: [{ code: "  test.status(200);", httpyac: { event: "response", every: false } }],
  });
  assert.match(text, /^\{\{\n {2}exports\.a = 1;\n\}\}\nGET http:\/\/x\/\n/);
  assert.match(text, /\{\{@response\n {2}test\.status\(200\);\n\}\}\n$/);
  const request = parseHttpFile(text, "w.http").requests[0]!;
  assert.deepEqual(
    [...request.preScripts, ...request.handlers].map((s) => s.kind === "inline" && s.httpyac),
    [{ event: "", every: false }, { event: "response", every: false }],
  );
});

Deno.test("phases: a line is read as trying every production of the phase in order would read it, whatever white space starts it", async () => {
  // Each phase tries on a line only the productions whose line kind may start as the line does
  // (after white space, as `\s` reads it): the same result as trying all of them, in order.
  const lines = new Set([
    "",
    "   ",
    "@a = 1",
    "@xpath_ns soap = http://x/",
    "# @name x",
    "// @no-redirect",
    "# @import ./other.http",
    "# comment",
    "/*",
    "{{",
    "{{+after",
    "{{@streaming",
    "fragment F on T {",
    "gql F < ./f.gql",
    "proto < ./a.proto",
    "< {% request.variables.set('a', 1) %}",
    "< ./script.js",
    "?? status == 200",
    "?? body $.a",
    "run #name",
    "run ./other.http (@a=1)",
    "import ./other.http",
    "GET http://x/",
    "POST {{base}}/a HTTP/1.1",
    "  /api",
    "?a=1",
    "&b=2",
    "...headers",
    "Accept: */*",
    "X-ClientCert: pfx: ./c.p12 passphrase: x",
    "> {% client.global.set('a', 1) %}",
    ">{% client.log(1) %}",
    "> ./handler.js",
    "<> ./response.json",
    ">> ./out.json",
    ">>! ./out.json",
    "HTTP/1.1 200 OK",
    "< ./body.json",
    "<@base64 ./body.bin",
    '{"a": 1}',
    "[1, 2]",
    "<?xml version='1.0'?>",
    "é",
    "\x01",
  ]);
  const root = new URL("../../..", import.meta.url).pathname;
  for (const dir of ["tests/e2e/fixtures/http", "tests/golden/_inputs"]) {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      if (!entry.isFile || !/\.(http|rest)$/.test(entry.name)) continue;
      const text = await Deno.readTextFile(`${root}${dir}/${entry.name}`);
      for (const line of text.split(/\r?\n/)) lines.add(line);
    }
  }
  const state = (b: Block) =>
    JSON.stringify({ ...b, i: b.i, file: { ...b.file, fail: undefined } });
  const outcome = (run: (b: Block) => void, source: string, request: boolean) => {
    const b = block(source, { request });
    try {
      run(b);
      return state(b);
    } catch (error) {
      return String(error);
    }
  };
  let compared = 0;
  for (
    const [name, phase] of Object.entries({
      HEAD: p.HEAD,
      REQUEST_LINE_CONTINUATION: p.REQUEST_LINE_CONTINUATION,
      HEADERS: p.HEADERS,
      BODY: p.BODY,
    })
  ) {
    for (const line of lines) {
      for (const pad of ["", " ", "\t", "\u00a0", "\ufeff", "\u2028", "\u3000"]) {
        const source = `${pad}${line}\nAccept: */*\n\nbody`;
        for (const request of name === "HEAD" ? [false] : [false, true]) {
          const every = (b: Block) => {
            while (!b.done) if (!phase.productions.some((read) => read(b))) return;
          };
          assert.equal(
            outcome((b) => b.phase(phase), source, request),
            outcome(every, source, request),
            `${name} on ${JSON.stringify(source)}`,
          );
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 1000, `${compared} lines compared`);
});

Deno.test("production body-comment: a # line under a line of a GraphQL query is the query's, as httpyac 6.16.7 sends it", () => {
  const body = (file: string) =>
    parseHttpFile(file, "q.http").requests.map((r) =>
      r.body.map((part) => part.kind === "text" ? part.text : part.path).join("|")
    );
  const query = "query Viewer {\n  # inside\n# unindented\n  viewer { login }\n}";
  // GRAPHQL, REST Client's X-Request-Type: GraphQL, httpyac's JSON body opening with a query.
  for (
    const head of [
      "GRAPHQL http://x/graphql",
      "POST http://x/graphql\nX-Request-Type: GraphQL",
      "POST http://x/graphql\nContent-Type: application/json",
      "POST http://x/graphql",
    ]
  ) {
    assert.deepEqual(body(`${head}\n\n${query}\n`), [query], head);
    // Right after the query (no blank line between): the query's, before the variables.
    assert.deepEqual(
      body(`${head}\n\n${query}\n# tail\n\n{"n": 1}\n`),
      [`${query}\n# tail\n\n{"n": 1}`],
      head,
    );
  }
  // Above the query, after a blank line, a // line: the file's comments, as in httpyac (no
  // GraphQL document holds a // line).
  const file = parseHttpFile(
    `GRAPHQL http://x/graphql\n\n# above\nquery {\n  // slashes\n  a\n}\n\n# after a blank line\n`,
    "q.http",
  );
  assert.deepEqual(file.requests[0]!.comments, ["above", "slashes", "after a blank line"]);
  assert.deepEqual(
    file.requests[0]!.body.map((part) => part.kind === "text" && part.text.trim()),
    ["query {", "a\n}"],
  );
  // Not GraphQL: a comment, as before (a JSON body, another Content-Type, a WebSocket's).
  for (
    const file of [
      'POST http://x/\nContent-Type: application/json\n\n{\n# c\n"a": 1\n}\n',
      "POST http://x/\nContent-Type: text/plain\n\nquery {\n# c\n}\n",
      "WEBSOCKET ws://x/\n\nquery {\n# c\n}\n",
    ]
  ) {
    assert.deepEqual(parseHttpFile(file, "q.http").requests[0]!.comments, ["c"], file);
  }
  // The writer writes such a line, and reads it back; a # line that would read as a comment
  // is refused as before.
  const model = { method: "GRAPHQL", url: "http://x/graphql", body: query };
  assert.deepEqual(body(writeHttpRequest(model)), [query]);
  assert.throws(
    () => writeHttpRequest({ ...model, body: `# above\n${query}` }),
    /its line "# above" is above the query or after a blank line, where a request file \(httpyac's and dial's\) reads a comment/,
  );
  assert.throws(
    () =>
      writeHttpRequest({
        ...model,
        method: "POST",
        headers: [{ name: "Content-Type", value: "text/plain" }],
      }),
    /its line " {2}# inside" would read as request syntax/,
  );
});
