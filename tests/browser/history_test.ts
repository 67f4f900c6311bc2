import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";
import { loadSchema, queryText, setEditorText } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";

const browser = fileBrowser();

Deno.test("browser: GraphQL history restores an earlier run and keeps no secrets; Prettify and Copy as curl", async () => {
  await using graphql = await startGraphqlServer();
  await using app = await openApp(browser());
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

Deno.test("browser: HTTP history blanks what drafts blank (URL query and password, params, headers, JSON body)", async () => {
  await using target = serve(() => Response.json({ ok: true }));
  await using app = await openApp(browser());
  const { page } = app;
  const base = target.origin.replace("http://", "http://ann:url-pw-1@");
  await page.getByLabel("URL", { exact: true }).fill(`${base}/x?page=2&access_token=url-tok-2`);
  // The URL's query fills the table (two rows); a third row goes into the URL.
  await page.getByLabel("Query parameters name 3").fill("api_key");
  await page.getByLabel("Query parameters value 3").fill("param-key-3");
  await page.getByLabel("Headers name 1", { exact: true }).fill("X-Session-Id");
  await page.getByLabel("Headers value 1", { exact: true }).fill("hdr-secret-4");
  await page.locator("summary", { hasText: /^Body$/ }).click();
  await page.getByLabel("Body type").selectOption("json");
  await page.getByLabel("Request body").click();
  await page.keyboard.type(`{"user": "ann", "password": "json-pw-5"}`);
  await page.getByLabel("Method").fill("POST");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  const stored = await page.evaluate(() => localStorage.getItem("dial.history.http")) ?? "";
  for (const secret of ["url-pw-1", "url-tok-2", "param-key-3", "hdr-secret-4", "json-pw-5"]) {
    assert.ok(!stored.includes(secret), `${secret} is stored: ${stored}`);
  }
  const [entry] = JSON.parse(stored);
  assert.equal(
    entry.snapshot.url,
    `${target.origin.replace("http://", "http://ann@")}/x?page=2&access_token=&api_key=`,
  );
  assert.deepEqual(JSON.parse(entry.snapshot.body), { user: "ann", password: "" });
  // Restoring keeps the values the tab holds now for blanked rows.
  await page.getByText("History (1)").click();
  await page.getByRole("list", { name: "History" }).getByRole("button").first().click();
  assert.equal(
    await page.getByLabel("Headers value 1", { exact: true }).inputValue(),
    "hdr-secret-4",
  );
});
