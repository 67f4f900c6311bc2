/**
 * `dial mcp` driven by the MCP SDK's own client: tools from request files, secrets from every
 * source kept from the agent against servers that echo them (python3-httpbin), tool calls
 * byte-identical to `dial run`, `--read-only`, malformed lines and a closed stdin.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { clientCredentialsAuth, project } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";
import { mcpSession, resultText } from "./_mcp_client.ts";
import { startMockServer } from "./_oauth_servers.ts";
import { rawServer } from "./_raw_server.ts";
import { spawnDial } from "./_spawn.ts";

const PRIVATE = "priv-Tok3n-1a2b";
const ENV_REF = "envref-K3y-3c4d";
const EXEC_REF = "exec-S3cret-5e6f";
const FILE_REF = "file-S3cret-7a8b";
const PROCESS_ENV = "procenv-S3cret-9c0d";
const CLIENT_SECRET = "oauth-client-S3cret-0e1f";

/** Every form of a secret a server might echo it in. */
function forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  return [secret, encodeURIComponent(secret), bytes.toBase64()];
}

function assertNoSecret(received: string[], secrets: string[]) {
  assert.ok(received.length > 0);
  for (const message of received) {
    for (const secret of secrets) {
      for (const form of forms(secret)) {
        assert.ok(!message.includes(form), `a form of a secret reached the agent: ${message}`);
      }
    }
  }
}

const RED_TEAM = `# Echoes everything it is sent.
# Argument q is free text.
# @name echo
POST {{origin}}/anything?key={{apiKey}}&q={{q}}
Authorization: Bearer {{$auth.token("api")}}
X-Token: {{token}}
X-Exec: {{execSecret}}
X-File: {{fileSecret}}
X-Proc: {{$env.MCP_TEST_PROCESS}}
Content-Type: application/json

{"password": "{{token}}", "exec": "{{execSecret}}", "file": "{{fileSecret}}", "q": "{{q}}"}

> {%
  client.log("token is " + request.environment.get("token"));
  client.test("echoed " + response.body.json.password, function () {});
%}

###
# @name leakHeaders
GET {{origin}}/response-headers?X-Leak={{token}}&Plain={{q}}

###
# @name login
GET {{origin}}/cookies/set?session={{apiKey}}

###
# @name cookies
# @ref login
GET {{origin}}/cookies

###
# @name unreachable
GET http://127.0.0.1:9/{{token}}?k={{apiKey}}

###
# @name basic
GET {{origin}}/basic-auth/alice/{{token}}
Authorization: Basic alice {{token}}
`;

Deno.test("mcp: no secret from the private file, references, the process environment or OAuth reaches the agent", async () => {
  await using httpbin = await startHttpbin();
  await using oauth = await startMockServer();
  const tokens: string[] = [];
  oauth.server.service.on("beforeResponse", (response: { body: unknown }) => {
    const body = response.body as { access_token?: string };
    if (body.access_token) tokens.push(body.access_token);
  });
  const dir = await project({
    "api.http": RED_TEAM,
    "secrets/file.txt": `${FILE_REF}\n`,
    "http-client.env.json": JSON.stringify({ dev: { origin: httpbin.origin } }),
    "http-client.private.env.json": "",
  });
  await Deno.writeTextFile(
    `${dir}/http-client.private.env.json`,
    JSON.stringify({
      dev: {
        token: PRIVATE,
        apiKey: "@env:MCP_TEST_API_KEY",
        execSecret: "@exec:printenv MCP_TEST_EXEC",
        fileSecret: `@${dir}/secrets/file.txt`,
        Security: {
          Auth: {
            api: clientCredentialsAuth(oauth.tokenUrl, "mcp-client", CLIENT_SECRET),
          },
        },
      },
    }),
  );
  const env = {
    MCP_TEST_API_KEY: ENV_REF,
    MCP_TEST_EXEC: EXEC_REF,
    MCP_TEST_PROCESS: PROCESS_ENV,
  };
  await using session = await mcpSession([".", "--env", "dev"], { cwd: dir, env });
  const { client, received } = session;
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), [
    "api_echo",
    "api_leakHeaders",
    "api_login",
    "api_cookies",
    "api_unreachable",
    "api_basic",
  ]);
  const echo = tools[0]!;
  assert.deepEqual(echo.inputSchema.required, ["q"]);
  assert.deepEqual(Object.keys(echo.inputSchema.properties ?? {}), ["q"]);
  assert.match(echo.description ?? "", /Echoes everything it is sent\.\nArgument q is free text\./);
  assert.match(echo.description ?? "", /POST \{\{origin\}\}\/anything\?key=\{\{apiKey\}\}/);
  assert.equal(echo.annotations?.destructiveHint, true);
  assert.equal(tools[1]!.annotations?.readOnlyHint, true);

  // The echo server got every secret, and the agent sees none of them.
  const echoed = resultText(await client.callTool({ name: "api_echo", arguments: { q: "hello" } }));
  assert.match(echoed, /^HTTP\/1\.[01] 200 OK/);
  assert.match(echoed, /"q": ?"hello"/);
  assert.match(echoed, /"X-Token": ?"\(redacted\)"/);
  assert.match(echoed, /"Authorization": ?"(Bearer )?\(redacted\)"/);
  assert.match(echoed, /"password": ?"\(redacted\)"/);
  assert.match(echoed, /"X-Proc": ?"\(redacted\)"/);
  assert.match(echoed, /log: token is \(redacted\)/);
  assert.match(echoed, /✓ echo: echoed \(redacted\)/);
  assert.equal(tokens.length, 1, "the OAuth token was fetched");

  // An argument is plain text, never a reference.
  const literal = resultText(
    await client.callTool({ name: "api_echo", arguments: { q: "@env:MCP_TEST_API_KEY" } }),
  );
  assert.match(literal, /"q": ?"@env:MCP_TEST_API_KEY"/);

  const headers = resultText(
    await client.callTool({ name: "api_leakHeaders", arguments: { q: "shown" } }),
  );
  assert.match(headers, /X-Leak: \(redacted\)/);
  assert.match(headers, /Plain: shown/);

  const cookies = resultText(await client.callTool({ name: "api_cookies", arguments: {} }));
  assert.match(cookies, /"session": ?"\(redacted\)"/);

  const basic = await client.callTool({ name: "api_basic", arguments: {} });
  assert.match(resultText(basic), /"authenticated": ?true/);

  const failed = await client.callTool({ name: "api_unreachable", arguments: {} });
  assert.equal(failed.isError, true);
  assert.match(resultText(failed), /^error: /);

  // Secret-sourced variables are not arguments: setting one is an error and nothing is sent.
  const refused = await client.callTool({
    name: "api_echo",
    arguments: { q: "x", token: "mine" },
  });
  assert.equal(refused.isError, true);
  assert.match(resultText(refused), /takes no argument "token"/);
  const missing = await client.callTool({ name: "api_echo", arguments: {} });
  assert.equal(missing.isError, true);
  assert.match(resultText(missing), /missing argument "q"/);
  const unknown = await client.callTool({ name: "nope", arguments: {} });
  assert.equal(unknown.isError, true);
  assert.match(resultText(unknown), /Unknown tool "nope"/);

  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.name), ["api.http"]);
  const read = await client.readResource({ uri: resources[0]!.uri });
  assert.match(JSON.stringify(read.contents), /@name echo/);

  assertNoSecret(received, [
    PRIVATE,
    ENV_REF,
    EXEC_REF,
    FILE_REF,
    PROCESS_ENV,
    CLIENT_SECRET,
    ...tokens,
    new TextEncoder().encode(`alice:${PRIVATE}`).toBase64(),
  ]);
});

const CHAINED = `@base = {{origin}}

# @name login
POST {{base}}/login
Content-Type: application/json

{"user": "{{user}}", "password": "{{password}}"}

> {% client.global.set("session", "s-" + response.status); %}

###
# Changes an item.
# @name item
# @ref login
PUT {{base}}/items/{{id}}?v={{v}}
Authorization: Bearer {{token}}
X-Session: {{session}}
Content-Type: application/json

{"id": "{{id}}", "note": "{{note}}"}

###
# @name ping
GET {{base}}/ping

###
# @name me
# @ref login
GET {{base}}/me
`;

async function chainedProject(origin: string): Promise<string> {
  return await project({
    "api.http": CHAINED,
    "http-client.env.json": JSON.stringify({ dev: { origin, user: "alice" } }),
    "http-client.private.env.json": JSON.stringify({
      dev: { password: "pw-9f8e", token: "tk-7d6c" },
    }),
  });
}

Deno.test("mcp: a tool call sends the bytes dial run sends, chained requests and handlers included", async () => {
  await using server = rawServer((request) =>
    request.line.startsWith("POST /login")
      ? { headers: [["Content-Type", "application/json"]], body: '{"ok":true}' }
      : { body: "done" }
  );
  const dir = await chainedProject(server.origin);
  const run = await dial(
    [
      "run",
      "api.http",
      "item",
      "--env",
      "dev",
      "--var",
      "id=42",
      "--var",
      "v=a b",
      "--var",
      "note=hi",
    ],
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  const byRun = server.requests.splice(0);
  assert.equal(byRun.length, 2);
  {
    await using session = await mcpSession(["--env", "dev"], { cwd: dir });
    const { tools } = await session.client.listTools();
    const item = tools.find((t) => t.name === "api_item")!;
    assert.deepEqual(item.inputSchema.required, ["id", "v", "note"]);
    assert.match(item.description ?? "", /Runs first: login\./);
    const result = await session.client.callTool({
      name: "api_item",
      arguments: { id: "42", v: "a b", note: "hi" },
    });
    assert.equal(result.isError, false, resultText(result));
    assert.match(resultText(result), /done$/);
    // The chained login sent the private password and the PUT the private token: neither
    // reached the agent, nor did the description or schema name them.
    assertNoSecret(session.received, ["pw-9f8e", "tk-7d6c"]);
  }
  const byMcp = server.requests.splice(0);
  assert.equal(byMcp.length, 2);
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  for (let i = 0; i < 2; i++) {
    assert.equal(decode(byMcp[i]!.head), decode(byRun[i]!.head));
    assert.equal(decode(byMcp[i]!.body), decode(byRun[i]!.body));
  }
  assert.match(decode(byMcp[1]!.head), /^PUT \/items\/42\?v=a%20b HTTP\/1\.1\r\n/);
  assert.match(decode(byMcp[1]!.head), /x-session: s-200/i);
});

Deno.test("mcp: --read-only lists and sends only GET, HEAD and OPTIONS requests", async () => {
  await using server = rawServer(() => ({ body: "pong" }));
  const dir = await chainedProject(server.origin);
  await using session = await mcpSession(["--env", "dev", "--read-only"], { cwd: dir });
  const { tools } = await session.client.listTools();
  // `me` is a GET, but it runs the POST login first.
  assert.deepEqual(tools.map((t) => t.name), ["api_ping"]);
  assert.equal(tools[0]!.annotations?.readOnlyHint, true);
  const refused = await session.client.callTool({
    name: "api_item",
    arguments: { id: "1", v: "2", note: "3" },
  });
  assert.equal(refused.isError, true);
  assert.match(resultText(refused), /Unknown tool "api_item"/);
  assert.equal(server.requests.length, 0);
  const ping = await session.client.callTool({ name: "api_ping", arguments: {} });
  assert.match(resultText(ping), /pong/);
  assert.deepEqual(server.requests.map((r) => r.line), ["GET /ping HTTP/1.1"]);
});

Deno.test("mcp: a malformed line is answered with its error and the server goes on; closing stdin ends it", async () => {
  // A server that accepts and never answers: the stuck call is still under way at the end.
  const hung = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of hung) accepted.push(conn);
  })();
  const dir = await project({
    "api.http": `# @name stuck\nGET http://127.0.0.1:${(hung.addr as Deno.NetAddr).port}/\n`,
  });
  const child = spawnDial(["mcp", dir]);
  const stderr = new Response(child.stderr).text();
  try {
    const writer = child.stdin.getWriter();
    const lines = [
      "not json",
      "[1, 2]",
      `{"jsonrpc":"2.0","id":1}`,
      `{"jsonrpc":"1.0","id":2,"method":"ping"}`,
      `{"jsonrpc":"2.0","id":3,"method":"no/such/method"}`,
      `{"jsonrpc":"2.0","id":4,"method":"ping"}`,
      `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"api_stuck","arguments":{}}}`,
    ];
    await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (text.split("\n").length <= 6) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    // The stuck call is under way; the client goes away.
    await writer.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const status = await child.status;
    assert.equal(status.code, 0, await stderr);
    const messages = text.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(messages.slice(0, 6).map((m) => [m.id, m.error?.code ?? "ok"]), [
      [null, -32700],
      [null, -32600],
      [1, -32600],
      [2, -32600],
      [3, -32601],
      [4, "ok"],
    ]);
    for (const message of messages) assert.equal(message.jsonrpc, "2.0");
  } finally {
    try {
      child.kill();
    } catch { /* it has ended */ }
    await child.status;
    await stderr.catch(() => {});
    hung.close();
    await accepting.catch(() => {});
    for (const conn of accepted) conn.close();
  }
});

Deno.test("mcp: an environment no file defines stops the server with exit 2 and the message on stderr", async () => {
  const dir = await project({
    "api.http": "# @name ping\nGET http://127.0.0.1:9/\n",
    "http-client.env.json": JSON.stringify({ dev: {} }),
  });
  const child = spawnDial(["mcp", dir, "--env", "prod"]);
  const [status, stdout, stderr] = await Promise.all([
    child.status,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.stdin.close(),
  ]);
  assert.equal(status.code, 2);
  assert.equal(stdout, "");
  assert.match(stderr, /Unknown environment "prod"/);
});

Deno.test("mcp: a body over 100 KiB is cut with a note; a cancelled call closes its connection", async () => {
  const big = "0123456789abcdef".repeat(20 * 1024);
  await using server = rawServer(() => ({ body: big }));
  // A server that accepts and never answers: only dial closing the connection ends the call.
  const hung = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let conn: Deno.Conn | undefined;
  try {
    const dir = await project({
      "api.http":
        `# @name big\nGET ${server.origin}/big\n\n###\n# @name stuck\nGET http://127.0.0.1:${
          (hung.addr as Deno.NetAddr).port
        }/\n`,
    });
    await using session = await mcpSession([dir]);
    const result = resultText(await session.client.callTool({ name: "api_big", arguments: {} }));
    assert.match(result, /\[body cut at 102400 bytes: the rest was not read\]$/);
    assert.ok(result.includes(big.slice(0, 102400)));
    assert.ok(!result.includes(big.slice(0, 102401)));

    const controller = new AbortController();
    const call = session.client.callTool({ name: "api_stuck", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    // Whichever comes first: dial connects, or the call ends without connecting (a failure).
    const ended = call.then(
      (value) => new Error(`the call ended before connecting: ${resultText(value)}`),
      (error) => new Error(`the call failed before connecting: ${error}`),
    );
    const first = await Promise.race([hung.accept(), ended]);
    if (first instanceof Error) throw first;
    conn = first;
    // The cancellation may reach dial at any point of the exchange (here: right after the
    // connection is made, possibly before dial has written anything).
    controller.abort();
    await assert.rejects(call);
    // dial cancels the exchange: the connection it opened is closed (end of stream).
    const buffer = new Uint8Array(4096);
    while ((await conn.read(buffer)) !== null) { /* the request's head, if it was written */ }
    // The server goes on after a cancelled call.
    assert.deepEqual(await session.client.ping(), {});
  } finally {
    conn?.close();
    hung.close();
  }
});

Deno.test("mcp: a WEBSOCKET request is a tool: its messages are the result, the private token redacted from them", async () => {
  await using server = serve((request) => {
    const auth = request.headers.get("authorization") ?? "";
    if (!auth.startsWith("Bearer ")) return new Response("no", { status: 401 });
    const { socket, response } = Deno.upgradeWebSocket(request);
    // A server that echoes the credential it was sent.
    socket.onopen = () => socket.send(`welcome ${auth}`);
    socket.onmessage = (e) => socket.send(`echo ${e.data}`);
    return response;
  });
  const dir = await project({
    "chat.http": `# Says hello over a WebSocket.
# @name hello
WEBSOCKET ws://127.0.0.1:${server.port}/socket
Authorization: Bearer {{token}}

=== wait-for-server
{"text": "{{text}}", "token": "{{token}}"}
=== wait-for-server
`,
    "http-client.env.json": JSON.stringify({ dev: {} }),
    "http-client.private.env.json": JSON.stringify({ dev: { token: "ws-S3cret-1f2e" } }),
  });
  await using session = await mcpSession(["--env", "dev"], { cwd: dir });
  const { tools } = await session.client.listTools();
  assert.deepEqual(tools.map((t) => [t.name, t.inputSchema.required]), [["chat_hello", ["text"]]]);
  const result = await session.client.callTool({ name: "chat_hello", arguments: { text: "hi" } });
  const text = resultText(result);
  assert.equal(result.isError, false, text);
  assert.match(text, /welcome Bearer \(redacted\)/);
  assert.match(text, /echo \{"text": "hi", "token": "\(redacted\)"\}/);
  assertNoSecret(session.received, ["ws-S3cret-1f2e"]);
});
