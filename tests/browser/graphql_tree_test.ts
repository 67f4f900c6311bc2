import assert from "node:assert/strict";
import { fileBrowser } from "./_browser.ts";
import { openWithSchema, queryText } from "./_gql_app.ts";

const browser = fileBrowser();

Deno.test("browser: clicking a row's name toggles it, and ticking an object field expands it", async () => {
  await using app = await openWithSchema(browser());
  const { page } = app;
  const root = page.locator('[role="treeitem"][data-path="Query"]');
  assert.equal(await root.getAttribute("aria-expanded"), "true");
  await root.locator(".name").click();
  assert.equal(await root.getAttribute("aria-expanded"), "false");
  await root.locator(".name").click();
  assert.equal(await root.getAttribute("aria-expanded"), "true");
  const codeOfConduct = page.locator('[role="treeitem"][data-path="Query.codeOfConduct"]');
  assert.equal(await codeOfConduct.getAttribute("aria-expanded"), "false");
  await codeOfConduct.getByRole("checkbox", { name: "codeOfConduct", exact: true }).check();
  assert.equal(await codeOfConduct.getAttribute("aria-expanded"), "true");
  await page.locator('[data-path="Query.codeOfConduct.body"]').waitFor();
  assert.match(await queryText(page), /codeOfConduct\(key: \$key\) \{\n {4}__typename\n/);
});
