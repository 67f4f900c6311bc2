/**
 * The gRPC tab's open streams in Chromium against the grpc-js greeter: a bidi call takes the
 * composer's messages one at a time and each reply arrives before the next is written; a
 * message that does not fit is refused and the call goes on; a client-streaming call answers
 * once sending ends; Cancel ends an open call.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fileBrowser, openApp } from "./_browser.ts";
import { violations } from "./_axe.ts";
import { startGreeter } from "../e2e/_grpc.ts";

const browser = fileBrowser();
const GREETER = "greet.v1.Greeter";

/** Replaces the composer's text and sends it with the button or Ctrl/Cmd+Enter. */
async function sendMessage(page: Page, text: string, key = false): Promise<void> {
  await page.getByRole("textbox", { name: "Stream message" }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
  if (key) await page.keyboard.press("ControlOrMeta+Enter");
  else await page.getByRole("button", { name: "Send message" }).click();
}

Deno.test("browser: an open gRPC stream sends the composer's messages one at a time, replies in between; end sending brings the status; Cancel ends it", async () => {
  await using greeter = await startGreeter();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "gRPC" }).click();
  await page.getByLabel("Server").fill(greeter.address);
  await page.getByRole("button", { name: "Load methods" }).click();
  const picker = page.getByLabel("RPCs");
  await picker.selectOption(`${GREETER}/Chat`);
  const log = page.getByRole("list", { name: "Replies" });
  const status = page.getByTestId("grpc-status");

  await page.getByRole("button", { name: "Open stream" }).click();
  await log.getByText("Stream open").waitFor();
  // The composer starts from the tab's message (the request type's template).
  await page.getByRole("textbox", { name: "Stream message" })
    .filter({ hasText: '"mood": "MOOD_UNSPECIFIED"' }).waitFor();
  // Chat answers each message as it comes: each reply is waited for before the next is sent.
  await sendMessage(page, '{"name": "ann"}');
  await log.getByText('{"name":"ann"}').waitFor();
  await log.getByText("Hello ann").waitFor();
  await sendMessage(page, '{"name": "bo"}', true);
  await log.getByText("Hello bo").waitFor();
  await sendMessage(page, '{"nmae": "x"}');
  await page.getByRole("alert").filter({ hasText: 'field "nmae"' }).waitFor();
  await sendMessage(page, '{"name": "cy"}');
  await log.getByText("Hello cy").waitFor();
  assert.equal(await page.getByRole("alert").count(), 0);
  await page.getByRole("button", { name: "End sending" }).click();
  await status.filter({ hasText: /^OK \(0\) · .* · 3 sent · 3 replies$/ }).waitFor();
  await log.getByText("Sending ended").waitFor();
  // The call is over: the composer goes, Open stream is back.
  await page.getByRole("textbox", { name: "Stream message" }).waitFor({ state: "detached" });

  // Client streaming: one reply, after sending ended.
  await picker.selectOption(`${GREETER}/CollectHellos`);
  await page.getByRole("button", { name: "Open stream" }).click();
  for (const name of ["a", "b"]) {
    await sendMessage(page, `{"name": "${name}"}`);
    await log.getByText(`{"name":"${name}"}`).waitFor();
  }
  // The server answers only at the end of the requests.
  assert.equal(await log.getByText("Hello").count(), 0);
  await page.getByRole("button", { name: "End sending" }).click();
  await log.getByText("Hello a,b").waitFor();
  await status.filter({ hasText: /· 2 sent · 1 reply$/ }).waitFor();

  // Cancel ends an open call. An open stream has no deadline: one of 1 ms would have ended it
  // before the first message.
  await page.locator("summary:visible", { hasText: "Proto files" }).click();
  await page.getByLabel("Deadline (seconds)").fill("0.001");
  await picker.selectOption(`${GREETER}/Chat`);
  await page.getByRole("button", { name: "Open stream" }).click();
  await sendMessage(page, '{"name": "dee"}');
  await log.getByText("Hello dee").waitFor();
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await log.getByText("Cancelled").waitFor();
  await page.getByRole("button", { name: "Open stream" }).waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Stream message" }).count(), 0);
});

for (const colorScheme of ["light", "dark"] as const) {
  Deno.test(`browser: axe-core finds nothing critical, serious or moderate in the gRPC tab, with a stream open and after (${colorScheme})`, async () => {
    await using greeter = await startGreeter();
    await using app = await openApp(browser(), {}, { colorScheme });
    const { page } = app;
    await page.getByRole("tab", { name: "gRPC" }).click();
    await page.getByLabel("Server").fill(greeter.address);
    await page.getByRole("button", { name: "Load methods" }).click();
    await page.getByLabel("RPCs").selectOption(`${GREETER}/Chat`);
    await page.getByRole("button", { name: "Open stream" }).click();
    await sendMessage(page, '{"nmae": "x"}');
    await page.getByRole("alert").waitFor();
    await sendMessage(page, '{"name": "ann"}');
    const log = page.getByRole("list", { name: "Replies" });
    await log.getByText("Hello ann").waitFor();
    const found = (await violations(page)).map((v) => `open: ${v}`);
    await page.getByRole("button", { name: "End sending" }).click();
    await page.getByTestId("grpc-status").waitFor();
    await page.locator("summary:visible", { hasText: "Headers and trailers" }).click();
    await page.locator("summary:visible", { hasText: "History" }).click();
    found.push(...(await violations(page)).map((v) => `ended: ${v}`));
    assert.deepEqual(found, []);
  });
}
