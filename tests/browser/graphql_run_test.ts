import assert from "node:assert/strict";
import { tempDir, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest, replaceEditorText } from "./_browser.ts";
import { loadSchema, openWithSchema, setAuth, setEditorText } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";
import type { Page } from "playwright-core";

const browser = fileBrowser();

/** @returns the texts of the page's alerts (errors shown in words) */
async function alertTexts(page: Page): Promise<string[]> {
  return await page.getByRole("alert").allTextContents();
}

Deno.test("browser: Run sends the chosen operation with the auth and shows status, time, size and the JSON", async () => {
  await using graphql = await startGraphqlServer((r) => r.headers.get("x-api-key") === "k");
  await using app = await openApp(browser());
  const { page } = app;
  await setAuth(page, { kind: "apikey", in: "header", name: "X-Api-Key", value: "k" });
  await loadSchema(page, graphql.endpoint);
  await setEditorText(
    page,
    "Query",
    "query One { viewer { login } }\nquery Two($owner: String!) { repositoryOwner(login: $owner) { id } }",
  );
  const picker = page.getByRole("combobox", { name: "Operation" });
  await picker.selectOption("Two");
  // An edit that breaks the document for a moment (typing) keeps the pick.
  await setEditorText(page, "Query", "query One { viewer { login } }\nquery Two(");
  await setEditorText(
    page,
    "Query",
    "query One { viewer { login } }\nquery Two($owner: String!) { repositoryOwner(login: $owner) { id } }",
  );
  assert.equal(await picker.inputValue(), "Two");
  await setEditorText(page, "Variables JSON", '{"owner": "octocat"}');
  await page.getByRole("button", { name: "Run" }).click();
  const panel = page.getByRole("region", { name: "GraphQL response" });
  // The answer or the reason there is none, whichever comes: a refusal fails here in words.
  const status = panel.getByTestId("status").filter({ hasText: /\d{3}/ });
  await status.or(page.getByRole("alert")).first().waitFor();
  assert.deepEqual(await alertTexts(page), []);
  assert.match(await status.textContent() ?? "", /200/);
  const body = await panel.getByLabel("GraphQL response").textContent();
  assert.match(body ?? "", /"repositoryOwner": \{/);
  assert.doesNotMatch(body ?? "", /viewer/);
  assert.match(await panel.getByTestId("size").textContent() ?? "", /\d+ B/);
  const sent = graphql.requests.at(-1)!;
  assert.deepEqual(await sent.json(), {
    query:
      "query One { viewer { login } }\nquery Two($owner: String!) { repositoryOwner(login: $owner) { id } }",
    variables: { owner: "octocat" },
    operationName: "Two",
  });
  // Ctrl+Enter in the editor runs too.
  const sentBefore = graphql.requests.length;
  await page.getByLabel("Query", { exact: true }).click();
  await page.keyboard.press("Control+Enter");
  await waitFor(() => graphql.requests.length > sentBefore, { message: "the Ctrl+Enter run" });
  assert.equal(graphql.requests.at(-1)!.method, "POST");
  assert.equal(graphql.introspections(), 1);
});

Deno.test("browser: a subscription is sent as one POST and its results stream into the viewer", async () => {
  await using app = await openWithSchema(browser());
  const { page, graphql } = app;
  const before = graphql.requests.length;
  await setEditorText(page, "Query", "subscription { ticks(count: 3) }");
  await page.getByRole("button", { name: "Run" }).click();
  const panel = page.getByRole("region", { name: "GraphQL response" });
  await panel.getByText("3 results").waitFor();
  const body = await panel.getByLabel("GraphQL response").textContent() ?? "";
  assert.deepEqual([...body.matchAll(/"ticks": (\d)/g)].map((m) => m[1]), ["1", "2", "3"]);
  assert.equal(graphql.requests.length, before + 1);
  assert.equal(graphql.requests.at(-1)!.method, "POST");
});

Deno.test("browser: endpoint, headers, query and variables survive a reload; secrets do not", async () => {
  await using graphql = await startGraphqlServer();
  await using app = await openApp(browser());
  const { page } = app;
  await setAuth(page, { kind: "bearer", token: "very-secret-token" });
  await loadSchema(page, graphql.endpoint);
  await page.getByText("Headers").nth(1).click();
  await page.getByLabel("GraphQL headers name 1").fill("X-Trace");
  await page.getByLabel("GraphQL headers value 1").fill("t1");
  await page.getByLabel("GraphQL headers name 2").fill("X-Auth-Token");
  await page.getByLabel("GraphQL headers value 2").fill("hidden-value");
  await setEditorText(page, "Query", "{ viewer { login } }");
  await setEditorText(page, "Variables JSON", '{"a": 1}');
  await page.reload();
  await page.getByRole("tablist").waitFor();
  assert.equal(await page.getByLabel("Endpoint URL").inputValue(), graphql.endpoint);
  assert.equal(await page.getByLabel("GraphQL headers value 1").inputValue(), "t1");
  assert.equal(await page.getByLabel("GraphQL headers value 2").inputValue(), "");
  assert.match(await page.getByLabel("Query", { exact: true }).textContent() ?? "", /viewer/);
  assert.equal(await page.getByLabel("Auth", { exact: true }).inputValue(), "none");
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.doesNotMatch(stored, /very-secret-token|hidden-value/);
});

Deno.test("browser: a reloaded page shows the cached schema of a file's request whose Authorization: Bearer header names a private value", async () => {
  await using graphql = await startGraphqlServer((r) =>
    r.headers.get("authorization") === "Bearer gql-s3cret"
  );
  await using ws = await tempDir("dial-ui-gql-reload-", {
    "api.http":
      "### viewer\nGRAPHQL {{gql}}\nAuthorization: Bearer {{token}}\n\n{ viewer { login } }\n",
    "http-client.env.json": JSON.stringify({ dev: { gql: graphql.endpoint } }),
    "http-client.private.env.json": JSON.stringify({ dev: { token: "gql-s3cret" } }),
  });
  await using app = await openApp(browser(), { workspace: ws.path });
  const { page } = app;
  await openRequest(page, "api.http", "GRAPHQL viewer", "dev");
  await page.getByRole("button", { name: "Load schema" }).click();
  await page.getByRole("tree", { name: "Schema" }).waitFor();
  assert.equal(graphql.introspections(), 1);
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
  await page.reload();
  await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
  await page.getByRole("tree", { name: "Schema" }).waitFor();
  assert.equal(graphql.introspections(), 1, "no second introspection");
});

Deno.test("browser: a reloaded page shows the cached schema without asking the endpoint", async () => {
  await using app = await openWithSchema(browser());
  const { page, graphql } = app;
  assert.equal(graphql.introspections(), 1);
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
  await page.reload();
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByRole("tree", { name: "Schema" }).waitFor();
  assert.equal(graphql.introspections(), 1, "no second introspection");
});

Deno.test("browser: a file's GraphQL tab says where its schema came from: the resolved endpoint's origin, never a {{reference}} nor the URL's query", async () => {
  await using graphql = await startGraphqlServer((r) =>
    new URL(r.url).searchParams.get("api_key") === "q-s3cret"
  );
  await using ws = await tempDir("dial-ui-gql-from-", {
    "api.http": "### viewer\nGRAPHQL {{gql}}\n\n{ viewer { login } }\n",
    "http-client.env.json": JSON.stringify({
      dev: { gql: `${graphql.endpoint}?api_key={{key}}` },
    }),
    "http-client.private.env.json": JSON.stringify({ dev: { key: "q-s3cret" } }),
  });
  await using app = await openApp(browser(), { workspace: ws.path });
  const { page } = app;
  await openRequest(page, "api.http", "GRAPHQL viewer", "dev");
  await page.getByRole("button", { name: "Load schema" }).click();
  const summary = page.getByTestId("schema-summary");
  const origin = new URL(graphql.endpoint).origin;
  await summary.waitFor();
  assert.match(
    await summary.textContent() ?? "",
    new RegExp(`^1[6-9]\\d\\d types from ${origin}$`),
  );
  // The schema cached for the request, after a reload: the same words.
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
  await page.reload();
  await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
  await summary.waitFor();
  assert.match(
    await summary.textContent() ?? "",
    new RegExp(`^1[6-9]\\d\\d types from ${origin}$`),
  );
  assert.equal(graphql.introspections(), 1);
});

Deno.test("browser: a # line under a line of a file's GraphQL query is the query's: it saves, the schema loads and Run sends it, as httpyac does", async () => {
  const bodies: string[] = [];
  await using graphql = await startGraphqlServer((r) => {
    void r.clone().text().then((text) => bodies.push(text));
    return true;
  });
  await using ws = await tempDir("dial-ui-gql-comment-", {
    "api.http":
      `### viewer\nGRAPHQL ${graphql.endpoint}\n\nquery Viewer {\n  viewer { login }\n}\n`,
  });
  const path = `${ws.path}/api.http`;
  await using app = await openApp(browser(), { workspace: ws.path });
  const { page } = app;
  await openRequest(page, "api.http", "GRAPHQL viewer");
  const query = "query Viewer {\n  # who is asking\n  viewer { login }\n}";
  await replaceEditorText(page.getByLabel("Query", { exact: true }), query);
  await page.getByText("api.http #1 (viewer) •").waitFor();
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({ hasText: "Saved to api.http" }).waitFor();
  assert.equal(
    await Deno.readTextFile(path),
    `### viewer\nGRAPHQL ${graphql.endpoint}\n\n${query}\n`,
  );
  await page.getByRole("button", { name: "Load schema" }).click();
  await page.getByRole("tree", { name: "Schema" }).waitFor();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const panel = page.getByRole("region", { name: "GraphQL response" });
  await panel.getByTestId("status").filter({ hasText: "200" }).waitFor();
  const sent = await waitFor(() => bodies.find((text) => text.includes("who is asking")));
  assert.equal(JSON.parse(sent).query, query);
  assert.deepEqual(await alertTexts(page), []);
  // Above the query's first line it would be the file's comment, not sent: the save says so.
  await replaceEditorText(page.getByLabel("Query", { exact: true }), `# on top\n${query}`);
  await page.getByText("api.http #1 (viewer) •").waitFor();
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({
    hasText: 'its line "# on top" is above the query or after a blank line',
  }).waitFor();
  assert.equal(
    await Deno.readTextFile(path),
    `### viewer\nGRAPHQL ${graphql.endpoint}\n\n${query}\n`,
  );
});
