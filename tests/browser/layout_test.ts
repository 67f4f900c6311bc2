import assert from "node:assert/strict";
import { fileBrowser, openApp } from "./_browser.ts";
import { unusedPort } from "../_ports.ts";

const browser = fileBrowser();

Deno.test("browser: error rows of a stream log sit on their own row, not over the next", async () => {
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "SSE" }).click();
  await page.getByLabel("SSE endpoint").fill(`http://127.0.0.1:${unusedPort()}/events`);
  await page.getByRole("button", { name: "Connect" }).click();
  await page.locator(".log-row.error").first().waitFor();
  const offsets: Array<[number, number]> = await page.evaluate(`
    [...document.querySelectorAll(".log-row")].map((row) => [
      row.getBoundingClientRect().top - row.parentElement.getBoundingClientRect().top,
      parseFloat(row.style.top),
    ])
  `);
  assert.ok(offsets.length > 0);
  for (const [drawn, placed] of offsets) assert.equal(drawn, placed);
});

Deno.test("browser: the auth panel folds away to one row, and OAuth URL fields take the width", async () => {
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("oauth2");
  await page.getByLabel("Flow").selectOption("authorization_code");
  const tokenUrl = await page.getByLabel("Token URL").boundingBox();
  assert.ok(tokenUrl && tokenUrl.width >= 260, `token URL field is ${tokenUrl?.width} px wide`);
  const panel = page.getByRole("region", { name: "Authentication" });
  const open = (await panel.boundingBox())!.height;
  await page.getByRole("button", { name: "Hide auth settings" }).click();
  assert.equal(await page.getByLabel("Token URL").count(), 0);
  const folded = (await panel.boundingBox())!.height;
  assert.ok(folded < open && folded <= 70, `folded panel is ${folded} px high (open: ${open})`);
  await page.getByRole("button", { name: "Show auth settings" }).click();
  await page.getByLabel("Token URL").waitFor();
});
