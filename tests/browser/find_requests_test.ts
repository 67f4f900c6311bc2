import assert from "node:assert/strict";
import { serve, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

/** 100 files of 10 named requests each: the 1,000-request workspace of the issue. */
async function bigWorkspace(origin: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-find-" });
  for (let f = 0; f < 100; f++) {
    const requests = [];
    for (let r = 0; r < 10; r++) {
      const n = f * 10 + r;
      requests.push(`### item-${n}\n# @name item-${n}\nGET ${origin}/items/${n}\n`);
    }
    await Deno.writeTextFile(`${dir}/api-${String(f).padStart(3, "0")}.http`, requests.join("\n"));
  }
  return dir;
}

Deno.test("browser: find and move fast on 1,000 requests", async (t) => {
  await using target = serve((request) => Response.json({ path: new URL(request.url).pathname }));
  const workspace = await bigWorkspace(target.origin);
  try {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    const tree = sidebar.getByRole("tree", { name: "Request files" });
    // The tree knows its 100 files from the first one drawn.
    await tree.locator('[role="treeitem"][aria-posinset="1"][aria-setsize="100"]').waitFor();
    const tabs = page.getByRole("tablist", { name: "Open requests" });

    await t.step(
      "the tree draws the rows in view only; keys and scrolling reach the rest",
      async () => {
        const drawn = await tree.getByRole("treeitem").count();
        assert.ok(drawn > 0 && drawn < 100, `${drawn} rows drawn of 100`);
        const last = tree.getByRole("button", { name: "api-099.http", exact: true });
        assert.equal(await last.count(), 0);
        const first = tree.getByRole("button", { name: "api-000.http", exact: true });
        await first.focus();
        await page.keyboard.press("End");
        assert.equal(await page.locator(":focus").textContent(), "api-099.http");
        assert.equal(await last.getAttribute("tabindex"), "0");
        assert.equal(await tree.locator('[tabindex="0"]').count(), 1);
        await page.keyboard.press("ArrowUp");
        assert.equal(await page.locator(":focus").textContent(), "api-098.http");
        await page.keyboard.press("Home");
        assert.equal(await page.locator(":focus").textContent(), "api-000.http");
        await last.waitFor({ state: "detached" });
        // The mouse wheel's way: the sidebar scrolled to its end draws the last files.
        await sidebar.evaluate((nav) => nav.scrollTop = nav.scrollHeight);
        await last.click();
        await tree.getByRole("button", { name: "GET item-999", exact: true }).waitFor();
        await last.click();
        await tree.getByRole("button", { name: "GET item-999", exact: true }).waitFor({
          state: "detached",
        });
        // Scrolled out of view, the focused row stays drawn: focus is not lost.
        await sidebar.evaluate((nav) => nav.scrollTop = 0);
        await first.waitFor();
        assert.equal(await page.locator(":focus").textContent(), "api-099.http");
        assert.equal(await tree.locator('[tabindex="0"]').count(), 1);
        await first.focus();
      },
    );

    await t.step("quick-open finds a request by name, URL or file and opens it", async () => {
      await page.keyboard.press("Control+p");
      const box = page.getByRole("combobox", { name: "Find a request by name, URL or file" });
      await box.fill("item-937");
      const results = page.getByRole("listbox", { name: "Requests" });
      await results.getByRole("option", { name: /item-937/, selected: true }).waitFor();
      await box.press("Enter");
      await tabs.getByRole("tab", { name: "item-937", selected: true }).waitFor();
      assert.equal(
        await page.getByLabel("URL", { exact: true }).inputValue(),
        `${target.origin}/items/937`,
      );
      // By URL and file too, and arrow keys pick another result.
      await page.keyboard.press("Control+k");
      await box.fill("api-004 /items/4");
      await results.getByRole("option", { name: /item-40 /, selected: true }).waitFor();
      await box.press("ArrowDown");
      await results.getByRole("option", { name: /item-41 /, selected: true }).waitFor();
      await box.press("Escape");
      await box.waitFor({ state: "detached" });
    });

    await t.step("the sidebar filter shows the matching requests; a click previews", async () => {
      const filter = sidebar.getByRole("searchbox", { name: "Filter requests" });
      // Every request matches: 1,100 rows, of which the view's are drawn; End reaches the last.
      await filter.fill("item");
      await tree.locator('[role="treeitem"][aria-level="2"][aria-setsize="10"]').first().waitFor();
      assert.ok(await tree.getByRole("treeitem").count() < 100);
      await tree.getByRole("button", { name: "GET item-0", exact: true }).focus();
      await page.keyboard.press("End");
      assert.equal(await page.locator(":focus").textContent(), "GET item-999");
      await page.keyboard.press("Home");
      assert.equal(await page.locator(":focus").textContent(), "api-000.http");
      // Its arrow (the style sheet's, out of the accessible name) says it is unfolded.
      assert.equal(await page.locator(":focus").getAttribute("aria-expanded"), "true");
      assert.match(
        String(await page.evaluate('getComputedStyle(document.activeElement, "::before").content')),
        /^"▾ "/,
      );
      await filter.fill("item-55");
      await tree.getByRole("button", { name: "GET item-555" }).waitFor();
      assert.equal(await tree.getByRole("button", { name: /^GET item-/ }).count(), 11);
      await tree.getByRole("button", { name: "GET item-551" }).click();
      const preview = tabs.getByRole("tab", { name: "item-551", selected: true });
      await preview.waitFor();
      assert.match(await preview.getAttribute("class") ?? "", /\bpreview\b/);
      const count = await tabs.getByRole("tab").count();
      // Another click replaces the preview; a double click keeps it.
      await tree.getByRole("button", { name: "GET item-552" }).click();
      await tabs.getByRole("tab", { name: "item-552", selected: true }).waitFor();
      assert.equal(await tabs.getByRole("tab").count(), count);
      assert.equal(await tabs.getByRole("tab", { name: "item-551" }).count(), 0);
      await tree.getByRole("button", { name: "GET item-552" }).dblclick();
      await tabs.locator(".request-tab.selected:not(.preview)", { hasText: "item-552" }).waitFor();
      await tree.getByRole("button", { name: "GET item-553" }).click();
      await tabs.getByRole("tab", { name: "item-553", selected: true }).waitFor();
      assert.equal(await tabs.getByRole("tab").count(), count + 1);
      // An edit keeps a preview too.
      await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/items/553?x=1`);
      await tabs.locator(".request-tab.selected:not(.preview)", { hasText: "item-553" }).waitFor();
      await filter.fill("");
    });

    await t.step("the tree moves with arrow keys; Ctrl+Enter sends from it", async () => {
      const first = tree.getByRole("button", { name: "api-000.http", exact: true });
      // One Tab stop for the whole tree.
      assert.equal(await tree.locator('[tabindex="0"]').count(), 1);
      await first.focus();
      await page.keyboard.press("ArrowRight");
      await tree.getByRole("button", { name: "GET item-0", exact: true }).waitFor();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      assert.equal(
        await page.locator(":focus").textContent(),
        "GET item-1",
      );
      await page.keyboard.press("Enter");
      await tabs.locator(".request-tab.selected:not(.preview)", { hasText: "item-1" }).waitFor();
      await page.keyboard.press("ArrowLeft");
      assert.match(await page.locator(":focus").textContent() ?? "", /api-000/);
      const before = target.requests.length;
      await page.keyboard.press("Control+Enter");
      await waitFor(() => target.requests.length === before + 1, { message: "sent from the tree" });
      assert.equal(new URL(target.requests.at(-1)!.url).pathname, "/items/1");
      await page.keyboard.press("ArrowLeft");
      await tree.getByRole("button", { name: "GET item-0", exact: true }).waitFor({
        state: "detached",
      });
    });

    await t.step("request tabs are a tab list that scrolls instead of wrapping", async () => {
      for (let n = 100; n < 116; n++) {
        await page.keyboard.press("Control+p");
        const box = page.getByRole("combobox", { name: "Find a request by name, URL or file" });
        await box.fill(`item-${n}`);
        await page.getByRole("option", { name: new RegExp(`item-${n} `), selected: true })
          .waitFor();
        await box.press("Enter");
        await tabs.getByRole("tab", { name: `item-${n}`, selected: true }).waitFor();
      }
      const layout = await page.evaluate(`(() => {
        const list = document.querySelector('[role="tablist"][aria-label="Open requests"]');
        const tops = new Set([...list.children].map((c) => c.offsetTop));
        return { rows: tops.size, scrolls: list.scrollWidth > list.clientWidth };
      })()`);
      assert.deepEqual(layout, { rows: 1, scrolls: true });
      await tabs.getByRole("tab", { name: "item-115" }).focus();
      await page.keyboard.press("ArrowLeft");
      await tabs.getByRole("tab", { name: "item-114", selected: true }).waitFor();
      await page.keyboard.press("Home");
      await tabs.getByRole("tab").first().and(page.locator('[aria-selected="true"]')).waitFor();
    });
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
