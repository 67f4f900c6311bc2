import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { waitFor } from "../_helpers.ts";
import { fileBrowser } from "./_browser.ts";
import { openWithSchema } from "./_gql_app.ts";

const browser = fileBrowser();

/** Waits until the element's scrollTop reaches a value (the page's CSP forbids eval). */
async function scrolledTo(element: Locator, top: number): Promise<void> {
  let seen: unknown;
  await waitFor(async () => (seen = await element.evaluate((el) => el.scrollTop)) === top, {
    message: () => `scrollTop ${top} (it is ${seen})`,
  });
}

Deno.test("browser: search shows the current hit's path and a results list, finds descriptions, restores the scroll on Escape, and the docs pane describes the hit", async () => {
  await using app = await openWithSchema(browser());
  const { page } = app;
  const tree = page.getByRole("tree", { name: "Schema" });
  await tree.hover();
  await page.mouse.wheel(0, 150);
  await scrolledTo(tree, 150);
  const search = page.getByRole("searchbox", { name: "Search schema" });
  await search.fill("stargazerCount");
  const results = page.getByRole("listbox", { name: "Search results" });
  const option = results.getByRole("option", { name: /^field\s*Repository\.stargazerCount$/ });
  await option.click();
  const current = page.locator('[role="treeitem"][aria-current="true"]');
  assert.equal(await current.getAttribute("data-path"), "Query.repository.stargazerCount");
  const crumb = page.getByRole("navigation", { name: "Current match" });
  assert.equal(await crumb.textContent(), "Query›repository›stargazerCount");
  await page.getByText("Docs: stargazerCount").click();
  const docs = page.getByRole("region", { name: "Docs" });
  assert.match(await docs.textContent() ?? "", /^stargazerCount: Int!.*stargazers/);
  // Descriptions are searched after names.
  await search.fill("gist");
  const described = results.getByRole("option").filter({ hasText: "(in its description)" });
  assert.ok(await described.count() > 0);
  // Escape restores the expansion and the scroll position from before the search.
  await search.press("Escape");
  await results.waitFor({ state: "detached" });
  await scrolledTo(tree, 150);
});
