import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

/** Runs `action`, then waits until every draft it changed has reached the workspace. */
async function saved(page: Page, action: () => Promise<void>): Promise<void> {
  await action();
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
}

Deno.test("browser: the workspace remembers the UI across restarts and tabs", async (t) => {
  await using target = serve(() => Response.json({ ok: true }));
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-workspace-" });
  const url = `${target.origin}/users?page=2`;

  await t.step(
    "drafts and history survive a restart on another port; no secret is kept",
    async () => {
      let firstPort: number;
      {
        await using app = await openApp(browser(), { workspace });
        const { page } = app;
        firstPort = app.server.port;
        await page.getByLabel("URL", { exact: true }).fill(url);
        await page.getByLabel("Headers name 1", { exact: true }).fill("Authorization");
        await page.getByLabel("Headers value 1", { exact: true }).fill("Bearer hidden-token-7");
        await page.getByRole("button", { name: "Send", exact: true }).click();
        await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
        await saved(page, () => page.getByRole("tab", { name: "GraphQL" }).click());
      }
      const file = await Deno.readTextFile(`${workspace}/.dial/ui-state.json`);
      assert.ok(file.includes("/users?page=2"), file);
      assert.ok(!file.includes("hidden-token-7"), "no secret in the workspace state");
      assert.equal(await Deno.readTextFile(`${workspace}/.dial/.gitignore`), "*\n");
      assert.equal((await Deno.stat(`${workspace}/.dial/ui-state.json`)).mode! & 0o777, 0o600);

      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      assert.notEqual(app.server.port, firstPort);
      // The tab that was open, the URL, the header's name and the history are back.
      await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
      await page.getByRole("tab", { name: "HTTP" }).click();
      assert.equal(await page.getByLabel("URL", { exact: true }).inputValue(), url);
      assert.equal(
        await page.getByLabel("Headers name 1", { exact: true }).inputValue(),
        "Authorization",
      );
      assert.equal(await page.getByLabel("Headers value 1", { exact: true }).inputValue(), "");
      await page.getByText("History (1)").waitFor();
    },
  );

  await t.step("New window opens a second tab of the same app, with the same drafts", async () => {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const [second] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("button", { name: "New window" }).click(),
    ]);
    await second.getByRole("tablist", { name: "Request kind" }).waitFor();
    await second.getByRole("tab", { name: "HTTP" }).click();
    assert.equal(await second.getByLabel("URL", { exact: true }).inputValue(), url);
    // Both tabs hold a session: each can send.
    await second.getByRole("button", { name: "Send", exact: true }).click();
    await second.getByTestId("status").filter({ hasText: "200" }).waitFor();
    await page.getByRole("tab", { name: "HTTP" }).click();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  });

  await Deno.remove(workspace, { recursive: true });
});
