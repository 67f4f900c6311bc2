import assert from "node:assert/strict";
import { serve, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

Deno.test("browser: auth goes only to the origin it was first used with; another host gets none, and the notice adds it", async () => {
  await using api = serve(() => Response.json({ ok: true }));
  await using other = serve(() => Response.json({ other: true }));
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("bearer");
  await page.getByLabel("Token", { exact: true }).fill("t0ken");
  const panel = page.getByRole("group", { name: "Sent to" });
  assert.match(await panel.textContent() ?? "", /the first origin you send to/);
  const send = async (url: string) => {
    await page.getByLabel("URL", { exact: true }).fill(url);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  };
  await send(`${api.origin}/me`);
  assert.equal(api.requests.at(-1)?.headers.get("authorization"), "Bearer t0ken");
  assert.match(await panel.textContent() ?? "", new RegExp(api.origin));
  await page.getByLabel("Response body").getByText('"ok"').waitFor();
  await send(`${other.origin}/elsewhere`);
  await page.getByLabel("Response body").getByText('"other"').waitFor();
  assert.equal(other.requests.length, 1);
  assert.equal(other.requests[0]!.headers.get("authorization"), null);
  const notice = page.getByRole("status").filter({ hasText: "Sent without auth" });
  assert.match(await notice.textContent() ?? "", new RegExp(`${other.origin} is not among`));
  await notice.getByRole("button", { name: `Add ${other.origin} to auth` }).click();
  assert.match(await panel.textContent() ?? "", new RegExp(other.origin));
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await waitFor(() => other.requests.length === 2, {
    message: "the second request to the other origin",
  });
  assert.equal(other.requests[1]!.headers.get("authorization"), "Bearer t0ken");
  // The GraphQL tab follows the same scope: its endpoint on a third origin gets no auth.
  await using third = serve(() =>
    Response.json({ errors: [{ message: "nope" }] }, { status: 401 })
  );
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL").fill(`${third.origin}/graphql`);
  await page.getByRole("button", { name: "Load schema" }).click();
  await page.getByRole("status").filter({ hasText: `${third.origin} is not among` }).waitFor();
  await page.getByText("Cannot load the schema").waitFor();
  assert.equal(third.requests.length, 1);
  assert.equal(third.requests[0]!.headers.get("authorization"), null);
});
