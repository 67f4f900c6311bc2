import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { ACCEPT } from "../../src/graphql/http_client.ts";
import { deferServer } from "../e2e/_graphql_servers.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

async function runGraphql(server: UiServer, body: Record<string, unknown>): Promise<Response> {
  return await fetch(new URL("/api/graphql/run", server.url), {
    method: "POST",
    headers: apiHeaders(await sessionOf(server)),
    body: JSON.stringify(body),
  });
}

Deno.test("ui server: a @defer query streams from graphql-yoga as it does in dial graphql", async () => {
  await using target = await deferServer({ kind: "header", name: "x-api-key", value: "k" });
  await using server = await startUiServer({ assets: ASSETS });
  const response = await runGraphql(server, {
    url: `${target.origin}/graphql`,
    auth: { kind: "apikey", in: "header", name: "X-Api-Key", value: "k" },
    query: "query { fast ...Later @defer }\nfragment Later on Query { slow }",
  });
  assert.equal(response.status, 200);
  const events = (await response.text()).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(events.map((e) => e.type), ["head", "result", "result", "end"]);
  assert.equal(events[0].status, 200);
  assert.deepEqual(events.slice(1, 3).map((e) => JSON.parse(e.text)), [
    { data: { fast: "now" }, hasNext: true },
    { incremental: [{ data: { slow: "later" }, path: [] }], hasNext: false },
  ]);
  assert.equal(target.requests[0]!.headers.get("accept"), ACCEPT.stream);
});

Deno.test("ui server: several operations and no name are refused before sending, with the tab's hint", async () => {
  await using target = await deferServer({ kind: "none" });
  await using server = await startUiServer({ assets: ASSETS });
  const response = await runGraphql(server, {
    url: `${target.origin}/graphql`,
    query: "query A { fast } query B { slow }",
  });
  assert.equal(response.status, 400);
  assert.deepEqual((await response.json()).error, {
    code: "usage",
    message: 'The query holds 2 operations: "A", "B"',
    hint: "choose one with the Operation picker",
  });
  assert.equal(target.requests.length, 0);
});

Deno.test("ui server: the GraphQL tab refuses auth and an Authorization header together, as the CLI does", async () => {
  await using target = await deferServer({ kind: "none" });
  await using server = await startUiServer({ assets: ASSETS });
  const response = await runGraphql(server, {
    url: `${target.origin}/graphql`,
    auth: { kind: "bearer", token: "t" },
    headers: [{ name: "Authorization", value: "Bearer other", enabled: true }],
    query: "{ fast }",
  });
  assert.equal(response.status, 400);
  assert.deepEqual((await response.json()).error, {
    code: "usage",
    message: "Conflicting auth and Authorization header: both set the Authorization header",
    hint: "remove the header or set auth to None",
  });
  assert.equal(target.requests.length, 0);
});
