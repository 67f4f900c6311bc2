import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";
import { setEditorText } from "./_gql_app.ts";

const browser = fileBrowser();

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  assert.ok(found, `${selector} is shown`);
  return found;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height &&
    b.y < a.y + a.height;
}

Deno.test("browser: layout at 1024×700 and at 1920 px", async (t) => {
  await using target = serve(() => Response.json({ ok: true }));

  await t.step("1024×700 with the OAuth panel open: the variables editor is in view", async () => {
    await using app = await openApp(browser(), {}, { viewport: { width: 1024, height: 700 } });
    const { page } = app;
    await page.getByLabel("Auth", { exact: true }).selectOption("oauth2");
    await page.getByLabel("Flow").selectOption("authorization_code");
    await page.getByRole("tab", { name: "GraphQL" }).click();
    const variables = await box(page, ".vars-editor");
    const query = await box(page, ".query-editor");
    assert.ok(
      variables.y + variables.height <= 700,
      `variables end at ${variables.y + variables.height}`,
    );
    assert.ok(variables.height >= 60, `variables editor ${variables.height} px high`);
    assert.ok(query.height >= 90, `query editor ${query.height} px high`);
  });

  await t.step(
    "a subscription's toolbar wraps instead of covering the Response heading",
    async () => {
      await using app = await openApp(browser(), {}, { viewport: { width: 1024, height: 700 } });
      const { page } = app;
      await page.getByRole("tab", { name: "GraphQL" }).click();
      await page.getByLabel("Endpoint URL").fill(`${target.origin}/graphql`);
      await setEditorText(page, "Query", "subscription { ticks }");
      await page.getByLabel("Subscription transport").waitFor();
      const heading = await box(page, '.response-pane h3:text("Response")');
      const pane = await box(page, ".editor-pane");
      for (const name of ["Run", "Prettify", "Copy as curl"]) {
        const button = (await page.getByRole("button", { name, exact: true }).boundingBox())!;
        assert.ok(!overlap(button, heading), `${name} covers the Response heading`);
        assert.ok(button.x + button.width <= pane.x + pane.width + 1, `${name} leaves its pane`);
      }
    },
  );

  await t.step("1440 px with the sidebar: the URL takes the width (stacked)", async () => {
    const workspace = await Deno.makeTempDir({ prefix: "dial-ui-layout-" });
    try {
      await Deno.writeTextFile(`${workspace}/api.http`, `GET ${target.origin}/x\n`);
      await using app = await openApp(browser(), { workspace }, {
        viewport: { width: 1440, height: 900 },
      });
      const { page } = app;
      await page.getByRole("navigation", { name: "Workspace" }).waitFor();
      const url = await page.getByLabel("URL", { exact: true }).boundingBox();
      assert.ok(url && url.width >= 800, `the URL field is ${url?.width} px wide`);
      // Follow redirects and the timeout do not run together.
      const follow = await page.getByText("Follow redirects").boundingBox();
      const timeout = await page.getByRole("tabpanel", { name: "HTTP" }).getByText(
        "Timeout (seconds)",
      )
        .boundingBox();
      assert.ok(follow && timeout && timeout.x >= follow.x + follow.width + 8, "apart");
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  });

  await t.step("1920 px: the HTTP request and its response side by side", async () => {
    await using app = await openApp(browser(), {}, { viewport: { width: 1920, height: 1000 } });
    const { page } = app;
    await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/x`);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const request = await box(page, ".request-line");
    const response = await box(page, "section.response");
    assert.ok(response.x >= request.x + request.width, "the response is right of the request");
    assert.ok(response.y < request.y + 200, `the response starts at ${response.y}, beside it`);
    assert.ok(request.width >= 700, `the request column is ${request.width} px wide`);
  });
});
