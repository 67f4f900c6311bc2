/**
 * Secrets never reach an error message: DNS failure, refused connection and a malformed
 * response, with the secret in -K, in the URL's userinfo and in a malformed -H.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { unusedPort } from "../_ports.ts";

/** A TCP server that answers every request with bytes that are not HTTP. */
function garbageServer(): { port: number; close(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const conn of listener) {
      (async () => {
        await conn.read(new Uint8Array(4096)).catch(() => null);
        await conn.write(new TextEncoder().encode("garbage\r\n\r\n")).catch(() => 0);
        conn.close();
      })();
    }
  })().catch(() => {});
  return {
    port: listener.addr.port,
    close: async () => {
      listener.close();
      await accepting;
    },
  };
}

const SECRET = "S3CRET";

/** Every way the secret is given, for one host:port. */
function variants(hostPort: string): string[][] {
  return [
    ["GET", `http://${hostPort}/x`, "-K", `key=${SECRET}`],
    ["GET", `http://${hostPort}/x`, "-K", `page=${SECRET}`],
    ["GET", `http://u:${SECRET}@${hostPort}/x`],
    ["GET", `http://${hostPort}/x?access_token=${SECRET}`],
    ["GET", `http://${hostPort}/x`, "-H", `Authorization Bearer ${SECRET}`],
    ["GET", `http://${hostPort}/x`, "-B", `${SECRET}\nx`],
    [
      "sse",
      `http://${hostPort}/x`,
      "-K",
      `key=${SECRET}`,
      "--max-retries",
      "1",
      "--reconnect-delay",
      "0.3",
    ],
    ["graphql", `http://${hostPort}/x`, "-K", `key=${SECRET}`, "-q", "{ a }"],
    ["ws", `ws://${hostPort}/x`, "-K", `key=${SECRET}`],
  ];
}

async function assertNoSecret(hostPort: string, expected: RegExp): Promise<void> {
  for (const args of variants(hostPort)) {
    const result = await dial(args);
    const label = args.join(" ");
    assert.notEqual(result.code, 0, label);
    assert.ok(!result.stdout.includes(SECRET), `${label}: ${result.stdout}`);
    assert.ok(!result.stderr.includes(SECRET), `${label}: ${result.stderr}`);
    assert.match(result.stderr, /^error: /m, label);
    if (!args.includes("-H") && !args.includes("-B")) assert.match(result.stderr, expected, label);
  }
}

Deno.test("secrets: a DNS failure names the host, never a secret", async () => {
  await assertNoSecret("nonexistent.invalid", /nonexistent\.invalid|host not found/);
});

Deno.test("secrets: a refused connection names the host, never a secret", async () => {
  const port = unusedPort();
  await assertNoSecret(`127.0.0.1:${port}`, /connection refused/);
});

Deno.test("secrets: a malformed response names the host, never a secret", async () => {
  const server = garbageServer();
  try {
    await assertNoSecret(`127.0.0.1:${server.port}`, /127\.0\.0\.1:\d+/);
  } finally {
    await server.close();
  }
});

Deno.test("secrets: a token with a newline is a usage error naming the header", async () => {
  const result = await dial(["GET", `http://127.0.0.1:${unusedPort()}/`, "-B", `${SECRET}\nx`]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /Invalid value for header "Authorization"/);
  assert.ok(!result.stderr.includes(SECRET));
});

Deno.test("secrets: -v and --offline never show a user:password@ password", async () => {
  const result = await dial(["GET", `http://ann:${SECRET}@api.test/x?sig=${SECRET}`, "--offline"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^GET \/x\?sig=\(redacted\) HTTP\/1\.1$/m);
  assert.ok(!result.stdout.includes(SECRET), result.stdout);
});

Deno.test("secrets: invalid --json does not quote the body", async () => {
  const result = await dial(["POST", "http://127.0.0.1:9/", "--json", `{"password": ${SECRET}}`]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: Invalid JSON in --json: /m);
  assert.ok(!result.stderr.includes(SECRET), result.stderr);
});

Deno.test("secrets: an unquoted -H value spilling into arguments is not echoed", async () => {
  const result = await dial([
    "GET",
    "-H",
    "Authorization:",
    "Bearer",
    SECRET,
    "http://127.0.0.1:9/",
  ]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: Argument 3 is not a request item$/m);
  assert.ok(!result.stderr.includes(SECRET), result.stderr);
});
