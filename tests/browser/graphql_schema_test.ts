import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fileBrowser, openApp } from "./_browser.ts";
import { loadSchema, openWithSchema, type PanelAuth, setAuth } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";

const browser = fileBrowser();

const BASIC = `Basic ${btoa("ann:s3cret")}`;

/** Waits until the focused tree row is the one at `path`. */
async function focusOn(page: Page, path: string): Promise<void> {
  await page.locator(`[role="treeitem"][data-path="${path}"]:focus`).waitFor();
}

Deno.test("browser: Load schema introspects through the server with each auth kind", async () => {
  const kinds: Array<{ auth: PanelAuth; accepts: (r: Request) => boolean }> = [
    { auth: { kind: "none" }, accepts: () => true },
    {
      auth: { kind: "basic", username: "ann", password: "s3cret" },
      accepts: (r) => r.headers.get("authorization") === BASIC,
    },
    {
      auth: { kind: "bearer", token: "tok-1" },
      accepts: (r) => r.headers.get("authorization") === "Bearer tok-1",
    },
    {
      auth: { kind: "apikey", in: "header", name: "X-Api-Key", value: "k-2" },
      accepts: (r) => r.headers.get("x-api-key") === "k-2",
    },
    {
      auth: { kind: "apikey", in: "query", name: "api_key", value: "k 3" },
      accepts: (r) => new URL(r.url).searchParams.get("api_key") === "k 3",
    },
  ];
  for (const { auth, accepts } of kinds) {
    await using graphql = await startGraphqlServer(accepts);
    await using app = await openApp(browser());
    await setAuth(app.page, auth);
    await loadSchema(app.page, graphql.endpoint);
    const summary = await app.page.getByTestId("schema-summary").textContent();
    assert.match(summary ?? "", /^1[6-9]\d\d types from /, auth.kind);
    assert.equal(graphql.introspections(), 1, auth.kind);
    await app.page.getByRole("treeitem", { name: /^Query/ }).first().waitFor();
  }
});

Deno.test("browser: a 401 from the endpoint is shown plainly when loading the schema", async () => {
  await using graphql = await startGraphqlServer((r) =>
    r.headers.get("authorization") === "Bearer right"
  );
  await using app = await openApp(browser());
  await setAuth(app.page, { kind: "bearer", token: "wrong" });
  await loadSchema(app.page, graphql.endpoint, { expectError: true });
  const alert = await app.page.getByRole("alert").filter({ hasText: "schema" }).textContent();
  assert.match(
    alert ?? "",
    /^Cannot load the schema: Introspection failed at 127\.0\.0\.1:\d+: HTTP 401 Unauthorized/,
  );
});

Deno.test("browser: the schema tree is an ARIA tree with levels, expansion and arrow keys, rendering under 500 rows", async () => {
  await using app = await openWithSchema(browser());
  const { page, graphql } = app;
  const query = page.getByRole("treeitem").filter({
    has: page.locator(".name", { hasText: /^Query$/ }),
  });
  assert.equal(await query.getAttribute("aria-level"), "1");
  assert.equal(await query.getAttribute("aria-expanded"), "true");
  const repository = page.locator('[role="treeitem"][data-path="Query.repository"]');
  await repository.waitFor();
  assert.equal(await repository.getAttribute("aria-level"), "2");
  assert.equal(await repository.getAttribute("aria-expanded"), "false");
  assert.match(
    await repository.textContent() ?? "",
    /repository: Repository\s*Lookup a given repository/,
  );
  // Keyboard: focus the row, ArrowRight expands, ArrowDown walks into its arguments.
  await repository.focus();
  await page.keyboard.press("ArrowRight");
  await page.locator('[data-path="Query.repository"][aria-expanded="true"]').waitFor();
  await page.keyboard.press("ArrowDown");
  await focusOn(page, "Query.repository(owner)");
  const focused = page.locator('[role="treeitem"]:focus');
  assert.equal(await focused.getAttribute("aria-level"), "3");
  assert.match(await focused.textContent() ?? "", /owner\): String! \(required\)/);
  const renames = page.locator('[role="treeitem"][data-path="Query.repository(followRenames)"]');
  assert.match(await renames.textContent() ?? "", /followRenames\): Boolean = true/);
  await page.keyboard.press("ArrowLeft");
  await focusOn(page, "Query.repository");
  await page.keyboard.press("ArrowLeft");
  await page.locator('[data-path="Query.repository"][aria-expanded="false"]').waitFor();
  // Descriptions and deprecations are visible.
  await page.getByRole("searchbox", { name: "Search schema" }).fill("squashPrTitleUsedAsDefault");
  const deprecated = page.locator('[data-path="Query.repository.squashPrTitleUsedAsDefault"]');
  assert.match(
    await deprecated.locator(".deprecated").textContent() ?? "",
    /^deprecated: `squashPrTitleUsedAsDefault` will be removed/,
  );
  await page.getByRole("searchbox", { name: "Search schema" }).fill("e");
  // Expanding everything reachable stays virtualized.
  const rows = await page.getByRole("treeitem").count();
  assert.ok(rows > 10 && rows < 500, `${rows} rows in the DOM`);
  assert.equal(graphql.introspections(), 1);
});
