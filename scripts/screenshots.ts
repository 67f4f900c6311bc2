/**
 * Renders each tab of `dial ui` into `docs/ui-<tab>.png` (shown in docs/ui.md), against
 * local servers: graphql-yoga serving GitHub's schema, and a small JSON API.
 *
 * Run: `deno run -A --config tests/deno.json scripts/screenshots.ts` (needs Debian's Chromium at
 * /usr/bin/chromium; the tests' configuration resolves Playwright and the test servers).
 * @module
 */
import { launchBrowser, openApp } from "../tests/browser/_browser.ts";
import { startGraphqlServer } from "../tests/browser/_graphql_server.ts";
import { serve } from "../tests/_helpers.ts";

const DOCS = new URL("../docs/", import.meta.url);
await Deno.mkdir(DOCS, { recursive: true });

await using api = serve(() =>
  Response.json({ id: 1, login: "octocat", followers: 1234, site_admin: false, plan: null })
);
await using graphql = await startGraphqlServer((r) =>
  r.headers.get("authorization") === "Bearer demo"
);
await using browser = await launchBrowser();
await using app = await openApp(browser);
const { page } = app;

await page.getByLabel("Auth", { exact: true }).selectOption("bearer");
await page.getByLabel("Token").fill("demo");

await page.getByLabel("URL", { exact: true }).fill(`${api.origin}/users/octocat`);
await page.getByLabel("Headers name 1", { exact: true }).fill("Accept");
await page.getByLabel("Headers value 1", { exact: true }).fill("application/json");
await page.getByRole("button", { name: "Send", exact: true }).click();
await page.getByTestId("status").first().waitFor();
await page.getByText("Response headers").click();
await page.screenshot({ path: new URL("ui-http.png", DOCS).pathname });

await page.getByRole("tab", { name: "GraphQL" }).click();
await page.getByLabel("Endpoint URL").fill(graphql.endpoint);
await page.getByRole("button", { name: "Load schema" }).click();
// Auth is scoped to the origin it was first used with (the HTTP tab's): add this one too.
await page.getByRole("button", { name: `Add ${new URL(graphql.endpoint).origin} to auth` }).click();
await page.getByRole("button", { name: "Load schema" }).click();
await page.getByRole("tree").waitFor();
const search = page.getByRole("searchbox", { name: "Search schema" });
await search.fill("stargazerCount");
const current = page.locator('[role="treeitem"][aria-current="true"]');
while (await current.getAttribute("data-path") !== "Query.repository.stargazerCount") {
  await search.press("Enter");
}
await current.getByRole("checkbox", { name: "stargazerCount", exact: true }).check();
await page.getByLabel("Variables JSON", { exact: true }).fill(
  '{\n  "owner": "denoland",\n  "name": "deno"\n}',
);
await page.getByRole("button", { name: "Run" }).click();
await page.getByTestId("status").nth(1).waitFor();
await page.screenshot({ path: new URL("ui-graphql.png", DOCS).pathname });

await page.getByRole("tab", { name: "WebSocket" }).click();
await page.screenshot({ path: new URL("ui-websocket.png", DOCS).pathname });
await page.getByRole("tab", { name: "SSE" }).click();
await page.screenshot({ path: new URL("ui-sse.png", DOCS).pathname });
