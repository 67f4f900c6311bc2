/**
 * What dial puts on the wire, read back from servers that record the raw bytes.
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial, dialEnv } from "../_helpers.ts";
import { childServer } from "../_process.ts";
import { mainPath, spawnDial } from "./_spawn.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

const WSGI = `
import json
from wsgiref.simple_server import make_server, WSGIRequestHandler
class Quiet(WSGIRequestHandler):
    def log_message(self, *a): pass
def app(environ, start):
    n = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(n) if n else b""
    out = json.dumps({"length": environ.get("CONTENT_LENGTH") or None, "body": body.decode("latin1")}).encode()
    start("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(out)))])
    return [out]
s = make_server("127.0.0.1", 0, app, handler_class=Quiet)
print(s.server_port, flush=True)
s.serve_forever()
`;

/** Python's wsgiref reads Content-Length bodies only: a chunked body arrives empty. */
async function wsgiref(): Promise<{ origin: string } & AsyncDisposable> {
  const server = await childServer("python3", ["-c", WSGI]);
  return Object.assign(server, { origin: `http://127.0.0.1:${server.line}` });
}

async function tempFile(content: string | Uint8Array, suffix = ".txt"): Promise<string> {
  const path = await Deno.makeTempFile({ suffix });
  await (typeof content === "string"
    ? Deno.writeTextFile(path, content)
    : Deno.writeFile(path, content));
  return path;
}

Deno.test("wire: -d @file and -F file bodies reach wsgiref whole, with Content-Length", async () => {
  await using server = await wsgiref();
  const file = await tempFile("from-file\n");
  const data = await dial(["PUT", `${server.origin}/`, "-d", `@${file}`, "-s"]);
  assert.equal(data.code, 0, data.stderr);
  assert.deepEqual(JSON.parse(data.stdout), { length: "10", body: "from-file\n" });
  const form = await dial(["POST", `${server.origin}/`, "-F", "a=1", "-F", `f=@${file}`, "-s"]);
  assert.equal(form.code, 0, form.stderr);
  const answer = JSON.parse(form.stdout);
  assert.equal(Number(answer.length), answer.body.length);
  includes(answer.body, "from-file\n");
  await Deno.remove(file);
});

Deno.test("wire: a file body and a stdin body are both framed by length, as HTTPie frames them", async () => {
  await using server = rawServer();
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251);
  const file = await tempFile(bytes, ".bin");
  assert.equal((await dial(["PUT", `${server.origin}/f`, "-d", `@${file}`])).code, 0);
  assert.equal((await dial(["PUT", `${server.origin}/s`, "-d", "@-"], { stdin: "abc" })).code, 0);
  const httpie = await new Deno.Command("http", {
    args: ["--ignore-stdin", "-q", "PUT", `${server.origin}/h`, `@${file}`],
  }).output();
  assert.equal(httpie.code, 0);
  const [fromFile, fromStdin, fromHttpie] = server.requests as [RawRequest, RawRequest, RawRequest];
  assert.equal(fromHttpie.framing, fromFile.framing);
  assert.deepEqual(headerValues(fromHttpie, "content-length"), ["300000"]);
  assert.equal(fromFile.framing, "length");
  assert.deepEqual(headerValues(fromFile, "content-length"), ["300000"]);
  assert.deepEqual(fromFile.body, bytes);
  assert.equal(fromStdin.framing, "length");
  assert.deepEqual(headerValues(fromStdin, "content-length"), ["3"]);
  assert.equal(new TextDecoder().decode(fromStdin.body), "abc");
  await Deno.remove(file);
});

Deno.test("wire: standard methods go out upper-case in any case, others as written", async () => {
  await using server = rawServer();
  for (const method of ["patch", "Delete", "options", "purge", "PROPFIND"]) {
    assert.equal((await dial([method, `${server.origin}/`])).code, 0);
  }
  assert.deepEqual(server.requests.map((r) => r.line.split(" ")[0]), [
    "PATCH",
    "DELETE",
    "OPTIONS",
    "purge",
    "PROPFIND",
  ]);
});

Deno.test("wire: header values go out as UTF-8, like curl; -v shows them as typed", async () => {
  await using server = rawServer();
  const value = "café ☕ 🎉";
  const result = await dial(["GET", `${server.origin}/`, "-H", `X-Note: ${value}`, "-v"]);
  assert.equal(result.code, 0, result.stderr);
  includes(result.stderr, `X-Note: ${value}\n`);
  const curl = await new Deno.Command("curl", {
    args: ["-s", "-o", "/dev/null", "-H", `X-Note: ${value}`, `${server.origin}/`],
  }).output();
  assert.equal(curl.code, 0);
  const httpie = await new Deno.Command("http", {
    args: ["--ignore-stdin", "-q", "GET", `${server.origin}/`, `X-Note:${value}`],
  }).output();
  assert.equal(httpie.code, 0);
  const file = await tempFile("upload");
  const upload = await dial([
    "PUT",
    `${server.origin}/`,
    "-d",
    `@${file}`,
    "-H",
    `X-Note: ${value}`,
  ]);
  assert.equal(upload.code, 0, upload.stderr);
  const sent = server.requests.map((r) => headerValues(r, "x-note")[0]);
  const utf8 = Array.from(new TextEncoder().encode(value), (b) => String.fromCharCode(b)).join("");
  assert.deepEqual(sent, [utf8, utf8, utf8, utf8]);
  await Deno.remove(file);
});

Deno.test("wire: a URL without a scheme is http://, :PORT/path is localhost", async () => {
  await using server = rawServer();
  const bare = await dial([`127.0.0.1:${server.port}/bare`]);
  assert.equal(bare.code, 0, bare.stderr);
  const withMethod = await dial(["get", `127.0.0.1:${server.port}/method`]);
  assert.equal(withMethod.code, 0, withMethod.stderr);
  assert.deepEqual(server.requests.map((r) => r.line), [
    "GET /bare HTTP/1.1",
    "GET /method HTTP/1.1",
  ]);
  const local = await dial([":8080/x?y=1", "--offline"]);
  assert.equal(local.code, 0, local.stderr);
  includes(local.stdout, "GET /x?y=1 HTTP/1.1\n");
  includes(local.stdout, "Host: localhost:8080\n");
  const lone = await dial(["GET"]);
  assert.equal(lone.code, 2);
  includes(lone.stderr, `Missing URL after "GET"`);
});

/** The `name: value` lines of a `-v` request head (the first block on stderr). */
function shownHeaders(stderr: string): string[] {
  return stderr.split("\n\n")[0]!.split("\n").slice(1);
}

function receivedHeaders(request: RawRequest): string[] {
  return request.headers.map(([k, v]) => `${k}: ${v}`);
}

Deno.test("wire: -v shows every header as the server receives it, in order", async () => {
  await using server = rawServer();
  const file = await tempFile("0123456789");
  const cases: Array<[string[], string | undefined]> = [
    [
      ["GET", `${server.origin}/a?x=1#frag`, "-H", "X-Dup: 1", "-H", "B: 2", "-H", "x-dup: 3"],
      undefined,
    ],
    [["POST", `${server.origin}/b`, "-d", "text"], undefined],
    [["POST", `${server.origin}/c`], undefined],
    [
      ["PUT", `${server.origin}/d`, "-d", `@${file}`, "-H", "X-Dup: 1", "-H", "X-Dup: 2"],
      undefined,
    ],
    [["PUT", `${server.origin}/e`, "-F", `f=@${file}`, "-F", "t=v"], undefined],
    [["PUT", `${server.origin}/f`, "-d", "@-"], "piped"],
    [["GET", `http://ann:pw@127.0.0.1:${server.port}/g`, "-H", "Accept: text/plain"], undefined],
  ];
  for (const [i, [args, stdin]] of cases.entries()) {
    const result = await dial(
      [...args, "-v", "-H", "User-Agent: t"],
      stdin ? { stdin } : {},
    );
    assert.equal(result.code, 0, result.stderr);
    const request = server.requests[i]!;
    const line = result.stderr.split("\n")[0]!;
    assert.equal(line, request.line, args.join(" "));
    const shown = shownHeaders(result.stderr).map((h) =>
      h === "Authorization: (redacted)" ? `Authorization: Basic ${btoa("ann:pw")}` : h
    );
    assert.deepEqual(shown, receivedHeaders(request), args.join(" "));
  }
  await Deno.remove(file);
});

Deno.test("wire: dial ws and graphql over ws send one User-Agent, like dial GET and dial sse; -v shows it as sent", async () => {
  await using server = rawServer(() => ({ status: "400 Bad Request" }));
  const graphqlWs = ["graphql", server.origin, "--transport", "ws", "-q", "subscription { a }"];
  for (
    const args of [["GET", server.origin], ["sse", server.origin], ["ws", server.origin], graphqlWs]
  ) {
    await dial(args);
    const request = server.requests.at(-1)!;
    assert.equal(headerValues(request, "user-agent").length, 1, `${args[0]}: ${request.headers}`);
  }
  // -v shows the handshake as sent: the user's headers in their case and order, the upgrade
  // lines in the case curl writes them.
  const verbose = await dial([
    "ws",
    server.origin,
    "-v",
    "-H",
    "x-Trace: 1",
    "-H",
    "Origin: http://app.test",
    "--subprotocol",
    "chat",
  ]);
  const shown = shownHeaders(verbose.stderr);
  const received = receivedHeaders(server.requests.at(-1)!);
  assert.equal(shown.at(-1), "Sec-WebSocket-Key: (random)");
  assert.match(received.at(-1)!, /^Sec-WebSocket-Key: [A-Za-z0-9+/]{22}==$/);
  assert.deepEqual(shown.slice(0, -1), received.slice(0, -1));
  assert.deepEqual(shown.slice(0, -1), [
    `Host: ${server.origin.slice("http://".length)}`,
    "x-Trace: 1",
    "Origin: http://app.test",
    "User-Agent: dial/0.1.0",
    "Sec-WebSocket-Protocol: chat",
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Version: 13",
  ]);
});

Deno.test("wire: --offline shows the body framing and no fragment or userinfo", async () => {
  const file = await tempFile("0123456789");
  const offline = await dial([
    "PUT",
    "http://ann:pw@api.test/x?y=1#frag",
    "-d",
    `@${file}`,
    "-K",
    "key=secret",
    "--offline",
  ]);
  assert.equal(offline.code, 0, offline.stderr);
  includes(offline.stdout, "PUT /x?y=1&key=(redacted) HTTP/1.1\n");
  includes(offline.stdout, "Content-Length: 10\n");
  includes(offline.stdout, "Authorization: (redacted)\n");
  includes(offline.stdout, "Host: api.test\n");
  await Deno.remove(file);
});

Deno.test("wire: a framing or connection header is a usage error, not dropped", async () => {
  for (const header of ["Content-Length: 3", "Transfer-Encoding: chunked"]) {
    const result = await dial(["GET", "http://127.0.0.1:9/", "-H", header]);
    assert.equal(result.code, 2, header);
    includes(result.stderr, `Cannot send header "${header.split(":")[0]}"`);
  }
  const connection = await dial(["GET", "http://127.0.0.1:9/", "-H", "Connection: close"]);
  includes(connection.stderr, "dial manages the connection");
});

Deno.test("wire: a stdin body follows a 307 and a 308 (a copy is kept)", async () => {
  await using server = rawServer((r) =>
    r.line.startsWith("POST /start")
      ? { status: "307 Temporary Redirect", headers: [["location", "/next"]] }
      : r.line.startsWith("POST /next")
      ? { status: "308 Permanent Redirect", headers: [["location", "/last"]] }
      : {}
  );
  const result = await dial(["POST", `${server.origin}/start`, "-d", "@-", "-L"], {
    stdin: "from-stdin",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requests.map((r) => r.line.split(" ").slice(0, 2).join(" ")), [
    "POST /start",
    "POST /next",
    "POST /last",
  ]);
  const bodies = server.requests.map((r) => new TextDecoder().decode(r.body));
  assert.deepEqual(bodies, ["from-stdin", "from-stdin", "from-stdin"]);
});

Deno.test("wire: a stdin body over 8 MiB cannot follow a 307", async () => {
  await using server = rawServer((r) =>
    r.line.startsWith("POST /start")
      ? { status: "307 Temporary Redirect", headers: [["location", "/next"]] }
      : {}
  );
  const child = spawnDial(["POST", `${server.origin}/start`, "-d", "@-", "-L"]);
  const writer = child.stdin.getWriter();
  const chunk = new Uint8Array(1024 * 1024);
  for (let i = 0; i < 9; i++) await writer.write(chunk).catch(() => {});
  await writer.close().catch(() => {});
  const output = await child.output();
  assert.equal(output.code, 1);
  includes(
    new TextDecoder().decode(output.stderr),
    "the request body from a pipe is larger than 8 MiB and cannot be sent twice",
  );
  includes(new TextDecoder().decode(output.stderr), "streamed with Transfer-Encoding: chunked");
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0]!.framing, "chunked");
  assert.equal(server.requests[0]!.body.length, 9 * 1024 * 1024);
});

Deno.test("wire: behind HTTP_PROXY a file body goes to the proxy in absolute form, with its length", async () => {
  await using proxy = rawServer();
  const file = await tempFile("0123456789");
  const result = await dial(["PUT", "http://upload.test/x", "-d", `@${file}`, "-v"], {
    env: { HTTP_PROXY: proxy.origin },
    // Deno's fetch reads HTTP_PROXY from the process's environment itself.
    process: true,
  });
  assert.equal(result.code, 0, result.stderr);
  const [request] = proxy.requests as [RawRequest];
  assert.equal(request.line, "PUT http://upload.test/x HTTP/1.1");
  assert.equal(request.framing, "length");
  includes(result.stderr, "Content-Length: 10\n");
  assert.equal(new TextDecoder().decode(request.body), "0123456789");
  await Deno.remove(file);
});

Deno.test("wire: an https file upload has Content-Length and trusts DENO_CERT", async () => {
  const certs = await makeCertificates();
  const dir = certs.dir;
  await using server = serveTls(certs.leaf, certs.leafKey, async (request) =>
    Response.json({
      length: request.headers.get("content-length"),
      chunked: request.headers.has("transfer-encoding"),
      body: await request.text(),
    }));
  await Deno.writeTextFile(`${dir}/body.txt`, "over-tls\n");
  const url = `https://localhost:${server.addr.port}/up`;
  const result = await dial(["PUT", url, "-d", `@${dir}/body.txt`, "-s"], {
    env: { DENO_CERT: certs.ca },
    process: true,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { length: "9", chunked: false, body: "over-tls\n" });
  const untrusted = await dial(["PUT", url, "-d", `@${dir}/body.txt`]);
  assert.equal(untrusted.code, 60);
  includes(untrusted.stderr, "unknown issuer");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("wire: a pipe given as a file (-d @<(cmd)) is read whole and sent with its length", async () => {
  await using server = rawServer();
  const output = await new Deno.Command("bash", {
    args: [
      "-c",
      `"$DENO" run -A --quiet "$MAIN" PUT "$URL" -d @<(printf 'from a pipe') -v`,
    ],
    clearEnv: true,
    env: dialEnv({ DENO: Deno.execPath(), MAIN: mainPath(), URL: `${server.origin}/p` }),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  includes(stderr, "Content-Length: 11\n");
  const [request] = server.requests as [RawRequest];
  assert.equal(request.framing, "length");
  assert.equal(new TextDecoder().decode(request.body), "from a pipe");
});
