import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { dial, serve, testHome, waitFor } from "../_helpers.ts";
import { githubServer, subscriptionServer } from "./_graphql_servers.ts";
import { spawnDial } from "./_spawn.ts";

const VIEWER = "query Viewer { viewer { login } rateLimit { remaining } }";

/** A subscription counting down from 1, and the two results it prints. */
const FROM_1 = "subscription { countdown(from: 1) }";
const COUNTED_FROM_1 = '{"data":{"countdown":1}}\n{"data":{"countdown":0}}\n';

Deno.test("graphql: a query is POSTed as JSON with bearer auth and the envelope printed", async () => {
  await using server = await githubServer({ kind: "bearer", token: "t0k" });
  const result = await dial(["graphql", `${server.origin}/graphql`, "-B", "t0k", "-q", VIEWER]);
  equal(result.stderr, "");
  equal(result.code, 0);
  deepStrictEqual(JSON.parse(result.stdout), {
    data: { viewer: { login: "mocked" }, rateLimit: { remaining: 42 } },
  });
  const sent = server.requests[0]!;
  equal(sent.method, "POST");
  equal(sent.headers.get("accept"), "application/graphql-response+json, application/json;q=0.9");
  equal(sent.headers.get("content-type"), "application/json");
  deepStrictEqual(await sent.json(), { query: VIEWER });
});

Deno.test("graphql: API key in a header and in the query authenticate", async () => {
  await using header = await githubServer({ kind: "header", name: "x-api-key", value: "k1" });
  const a = await dial([
    "graphql",
    `${header.origin}/graphql`,
    "-H",
    "X-Api-Key: k1",
    "-q",
    VIEWER,
  ]);
  equal(a.code, 0, a.stderr);
  await using query = await githubServer({ kind: "query", name: "api_key", value: "k 2" });
  const b = await dial(["graphql", `${query.origin}/graphql`, "-K", "api_key=k 2", "-q", VIEWER]);
  equal(b.code, 0, b.stderr);
  equal(new URL(query.requests[0]!.url).searchParams.get("api_key"), "k 2");
});

Deno.test("graphql: wrong credentials are a clear error, exit 4 with --check-status too", async () => {
  await using server = await githubServer({ kind: "bearer", token: "right" });
  const result = await dial(["graphql", `${server.origin}/graphql`, "-B", "wrong", "-q", VIEWER]);
  equal(result.code, 4);
  match(
    result.stderr,
    /^error: Not a GraphQL response from 127\.0\.0\.1:\d+: HTTP 401 with text\/plain.*: missing or wrong credentials\nhint: check the credentials/,
  );
});

Deno.test("graphql: variables and operation name are sent; several operations need a name", async () => {
  await using server = await githubServer({ kind: "none" });
  const doc =
    "query A($owner: String!) { repositoryOwner(login: $owner) { login } } query B { viewer { login } }";
  const url = `${server.origin}/graphql`;
  const missing = await dial(["graphql", url, "-q", doc]);
  equal(missing.code, 2);
  equal(
    missing.stderr,
    'error: The query holds 2 operations: "A", "B"\nhint: choose one with --operation-name A\n',
  );
  const result = await dial([
    "graphql",
    url,
    "-q",
    doc,
    "--operation-name",
    "A",
    "--variables",
    '{"owner":"denoland"}',
  ]);
  equal(result.code, 0, result.stderr);
  deepStrictEqual(await server.requests[0]!.json(), {
    query: doc,
    variables: { owner: "denoland" },
    operationName: "A",
  });
  equal(server.requests.length, 1);
});

Deno.test("graphql: --variables must be a JSON object", async () => {
  const notJson = await dial([
    "graphql",
    "http://127.0.0.1:9/graphql",
    "-q",
    "{ a }",
    "--variables",
    "{oops",
  ]);
  equal(notJson.code, 2);
  match(notJson.stderr, /^error: Invalid --variables: Invalid JSON: .*\nhint: give a JSON object/);
  const array = await dial([
    "graphql",
    "http://127.0.0.1:9/graphql",
    "-q",
    "{ a }",
    "--variables",
    "[1]",
  ]);
  equal(array.code, 2);
  match(
    array.stderr,
    /^error: Invalid --variables: Variables must be a JSON object, not an array\n/,
  );
});

Deno.test("graphql: a syntax error shows line, column and a caret, and nothing is sent", async () => {
  await using server = await githubServer({ kind: "none" });
  const result = await dial([
    "graphql",
    `${server.origin}/graphql`,
    "-q",
    "{\n  viewer {\n    login(\n  }\n}",
  ]);
  equal(result.code, 2);
  equal(
    result.stderr,
    'error: Cannot parse the query at line 4, column 3: Expected Name, found "}"\n3 |     login(\n4 |   }\n  |   ^\n',
  );
  equal(server.requests.length, 0);
});

Deno.test("graphql: envelope errors are reported; --check-status exits 10", async () => {
  await using server = await githubServer({ kind: "none" });
  const url = `${server.origin}/graphql`;
  const plain = await dial(["graphql", url, "-q", "{ nope }"]);
  equal(plain.code, 0);
  match(
    plain.stderr,
    /^graphql error: Cannot query field "nope" on type "Query"\..* \(line 1, column 3\)\n/,
  );
  ok(JSON.parse(plain.stdout).errors.length === 1);
  const checked = await dial(["graphql", url, "-q", "{ nope }", "--check-status"]);
  equal(checked.code, 10);
});

Deno.test("graphql: --schema prints SDL, caches per credential, --json and --refresh-schema", async () => {
  await using server = await githubServer({ kind: "bearer", token: "s1" });
  const url = `${server.origin}/graphql`;
  const sdl = await dial(["graphql", url, "-B", "s1", "--schema"]);
  equal(sdl.code, 0, sdl.stderr);
  ok(sdl.stdout.includes("type Repository implements"));
  equal(server.requests.length, 1);
  const again = await dial(["graphql", url, "-B", "s1", "--schema", "--json"]);
  equal(server.requests.length, 1, "served from the cache");
  ok(JSON.parse(again.stdout).data.__schema.types.length > 1000);
  await dial(["graphql", url, "-B", "s1", "--schema", "--refresh-schema"]);
  equal(server.requests.length, 2);
  const other = await dial(["graphql", url, "-B", "other", "--schema"]);
  equal(other.code, 4, "another credential is not served the cached schema");
  const dir = `${testHome()}/.cache/dial/graphql`;
  equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
  for await (const entry of Deno.readDir(dir)) {
    equal((await Deno.stat(`${dir}/${entry.name}`)).mode! & 0o777, 0o600);
    ok(!(await Deno.readTextFile(`${dir}/${entry.name}`)).includes("s1"));
  }
  // With the schema cached, queries are validated before sending.
  const invalid = await dial(["graphql", url, "-B", "s1", "-q", "{ viewer { nope } }"]);
  equal(invalid.code, 2);
  match(
    invalid.stderr,
    /^error: The query does not match the schema: Cannot query field "nope" on type "User"/,
  );
  equal(server.requests.length, 3);
});

Deno.test("graphql: a subscription POST reads the event stream, one JSON line per result", async () => {
  await using server = subscriptionServer({ kind: "bearer", token: "sub" });
  const query = "subscription { countdown(from: 2) }";
  const result = await dial(["graphql", `${server.origin}/graphql`, "-B", "sub", "-q", query]);
  equal(result.code, 0, result.stderr);
  deepStrictEqual(result.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
    { data: { countdown: 2 } },
    { data: { countdown: 1 } },
    { data: { countdown: 0 } },
  ]);
  match(server.requests[0]!.headers.get("accept") ?? "", /^text\/event-stream, multipart\/mixed/);
});

Deno.test("graphql: a multipart/mixed stream split across chunks, stopped by --max-results", async () => {
  const parts = [
    '\r\n--gc0p\r\nContent-Type: application/json\r\n\r\n{"data":{"n":1},"hasNext":true}',
    '\r\n--gc0p\r\nContent-Type: application/json\r\n\r\n{"incremental":[{"data":{"m":2},"path":[]}],"hasNext":true}',
    '\r\n--gc0p\r\nContent-Type: application/json\r\n\r\n{"hasNext":false}\r\n--gc0p--\r\n',
  ].join("");
  await using server = serve((request) => {
    if (request.headers.get("x-auth-token") !== "m") return new Response("no", { status: 401 });
    const bytes = new TextEncoder().encode(parts);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": 'multipart/mixed; boundary="gc0p"' } });
  });
  const url = `${server.origin}/graphql`;
  const query = "query { n ... @defer { m } }";
  const all = await dial(["graphql", url, "-H", "X-Auth-Token: m", "-q", query]);
  equal(all.code, 0, all.stderr);
  deepStrictEqual(all.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
    { data: { n: 1 }, hasNext: true },
    { incremental: [{ data: { m: 2 }, path: [] }], hasNext: true },
    { hasNext: false },
  ]);
  match(server.requests[0]!.headers.get("accept") ?? "", /multipart\/mixed/);
  const two = await dial([
    "graphql",
    url,
    "-H",
    "X-Auth-Token: m",
    "-q",
    query,
    "--max-results",
    "1",
  ]);
  equal(two.stdout, '{"data":{"n":1},"hasNext":true}\n');
});

Deno.test("graphql: --transport sse runs GraphQL over SSE with an API key in the query", async () => {
  await using server = subscriptionServer({ kind: "query", name: "key", value: "q" });
  const url = `${server.origin}/graphql`;
  const result = await dial(["graphql", url, "-K", "key=q", "--transport", "sse", "-q", FROM_1]);
  equal(result.code, 0, result.stderr);
  equal(result.stdout, COUNTED_FROM_1);
  equal(server.requests[0]!.headers.get("accept"), "text/event-stream");
});

Deno.test("graphql: --transport ws authenticates the handshake and sends the init payload", async () => {
  await using server = subscriptionServer({ kind: "bearer", token: "w" });
  const result = await dial([
    "graphql",
    `${server.origin}/graphql`,
    "-B",
    "w",
    "--transport",
    "ws",
    "--init-payload",
    '{"hello":"there"}',
    "-q",
    "subscription ($n: Int!) { countdown(from: $n) }",
    "--variables",
    '{"n":1}',
  ]);
  equal(result.code, 0, result.stderr);
  equal(result.stdout, COUNTED_FROM_1);
  deepStrictEqual(server.initPayloads, [{ hello: "there" }]);
  const url = `${server.origin}/graphql`;
  const refused = await dial(["graphql", url, "-B", "bad", "--transport", "ws", "-q", FROM_1]);
  equal(refused.code, 4, refused.stderr);
  match(refused.stderr, /^error: WebSocket handshake refused by 127\.0\.0\.1:\d+: HTTP 401/);
});

Deno.test("graphql: Ctrl-C completes a WebSocket subscription cleanly", async () => {
  await using server = subscriptionServer({ kind: "none" });
  const child = spawnDial([
    "graphql",
    `${server.origin}/graphql`,
    "--transport",
    "ws",
    "-q",
    "subscription { countdown(from: 100000) }",
  ]);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  child.kill("SIGINT");
  while (!(await reader.read()).done);
  const status = await child.status;
  await child.stderr.cancel();
  equal(status.code, 130);
  match(seen, /^\{"data":\{"countdown":100000\}\}\n/);
  await waitFor(() => server.closes.length > 0, { message: "the server to see the close" });
  deepStrictEqual(server.closes, [1000]);
});

Deno.test("graphql: a mutation with an input object variable, written to -o", async () => {
  await using server = await githubServer({ kind: "bearer", token: "m" });
  const out = `${await Deno.makeTempDir()}/result.json`;
  const mutation =
    "mutation Star($input: AddStarInput!) { addStar(input: $input) { clientMutationId } }";
  const result = await dial([
    "graphql",
    `${server.origin}/graphql`,
    "-B",
    "m",
    "-q",
    mutation,
    "--variables",
    '{"input":{"starrableId":"R_1"}}',
    "-o",
    out,
  ]);
  equal(result.code, 0, result.stderr);
  equal(result.stdout, "");
  deepStrictEqual(JSON.parse(await Deno.readTextFile(out)), {
    data: { addStar: { clientMutationId: "mocked" } },
  });
  deepStrictEqual((await server.requests[0]!.json()).variables, {
    input: { starrableId: "R_1" },
  });
  await Deno.remove(out);
});

Deno.test("graphql: --timeout bounds a server that never answers", async () => {
  const gaveUp = Promise.withResolvers<void>();
  await using server = serve(async () => {
    await gaveUp.promise;
    return new Response(null, { status: 204 });
  });
  const result = await dial([
    "graphql",
    `${server.origin}/graphql`,
    "-q",
    "{ a }",
    "--timeout",
    "0.3",
  ]);
  gaveUp.resolve();
  equal(result.code, 8, result.stderr);
  match(result.stderr, /^error: Timed out/);
});

Deno.test("graphql: --schema refused with 401 and a GraphQL error hints at the credentials", async () => {
  await using server = serve(() =>
    Response.json({ errors: [{ message: "unauthorized" }] }, {
      status: 401,
      headers: { "content-type": "application/graphql-response+json" },
    })
  );
  const result = await dial(["graphql", `${server.origin}/graphql`, "--schema", "-B", "wrong"]);
  equal(result.code, 4, result.stderr);
  match(
    result.stderr,
    /error: Introspection failed at 127\.0\.0\.1:\d+: HTTP 401 Unauthorized: unauthorized/,
  );
  match(result.stderr, /hint: check the credentials/);
  ok(!result.stderr.includes("introspection turned off"));
});

Deno.test("graphql: a 401 answered with a GraphQL envelope names the status", async () => {
  await using server = serve(() =>
    Response.json({ errors: [{ message: "unauthorized" }] }, {
      status: 401,
      headers: { "content-type": "application/graphql-response+json" },
    })
  );
  const result = await dial(["graphql", `${server.origin}/graphql`, "-q", "{ a }"]);
  match(result.stderr, /^warning: 127\.0\.0\.1:\d+ answered HTTP 401 Unauthorized$/m);
  match(result.stderr, /^graphql error: unauthorized$/m);
});

Deno.test("graphql: a 403 that is not GraphQL names the status", async () => {
  await using server = serve(() => Response.json({ message: "bad token" }, { status: 403 }));
  const result = await dial(["graphql", `${server.origin}/graphql`, "-q", "{ a }"]);
  equal(result.code, 4, result.stderr);
  match(
    result.stderr,
    /^error: Not a GraphQL response from 127\.0\.0\.1:\d+: HTTP 403 Forbidden: /m,
  );
});
