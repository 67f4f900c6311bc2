import assert from "node:assert/strict";
import { fileBrowser } from "./_browser.ts";
import {
  fieldBox,
  openWithQuery,
  queryText,
  setEditorText,
  tickField,
  variablesText,
} from "./_gql_app.ts";

const browser = fileBrowser();

/** The variables of the queries below: the repository denoland/deno. */
const DENO = '{"owner": "denoland", "name": "deno"}';

/** A query whose repository selection is a fragment of one field. */
const WITH_FRAGMENT =
  "query R($owner: String!, $name: String!) {\n  repository(owner: $owner, name: $name) {\n    ...Stars\n  }\n  viewer { login }\n}\n\nfragment Stars on Repository {\n  stargazerCount\n}\n";

const HAND_WRITTEN = `# the repo I watch
query Repo($owner: String!, $name: String!) {
  deno: repository(owner: $owner, name: $name) {
    ...RepoBits
  }
}

fragment RepoBits on Repository {
  name # the short name
}
`;

Deno.test("browser: a tick edits the hand-written query in place (alias, fragment, comments kept) and graphql-yoga accepts it", async () => {
  await using app = await openWithQuery(browser(), HAND_WRITTEN, DENO);
  const { page } = app;
  const box = await tickField(page, "Query.repository.stargazerCount", true);
  assert.equal(
    await queryText(page),
    HAND_WRITTEN.replace("# the short name\n", "# the short name\n  stargazerCount\n"),
  );
  await page.getByRole("button", { name: "Run" }).click();
  const panel = page.getByRole("region", { name: "GraphQL response" });
  await panel.getByTestId("status").filter({ hasText: "200" }).waitFor();
  const body = JSON.parse(await panel.getByLabel("GraphQL response").textContent() ?? "");
  assert.equal(body.errors, undefined);
  assert.equal(typeof body.data.deno.stargazerCount, "number");
  // Unticking puts the document back as it was.
  await box.uncheck();
  assert.equal(await queryText(page), HAND_WRITTEN);
});

Deno.test("browser: unticking prunes unused fragments and variables (with Undo); unparseable text keeps the last good checkboxes", async () => {
  await using app = await openWithQuery(browser(), WITH_FRAGMENT, DENO);
  const { page } = app;
  await tickField(page, "Query.repository.stargazerCount", false);
  assert.equal(
    await queryText(page),
    "query R($owner: String!, $name: String!) {\n  repository(owner: $owner, name: $name) {\n    __typename\n  }\n  viewer { login }\n}\n",
  );
  await tickField(page, "Query.repository", false);
  assert.equal(await queryText(page), "query R {\n  viewer { login }\n}\n");
  assert.deepEqual(JSON.parse(await variablesText(page)), {});
  const note = page.getByRole("status").filter({ hasText: "Removed unused $owner, $name" });
  await note.getByRole("button", { name: "Undo" }).click();
  assert.deepEqual(JSON.parse(await variablesText(page)), { owner: "denoland", name: "deno" });
  await note.waitFor({ state: "detached" });
  // Text that does not parse: the tree keeps its last good state and says so.
  await setEditorText(page, "Query", "query R {\n  viewer {\n    login\n");
  await page.getByRole("note").filter({ hasText: "does not parse (line 4, column 1)" }).waitFor();
  await page.getByRole("searchbox", { name: "Search schema" }).fill("");
  assert.ok(
    await fieldBox(page, "Query.viewer").isChecked(),
  );
});
