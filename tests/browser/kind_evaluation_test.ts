import assert from "node:assert/strict";
import { dial, tempDir, waitFor } from "../_helpers.ts";
import { type RawRequest, rawServer } from "../e2e/_raw_server.ts";
import { fileBrowser, openApp, openFromSidebar } from "./_browser.ts";

const browser = fileBrowser();

/** Every kind of variable `dial run` fills, in a GRAPHQL, an SSE and a WEBSOCKET request. */
const VARIABLES = `Authorization: Bearer {{login.response.body.$.token}}
X-Global: {{gtoken}}
X-Req: {{rv}}
X-Env: {{$processEnv DIAL_KIND_EVAL}}
X-Dotenv: {{$dotenv DOTENV_KEY}}
X-Private: {{secretKey}}`;
const SCRIPT = `< {%
  request.variables.set("rv", "req-var");
%}`;
const FILE = `@host = {{base}}

### login
# @name login
POST {{host}}/login
Content-Type: application/json

{"user": "{{user}}"}

> {%
  client.global.set("gtoken", "g-" + response.body.token);
%}

### gql
# @name gql
${SCRIPT}
GRAPHQL {{host}}/graphql?file={{fileVar}}
${VARIABLES}

query Q($n: Int) { ok(n: $n) }

{"n": 1, "user": "{{user}}"}

> {%
  client.test("ok is 1", () => client.assert(response.body.data.ok === 1, "ok"));
  client.log("gql handled");
%}

### events
# @name events
${SCRIPT}
GET {{host}}/events
Accept: text/event-stream
${VARIABLES}

### socket
# @name socket
${SCRIPT}
WEBSOCKET {{host}}/socket
${VARIABLES}

@fileVar = from-file
`;

/** A request's bytes, without the WebSocket handshake's random key. */
function bytesOf(request: RawRequest): string {
  const text = new TextDecoder().decode(request.head) + new TextDecoder().decode(request.body);
  return text.replace(/^sec-websocket-key:.*$/im, "sec-websocket-key: (random)");
}

/** Answers JSON with a token (login, GraphQL) and one event on `/events`. */
function answer(request: RawRequest) {
  if (request.line.includes("/events")) {
    return {
      headers: [["Content-Type", "text/event-stream"]] as Array<[string, string]>,
      body: "data: hi\n\n",
    };
  }
  return {
    headers: [["Content-Type", "application/json"]] as Array<[string, string]>,
    body: '{"token": "tok-1", "data": {"ok": 1}}',
  };
}

Deno.test(
  "browser: GraphQL, SSE and WebSocket tabs of a file put on the wire what dial run puts, every variable kind",
  async () => {
    await using target = rawServer(answer);
    await using ws = await tempDir("dial-ui-kind-eval-", {
      "api.http": FILE,
      ".env": "DOTENV_KEY=from-dotenv\n",
      "http-client.env.json": JSON.stringify({ dev: { base: target.origin, user: "ann" } }),
      "http-client.private.env.json": JSON.stringify({ dev: { secretKey: "sk-1" } }),
    });
    const workspace = ws.path;
    const env = { DIAL_KIND_EVAL: "pe-value" };
    /** The request of `dial run` for each name (after its login). */
    const cli = new Map<string, string>();
    for (const name of ["gql", "events", "socket"]) {
      // The raw server refuses the WebSocket handshake: dial run fails after sending it.
      await dial(["run", `${workspace}/api.http`, name, "--env", "dev"], { env });
      const sent = target.requests.splice(0);
      assert.equal(sent.length, 2, `login, then ${name}`);
      cli.set(name, bytesOf(sent[1]!));
    }
    const gql = cli.get("gql")!;
    for (
      const part of [
        "POST /graphql?file=from-file HTTP/1.1",
        "Authorization: Bearer tok-1",
        "X-Global: g-tok-1",
        "X-Req: req-var",
        "X-Env: pe-value",
        "X-Dotenv: from-dotenv",
        "X-Private: sk-1",
        '"variables":{"n":1,"user":"ann"}',
      ]
    ) assert.ok(gql.toLowerCase().includes(part.toLowerCase()), `${part} in ${gql}`);
    assert.match(cli.get("socket")!, /^GET \/socket HTTP\/1\.1\r\n/);
    assert.match(cli.get("socket")!, /^x-global: g-tok-1\r?$/im);
    assert.match(cli.get("events")!, /^x-req: req-var\r?$/im);

    await using app = await openApp(browser(), {
      workspace,
      transport: { env: (name) => name === "DIAL_KIND_EVAL" ? env.DIAL_KIND_EVAL : undefined },
    });
    const { page } = app;
    await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Environment")
      .selectOption("dev");

    // GraphQL: login runs first (once for the session), then the query, byte for byte.
    await openFromSidebar(page, "api.http", "GRAPHQL gql");
    await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByLabel("GraphQL response").getByText('"ok": 1').waitFor();
    // Run as dial run runs it: what ran first, the handler's test and log line.
    const pane = page.getByRole("region", { name: "GraphQL response" });
    await pane.getByRole("region", { name: "Tests" }).getByText("✓ ok is 1").waitFor();
    await pane.getByText("Ran first: login (200)").waitFor();
    await pane.getByText("Log (1)").click();
    await pane.getByLabel("Script log").getByText("gql handled").waitFor();
    assert.equal(target.requests.length, 2);
    const [login, query] = target.requests.splice(0) as [RawRequest, RawRequest];
    assert.match(login.line, /^POST \/login /);
    assert.equal(bytesOf(query), gql);

    // SSE: the stream's request as dial run sends it; login is not run again.
    await openFromSidebar(page, "api.http", "GET events");
    await page.getByRole("tab", { name: "SSE", selected: true }).waitFor();
    await page.getByLabel("Reconnect when the stream ends").uncheck();
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByTestId("sse-state").filter({ hasText: "Disconnected" }).waitFor();
    await page.getByRole("list", { name: "Events" }).getByText("hi", { exact: true }).waitFor();
    assert.equal(target.requests.length, 1, "only the stream");
    assert.equal(bytesOf(target.requests.splice(0)[0]!), cli.get("events"));

    // WebSocket: the handshake as dial run sends it (this server refuses it).
    await openFromSidebar(page, "api.http", "WEBSOCKET socket");
    await page.getByRole("tab", { name: "WebSocket", selected: true }).waitFor();
    await page.getByRole("button", { name: "Connect" }).click();
    await waitFor(() => target.requests.length === 1, { message: "the handshake sent" });
    await page.getByTestId("ws-state").filter({ hasText: "Disconnected" }).waitFor();
    assert.equal(bytesOf(target.requests.splice(0)[0]!), cli.get("socket"));

    // A request variable the scope cannot fill is said as dial run says it; nothing is sent.
    await page.getByLabel("Handshake header value 3", { exact: true }).fill("{{nope}}");
    await page.getByRole("button", { name: "Connect" }).click();
    // The tab's error (the field's own "undefined" hint is an alert too, shown as typed).
    await page.locator("p.error[role=alert]").filter({ hasText: "nope" }).waitFor();
    assert.equal(target.requests.length, 0);
  },
);

Deno.test(
  "browser: a WebSocket tab of a file gets its literal credentials back from the file after a reload, sends them, and keeps them out of storage",
  async () => {
    await using target = rawServer(answer);
    await using ws = await tempDir("dial-ui-kind-refill-", {
      "ws.http":
        `### socket\n# @name socket\nWEBSOCKET ${target.origin}/socket\nAuthorization: Bearer lit-tok-1\nX-Api-Key: literal-key-123\nX-Other: plain\n`,
    });
    const workspace = ws.path;
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByRole("button", { name: "ws.http", exact: true }).click();
    await sidebar.getByRole("button", { name: "WEBSOCKET socket", exact: true }).click();
    const value = (n: number) => page.getByLabel(`Handshake header value ${n}`, { exact: true });
    const shows = (n: number, text: string) =>
      waitFor(async () => (await value(n).inputValue()) === text, {
        message: `header ${n} shows ${text}`,
      });
    await shows(2, "literal-key-123");
    // An edit elsewhere: the tab has unsaved changes across the reload.
    await value(3).fill("edited");
    await waitFor(
      async () =>
        String(await page.evaluate("localStorage.getItem('dial.ws.headers')")).includes("edited"),
      { message: "the edit stored" },
    );
    // …and sent to the workspace's state, which a reload reads first.
    await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
    await page.reload();
    await page.getByRole("tab", { name: "WebSocket", selected: true }).waitFor();
    await shows(3, "edited");
    await shows(1, "Bearer lit-tok-1");
    await shows(2, "literal-key-123");
    await page.getByText("ws.http #1 (socket) •").waitFor();
    const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
    assert.ok(!stored.includes("lit-tok-1") && !stored.includes("literal-key-123"), stored);
    assert.ok(stored.includes("edited"));
    await page.getByRole("button", { name: "Connect" }).click();
    await waitFor(() => target.requests.length === 1, { message: "the handshake sent" });
    const head = bytesOf(target.requests[0]!);
    assert.match(head, /^authorization: Bearer lit-tok-1\r?$/im);
    assert.match(head, /^x-api-key: literal-key-123\r?$/im);
    assert.match(head, /^x-other: edited\r?$/im);
  },
);
