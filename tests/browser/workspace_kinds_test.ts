import assert from "node:assert/strict";
import { dial, serve, withoutServeSignal } from "../_helpers.ts";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";
import { splitGraphqlBody, websocketMessages } from "../../src/files/stream_bodies.ts";
import { fileBrowser, openApp, openFromSidebar, saveAs } from "./_browser.ts";

const browser = fileBrowser();

// Imported through a variable so `deno check` skips its declarations (they pull in the DOM).
const YOGA = "graphql-yoga";

/** graphql-yoga with `echo(n)`; it records each request's Authorization header. */
async function graphqlServer() {
  const yoga = await import(YOGA);
  const server = yoga.createYoga({
    schema: yoga.createSchema({
      typeDefs: "type Query { echo(n: Int): Int, who: String }",
      resolvers: { Query: { echo: (_: unknown, { n }: { n: number }) => n, who: () => "yoga" } },
    }),
    logging: false,
    graphiql: false,
  });
  const authorizations: string[] = [];
  const http = serve(async (request) => {
    authorizations.push(request.headers.get("authorization") ?? "");
    return await server.fetch(withoutServeSignal(request));
  });
  return Object.assign(http, { authorizations });
}

/** A WebSocket server that records its handshakes' X-User and the messages it receives. */
function webSocketServer() {
  const users: string[] = [];
  const received: string[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  /** Resolves once `count` messages have arrived. */
  const receivedCount = (count: number) =>
    new Promise<void>((resolve) => {
      if (received.length >= count) resolve();
      else waiting.push({ count, resolve });
    });
  const server = serve((request) => {
    users.push(request.headers.get("x-user") ?? "");
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => {
      received.push(String(event.data));
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
      // A credential is not echoed back (the page must not see it at all).
      if (!String(event.data).startsWith('{"auth"')) socket.send(`echo: ${event.data}`);
    };
    return response;
  });
  return Object.assign(server, { users, received, receivedCount });
}

/** An event stream: one event naming the query's user, then the end. */
function sseServer() {
  return serve((request) => {
    const user = new URL(request.url).searchParams.get("user");
    return new Response(`data: hello ${user}\n\n`, {
      headers: { "Content-Type": "text/event-stream" },
    });
  });
}

const FILE = (gql: string, ws: string) =>
  `# Streams of the dev API
@who = from-file

### gql
# @name gql
GRAPHQL ${gql}/graphql
Authorization: Bearer {{token}}

query Q($n: Int) { echo(n: $n) }

{"n": {{n}}}

### feed
# @name feed
WEBSOCKET ${ws.replace("http", "ws")}/feed
X-User: {{user}}

{"hello": "{{who}}"}
===
second

### events
# @name events
GET {{sse}}/events?user={{user}}
Accept: text/event-stream

### gql2
# @name gql2
GRAPHQL ${gql}/graphql

query { who }
`;

Deno.test("browser: GraphQL, WebSocket and SSE requests of a file substitute the environment and save back in place", async (t) => {
  await using gql = await graphqlServer();
  await using ws = webSocketServer();
  await using sse = sseServer();
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-kinds-" });
  const file = `${workspace}/streams.http`;
  const original = FILE(gql.origin, ws.origin);
  await Deno.writeTextFile(file, original);
  await Deno.writeTextFile(
    `${workspace}/http-client.env.json`,
    JSON.stringify({
      dev: { n: 3, user: "ann", sse: sse.origin },
      prod: { n: 7, user: "bob", sse: sse.origin },
    }),
  );
  await Deno.writeTextFile(
    `${workspace}/http-client.private.env.json`,
    JSON.stringify({ dev: { token: "s3cr3t-dev" }, prod: { token: "s3cr3t-prod" } }),
  );

  await t.step(
    "GRAPHQL: the environment fills URL headers and variables; Ctrl+S writes only the query",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await page.getByLabel("Environment").selectOption("dev");
      await openFromSidebar(page, "streams.http", "GRAPHQL gql");
      await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
      await page.getByText("streams.http #1 (gql)").waitFor();
      // Its variables, with values and sources, before anything is sent.
      const line = page.getByRole("tabpanel", { name: "GraphQL" }).getByLabel("Variables", {
        exact: true,
      });
      await line.getByText("{{token}} = (private)").waitFor();
      await line.getByText("{{n}} = 3").waitFor();
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await page.getByLabel("GraphQL response").getByText('"echo": 3').waitFor();
      assert.equal(gql.authorizations.at(-1), "Bearer s3cr3t-dev");
      // Another environment: another token and variable, with no edit.
      await page.getByLabel("Environment").selectOption("prod");
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await page.getByLabel("GraphQL response").getByText('"echo": 7').waitFor();
      assert.equal(gql.authorizations.at(-1), "Bearer s3cr3t-prod");
      // Nothing changed: the file stays byte for byte.
      await page.getByRole("button", { name: "Save to streams.http" }).click();
      await page.getByRole("status").filter({ hasText: "Saved to streams.http" }).waitFor();
      assert.equal(await Deno.readTextFile(file), original);
      await page.getByLabel("Query", { exact: true }).click();
      await page.keyboard.press("Control+a");
      await page.keyboard.insertText("query Q($n: Int) { echo(n: $n) who }");
      await page.getByText("streams.http #1 (gql) •").waitFor();
      // Another GRAPHQL request opens in a request tab of its own, with its own response; the
      // first keeps its edits and its response.
      await openFromSidebar(page, "streams.http", "GRAPHQL gql2");
      const strip = page.getByRole("tablist", { name: "Open GraphQL requests" });
      await strip.getByRole("tab", { name: "gql2", exact: true, selected: true }).waitFor();
      await page.getByText("streams.http #4 (gql2)", { exact: true }).waitFor();
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await page.getByLabel("GraphQL response").getByText('"who": "yoga"').waitFor();
      // The edited tab shows its own unsaved mark while gql2 is in front.
      await strip.getByRole("tab", { name: "gql •", exact: true }).click();
      await page.getByText("streams.http #1 (gql) •").waitFor();
      await page.getByLabel("GraphQL response").getByText('"echo": 7').waitFor();
      await page.getByLabel("Query", { exact: true }).getByText("who }").waitFor();
      await page.getByLabel("Query", { exact: true }).click();
      await page.keyboard.press("Control+s");
      await page.getByText("streams.http #1 (gql)", { exact: true }).waitFor();
      await page.getByRole("status").filter({ hasText: "Saved to streams.http" }).waitFor();
      const text = await Deno.readTextFile(file);
      assert.equal(
        text,
        original.replace("{ echo(n: $n) }", "{ echo(n: $n) who }"),
        "only the query changed",
      );
      // The runner's reader reads the same request back.
      const request = parseHttpFile(text).requests.find((r) => r.name === "gql")!;
      const body = splitGraphqlBody(
        request.body.map((p) => p.kind === "text" ? p.text : "").join(""),
      );
      assert.equal(body.query, "query Q($n: Int) { echo(n: $n) who }");
      assert.equal(body.variablesText, '{"n": {{n}}}');
      // Changed on disk (git, an editor): the tab shows the new text.
      await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
      await Deno.writeTextFile(file, text.replace("echo(n: $n) who }", "echo(n: $n) }"));
      await page.getByRole("status").filter({ hasText: "Reloaded: streams.http changed on disk" })
        .waitFor();
      await page.getByLabel("Query", { exact: true }).getByText("{ echo(n: $n) }").waitFor();
      await Deno.writeTextFile(file, text);
      await page.getByLabel("Query", { exact: true }).getByText("{ echo(n: $n) who }").waitFor();
      // The next step restarts and expects these tabs: the state must reach the workspace
      // before this server stops (the page sends it in batches).
      await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
    },
  );

  await t.step(
    "WEBSOCKET: handshake header and messages substituted; the header edit saves",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await page.getByLabel("Environment").selectOption("dev");
      // After a restart the GraphQL request tabs are back, each with its own request.
      await page.getByRole("tab", { name: "GraphQL" }).click();
      const strip = page.getByRole("tablist", { name: "Open GraphQL requests" });
      await strip.getByRole("tab", { name: "gql", exact: true, selected: true }).waitFor();
      await strip.getByRole("tab", { name: "gql2", exact: true }).click();
      await page.getByLabel("Query", { exact: true }).getByText("query { who }").waitFor();
      await page.getByText("streams.http #4 (gql2)", { exact: true }).waitFor();
      await openFromSidebar(page, "streams.http", "WEBSOCKET feed");
      await page.getByRole("tab", { name: "WebSocket", selected: true }).waitFor();
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
      assert.equal(ws.users.at(-1), "ann");
      await page.getByRole("button", { name: "Send saved message 1" }).click();
      await page.getByText('echo: {"hello": "from-file"}').waitFor();
      assert.equal(ws.received.at(-1), '{"hello": "from-file"}');
      // A typed message is substituted too; one holding a private value is not shown as sent.
      await page.getByLabel("Message", { exact: true }).click();
      await page.keyboard.insertText('{"auth": "{{token}}"}');
      await page.getByRole("button", { name: "Send message" }).click();
      await page.getByText("(redacted: the message holds a private value)").waitFor();
      await ws.receivedCount(2);
      assert.equal(ws.received.at(-1), '{"auth": "s3cr3t-dev"}');
      assert.ok(!(await page.content()).includes("s3cr3t"), "a private value reached the page");
      await page.getByRole("button", { name: "Disconnect" }).click();
      await page.getByRole("button", { name: "Connect" }).waitFor();
      const value = page.getByLabel("Handshake header value 1");
      await value.fill("{{user}}-2");
      await page.getByText("streams.http #2 (feed) •").waitFor();
      await page.keyboard.press("Control+s");
      await page.getByText("streams.http #2 (feed)", { exact: true }).waitFor();
      await page.getByRole("status").filter({ hasText: "Saved to streams.http" }).waitFor();
      const text = await Deno.readTextFile(file);
      const before = original.replace("{ echo(n: $n) }", "{ echo(n: $n) who }");
      assert.equal(text, before.replace("X-User: {{user}}\n", "X-User: {{user}}-2\n"));
      const request = parseHttpFile(text).requests.find((r) => r.name === "feed")!;
      const body = request.body.map((p) => p.kind === "text" ? p.text : "").join("\n");
      assert.deepEqual(websocketMessages(body), ['{"hello": "{{who}}"}', "second"]);
    },
  );

  await t.step(
    "SSE: an event-stream request opens in the SSE tab, substituted; Save as keeps it one",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await page.getByLabel("Environment").selectOption("prod");
      await openFromSidebar(page, "streams.http", "GET events");
      await page.getByRole("tab", { name: "SSE", selected: true }).waitFor();
      assert.equal(
        await page.getByLabel("SSE endpoint").inputValue(),
        "{{sse}}/events?user={{user}}",
      );
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByText("hello bob").waitFor();
      await saveAs(page, "events.http", "copy");
      assert.equal(
        await Deno.readTextFile(`${workspace}/events.http`),
        "### copy\n# @name copy\nGET {{sse}}/events?user={{user}}\nAccept: text/event-stream\n",
      );
      await page.getByText("events.http #1 (copy)").waitFor();
      // Detached, the tab keeps its fields and Ctrl+S no longer writes a file.
      await page.getByRole("button", { name: "Detach from events.http" }).click();
      await page.getByText("events.http #1 (copy)").waitFor({ state: "detached" });
      assert.equal(
        await page.getByLabel("SSE endpoint").inputValue(),
        "{{sse}}/events?user={{user}}",
      );
      await page.keyboard.press("Control+s");
      await page.getByRole("status").filter({ hasText: "not from a file: use Save as" }).waitFor();
    },
  );

  await t.step("dial run reads and runs what the UI wrote", async () => {
    gql.authorizations.length = 0;
    const result = await dial(["run", file, "--env", "dev"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /"echo":3,"who":"yoga"/);
    // gql with the private token, then gql2 without one.
    assert.deepEqual(gql.authorizations, ["Bearer s3cr3t-dev", ""]);
    assert.equal(ws.users.at(-1), "ann-2");
    // Its two messages, after the UI's two; both echoed back, so both arrived.
    await ws.receivedCount(4);
    assert.deepEqual(ws.received.slice(2), ['{"hello": "from-file"}', "second"]);
    assert.match(result.stdout, /hello ann/);
  });
  await Deno.remove(workspace, { recursive: true });
});
