/**
 * axe-core on the views no other axe test reaches, each with content, light and dark: the
 * OpenAPI panel (an operation's parameters open, a Send's violations), the HTTP history list
 * (opened, searched), the workspace's cookie jar with a cookie, a ▶ Run step's response opened
 * (its headers and body), a GraphQL subscription's streamed results, and a WebSocket binary
 * message received and opened.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve, tempDir } from "../_helpers.ts";
import { petServer, PETSTORE_30, SCHEMAS_30 } from "../e2e/_openapi_pets.ts";
import { subscriptionServer } from "../e2e/_graphql_servers.ts";
import { violations } from "./_axe.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";
import { loadSchema, setAuth, setEditorText } from "./_gql_app.ts";

const browser = fileBrowser();

/** Sets a cookie on /login, echoes binary WebSocket messages on /ws, answers JSON elsewhere. */
function siteServer() {
  return serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/ws") {
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onmessage = (event) => socket.send(event.data);
      return response;
    }
    const headers = path === "/login" ? { "Set-Cookie": "sid=abc123; Path=/; HttpOnly" } : {};
    return Response.json({ path }, { headers });
  });
}

const REQUESTS = `# @openapi ./spec/openapi.yaml
# @name lost
GET {{base}}/pets/1?drift=enum

> {% client.test("ok", () => client.assert(response.status === 200)); %}
`;

for (const colorScheme of ["light", "dark"] as const) {
  Deno.test(`browser: axe-core finds nothing critical, serious or moderate in the OpenAPI panel, the history list, the cookie jar, a ▶ Run step's response, a GraphQL subscription and a WebSocket binary message (${colorScheme})`, async () => {
    await using pets = petServer();
    await using site = siteServer();
    await using graphql = subscriptionServer({ kind: "bearer", token: "sub-token" });
    await using dir = await tempDir("dial-ui-a11y-panels-", {
      "spec/openapi.yaml": PETSTORE_30,
      "spec/schemas.yaml": SCHEMAS_30,
      "api.http": REQUESTS,
      "http-client.env.json": JSON.stringify({ dev: { base: `${pets.origin}/v1` } }),
    });
    const found: string[] = [];
    const check = async (page: Page, view: string) =>
      found.push(...(await violations(page)).map((v) => `${view}: ${v}`));
    await using app = await openApp(browser(), { workspace: dir.path }, { colorScheme });
    const { page } = app;

    // The OpenAPI panel: the operation, a parameter's schema open, a Send's violation marked.
    const sidebar = await openRequest(page, "api.http", "GET lost", "dev");
    const panel = page.getByRole("group", { name: "OpenAPI" });
    await panel.getByText("OpenAPI: GET /pets/{id}").waitFor();
    await panel.getByText("path id (required)").click();
    await panel.locator("details", { hasText: "path id (required)" }).locator("pre").waitFor();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByRole("region", { name: "OpenAPI check" })
      .getByText(/OpenAPI: 1 violation of the description/).waitFor();
    await page.getByLabel("Response body").locator(".cm-openapi-violation").waitFor();
    await check(page, "OpenAPI");

    // A ▶ Run step opened: its request, its response's headers and body.
    await sidebar.getByRole("button", { name: "Run api.http" }).click();
    const runner = page.getByRole("region", { name: "Runner" });
    await runner.getByText(/\d+ passed, \d+ failed/).waitFor();
    await runner.getByRole("button", { name: "Open lost" }).click();
    const step = runner.getByRole("group", { name: /^GET .*\/pets\/1/ });
    await step.getByText("Request: GET").click();
    await step.getByText(/^Response headers \(\d+\)$/).click();
    await step.getByRole("table", { name: "Response headers" }).waitFor();
    await step.getByLabel("Response body").getByText('"lost"').first().waitFor();
    await check(page, "run step");

    // The cookie jar with the cookie a response set; the history list opened and searched.
    await page.getByRole("tab", { name: "HTTP", exact: true }).click();
    await page.getByRole("button", { name: "New request tab" }).click();
    const url = page.getByLabel("URL", { exact: true });
    await url.fill(`${site.origin}/login`);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByLabel("Response body").getByText('"/login"').waitFor();
    await page.getByRole("button", { name: "Cookies" }).click();
    const jar = page.getByRole("region", { name: "Cookie jar" });
    await jar.getByText("abc123").waitFor();
    await check(page, "cookie jar");
    await page.locator("summary:visible", { hasText: /^History \(\d+\)$/ }).click();
    const history = page.getByRole("list", { name: "History" }).filter({ visible: true });
    await history.getByRole("button", { name: /\/login/ }).waitFor();
    await page.getByLabel("Search history").filter({ visible: true }).fill("login");
    await check(page, "history");

    // A GraphQL subscription's results, streamed.
    await page.getByRole("tab", { name: "GraphQL", exact: true }).click();
    await setAuth(page, { kind: "bearer", token: "sub-token" });
    await loadSchema(page, `${graphql.origin}/graphql`);
    await setEditorText(page, "Query", "subscription Down { countdown(from: 2) }");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const response = page.getByRole("region", { name: "GraphQL response" });
    await response.getByText("3 results").waitFor();
    await page.getByRole("button", { name: "Run", exact: true }).waitFor();
    await check(page, "GraphQL subscription");

    // A WebSocket binary message sent, echoed and opened.
    await page.getByRole("tab", { name: "WebSocket", exact: true }).click();
    await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${site.port}/ws`);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
    await page.getByLabel("Message type").selectOption("hex");
    await page.getByLabel("Message", { exact: true }).click();
    await page.keyboard.insertText("00 01 ff");
    await page.getByRole("button", { name: "Send message" }).click();
    const received = page.getByRole("list", { name: "Messages" }).locator(".log-row.in")
      .filter({ hasText: "00 01 ff" });
    await received.click();
    await page.getByTestId("entry-detail").waitFor();
    await check(page, "WebSocket binary");
    await page.getByRole("button", { name: "Disconnect" }).click();
    await page.getByRole("button", { name: "Connect" }).waitFor();
    assert.deepEqual(found, []);
  });
}
