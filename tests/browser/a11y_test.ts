import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { violations } from "./_axe.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

for (const colorScheme of ["light", "dark"] as const) {
  Deno.test(`browser: axe-core finds nothing critical, serious or moderate (${colorScheme})`, async () => {
    await using target = serve(() => Response.json({ ok: true }));
    const workspace = await Deno.makeTempDir({ prefix: "dial-ui-a11y-" });
    await Deno.writeTextFile(
      `${workspace}/api.http`,
      `### users\n# @name users\nGET ${target.origin}/users\n\n> {% client.test("ok", () => client.assert(response.status === 200)); %}\n`,
    );
    // A file that does not parse: the tree shows why, as a row of its own.
    await Deno.writeTextFile(`${workspace}/broken.http`, "### lonely\nGET /lonely\nnot a header\n");
    try {
      await using app = await openApp(browser(), { workspace }, { colorScheme });
      const { page } = app;
      const sidebar = page.getByRole("navigation", { name: "Workspace" });
      await sidebar.getByRole("button", { name: "broken.http", exact: true }).click();
      await sidebar.getByRole("treeitem", { name: /Cannot parse header/ }).waitFor();
      await sidebar.getByRole("button", { name: "api.http", exact: true }).click();
      await sidebar.getByRole("button", { name: "GET users" }).dblclick();
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("region", { name: "Tests" }).waitFor();
      await sidebar.getByRole("button", { name: "Run api.http" }).click();
      await page.getByRole("region", { name: "Runner" }).getByText("1 passed, 0 failed").waitFor();
      const found: string[] = [];
      found.push(...(await violations(page)).map((v) => `HTTP: ${v}`));
      await page.keyboard.press("Control+p");
      await page.getByRole("option", { name: /users/ }).waitFor();
      found.push(...(await violations(page)).map((v) => `quick-open: ${v}`));
      await page.keyboard.press("Escape");
      await sidebar.getByRole("searchbox", { name: "Filter requests" }).fill("users");
      await sidebar.getByRole("treeitem", { name: "api.http" }).and(
        page.locator('[aria-setsize="1"]'),
      ).waitFor();
      found.push(...(await violations(page)).map((v) => `filtered tree: ${v}`));
      for (const tab of ["GraphQL", "WebSocket", "SSE"]) {
        await page.getByRole("tab", { name: tab }).click();
        await page.getByRole("tab", { name: tab, selected: true }).waitFor();
        found.push(...(await violations(page)).map((v) => `${tab}: ${v}`));
      }
      assert.deepEqual(found, []);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  });
}
