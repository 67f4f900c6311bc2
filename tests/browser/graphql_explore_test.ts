import assert from "node:assert/strict";
import { fileBrowser } from "./_browser.ts";
import {
  fieldBox,
  openWithQuery,
  openWithSchema,
  queryText,
  searchAndStep,
  setEditorText,
  tickField,
  variablesText,
} from "./_gql_app.ts";

const browser = fileBrowser();

Deno.test("browser: schema search highlights matches, expands their parents, counts, steps with Enter, and restores on clear", async () => {
  await using app = await openWithSchema(browser());
  const { page, graphql } = app;
  const expandedBefore = await page.locator('[role="treeitem"][aria-expanded="true"]').count();
  const search = page.getByRole("searchbox", { name: "Search schema" });
  await search.fill("stargazerCount");
  const count = page.getByRole("status").filter({ hasText: "matches" });
  assert.match(await count.textContent() ?? "", /^\d+ matches, 1 of \d+$/);
  const marks = page.locator('[role="tree"] mark');
  assert.ok(await marks.count() > 0);
  assert.equal(await marks.first().textContent(), "stargazerCount");
  // The first hit's parents are expanded and its row is in the DOM.
  const current = page.locator('[role="treeitem"][aria-current="true"]');
  const firstPath = await current.getAttribute("data-path") ?? "";
  assert.match(firstPath, /\.stargazerCount$/);
  const parent = firstPath.slice(0, firstPath.lastIndexOf("."));
  assert.equal(
    await page.locator(`[role="treeitem"][data-path="${parent}"]`).getAttribute("aria-expanded"),
    "true",
  );
  await search.press("Enter");
  assert.match(await count.textContent() ?? "", /, 2 of /);
  const second = await current.getAttribute("data-path");
  assert.notEqual(second, firstPath);
  assert.match(second ?? "", /stargazerCount$/);
  await search.fill("");
  await page.locator('[role="tree"] mark').first().waitFor({ state: "detached" });
  // The tree is virtualized: clearing shortens it, the browser clamps its scroll position and
  // the rows at the top are painted on the following scroll event. Wait for that paint rather
  // than counting the rows of the frame in between.
  await page.getByRole("tree", { name: "Schema" }).evaluate((tree) => tree.scrollTo(0, 0));
  await page.waitForFunction(
    `document.querySelectorAll('[role="treeitem"][aria-expanded="true"]').length === ${expandedBefore}`,
  );
  assert.equal(graphql.introspections(), 1);
});

Deno.test("browser: ticking fields builds the query, required arguments become variables, and editing the text updates the checkboxes", async () => {
  await using app = await openWithSchema(browser());
  const { page, graphql } = app;
  await tickField(page, "Query.repository.stargazerCount", true);
  assert.equal(
    await queryText(page),
    "query ($owner: String!, $name: String!) {\n  repository(owner: $owner, name: $name) {\n    stargazerCount\n  }\n}",
  );
  // Nothing is made up for a value only the user knows: null, and the check names it.
  assert.deepEqual(JSON.parse(await variablesText(page)), { owner: null, name: null });
  assert.match(
    await page.getByRole("alert").filter({ hasText: "$owner" }).textContent() ?? "",
    /^Variable "\$owner" of non-null type "String!" must not be null\. \(and 1 more\)$/,
  );
  // An optional argument can be switched on.
  await searchAndStep(page, "followRenames", "Query.repository(followRenames)");
  await page.locator('[data-path="Query.repository(followRenames)"]').getByRole("checkbox").check();
  assert.match(await queryText(page), /\$followRenames: Boolean/);
  assert.deepEqual(Object.keys(JSON.parse(await variablesText(page))).sort(), [
    "followRenames",
    "name",
    "owner",
  ]);
  // Interfaces and unions offer "... on Type".
  await page.getByRole("searchbox", { name: "Search schema" }).fill("");
  await page.locator('[data-path="Query.node"]').locator(".twisty").click();
  const onType = page.locator('[role="treeitem"][data-path^="Query.node.on "]').first();
  await onType.waitFor();
  const typeName = (await onType.getAttribute("data-path"))!.slice("Query.node.on ".length);
  assert.equal(await onType.locator(".name").textContent(), `... on ${typeName}`);
  await onType.getByRole("checkbox", { name: `on ${typeName}` }).check();
  assert.match(
    await queryText(page),
    new RegExp(`node\\(id: \\$id\\) \\{\\n    \\.\\.\\. on ${typeName} \\{`),
  );
  await page.locator('[data-path="Query.node"]').locator(".twisty").click();
  // Editing the text updates the checkboxes.
  await setEditorText(page, "Query", "query { viewer { bio } }");
  // Clearing the search scrolled the tree back to the top; Query.viewer is the last field.
  await page.getByRole("tree", { name: "Schema" }).evaluate((el) => el.scrollTop = el.scrollHeight);
  await page.locator('[data-path="Query.viewer"]').waitFor();
  await fieldBox(page, "Query.viewer")
    .isChecked().then((c) => assert.ok(c));
  await page.locator('[data-path="Query.viewer"]').locator(".twisty").click();
  await page.locator('[data-path="Query.viewer"]').scrollIntoViewIfNeeded();
  assert.ok(
    await fieldBox(page, "Query.viewer.bio").isChecked(),
  );
  assert.equal(
    await fieldBox(page, "Query.repository").isChecked(),
    false,
  );
  assert.equal(graphql.introspections(), 1);
});

Deno.test("browser: the variables editor explains broken JSON and wrong types in words, and Format pretty-prints", async () => {
  await using app = await openWithQuery(
    browser(),
    "query ($owner: String!) { repositoryOwner(login: $owner) { login } }",
  );
  const { page } = app;
  await setEditorText(page, "Variables JSON", '{"owner": ');
  const alert = page.getByRole("alert").filter({ hasText: "JSON" });
  // The runtime's own explanation is not asserted, only dial's framing and the position.
  assert.match(await alert.textContent() ?? "", /^Invalid JSON: .+\(line 1, column \d+\)/);
  await setEditorText(page, "Variables JSON", '{"owner": "a",\n}');
  assert.match(
    await alert.textContent() ?? "",
    /^Invalid JSON: .+\(line 2, column 1\)/,
  );
  await setEditorText(page, "Variables JSON", '{"owner": 5}');
  const typeAlert = page.getByRole("alert").filter({ hasText: "$owner" });
  assert.match(
    await typeAlert.textContent() ?? "",
    /Variable "\$owner" got invalid value 5; String cannot represent a non string value: 5/,
  );
  await setEditorText(page, "Variables JSON", '{"owner":"octocat"}');
  await page.getByRole("alert").filter({ hasText: "$owner" }).waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Format" }).click();
  assert.equal(await variablesText(page), '{\n  "owner": "octocat"\n}');
});

Deno.test("browser: the query editor highlights GraphQL, completes from the schema and flags unknown fields", async () => {
  await using app = await openWithQuery(browser(), "query { viewer { nosuchfield } }");
  const { page } = app;
  const lint = page.locator(".query-editor .cm-lintRange-error");
  await lint.first().waitFor();
  assert.equal(await lint.first().textContent(), "nosuchfield");
  assert.ok(await page.locator(".query-editor .cm-line span").count() > 3, "highlighted tokens");
  await setEditorText(page, "Query", "query { viewer { avatar");
  await page.getByLabel("Query", { exact: true }).press("End");
  await page.keyboard.press("Control+Space");
  const option = page.getByRole("option", { name: /avatarUrl/ });
  await option.first().waitFor();
});
