import assert from "node:assert/strict";
import { fileBrowser, openApp } from "./_browser.ts";
import { loadSchema, openWithQuery, setEditorText } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";

const browser = fileBrowser();

Deno.test("browser: empty states: placeholders, Run disabled until endpoint and query, no lint on an empty query", async () => {
  await using graphql = await startGraphqlServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "GraphQL" }).click();
  const run = page.getByRole("button", { name: "Run" });
  assert.equal(await run.isDisabled(), true);
  const editor = page.locator(".query-editor");
  assert.match(await editor.locator(".cm-placeholder").textContent() ?? "", /Write a query/);
  const response = page.getByRole("region", { name: "GraphQL response" });
  assert.match(await response.locator(".cm-placeholder").textContent() ?? "", /Run a query/);
  await loadSchema(page, graphql.endpoint);
  assert.equal(await run.isDisabled(), true, "no query yet");
  // Nothing to lint in an empty document; a broken one is flagged.
  await setEditorText(page, "Query", "{ viewer { nosuchfield } }");
  await editor.locator(".cm-lintRange-error").first().waitFor();
  await setEditorText(page, "Query", "");
  await editor.locator(".cm-lintRange-error").first().waitFor({ state: "detached" });
  assert.equal(await editor.locator(".cm-lint-marker, .cm-lintRange").count(), 0);
  await setEditorText(page, "Query", "{ viewer { login } }");
  assert.equal(await run.isDisabled(), false);
});

Deno.test("browser: variables: a JSON error has line and column, a leftover variable is a warning", async () => {
  await using app = await openWithQuery(
    browser(),
    "query ($login: String!) { user(login: $login) { id } }",
    '{\n  "login": "a",\n  "x": tru\n}',
  );
  const { page } = app;
  const alert = page.getByRole("alert").filter({ hasText: "Invalid JSON" });
  assert.match(await alert.textContent() ?? "", /\(line 3, column 11\)/);
  await setEditorText(page, "Variables JSON", '{"login": "a", "old": 1}');
  const warning = page.getByRole("status").filter({ hasText: '"$old"' });
  assert.match(
    await warning.textContent() ?? "",
    /not used by the operation \(servers ignore it\)/,
  );
  assert.equal(await page.getByRole("alert").filter({ hasText: "$old" }).count(), 0);
});

Deno.test("browser: a refused connection is reported in the CLI's words: host, port and reason", async () => {
  const port = (() => {
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    return listener.addr.port;
  })();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${port}/x`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  const text = await alert.textContent() ?? "";
  assert.match(text, new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.match(text, /refused/i);
  assert.doesNotMatch(text, /tcp connect error|client error \(Connect\)|error sending request/);
});
