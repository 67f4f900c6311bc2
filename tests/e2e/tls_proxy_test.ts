import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { childServer } from "../_process.ts";
import { makeCertificates, serveTls, startProxy } from "./_tls.ts";
import { unusedPort } from "../_ports.ts";

const certs = await makeCertificates();

function echo(request: Request): Response {
  if (request.headers.get("upgrade") === "websocket") {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(`echo:${event.data}`);
    return response;
  }
  return Response.json({ path: new URL(request.url).pathname });
}

async function withServer(
  cert: string,
  key: string,
  run: (origin: string) => Promise<void>,
  handler: (request: Request) => Response | Promise<Response> = echo,
): Promise<void> {
  const server = serveTls(cert, key, handler);
  try {
    await run(`https://localhost:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

Deno.test("tls: a private CA fails without --cacert (exit 60 as curl, words and hint) and works with it", async () => {
  await withServer(certs.leaf, certs.leafKey, async (origin) => {
    const refused = await dial([`${origin}/a`]);
    assert.equal(refused.code, 60);
    assert.match(
      refused.stderr,
      /Cannot verify the TLS certificate of localhost:\d+: unknown issuer/,
    );
    assert.match(refused.stderr, /--cacert/);
    const trusted = await dial([`${origin}/a`, "--cacert", certs.ca]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.deepEqual(JSON.parse(trusted.stdout), { path: "/a" });
  });
});

Deno.test("tls: a self-signed CA:TRUE leaf is refused in words and trusted with --cacert of itself", async () => {
  await withServer(certs.self, certs.selfKey, async (origin) => {
    const refused = await dial([`${origin}/s`]);
    assert.equal(refused.code, 60);
    assert.match(refused.stderr, /self-signed certificate/);
    const trusted = await dial([`${origin}/s`, "--cacert", certs.self]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.deepEqual(JSON.parse(trusted.stdout), { path: "/s" });
    // curl accepts the same file the same way; dial's --curl prints the flags it would need.
    const printed = await dial([`${origin}/s`, "--cacert", certs.self, "--curl"]);
    assert.match(printed.stdout, new RegExp(`--cacert ${certs.self}`));
    const curl = await new Deno.Command("curl", {
      args: ["-sS", "--cacert", certs.self, `${origin}/s`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(curl.stdout), trusted.stdout);
    // The self-signed certificate is checked, not skipped: another one is still refused.
    const other = await dial([`${origin}/s`, "--cacert", certs.ca]);
    assert.equal(other.code, 60);
  });
});

Deno.test("tls: an expired certificate and a name mismatch are named in words", async () => {
  await withServer(certs.expired, certs.leafKey, async (origin) => {
    const result = await dial([origin, "--cacert", certs.ca]);
    assert.equal(result.code, 60);
    assert.match(
      result.stderr,
      /Cannot verify the TLS certificate of localhost:\d+: certificate expired\n/,
    );
    assert.match(
      result.stderr,
      /hint: check this machine's clock, or have the certificate renewed/,
    );
  });
  await withServer(certs.otherName, certs.leafKey, async (origin) => {
    const result = await dial([origin, "--cacert", certs.ca]);
    assert.equal(result.code, 60);
    assert.match(
      result.stderr,
      /localhost:\d+: name mismatch \(the certificate is for another host name\); it is for other\.example\n/,
    );
  });
});

Deno.test("tls: -k skips the checks for this run with a warning", async () => {
  await withServer(certs.leaf, certs.leafKey, async (origin) => {
    const result = await dial([`${origin}/k`, "-k"]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { path: "/k" });
    assert.match(
      result.stderr,
      /warning: -k: the TLS certificate of localhost:\d+ is not verified/,
    );
  });
});

/** Runs `openssl s_server -Verify 1 -www` (client certificates required) until `run` ends. */
async function withMutualTls(
  cert: string,
  key: string,
  run: (origin: string) => Promise<void>,
): Promise<void> {
  const port = unusedPort();
  await using _server = await childServer(
    "openssl",
    ["s_server", "-accept", `127.0.0.1:${port}`, "-cert", cert, "-key", key]
      .concat(["-CAfile", certs.ca, "-Verify", "1", "-www"]),
    { ready: /ACCEPT/ },
  );
  await run(`https://localhost:${port}/`);
}

Deno.test("tls: mutual TLS with openssl s_server -Verify 1 needs --cert and --key", async () => {
  await withMutualTls(certs.leaf, certs.leafKey, async (origin) => {
    const refused = await dial([origin, "--cacert", certs.ca]);
    assert.equal(refused.code, 35);
    assert.match(refused.stderr, /requires a client certificate/);
    assert.match(refused.stderr, /--cert/);
    const accepted = await dial(
      [origin, "--cacert", certs.ca, "--cert", certs.client, "--key", certs.clientKey],
    );
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /s_server/);
  });
});

Deno.test("tls: mutual TLS also works with a self-signed server certificate (through the bridge)", async () => {
  await withMutualTls(certs.self, certs.selfKey, async (origin) => {
    const refused = await dial([origin, "--cacert", certs.self]);
    assert.equal(refused.code, 35);
    assert.match(refused.stderr, /requires a client certificate/);
    const accepted = await dial(
      [origin, "--cacert", certs.self, "--cert", certs.client, "--key", certs.clientKey],
    );
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /s_server/);
  });
});

Deno.test("proxy: --proxy routes through the proxy (-v says so), --noproxy bypasses it", async () => {
  await using server = serve(echo);
  const proxy = startProxy();
  try {
    const url = `http://localhost:${server.port}/p`;
    const proxied = await dial([url, "-v", "--proxy", `http://127.0.0.1:${proxy.port}`]);
    assert.equal(proxied.code, 0, proxied.stderr);
    assert.deepEqual(proxy.log, [`GET ${url} HTTP/1.1`]);
    assert.match(proxied.stderr, new RegExp(`Proxy http://127.0.0.1:${proxy.port} \\(--proxy\\)`));
    const bypassed = await dial([url, "-x", `127.0.0.1:${proxy.port}`, "--noproxy", "localhost"]);
    assert.equal(bypassed.code, 0, bypassed.stderr);
    assert.equal(proxy.log.length, 1);
    await withServer(certs.leaf, certs.leafKey, async (origin) => {
      const tunnelled = await dial([`${origin}/t`, "--cacert", certs.ca], {
        // The runtime's own update check would use the proxy too.
        env: { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`, DENO_NO_UPDATE_CHECK: "1" },
      });
      assert.equal(tunnelled.code, 0, tunnelled.stderr);
      assert.deepEqual(proxy.log.slice(1), [`CONNECT ${new URL(origin).host} HTTP/1.1`]);
    });
  } finally {
    await proxy.close();
  }
});

Deno.test("proxy: a proxy that is down is named in the error, not the origin", async () => {
  const port = unusedPort();
  const result = await dial(["http://localhost:8080/x"], {
    env: { HTTP_PROXY: `http://127.0.0.1:${port}` },
  });
  assert.equal(result.code, 7);
  assert.match(
    result.stderr,
    new RegExp(
      `Cannot reach proxy http://127.0.0.1:${port} \\(HTTP_PROXY\\): connection refused`,
    ),
  );
  assert.match(result.stderr, /--noproxy/);
  // Deno itself reads HTTP(S)_PROXY; --noproxy and --proxy "" must still connect directly.
  await using server = serve(echo);
  const down = { HTTP_PROXY: `http://127.0.0.1:${port}`, HTTPS_PROXY: `http://127.0.0.1:${port}` };
  const bypassed = await dial([`http://localhost:${server.port}/b`, "--noproxy", "localhost"], {
    env: down,
  });
  assert.equal(bypassed.code, 0, bypassed.stderr);
  await withServer(certs.leaf, certs.leafKey, async (origin) => {
    const none = await dial([`${origin}/n`, "--proxy", "", "--cacert", certs.ca], {
      env: { ...down, DENO_NO_UPDATE_CHECK: "1" },
    });
    assert.equal(none.code, 0, none.stderr);
  });
});

Deno.test("tls: dial graphql, sse and ws reach a TLS server with --cacert", async () => {
  await withServer(certs.leaf, certs.leafKey, async (origin) => {
    const graphql = await dial([
      "graphql",
      `${origin}/graphql`,
      "-q",
      "{ hello }",
      "--cacert",
      certs.ca,
    ]);
    assert.equal(graphql.code, 0, graphql.stderr);
    assert.deepEqual(JSON.parse(graphql.stdout), { data: { hello: "world" } });
    const sse = await dial(["sse", `${origin}/events`, "--no-reconnect", "--cacert", certs.ca]);
    assert.equal(sse.code, 0, sse.stderr);
    assert.equal(sse.stdout, "hi\n");
    const ws = await dial([
      "ws",
      origin.replace("https:", "wss:"),
      "--cacert",
      certs.ca,
      "--max-messages",
      "1",
    ], {
      stdin: "hello\n",
    });
    assert.equal(ws.code, 0, ws.stderr);
    assert.equal(ws.stdout, "echo:hello\n");
  }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/graphql") return Response.json({ data: { hello: "world" } });
    if (path === "/events") {
      return new Response("data: hi\n\n", { headers: { "content-type": "text/event-stream" } });
    }
    return echo(request);
  });
});

Deno.test("proxy: dial ws tunnels ws:// through the proxy with CONNECT", async () => {
  await using server = serve(echo);
  const proxy = startProxy();
  try {
    const ws = await dial(
      [
        "ws",
        `ws://localhost:${server.port}/`,
        "--proxy",
        `http://127.0.0.1:${proxy.port}`,
        "--max-messages",
        "1",
      ],
      { stdin: "hi\n" },
    );
    assert.equal(ws.code, 0, ws.stderr);
    assert.equal(ws.stdout, "echo:hi\n");
    assert.deepEqual(proxy.log, [`CONNECT localhost:${server.port} HTTP/1.1`]);
  } finally {
    await proxy.close();
  }
});
