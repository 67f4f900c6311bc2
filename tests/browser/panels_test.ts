import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

const WIDE = { viewport: { width: 1600, height: 900 } };

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  assert.ok(found, `${selector} is not shown`);
  return found;
}

/** Runs `action`, then waits until every draft it changed has reached the workspace. */
async function saved(page: Page, action: () => Promise<void>): Promise<void> {
  await action();
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
}

Deno.test("browser: the sidebar and the request/response split resize by pointer and keyboard, and come back after a restart", async (t) => {
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-panels-" });
  await Deno.writeTextFile(`${workspace}/api.http`, "GET http://127.0.0.1:1/x\n");
  let dragged = 0;

  await t.step("drag the sidebar, move the split with the keyboard", async () => {
    await using app = await openApp(browser(), { workspace }, WIDE);
    const { page } = app;
    const sidebarBar = page.getByRole("separator", { name: "Resize the sidebar" });
    assert.equal(await sidebarBar.getAttribute("aria-valuenow"), "240");
    assert.equal(Math.round((await box(page, "nav.sidebar")).width), 240);
    const bar = (await sidebarBar.boundingBox())!;
    await saved(page, async () => {
      await page.mouse.move(bar.x + bar.width / 2, bar.y + 100);
      await page.mouse.down();
      await page.mouse.move(bar.x + 60, bar.y + 120, { steps: 4 });
      await page.mouse.move(bar.x + 120, bar.y + 120, { steps: 4 });
      await page.mouse.up();
    });
    // The sidebar ends where the pointer let go.
    const expected = bar.x + 120 - (await box(page, ".body")).x;
    dragged = Number(await sidebarBar.getAttribute("aria-valuenow"));
    assert.ok(Math.abs(dragged - expected) <= 1, `the sidebar is ${dragged} px after the drag`);
    assert.ok(Math.abs((await box(page, "nav.sidebar")).width - dragged) <= 1);

    const split = page.getByRole("separator", { name: "Resize the request and response" });
    assert.equal(await split.getAttribute("aria-valuenow"), "45");
    const before = (await box(page, ".http-request")).width;
    await saved(page, async () => {
      await split.focus();
      await split.press("Shift+ArrowRight");
      await split.press("ArrowRight");
    });
    assert.equal(await split.getAttribute("aria-valuenow"), "57");
    const after = (await box(page, ".http-request")).width;
    assert.ok(after > before + 50, `the request column grew from ${before} to ${after} px`);
    // End and Home stop at the bounds; the keyboard alone reaches them.
    await split.press("End");
    assert.equal(await split.getAttribute("aria-valuenow"), "80");
    await saved(page, () => split.press("ArrowLeft"));
    assert.equal(await split.getAttribute("aria-valuenow"), "78");
  });

  await t.step("a restart on another port shows the same sizes", async () => {
    await using app = await openApp(browser(), { workspace }, WIDE);
    const { page } = app;
    const sidebarBar = page.getByRole("separator", { name: "Resize the sidebar" });
    const width = Number(await sidebarBar.getAttribute("aria-valuenow"));
    assert.ok(width === dragged, `the sidebar came back at ${width} px`);
    assert.ok(Math.abs((await box(page, "nav.sidebar")).width - width) <= 1);
    const split = page.getByRole("separator", { name: "Resize the request and response" });
    assert.equal(await split.getAttribute("aria-valuenow"), "78");
    const state = await Deno.readTextFile(`${workspace}/.dial/ui-state.json`);
    const values = JSON.parse(state).values;
    assert.equal(values["layout.http"], "78");
    assert.equal(values["layout.sidebar"], String(width));
  });
  await Deno.remove(workspace, { recursive: true });
});
