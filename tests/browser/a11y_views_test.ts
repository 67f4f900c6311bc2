/**
 * axe-core on the views a11y_test.ts sees empty, each with content, light and dark: the GraphQL
 * explorer and builder with GitHub's schema from graphql-yoga (a search, a ticked field, the
 * docs, a response), a WebSocket session with messages, an SSE stream with events, a ▶ Run
 * step opened, a save conflict, the TLS and proxy settings and the shortcuts. (The gRPC tab's
 * runs are in grpc_stream_test.ts.)
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve } from "../_helpers.ts";
import { violations } from "./_axe.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";
import { loadSchema, searchAndStep } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";

const browser = fileBrowser();

/** A WebSocket echo and an event stream of two events, on one server. */
function streamServer() {
  return serve((request) => {
    if (new URL(request.url).pathname === "/events") {
      return new Response("id: 1\nevent: tick\ndata: one\n\nid: 2\ndata: two\n\n", {
        headers: { "Content-Type": "text/event-stream" },
      });
    }
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(`echo: ${event.data}`);
    return response;
  });
}

const FILE = (origin: string) =>
  `### users
# @name users
GET ${origin}/users

> {% client.test("ok", () => client.assert(response.status === 200)); %}
`;

for (const colorScheme of ["light", "dark"] as const) {
  Deno.test(`browser: axe-core finds nothing critical, serious or moderate in the GraphQL explorer and builder, WebSocket, SSE, run results, a save conflict and the settings (${colorScheme})`, async () => {
    await using graphql = await startGraphqlServer();
    await using streams = streamServer();
    await using target = serve(() => Response.json({ ok: true }));
    const workspace = await Deno.makeTempDir({ prefix: "dial-ui-a11y-views-" });
    await Deno.writeTextFile(`${workspace}/api.http`, FILE(target.origin));
    const found: string[] = [];
    const check = async (page: Page, view: string) =>
      found.push(...(await violations(page)).map((v) => `${view}: ${v}`));
    try {
      await using app = await openApp(browser(), { workspace }, { colorScheme });
      const { page } = app;

      // GraphQL: the explorer searched, a field ticked (the builder), its docs, a response.
      await loadSchema(page, graphql.endpoint);
      await searchAndStep(page, "viewer", "Query.viewer");
      // The hits list scrolls, so it takes the keyboard: the arrow keys step through the hits.
      const hits = page.getByRole("listbox", { name: "Search results" });
      const current = page.locator('[role="treeitem"][aria-current="true"]');
      const first = await hits.getAttribute("aria-activedescendant");
      await hits.focus();
      await page.keyboard.press("ArrowDown");
      await current.and(page.locator(':not([data-path="Query.viewer"])')).waitFor();
      assert.notEqual(await hits.getAttribute("aria-activedescendant"), first);
      await page.keyboard.press("ArrowUp");
      await current.and(page.locator('[data-path="Query.viewer"]')).waitFor();
      assert.equal(await hits.getAttribute("aria-activedescendant"), first);
      await page.locator('[data-path="Query.viewer"]').getByRole("checkbox", { name: "viewer" })
        .check();
      await page.getByRole("button", { name: "Run", exact: true }).click();
      const response = page.getByRole("region", { name: "GraphQL response" });
      await response.getByTestId("status").filter({ hasText: "200" }).waitFor();
      await check(page, "GraphQL");

      // WebSocket: connected, a message out and its echo in, the entry opened.
      await page.getByRole("tab", { name: "WebSocket" }).click();
      await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${streams.port}/ws`);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
      await page.getByLabel("Message", { exact: true }).click();
      await page.keyboard.insertText("hello");
      await page.getByRole("button", { name: "Send message" }).click();
      const messages = page.getByRole("list", { name: "Messages" });
      await messages.getByText("echo: hello").click();
      await page.getByTestId("entry-detail").waitFor();
      await check(page, "WebSocket");
      await page.getByRole("button", { name: "Disconnect" }).click();
      await page.getByRole("button", { name: "Connect" }).waitFor();

      // SSE: two events received (one with an id and a type), the stream's end.
      await page.getByRole("tab", { name: "SSE" }).click();
      await page.getByLabel("SSE endpoint").fill(`${streams.origin}/events`);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByText("two", { exact: true }).waitFor();
      await page.getByText("one", { exact: true }).click();
      await check(page, "SSE");

      // ▶ Run: the step opened with its request, response and tests.
      await page.getByRole("tab", { name: "HTTP" }).click();
      const sidebar = await openRequest(page, "api.http", "GET users");
      await sidebar.getByRole("button", { name: "Run api.http" }).click();
      const runner = page.getByRole("region", { name: "Runner" });
      await runner.getByText("1 passed, 0 failed").waitFor();
      await runner.getByRole("button", { name: "Open users" }).click();
      const step = runner.getByRole("group", { name: /^GET .*\/users/ });
      await step.getByText("Request: GET").click();
      await step.getByLabel("Response body").getByText('"ok"').waitFor();
      await check(page, "run results");

      // A save conflict: the file changed on disk behind the tab's unsaved edit.
      await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/users?mine=1`);
      await page.locator(".request-tab-name", { hasText: "users •" }).waitFor();
      const outside = FILE(target.origin).replace("/users\n", "/users\nAccept: text/csv\n");
      await Deno.writeTextFile(`${workspace}/api.http`, outside);
      await page.getByLabel("URL", { exact: true }).focus();
      await page.keyboard.press("Control+s");
      await page.getByRole("alert", { name: "Save conflict" }).getByLabel("On disk")
        .getByText("Accept: text/csv").waitFor();
      await check(page, "conflict");

      // The settings: TLS and proxy open; the shortcuts dialog.
      await sidebar.getByRole("button", { name: "TLS and proxy" }).click();
      await page.getByRole("region", { name: "TLS and proxy settings" }).waitFor();
      await check(page, "TLS and proxy settings");
      await page.getByRole("button", { name: "Shortcuts" }).click();
      await page.getByRole("dialog").waitFor();
      await check(page, "shortcuts");
      assert.deepEqual(found, []);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  });
}
