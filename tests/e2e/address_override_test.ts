/**
 * `--resolve`, `--connect-to`, `--unix-socket` and `-H Host`, side by side with curl against
 * the same recording server: the same request line and Host reach it.
 * @module
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { headerValues, type RawRequest, rawServer } from "./_raw_server.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

async function curl(args: string[]): Promise<void> {
  const output = await new Deno.Command("curl", { args: ["-s", "-o", "/dev/null", ...args] })
    .output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
}

/** The request line and Host of the last two requests (dial's, then curl's) are the same. */
function sameAsCurl(requests: RawRequest[]): RawRequest {
  const [ours, theirs] = requests.slice(-2) as [RawRequest, RawRequest];
  assert.equal(ours.line, theirs.line);
  assert.deepEqual(headerValues(ours, "host"), headerValues(theirs, "host"));
  return ours;
}

Deno.test("address: --resolve sends to another address with the URL's host, as curl does", async () => {
  await using server = rawServer();
  const url = `http://api.example.test:${server.port}/r?q=1`;
  const resolve = `api.example.test:${server.port}:127.0.0.1`;
  const result = await dial(["GET", url, "--resolve", resolve, "-v"]);
  assert.equal(result.code, 0, result.stderr);
  includes(
    result.stderr,
    `* Connect to 127.0.0.1:${server.port} for api.example.test:${server.port} (--resolve)`,
  );
  await curl(["--resolve", resolve, url]);
  const request = sameAsCurl(server.requests);
  assert.equal(request.line, "GET /r?q=1 HTTP/1.1");
  assert.deepEqual(headerValues(request, "host"), [`api.example.test:${server.port}`]);
  // Another port is not overridden: the lookup of the made-up name fails (exit 6, as curl).
  const other = await dial(["GET", `http://api.example.test:1/`, "--resolve", resolve]);
  assert.equal(other.code, 6);
});

Deno.test("address: --connect-to sends to host2:port2 with the URL's host, as curl does; credentials go with the URL", async () => {
  await using server = rawServer();
  const url = "http://vhost.example.test/c";
  const to = `vhost.example.test:80:127.0.0.1:${server.port}`;
  const result = await dial(["GET", url, "--connect-to", to, "-u", "ann:pw"]);
  assert.equal(result.code, 0, result.stderr);
  await curl(["--connect-to", to, "-u", "ann:pw", url]);
  const request = sameAsCurl(server.requests);
  assert.deepEqual(headerValues(request, "host"), ["vhost.example.test"]);
  assert.deepEqual(headerValues(request, "authorization"), [`Basic ${btoa("ann:pw")}`]);
  const malformed = await dial(["GET", url, "--connect-to", "vhost.example.test:80"]);
  assert.equal(malformed.code, 2);
  includes(malformed.stderr, "Invalid --connect-to");
});

Deno.test("address: -H Host is sent as given (a virtual host), as curl sends it; -v shows it", async () => {
  await using server = rawServer();
  const result = await dial(["GET", `${server.origin}/h`, "-H", "Host: site.example.test", "-v"]);
  assert.equal(result.code, 0, result.stderr);
  includes(result.stderr, "Host: site.example.test\n");
  await curl(["-H", "Host: site.example.test", `${server.origin}/h`]);
  const request = sameAsCurl(server.requests);
  assert.deepEqual(headerValues(request, "host"), ["site.example.test"]);
  // A redirect to another host does not carry the given Host along, as curl does not (dial
  // drops it on any change of origin; curl only when the host name changes).
  await using other = rawServer();
  await using redirecting = rawServer(() => ({
    status: "302 Found",
    headers: [["location", `http://localhost:${other.port}/next`]],
  }));
  const followed = await dial([
    "GET",
    `${redirecting.origin}/`,
    "-H",
    "Host: site.example.test",
    "-L",
  ]);
  assert.equal(followed.code, 0, followed.stderr);
  await curl(["-H", "Host: site.example.test", "-L", `${redirecting.origin}/`]);
  const [ours, theirs] = other.requests as [RawRequest, RawRequest];
  assert.deepEqual(headerValues(ours, "host"), headerValues(theirs, "host"));
  assert.deepEqual(headerValues(ours, "host"), [`localhost:${other.port}`]);
});

Deno.test("address: --unix-socket talks HTTP over a Unix socket, as curl does", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/api.sock`;
  const seen: string[] = [];
  await using server = Deno.serve({ path, onListen() {} }, (request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get("host")}`);
    return Response.json({ ok: true });
  });
  const result = await dial(["GET", "http://localhost/v1.43/info", "--unix-socket", path, "-s"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { ok: true });
  await curl(["--unix-socket", path, "http://localhost/v1.43/info"]);
  assert.deepEqual(seen, ["GET /v1.43/info localhost", "GET /v1.43/info localhost"]);
  const missing = await dial(["GET", "http://localhost/", "--unix-socket", `${dir}/none.sock`]);
  assert.equal(missing.code, 7);
  void server;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
});

Deno.test("address: a port fetch blocks (6000, 10080) is reached like any other", async () => {
  let listener: Deno.Listener | undefined;
  for (const port of [10080, 6000, 6665]) {
    try {
      listener = Deno.listen({ hostname: "127.0.0.1", port });
      break;
    } catch { /* taken on this machine: try the next blocked port */ }
  }
  if (!listener) throw new Error("no blocked port free to test with");
  const port = (listener.addr as Deno.NetAddr).port;
  const serving = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(4096));
    await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    conn.close();
  })();
  const result = await dial(["GET", `http://127.0.0.1:${port}/`, "-s"]);
  listener.close();
  await serving;
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok");
});

Deno.test("address: a response with 500 headers is read whole; a head over 1 MiB is refused in words", async () => {
  const many = Array.from({ length: 500 }, (_, i) => `X-H${i}: ${i}`).join("\r\n");
  await using server = rawServer((request) =>
    new TextEncoder().encode(
      request.line.includes("/big")
        ? `HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(1100 * 1024)}\r\nContent-Length: 2\r\n\r\nok`
        : `HTTP/1.1 200 OK\r\n${many}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`,
    )
  );
  const result = await dial(["GET", `${server.origin}/`, "-i"]);
  assert.equal(result.code, 0, result.stderr);
  includes(result.stdout, "X-H499: 499\n");
  const big = await dial(["GET", `${server.origin}/big`]);
  assert.equal(big.code, 7, big.stderr);
  includes(big.stderr, "larger than 1024 KiB");
});

Deno.test("address: dial ws goes through --unix-socket too (the same plan as HTTP)", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/ws.sock`;
  await using _server = Deno.serve({ path, onListen() {} }, (request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(`echo ${event.data}`);
    return response;
  });
  const result = await dial(
    ["ws", "ws://localhost/chat", "--unix-socket", path, "--max-messages", "1"],
    { stdin: "hello\n" },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "echo hello\n");
  await Deno.remove(dir, { recursive: true }).catch(() => {});
});

Deno.test("address: --resolve to a TLS server checks the URL's name (SNI and certificate), not the address, as curl does", async () => {
  // A certificate for other.example only (no IP address in it), served on 127.0.0.1.
  const certs = await makeCertificates();
  const names: string[] = [];
  const server = serveTls(certs.otherName, certs.leafKey, (request) => {
    names.push(new URL(request.url).host);
    return new Response("tls ok");
  });
  try {
    const port = server.addr.port;
    const url = `https://other.example:${port}/t`;
    const resolve = `other.example:${port}:127.0.0.1`;
    const result = await dial(["GET", url, "--resolve", resolve, "--cacert", certs.ca]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "tls ok");
    const theirs = await new Deno.Command("curl", {
      args: ["-s", "--resolve", resolve, "--cacert", certs.ca, url],
      stdout: "piped",
      stderr: "null",
    }).output();
    assert.equal(theirs.code, 0);
    assert.deepEqual(names, [`other.example:${port}`, `other.example:${port}`]);
    // The same server by its address: the certificate does not name 127.0.0.1 (curl: 60).
    const direct = await dial(["GET", `https://127.0.0.1:${port}/t`, "--cacert", certs.ca]);
    assert.equal(direct.code, 60, direct.stderr);
    // --resolve of another name to the same address: that name is checked, and refused.
    const wrong = await dial([
      "GET",
      `https://api.example.test:${port}/t`,
      "--resolve",
      `api.example.test:${port}:127.0.0.1`,
      "--cacert",
      certs.ca,
    ]);
    assert.equal(wrong.code, 60, wrong.stderr);
    includes(wrong.stderr, "api.example.test");
    assert.equal(names.length, 2);
  } finally {
    await server.shutdown();
    await Deno.remove(certs.dir, { recursive: true });
  }
});
