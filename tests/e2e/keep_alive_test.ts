/**
 * Keep-alive: a relay in front of Deno's own HTTP server (and of Debian's lighttpd as a Digest
 * gate and a file server) counts the TCP connections dial opens. One command's requests,
 * redirects and Digest retries share one connection, as curl's do on the same relay, and so do
 * the 1,000 requests of a `dial test` chain; `Connection: close` from either side is honoured.
 */
import assert from "node:assert/strict";
import { project, reportCases } from "./_files.ts";
import { dial } from "../_helpers.ts";
import { hasLighttpd, startDigestGate, startFileServer } from "./_lighttpd.ts";
import { rawServer } from "./_raw_server.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

/** A TCP relay to a port on 127.0.0.1 that counts the connections it accepts. */
function countingRelay(backend: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  const pipes: Promise<unknown>[] = [];
  const accepting = (async () => {
    for await (const client of listener) {
      accepted++;
      pipes.push((async () => {
        const server = await Deno.connect({ hostname: "127.0.0.1", port: backend });
        await Promise.allSettled([
          client.readable.pipeTo(server.writable),
          server.readable.pipeTo(client.writable),
        ]);
      })());
    }
  })();
  return {
    origin: `http://127.0.0.1:${listener.addr.port}`,
    get accepted() {
      return accepted;
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting;
      await Promise.allSettled(pipes);
    },
  };
}

/** Deno's server: `/r/N` redirects N times, `/close` answers with `Connection: close`. */
function backend() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    const body = await req.text();
    const hops = /^\/r\/(\d+)$/.exec(url.pathname);
    if (hops && hops[1] !== "0") {
      return new Response("moved\n", {
        status: 302,
        headers: { location: `/r/${Number(hops[1]) - 1}` },
      });
    }
    if (url.pathname === "/close") {
      return new Response("bye\n", { headers: { connection: "close" } });
    }
    return new Response(`${req.method} ${url.pathname} ${body}\n`);
  });
  return Object.assign(server, { seen, port: server.addr.port });
}

Deno.test("keep-alive: dial run sends three requests on one connection; curl does the same", async () => {
  await using server = backend();
  await using relay = countingRelay(server.port);
  const dir = await project({
    "three.http":
      `GET ${relay.origin}/a\n\n###\nPOST ${relay.origin}/b\nContent-Type: text/plain\n\nhello\n\n###\nGET ${relay.origin}/c\n`,
  });
  const result = await dial(["run", `${dir}/three.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.seen, ["GET /a", "POST /b", "GET /c"]);
  assert.equal(relay.accepted, 1, "one TCP connection for the run");
  // curl, given three URLs, reuses its connection too.
  const curl = await new Deno.Command("curl", {
    args: ["-s", `${relay.origin}/a`, `${relay.origin}/b`, `${relay.origin}/c`],
    stdout: "null",
  }).output();
  assert.equal(curl.code, 0);
  assert.equal(relay.accepted, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("keep-alive: redirects followed with -L reuse the connection", async () => {
  await using server = backend();
  await using relay = countingRelay(server.port);
  const result = await dial(["GET", `${relay.origin}/r/3`, "-L"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "GET /r/0 \n");
  assert.deepEqual(server.seen, ["GET /r/3", "GET /r/2", "GET /r/1", "GET /r/0"]);
  assert.equal(relay.accepted, 1);
});

Deno.test("keep-alive: Connection: close from the request or the response opens a new connection", async () => {
  await using server = backend();
  await using relay = countingRelay(server.port);
  const dir = await project({
    "close.http": [
      `GET ${relay.origin}/a\nConnection: close\n`,
      `GET ${relay.origin}/close\n`,
      `GET ${relay.origin}/b\n`,
      `GET ${relay.origin}/c\n`,
    ].join("\n###\n"),
  });
  const result = await dial(["run", `${dir}/close.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.seen, ["GET /a", "GET /close", "GET /b", "GET /c"]);
  // /a closes (asked), /close closes (answered), /b and /c share the third.
  assert.equal(relay.accepted, 3);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "keep-alive: a Digest challenge and its answer share one connection through lighttpd",
  ignore: !hasLighttpd,
  async fn() {
    await using server = backend();
    await using gate = await startDigestGate(server.port, { ann: "pw" });
    await using relay = countingRelay(Number(new URL(gate.origin).port));
    const result = await dial(["GET", `${relay.origin}/secret`, "--digest", "-u", "ann:pw"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "GET /secret \n");
    assert.equal(relay.accepted, 1);
  },
});

Deno.test("keep-alive: dial test of a folder shares one connection across its files", async () => {
  await using server = backend();
  await using relay = countingRelay(server.port);
  const dir = await Deno.makeTempDir();
  for (const name of ["a", "b", "c"]) {
    await Deno.writeTextFile(
      `${dir}/${name}.http`,
      `GET ${relay.origin}/${name}\n\n> {%\n  client.test("ok", () => client.assert(response.status === 200));\n%}\n`,
    );
  }
  const result = await dial(["test", dir]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.deepEqual(server.seen.sort(), ["GET /a", "GET /b", "GET /c"]);
  assert.equal(relay.accepted, 1);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name:
    "keep-alive: dial test of 1,000 requests chained by request references goes out on one connection to lighttpd",
  ignore: !hasLighttpd,
  async fn() {
    // Each step's file names the next one's, out of order: a reference read wrong is a 404.
    const REQUESTS = 1000;
    const id = (i: number) => `s${(i * 7919) % 10007}`;
    const files: Record<string, string> = {};
    for (let i = 0; i < REQUESTS; i++) {
      files[`steps/${id(i)}.json`] = JSON.stringify({ next: id(i + 1) });
    }
    // lighttpd's own bound on requests per connection, written out (its default is the same).
    await using server = await startFileServer(files, ["server.max-keep-alive-requests = 1000"]);
    await using relay = countingRelay(Number(new URL(server.origin).port));
    let text = `@origin = ${relay.origin}\n\n`;
    for (let i = 0; i < REQUESTS; i++) {
      const step = i === 0 ? id(0) : `{{step${i - 1}.response.body.$.next}}`;
      text += `### step ${i}\n# @name step${i}\nGET {{origin}}/steps/${step}.json\n\n`;
    }
    const dir = await project({ "chain.http": text });
    const result = await dial([
      "test",
      `${dir}/chain.http`,
      "--check-status",
      "--reporter",
      "json",
    ]);
    assert.equal(result.code, 0, result.stderr);
    const cases = reportCases(result.stdout);
    assert.equal(cases.length, REQUESTS);
    assert.ok(cases.every((c) => c.outcome === "passed"), result.stdout.slice(0, 2000));
    assert.equal(relay.accepted, 1, "one TCP connection for the 1,000 requests");
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("keep-alive: a kept connection the server closed meanwhile is replaced, the request sent again", async () => {
  // Answers one request per connection, then closes without saying so.
  await using server = rawServer(() =>
    new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n")
  );
  const dir = await project({
    "stale.http": [1, 2, 3].map((n) => `POST ${server.origin}/${n}\n\nbody ${n}\n`).join("\n###\n"),
  });
  const result = await dial(["run", `${dir}/stale.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "ok\nok\nok\n");
  assert.deepEqual(server.requests.map((r) => new TextDecoder().decode(r.body)), [
    "body 1",
    "body 2",
    "body 3",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("keep-alive: over HTTP/2, dial run's requests and a redirect are streams of one connection; curl does the same", async () => {
  const certs = await makeCertificates();
  const seen: string[] = [];
  const server = serveTls(certs.leaf, certs.leafKey, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname} ${await req.text()}`);
    // A redirect without a body: its HEADERS frame ends the stream.
    if (url.pathname === "/moved") return Response.redirect(new URL("/c", url), 302);
    return new Response(`${url.pathname}\n`);
  });
  try {
    await using relay = countingRelay(server.addr.port);
    const origin = relay.origin.replace("http://127.0.0.1", "https://localhost");
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(
      `${dir}/four.http`,
      [
        `GET ${origin}/a`,
        `POST ${origin}/b\nContent-Type: text/plain\n\nhello\n`,
        `GET ${origin}/moved`,
        `# @no-redirect\nGET ${origin}/moved`,
      ].join("\n\n###\n"),
    );
    const result = await dial(["run", `${dir}/four.http`, "--cacert", certs.ca, "-v"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stderr.match(/^HTTP\/2 \d+/gm), [
      "HTTP/2 200",
      "HTTP/2 200",
      "HTTP/2 302",
      "HTTP/2 200",
      "HTTP/2 302",
    ]);
    assert.deepEqual(seen, ["GET /a ", "POST /b hello", "GET /moved ", "GET /c ", "GET /moved "]);
    assert.equal(relay.accepted, 1, "one TCP connection for the run");
    const curl = await new Deno.Command("curl", {
      args: ["-s", "--http2", "--cacert", certs.ca, `${origin}/a`, `${origin}/b`, `${origin}/c`],
      stdout: "null",
    }).output();
    assert.equal(curl.code, 0);
    assert.equal(relay.accepted, 2, "curl: one more connection for its three requests");
    // A single request, and a redirect without a body not followed: the head, then the end.
    const moved = await dial(["GET", `${origin}/moved`, "--cacert", certs.ca, "-i"]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /^HTTP\/2 302\n/);
    assert.equal(relay.accepted, 3);
  } finally {
    await server.shutdown();
    await Deno.remove(certs.dir, { recursive: true });
  }
});
