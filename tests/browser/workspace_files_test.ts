import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

const FILE = (origin: string) =>
  `# Users API
@token = not-a-secret

### list users
# @name list
GET ${origin}/users
Accept: application/json

> {% client.test("ok", () => client.assert(response.status === 200)); %}

### create
# @name create
POST ${origin}/users
Content-Type: application/json

{"name": "ann"}
`;

/** Runs `action`, then waits until every draft it changed has reached the workspace. */
async function saved(page: Page, action: () => Promise<void>): Promise<void> {
  await action();
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
}

Deno.test("browser: the workspace sidebar opens .http requests in tabs and saves them in place", async (t) => {
  await using target = serve((request) => Response.json({ path: new URL(request.url).pathname }));
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-files-" });
  const file = `${workspace}/api.http`;
  await Deno.writeTextFile(file, FILE(target.origin));

  await t.step("open a request, edit it, Ctrl+S writes only its lines", async () => {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const sidebar = await openRequest(page, "api.http", "GET list");
    const url = page.getByLabel("URL", { exact: true });
    assert.equal(await url.inputValue(), `${target.origin}/users`);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    await url.fill(`${target.origin}/users?page=2`);
    await page.getByRole("tab", { name: "list •" }).waitFor();
    await url.press("Control+s");
    await page.getByRole("status").filter({ hasText: "Saved to api.http" }).waitFor();
    assert.equal(
      await Deno.readTextFile(file),
      FILE(target.origin).replace("/users\nAccept", "/users?page=2\nAccept"),
    );
    // A second request in its own tab; the first keeps its response.
    await sidebar.getByRole("button", { name: "POST create" }).click();
    assert.equal(await page.getByLabel("Request body").textContent(), '{"name": "ann"}');
    await saved(page, () => page.getByRole("tab", { name: "list", exact: true }).click());
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  });

  await t.step(
    "a file changed on disk reloads its tab; tabs come back after a restart",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      // The open tabs of the last run are back, the active one showing.
      await page.getByRole("tab", { name: "create", exact: true }).waitFor();
      const url = page.getByLabel("URL", { exact: true });
      assert.equal(await url.inputValue(), `${target.origin}/users?page=2`);
      await page.getByRole("navigation", { name: "Workspace" }).getByRole("button", {
        name: "api.http",
        exact: true,
      })
        .click();
      await page.getByRole("button", { name: "GET list" }).waitFor();
      await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
      const text = await Deno.readTextFile(file);
      await Deno.writeTextFile(file, text.replace("/users?page=2", "/people"));
      await page.getByRole("status").filter({ hasText: "Reloaded" }).waitFor();
      assert.equal(await url.inputValue(), `${target.origin}/people`);
    },
  );

  await t.step("Save as writes a new file; F1 lists the shortcuts", async () => {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    await page.getByRole("button", { name: "New request tab" }).click();
    await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/health`);
    await page.getByRole("button", { name: "Save as…" }).click();
    await page.getByLabel("File", { exact: true }).fill("checks/health.http");
    await page.getByLabel("Request name").fill("health");
    await Deno.mkdir(`${workspace}/checks`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Saved to checks/health.http" }).waitFor();
    assert.equal(
      await Deno.readTextFile(`${workspace}/checks/health.http`),
      `### health\n# @name health\nGET ${target.origin}/health\n`,
    );
    // Rename and delete, from the sidebar.
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    page.once("dialog", (dialog) => void dialog.accept("checks/up.http"));
    await sidebar.getByRole("button", { name: "Rename checks/health.http" }).click();
    await sidebar.getByRole("button", { name: "checks/up.http", exact: true }).waitFor();
    assert.ok(await Deno.stat(`${workspace}/checks/up.http`));
    page.once("dialog", (dialog) => void dialog.accept());
    await sidebar.getByRole("button", { name: "Delete checks/up.http" }).click();
    await sidebar.getByRole("button", { name: "checks/up.http", exact: true }).waitFor({
      state: "detached",
    });
    await assert.rejects(Deno.stat(`${workspace}/checks/up.http`), Deno.errors.NotFound);
    // GRAPHQL and WEBSOCKET requests open in their own tabs (the file appears as it is written).
    await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
    await Deno.writeTextFile(
      `${workspace}/streams.http`,
      `### q\nGRAPHQL ${target.origin}/graphql\n\nquery Q($n: Int) { viewer { login } }\n\n{"n": 3}\n\n` +
        `### feed\nWEBSOCKET ws://127.0.0.1:1/feed\n`,
    );
    await sidebar.getByRole("button", { name: "streams.http", exact: true }).click();
    await sidebar.getByRole("button", { name: "GRAPHQL q" }).click();
    await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
    assert.equal(await page.getByLabel("Endpoint URL").inputValue(), `${target.origin}/graphql`);
    await page.getByLabel("Query", { exact: true }).getByText("viewer").waitFor();
    await page.getByLabel("Variables JSON").getByText('"n": 3').waitFor();
    await sidebar.getByRole("button", { name: "WEBSOCKET feed" }).click();
    await page.getByRole("tab", { name: "WebSocket", selected: true }).waitFor();
    assert.equal(await page.getByLabel("WebSocket endpoint").inputValue(), "ws://127.0.0.1:1/feed");
    await page.keyboard.press("F1");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.getByText("Save the request into its .http file").waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  await Deno.remove(workspace, { recursive: true });
});

Deno.test("browser: a query edit of a URL continued over lines (REST Client) saves only the changed parameter's line", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-files-" });
  const file = `${workspace}/users.http`;
  const text = `### list users
# @name listUsers
GET https://api.test/users
    ?page=1
    &size=20
    &sort=name
Content-Type:   application/json
`;
  await Deno.writeTextFile(file, text);
  try {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    await openRequest(page, "users.http", "GET listUsers");
    const url = page.getByLabel("URL", { exact: true });
    assert.equal(await url.inputValue(), "https://api.test/users?page=1&size=20&sort=name");
    await url.fill("https://api.test/users?page=1&size=50&sort=name");
    await url.press("Control+s");
    await page.getByRole("status").filter({ hasText: "Saved to users.http" }).waitFor();
    assert.equal(await Deno.readTextFile(file), text.replace("&size=20", "&size=50"));
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
