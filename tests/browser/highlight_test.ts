import assert from "node:assert/strict";
import { launchBrowser, openApp } from "./_browser.ts";
import { loadSchema, setEditorText } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";

Deno.test("browser: the query editor colours variables, field, argument and directive names", async () => {
  await using graphql = await startGraphqlServer();
  await using browser = await launchBrowser();
  await using app = await openApp(browser);
  const { page } = app;
  await loadSchema(page, graphql.endpoint);
  await setEditorText(
    page,
    "Query",
    "query Q($login: String!) {\n  user(login: $login) @include(if: true) {\n    id\n  }\n}",
  );
  await page.locator(".query-editor .cm-line span").first().waitFor();
  const colours: Array<[string, string]> = await page.evaluate(`
    [...document.querySelectorAll(".query-editor .cm-line span")]
      .map((s) => [s.textContent, getComputedStyle(s).color])
  `);
  const colourOf = (text: string) => colours.find(([t]) => t === text)?.[1];
  assert.equal(colourOf("$login"), "rgb(160, 48, 125)", "variable");
  assert.equal(colourOf("user"), "rgb(31, 95, 168)", "field");
  assert.equal(colourOf("login"), "rgb(138, 90, 0)", "argument");
  assert.equal(colourOf("@include") ?? colourOf("include"), "rgb(46, 125, 50)", "directive");
});
