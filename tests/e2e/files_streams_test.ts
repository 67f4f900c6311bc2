import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { subscriptionServer } from "./_graphql_servers.ts";

async function fileWith(text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-streams-" });
  await Deno.writeTextFile(`${dir}/s.http`, text);
  return `${dir}/s.http`;
}

Deno.test("run: GRAPHQL requests (JetBrains): a query with variables, and a subscription over WebSocket", async () => {
  await using server = subscriptionServer({ kind: "bearer", token: "t1" });
  const file = await fileWith(`### hello
GRAPHQL ${server.origin}/graphql
Authorization: Bearer {{token}}

query Hello($name: String!) {
  hello(name: $name)
}

{"name": "ann"}

> {%
  client.test("hello", function () { client.assert(response.body.data.hello === "hello ann"); });
%}

### countdown
GRAPHQL ${server.origin}/graphql
Authorization: Bearer {{token}}

subscription { countdown(from: 2) }

> {%
  client.test("three results", function () { client.assert(response.body.length === 3, JSON.stringify(response.body)); });
%}
`);
  const result = await dial(["run", file, "--var", "token=t1"]);
  assert.equal(result.code, 0, result.stderr);
  // The query's body ends a line before the subscription's first result (they ran together).
  assert.deepEqual(result.stdout.split("\n"), [
    '{"data":{"hello":"hello ann"}}',
    '{"data":{"countdown":2}}',
    '{"data":{"countdown":1}}',
    '{"data":{"countdown":0}}',
    "",
  ]);
  assert.match(result.stderr, /✓ hello: hello/);
  assert.match(result.stderr, /✓ countdown: three results/);
  assert.deepEqual(server.closes, [1000]);
});

Deno.test("run: WEBSOCKET requests send messages separated by ===, waiting at === wait-for-server", async () => {
  const log: string[] = [];
  await using server = serve((request) => {
    if (request.headers.get("authorization") !== "Bearer ws-token") {
      return new Response("no", { status: 401 });
    }
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onopen = () => socket.send("welcome");
    socket.onmessage = (e) => {
      log.push(String(e.data));
      socket.send(`echo ${e.data}`);
    };
    return response;
  });
  const file = await fileWith(`WEBSOCKET ws://127.0.0.1:${server.port}/socket
Authorization: Bearer ws-token

=== wait-for-server
{"message": "first"}
=== wait-for-server
{"message": "second"}
=== wait-for-server
`);
  const result = await dial(["run", file]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(log, ['{"message": "first"}', '{"message": "second"}']);
  assert.deepEqual(result.stdout.trim().split("\n"), [
    "welcome",
    'echo {"message": "first"}',
    'echo {"message": "second"}',
  ]);
});

Deno.test("run: an event-stream response is printed event by event, as dial sse prints data", async () => {
  await using server = serve(() => {
    const body = new ReadableStream({
      start(controller) {
        const e = new TextEncoder();
        controller.enqueue(e.encode("event: tick\ndata: one\n\n"));
        controller.enqueue(e.encode(": comment\ndata: two\ndata: lines\n\n"));
        controller.close();
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  });
  const file = await fileWith(
    `GET ${server.origin}/events\n\n> {%\nclient.global.set("n", response.body.split("\\n").length);\nclient.log("events:", response.body);\n%}\n`,
  );
  const result = await dial(["run", file]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "one\ntwo\nlines\n");
  assert.match(result.stderr, /events: one\ntwo\nlines/);
});
