/**
 * SOCKS5 proxies (`-x socks5://`, `socks5h://`, `ALL_PROXY`) side by side with curl: the same
 * CONNECT reaches the proxy and the same request reaches the server behind it.
 * @module
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial } from "../_helpers.ts";
import { runProgram } from "../_process.ts";
import { headerValues, rawServer } from "./_raw_server.ts";
import { startSocks } from "./_socks.ts";
import { makeCertificates, serveTls } from "./_tls.ts";
import { unusedPort } from "../_ports.ts";

/** Runs curl with only the environment given (no proxy variables of this machine). */
async function curl(args: string[], env: Record<string, string> = {}) {
  return await runProgram("curl", ["-q", "-sS", ...args], {
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
  });
}

Deno.test("socks: -x socks5h:// lets the proxy resolve the name, and the server gets what curl's gets", async () => {
  await using server = rawServer();
  await using proxy = startSocks({ names: { "only-the-proxy.test": "127.0.0.1" } });
  const url = `http://only-the-proxy.test:${server.port}/p?q=1`;
  const via = `socks5h://127.0.0.1:${proxy.port}`;
  const theirs = await curl(["-x", via, url]);
  assert.equal(theirs.code, 0, theirs.stderr);
  const ours = await dial(["GET", url, "-x", via, "-v"]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(ours.stdout, "ok");
  includes(
    ours.stderr,
    `* Proxy socks5h://127.0.0.1:${proxy.port} (--proxy) for only-the-proxy.test:${server.port}: SOCKS5 CONNECT only-the-proxy.test:${server.port} (the proxy resolves the name)`,
  );
  const connect = { type: "domain", host: "only-the-proxy.test", port: server.port };
  assert.deepEqual(proxy.connects, [connect, connect]);
  const [fromCurl, fromDial] = server.requests;
  assert.equal(fromDial!.line, fromCurl!.line);
  assert.equal(fromDial!.line, "GET /p?q=1 HTTP/1.1");
  assert.deepEqual(headerValues(fromDial!, "host"), headerValues(fromCurl!, "host"));
});

Deno.test("socks: -x socks5:// resolves the name here and sends the address, as curl; a name only the proxy knows is not found", async () => {
  await using server = rawServer();
  await using proxy = startSocks({ names: { "only-the-proxy.test": "127.0.0.1" } });
  const via = `socks5://127.0.0.1:${proxy.port}`;
  const url = `http://localhost:${server.port}/local`;
  assert.equal((await curl(["-x", via, url])).code, 0);
  const ours = await dial(["GET", url, "-x", via]);
  assert.equal(ours.code, 0, ours.stderr);
  const connect = { type: "ipv4", host: "127.0.0.1", port: server.port };
  assert.deepEqual(proxy.connects, [connect, connect]);
  const unknown = `http://only-the-proxy.test:${server.port}/`;
  const theirs = await curl(["-x", via, unknown]);
  assert.notEqual(theirs.code, 0);
  const failed = await dial(["GET", unknown, "-x", via]);
  assert.equal(failed.code, 6, failed.stderr);
  includes(failed.stderr, "Cannot resolve host only-the-proxy.test (for the SOCKS5 proxy)");
  assert.equal(proxy.connects.length, 2);
});

Deno.test("socks: ALL_PROXY (and all_proxy) is used when no HTTP(S)_PROXY is set, as curl uses it; NO_PROXY still bypasses", async () => {
  await using server = rawServer();
  await using proxy = startSocks();
  const via = `socks5h://127.0.0.1:${proxy.port}`;
  const url = `http://localhost:${server.port}/all`;
  for (const name of ["ALL_PROXY", "all_proxy"]) {
    assert.equal((await curl([url], { [name]: via })).code, 0);
    const ours = await dial(["GET", url, "-v"], { env: { [name]: via } });
    assert.equal(ours.code, 0, ours.stderr);
    includes(ours.stderr, `* Proxy socks5h://127.0.0.1:${proxy.port} (ALL_PROXY)`);
  }
  assert.equal(proxy.connects.length, 4);
  // HTTP_PROXY names the proxy for http: ALL_PROXY gives way (a dead HTTP proxy: exit 7).
  const both = await dial(["GET", url], {
    env: { ALL_PROXY: via, HTTP_PROXY: "http://127.0.0.1:9" },
  });
  assert.equal(both.code, 7, both.stderr);
  includes(both.stderr, "Cannot reach proxy http://127.0.0.1:9 (HTTP_PROXY)");
  const bypass = await dial(["GET", url], { env: { ALL_PROXY: via, NO_PROXY: "localhost" } });
  assert.equal(bypass.code, 0, bypass.stderr);
  assert.equal(proxy.connects.length, 4);
  assert.equal(server.requests.length, 5);
});

Deno.test("socks: HTTPS through socks5h checks the URL's name; a login in the proxy URL is sent, a wrong one refused", async () => {
  const certs = await makeCertificates();
  const server = serveTls(certs.leaf, certs.leafKey, () => new Response("secure"));
  try {
    await using proxy = startSocks({ login: "ann:p@ss" });
    const url = `https://localhost:${server.addr.port}/s`;
    const via = `socks5h://ann:p%40ss@127.0.0.1:${proxy.port}`;
    const theirs = await curl(["-x", via, "--cacert", certs.ca, url]);
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.equal(theirs.stdout, "secure");
    const ours = await dial(["GET", url, "-x", via, "--cacert", certs.ca]);
    assert.equal(ours.code, 0, ours.stderr);
    assert.equal(ours.stdout, "secure");
    assert.deepEqual(proxy.logins, ["ann:p@ss", "ann:p@ss"]);
    const wrong = await dial([
      "GET",
      url,
      "-x",
      `socks5h://ann:nope@127.0.0.1:${proxy.port}`,
      "--cacert",
      certs.ca,
    ]);
    // A refused handshake is curl's exit 97 ("proxy handshake error"), as curl's own.
    const curlWrong = await curl(["-x", `socks5h://ann:nope@127.0.0.1:${proxy.port}`, url]);
    assert.equal(curlWrong.code, 97, curlWrong.stderr);
    assert.equal(wrong.code, 97, wrong.stderr);
    includes(
      wrong.stderr,
      `Proxy socks5h://127.0.0.1:${proxy.port} (--proxy) cannot connect to localhost:${server.addr.port}: it refused the user name and password`,
    );
    assert.doesNotMatch(wrong.stderr, /nope/);
    const none = await dial(["GET", url, "-x", `socks5h://127.0.0.1:${proxy.port}`]);
    assert.equal((await curl(["-x", `socks5h://127.0.0.1:${proxy.port}`, url])).code, 97);
    assert.equal(none.code, 97, none.stderr);
    includes(none.stderr, "it accepts none of the ways to log in dial offers");
  } finally {
    await server.shutdown();
    await Deno.remove(certs.dir, { recursive: true });
  }
});

Deno.test("socks: a proxy that cannot reach the server says why; a socks4 proxy is a usage error, nothing sent", async () => {
  await using proxy = startSocks();
  const via = `socks5h://127.0.0.1:${proxy.port}`;
  const unknown = await dial(["GET", "http://nowhere.test/", "-x", via]);
  assert.equal((await curl(["-x", via, "http://nowhere.test/"])).code, 97);
  assert.equal(unknown.code, 97, unknown.stderr);
  includes(
    unknown.stderr,
    `Proxy socks5h://127.0.0.1:${proxy.port} (--proxy) cannot connect to nowhere.test:80: host unreachable`,
  );
  const socks4 = await dial(["GET", "http://localhost/", "-x", `socks4://127.0.0.1:${proxy.port}`]);
  assert.equal(socks4.code, 2, socks4.stderr);
  includes(socks4.stderr, "only http://, https://, socks5:// and socks5h:// proxies");
  assert.equal(proxy.accepted, 2); // dial's and curl's CONNECTs to nowhere.test
});

Deno.test("socks: a proxy that is not SOCKS5, or closes during the handshake, is exit 97 as in curl; a refused proxy is 7", async () => {
  for (const answer of ["HTTP/1.1 200 OK\r\n\r\n", ""]) {
    // Reads the greeting, answers it with `answer` (not SOCKS5) and closes.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const serving = (async () => {
      for await (const conn of listener) {
        try {
          await conn.read(new Uint8Array(64));
          if (answer) await conn.write(new TextEncoder().encode(answer));
        } catch { /* the client went away */ }
        conn.close();
      }
    })();
    try {
      const via = `socks5h://127.0.0.1:${listener.addr.port}`;
      const theirs = await curl(["-x", via, "http://localhost:1/"]);
      const ours = await dial(["GET", "http://localhost:1/", "-x", via]);
      assert.equal(theirs.code, 97, theirs.stderr);
      assert.equal(ours.code, 97, ours.stderr);
      includes(ours.stderr, `Proxy ${via} (--proxy) cannot connect to localhost:1`);
    } finally {
      listener.close();
      await serving;
    }
  }
  const port = unusedPort();
  const refused = await dial(["GET", "http://localhost:1/", "-x", `socks5h://127.0.0.1:${port}`]);
  assert.equal((await curl(["-x", `socks5h://127.0.0.1:${port}`, "http://localhost:1/"])).code, 7);
  assert.equal(refused.code, 7, refused.stderr);
});
