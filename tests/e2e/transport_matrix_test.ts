/**
 * Every transport flag × every body kind: the server receives the whole body with
 * `Content-Length`, the request target in origin form, and `--offline` shows the same
 * framing. Against dial's raw recorder (plain and TLS), Python's wsgiref wrapped in TLS
 * (which reads exactly Content-Length bytes, so a chunked body reads as empty) and an
 * HTTP/2-only node server.
 * @module
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { childServer, installed } from "../_process.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";
import { makeCertificates, serveTls, startProxy } from "./_tls.ts";

const certs = await makeCertificates();

/** The TLS paths: a CA-signed leaf with its CA, a self-signed leaf as its own CA, and -k. */
const TLS_PATHS = [
  [certs.leaf, certs.leafKey, ["--cacert", certs.ca]],
  [certs.self, certs.selfKey, ["--cacert", certs.self]],
  [certs.leaf, certs.leafKey, ["-k"]],
] as const;
const read = (path: string) => Deno.readTextFileSync(path);
const payload = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 7919 + 3) % 251);
const file = `${certs.dir}/payload.bin`;
Deno.writeFileSync(file, payload);

interface Body {
  name: string;
  args: string[];
  stdin?: Uint8Array;
  /** Checks the bytes the server received. */
  check(body: Uint8Array): void;
}

const bodies: Body[] = [
  {
    name: "-d @file",
    args: ["-d", `@${file}`],
    check: (body) => assert.deepEqual(body, payload),
  },
  {
    name: "-F",
    args: ["-F", `f=@${file}`, "-F", "n=v"],
    check: (body) => {
      const text = new TextDecoder("latin1").decode(body);
      includes(text, 'name="f"; filename="payload.bin"');
      includes(text, 'name="n"\r\n\r\nv\r\n');
      const start = text.indexOf("\r\n\r\n") + 4;
      assert.deepEqual(body.subarray(start, start + payload.length), payload);
    },
  },
  {
    name: "stdin",
    args: ["-d", "@-"],
    stdin: payload,
    check: (body) => assert.deepEqual(body, payload),
  },
  {
    name: "-d text",
    args: ["-d", "a=1", "-d", "b=2"],
    check: (body) => assert.equal(new TextDecoder().decode(body), "a=1&b=2"),
  },
];

Deno.test("matrix: every transport flag × every body kind sends the whole body with Content-Length", async () => {
  await using plain = rawServer();
  const tlsOf = (cert: string, key: string) =>
    rawServer(undefined, { tls: { cert: read(cert), key: read(key) } });
  await using signed = tlsOf(certs.leaf, certs.leafKey);
  await using self = tlsOf(certs.self, certs.selfKey);
  const proxy = startProxy();
  const proxyUrl = `http://127.0.0.1:${proxy.port}`;
  const rows: Array<
    { name: string; server: typeof plain; args: string[]; env?: Record<string, string> }
  > = [
    { name: "plain", server: plain, args: [] },
    { name: "--cacert CA", server: signed, args: ["--cacert", certs.ca] },
    { name: "self-signed --cacert", server: self, args: ["--cacert", certs.self] },
    { name: "-k", server: signed, args: ["-k"] },
    {
      name: "--cert/--key",
      server: signed,
      args: ["--cacert", certs.ca, "--cert", certs.client, "--key", certs.clientKey],
    },
    { name: "--proxy", server: plain, args: ["--proxy", proxyUrl] },
    {
      name: "--proxy, https tunnel",
      server: signed,
      args: ["--proxy", proxyUrl, "--cacert", certs.ca],
    },
    { name: "env proxy", server: plain, args: [], env: { http_proxy: proxyUrl } },
    {
      name: "env proxy, https tunnel, self-signed",
      server: self,
      args: ["--cacert", certs.self],
      env: { HTTPS_PROXY: proxyUrl },
    },
    {
      name: "--connect-timeout",
      server: signed,
      args: ["--connect-timeout", "20", "--cacert", certs.ca],
    },
  ];
  try {
    for (const row of rows) {
      for (const body of bodies) {
        const label = `${row.name} × ${body.name}`;
        const args = ["POST", `${row.server.origin}/up?x=1`, ...row.args, ...body.args];
        const options = {
          ...(body.stdin ? { stdin: body.stdin } : {}),
          ...(row.env ? { env: row.env } : {}),
        };
        const [sent, offline] = await Promise.all([
          dial([...args, "-s"], options),
          dial([...args, "--offline"], options),
        ]);
        assert.equal(sent.code, 0, `${label}: ${sent.stderr}`);
        assert.equal(offline.code, 0, `${label}: ${offline.stderr}`);
        const request = row.server.requests.at(-1) as RawRequest;
        assert.equal(request.line, "POST /up?x=1 HTTP/1.1", label);
        assert.equal(request.framing, "length", label);
        const length = headerValues(request, "content-length");
        assert.deepEqual(length, [String(request.body.length)], label);
        body.check(request.body);
        includes(offline.stdout, `\nContent-Length: ${request.body.length}\n`);
        assert.ok(!offline.stdout.includes("transfer-encoding"), label);
      }
    }
    // Forwarded requests reached the proxy in absolute form; tunnels with CONNECT.
    assert.ok(proxy.log.some((line) => line.startsWith(`POST ${plain.origin}/up?x=1 HTTP/1.1`)));
    assert.ok(proxy.log.some((line) => line === `CONNECT localhost:${signed.port} HTTP/1.1`));
    assert.ok(proxy.log.some((line) => line === `CONNECT localhost:${self.port} HTTP/1.1`));
  } finally {
    await proxy.close();
  }
});

/** What runs against a server at its origin. */
type WithOrigin = (origin: string) => Promise<void>;

/** Python's wsgiref behind TLS: it reads CONTENT_LENGTH bytes, none for a chunked body. */
async function withWsgiref(cert: string, key: string, run: WithOrigin): Promise<void> {
  const script = `
import json, ssl, sys
from wsgiref.simple_server import make_server, WSGIRequestHandler
class Quiet(WSGIRequestHandler):
    def log_message(self, *args): pass
def app(environ, start):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    out = json.dumps({"length": environ.get("CONTENT_LENGTH"), "read": len(body),
                      "path": environ["PATH_INFO"]}).encode()
    start("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(out)))])
    return [out]
server = make_server("127.0.0.1", 0, app, handler_class=Quiet)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_port, flush=True)
server.serve_forever()
`;
  await using server = await childServer("python3", ["-c", script, cert, key]);
  await run(`https://localhost:${server.line}`);
}

Deno.test("matrix: wsgiref over TLS reads every upload whole, on each TLS path", async () => {
  for (
    const [cert, key, trust] of TLS_PATHS
  ) {
    await withWsgiref(cert, key, async (origin) => {
      for (const body of bodies) {
        const result = await dial(["POST", `${origin}/w`, ...trust, ...body.args, "-s"], {
          ...(body.stdin ? { stdin: body.stdin } : {}),
        });
        assert.equal(result.code, 0, result.stderr);
        const answer = JSON.parse(result.stdout);
        assert.equal(answer.read, Number(answer.length), `${trust[0]} ${body.name}`);
        assert.ok(answer.read > 0);
        assert.equal(answer.path, "/w");
      }
    });
  }
});

const hasNode = installed("/usr/bin/node");

/** An HTTP/2-only server in node (no HTTP/1.1 fallback): it answers what it received. */
async function withHttp2Only(cert: string, key: string, run: WithOrigin): Promise<void> {
  const script = `
const http2 = require("node:http2"), fs = require("node:fs");
const server = http2.createSecureServer({
  cert: fs.readFileSync(process.argv[1]), key: fs.readFileSync(process.argv[2]),
  allowHTTP1: false, ca: fs.readFileSync(process.argv[3]), requestCert: true,
  rejectUnauthorized: false,
});
server.on("stream", (stream, headers) => {
  let read = 0;
  stream.on("data", (chunk) => read += chunk.length);
  stream.on("end", () => {
    stream.respond({ ":status": 200, "content-type": "application/json" });
    stream.end(JSON.stringify({
      length: headers["content-length"], read, scheme: headers[":scheme"],
      path: headers[":path"], client: stream.session.socket.getPeerCertificate().subject?.CN ?? null,
    }));
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;
  await using server = await childServer("/usr/bin/node", ["-e", script, cert, key, certs.ca]);
  await run(`https://localhost:${server.line}`);
}

Deno.test({
  name:
    "matrix: an HTTP/2-only server gets every upload whole with -k, a self-signed --cacert, a CA and a client certificate; -i names HTTP/2",
  ignore: !hasNode,
  fn: async () => {
    for (
      const [cert, key, trust] of [
        [certs.leaf, certs.leafKey, ["-k"]],
        [certs.self, certs.selfKey, ["--cacert", certs.self]],
        [certs.leaf, certs.leafKey, ["--cacert", certs.ca]],
        [
          certs.leaf,
          certs.leafKey,
          ["--cacert", certs.ca, "--cert", certs.client, "--key", certs.clientKey],
        ],
      ] as const
    ) {
      await withHttp2Only(cert, key, async (origin) => {
        const get = await dial(["GET", `${origin}/g`, ...trust, "-i", "-v"]);
        assert.equal(get.code, 0, get.stderr);
        assert.equal(get.stdout.split("\n")[0], "HTTP/2 200");
        includes(get.stderr, "chose HTTP/2\n");
        for (const body of bodies) {
          const result = await dial(["POST", `${origin}/h?q=1`, ...trust, ...body.args, "-s"], {
            ...(body.stdin ? { stdin: body.stdin } : {}),
          });
          assert.equal(result.code, 0, result.stderr);
          const answer = JSON.parse(result.stdout);
          assert.equal(answer.read, Number(answer.length), `${trust.join(" ")} ${body.name}`);
          assert.ok(answer.read > 0);
          assert.equal(answer.scheme, "https");
          assert.equal(answer.path, "/h?q=1");
          if ((trust as readonly string[]).includes("--cert")) {
            assert.equal(answer.client, "dial client");
          }
        }
      });
    }
  },
});

Deno.test("matrix: Deno.serve over TLS sees https:// on every TLS path (the target is origin-form)", async () => {
  for (
    const [cert, key, trust] of TLS_PATHS
  ) {
    await using server = serveTls(cert, key, (request) => new Response(request.url));
    const result = await dial([
      "GET",
      `https://localhost:${server.addr.port}/s?q=1`,
      ...trust,
      "-s",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `https://localhost:${server.addr.port}/s?q=1`);
  }
});

Deno.test("matrix: an https:// proxy, trusted through the same store, forwards http and tunnels https uploads whole", async () => {
  await using plain = rawServer();
  await using signed = rawServer(undefined, {
    tls: { cert: read(certs.leaf), key: read(certs.leafKey) },
  });
  const proxy = startProxy({ cert: read(certs.leaf), key: read(certs.leafKey) });
  const proxyUrl = `https://localhost:${proxy.port}`;
  try {
    for (const server of [plain, signed]) {
      const result = await dial(
        ["POST", `${server.origin}/p`, "--proxy", proxyUrl, "--cacert", certs.ca, "-d", `@${file}`],
      );
      assert.equal(result.code, 0, result.stderr);
      const request = server.requests.at(-1) as RawRequest;
      assert.equal(request.line, "POST /p HTTP/1.1");
      assert.deepEqual(request.body, payload);
    }
    assert.ok(proxy.log.some((line) => line === `POST ${plain.origin}/p HTTP/1.1`));
    assert.ok(proxy.log.some((line) => line === `CONNECT localhost:${signed.port} HTTP/1.1`));
    // Not trusted without the CA: the proxy's certificate check fails, in words.
    const untrusted = await dial(["GET", `${plain.origin}/p`, "--proxy", proxyUrl]);
    assert.equal(untrusted.code, 60);
    includes(
      untrusted.stderr,
      `Cannot verify the TLS certificate of proxy localhost:${proxy.port} (--proxy): unknown issuer`,
    );
    includes(untrusted.stderr, "hint: trust the proxy's CA with --cacert");
  } finally {
    await proxy.close();
  }
});
