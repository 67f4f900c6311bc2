/**
 * `dial graphql` picks, checks and sends the operation as the core decides: `@defer` and
 * `@stream` stream (read from the directives, not the text), and a cached schema checks the
 * variables.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { deferServer, githubServer } from "./_graphql_servers.ts";
import { ACCEPT } from "../../src/graphql/http_client.ts";

Deno.test("graphql: @defer in a spread fragment streams from graphql-yoga, one JSON line per result", async () => {
  await using server = await deferServer({ kind: "bearer", token: "d" });
  const query = "query { fast ...Later @defer }\nfragment Later on Query { slow }";
  const result = await dial(["graphql", `${server.origin}/graphql`, "-B", "d", "-q", query]);
  equal(result.code, 0, result.stderr);
  deepStrictEqual(result.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
    { data: { fast: "now" }, hasNext: true },
    { incremental: [{ data: { slow: "later" }, path: [] }], hasNext: false },
  ]);
  equal(server.requests[0]!.headers.get("accept"), ACCEPT.stream);
});

Deno.test("graphql: @stream on a list field streams from graphql-yoga", async () => {
  await using server = await deferServer({ kind: "none" });
  const query = "{ numbers @stream(initialCount: 1) }";
  const result = await dial(["graphql", `${server.origin}/graphql`, "-q", query]);
  equal(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split("\n").map((l) => JSON.parse(l));
  deepStrictEqual(lines[0], { data: { numbers: [1] }, hasNext: true });
  equal(lines.at(-1).hasNext, false);
  equal(server.requests[0]!.headers.get("accept"), ACCEPT.stream);
});

Deno.test("graphql: a comment mentioning @defer does not make a query a stream", async () => {
  await using server = await deferServer({ kind: "none" });
  const query = "# no @defer here, nor @stream\nquery { fast }";
  const result = await dial(["graphql", `${server.origin}/graphql`, "-q", query]);
  equal(result.code, 0, result.stderr);
  equal(result.stdout, '{"data":{"fast":"now"}}\n');
  equal(server.requests[0]!.headers.get("accept"), ACCEPT.single);
});

Deno.test("graphql: with a cached schema, a variable the operation does not use is a warning, not a refusal", async () => {
  await using server = await githubServer({ kind: "none" });
  const url = `${server.origin}/graphql`;
  equal((await dial(["graphql", url, "--schema"])).code, 0);
  const query = "query ($login: String!) { user(login: $login) { login } }";
  const result = await dial([
    "graphql",
    url,
    "-q",
    query,
    "--variables",
    '{"login":"octocat","logn":"typo"}',
  ]);
  equal(result.code, 0, result.stderr);
  equal(
    result.stderr,
    'warning: Variable "$logn" is not used by the operation (servers ignore it)\n',
  );
  deepStrictEqual(JSON.parse(result.stdout), { data: { user: { login: "mocked" } } });
  const missing = await dial(["graphql", url, "-q", query, "--variables", "{}"]);
  equal(missing.code, 2);
  equal(
    missing.stderr,
    'error: Invalid variables: Variable "$login" of required type "String!" was not provided.\nhint: fix the values given with --variables\n',
  );
  equal(server.requests.length, 2, "the introspection and the valid query");
});
