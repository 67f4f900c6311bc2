import assert from "node:assert/strict";
import { launchBrowser, openApp } from "./_browser.ts";
import { loadSchema, queryText, setEditorText } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";

Deno.test("browser: GraphQL history restores an earlier run and keeps no secrets; Prettify and Copy as curl", async () => {
  await using graphql = await startGraphqlServer();
  await using browser = await launchBrowser();
  await using app = await openApp(browser);
  const { page } = app;
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.locator(".gql summary").filter({ hasText: "Headers" }).click();
  await page.getByLabel("GraphQL headers name 1").fill("X-Api-Key");
  await page.getByLabel("GraphQL headers value 1").fill("s3cret-key");
  await loadSchema(page, graphql.endpoint);
  const panel = page.getByRole("region", { name: "GraphQL response" });
  for (const query of ["{viewer{login}}", "{ viewer { bio } }"]) {
    await setEditorText(page, "Query", query);
    await page.getByRole("button", { name: "Run" }).click();
    await panel.getByText(query.includes("bio") ? '"bio"' : '"login"').waitFor();
  }
  await page.getByText("History (2)").click();
  const list = page.getByRole("list", { name: "History" });
  await list.getByRole("button", { name: /\{viewer\{login\}\}/ }).click();
  assert.equal(await queryText(page), "{viewer{login}}");
  const stored = await page.evaluate(() => localStorage.getItem("dial.history.graphql"));
  assert.ok(stored?.includes("X-Api-Key"));
  assert.ok(!stored?.includes("s3cret-key"), "no secret in the stored history");
  await page.getByRole("button", { name: "Prettify" }).click();
  assert.equal(await queryText(page), "{\n  viewer {\n    login\n  }\n}");
  await page.getByRole("button", { name: "Copy as curl" }).click();
  const curl = await page.getByLabel("curl command (copied)").inputValue();
  assert.ok(curl.startsWith(`curl ${graphql.endpoint} -H 'X-Api-Key: s3cret-key'`), curl);
  assert.match(curl, /-H 'Content-Type: application\/json'/);
  assert.match(curl, /\{\\n {2}viewer \{\\n {4}login\\n {2}\}\\n\}/);
});
