import assert from "node:assert/strict";
import { waitFor } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";
import { loadSchema, setAuth, setEditorText } from "./_gql_app.ts";
import { subscriptionServer } from "../e2e/_graphql_servers.ts";

const browser = fileBrowser();

Deno.test("browser: a subscription runs over one POST, WebSocket or SSE behind Bearer auth, results streaming into the viewer", async () => {
  await using graphql = subscriptionServer({ kind: "bearer", token: "sub-token" });
  await using app = await openApp(browser());
  const { page } = app;
  await setAuth(page, { kind: "bearer", token: "sub-token" });
  await loadSchema(page, `${graphql.origin}/graphql`);
  const picker = page.getByRole("combobox", { name: "Subscription transport" });
  await setEditorText(page, "Query", 'query { hello(name: "x") }');
  assert.equal(await picker.count(), 0, "no transport choice for a query");
  await setEditorText(page, "Query", "subscription Down { countdown(from: 2) }");
  assert.deepEqual(await picker.locator("option").allTextContents(), [
    "One POST",
    "WebSocket",
    "SSE",
  ]);
  assert.equal(await picker.inputValue(), "http");
  const panel = page.getByRole("region", { name: "GraphQL response" });
  const viewer = panel.getByLabel("GraphQL response");
  const cases = [
    { label: "One POST", status: "200", accept: /multipart\/mixed/ },
    { label: "WebSocket", status: "101", accept: undefined },
    { label: "SSE", status: "200", accept: /^text\/event-stream$/ },
  ];
  for (const { label, status, accept } of cases) {
    await picker.selectOption({ label });
    const before = graphql.requests.length;
    await page.getByRole("button", { name: "Run" }).click();
    // The viewer was reset before the request left, so "3 results" is this run's.
    await waitFor(() => graphql.requests.length > before, { message: `the ${label} request` });
    await panel.getByText("3 results").waitFor();
    await panel.getByTestId("status").filter({ hasText: status }).waitFor();
    const body = await viewer.textContent() ?? "";
    assert.deepEqual(
      [...body.matchAll(/"countdown": (\d)/g)].map((m) => m[1]),
      ["2", "1", "0"],
      label,
    );
    const sent = graphql.requests.slice(before);
    assert.equal(sent.length, 1, label);
    assert.equal(sent[0]!.headers.get("authorization"), "Bearer sub-token", label);
    if (accept) {
      assert.equal(sent[0]!.method, "POST", label);
      assert.match(sent[0]!.headers.get("accept") ?? "", accept, label);
    } else {
      assert.equal(sent[0]!.headers.get("upgrade"), "websocket", label);
    }
    await page.getByRole("button", { name: "Run" }).waitFor();
    await panel.getByText("streaming").waitFor({ state: "detached" });
  }
});
