import assert from "node:assert/strict";
import { fileBrowser, openApp } from "./_browser.ts";
import { loadSchema, setAuth, setEditorText } from "./_gql_app.ts";
import { deferServer } from "../e2e/_graphql_servers.ts";
import { ACCEPT } from "../../src/graphql/http_client.ts";

const browser = fileBrowser();

Deno.test("browser: a @defer query streams into the viewer, as in dial graphql; with two operations Run sends the one the picker shows", async () => {
  await using graphql = await deferServer({ kind: "bearer", token: "d" });
  await using app = await openApp(browser());
  const { page } = app;
  await setAuth(page, { kind: "bearer", token: "d" });
  await loadSchema(page, `${graphql.origin}/graphql`);
  const panel = page.getByRole("region", { name: "GraphQL response" });
  const viewer = panel.getByLabel("GraphQL response");

  await setEditorText(
    page,
    "Query",
    "query { fast ...Later @defer }\nfragment Later on Query { slow }",
  );
  assert.equal(await page.getByRole("combobox", { name: "Subscription transport" }).count(), 0);
  const before = graphql.requests.length;
  await page.getByRole("button", { name: "Run" }).click();
  await panel.getByText("2 results").waitFor();
  await panel.getByTestId("status").filter({ hasText: "200" }).waitFor();
  assert.match(await viewer.textContent() ?? "", /"slow": "later"/);
  assert.equal(graphql.requests.length, before + 1);
  assert.equal(graphql.requests.at(-1)!.headers.get("accept"), ACCEPT.stream);

  await setEditorText(page, "Query", "query A { fast }\nquery B { slow }");
  const picker = page.getByRole("combobox", { name: "Operation" });
  assert.equal(await picker.inputValue(), "A");
  await page.getByRole("button", { name: "Run" }).click();
  // The viewer was emptied when Run was pressed: this is the new run's answer.
  await viewer.filter({ hasText: '"fast": "now"' }).filter({ hasNotText: "later" }).waitFor();
  const sent = graphql.requests.at(-1)!;
  assert.deepEqual((await sent.json()).operationName, "A");
  assert.equal(sent.headers.get("accept"), ACCEPT.single);
});
