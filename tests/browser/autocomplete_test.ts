/**
 * No field that can hold a secret goes into the browser's form history: the URL (userinfo,
 * `?api_key=`), tokens, keys, passwords, header values. Every text field of every tab and of
 * the auth panel, under each kind of auth, is `autocomplete="off"` (itself or through its form).
 */
import assert from "node:assert/strict";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

Deno.test("browser: every text field that can hold a secret is autocomplete=off", async () => {
  await using app = await openApp(browser());
  const { page } = app;
  // Runs in the page (a string: the DOM types are not part of this test's compile).
  const remembered = (): Promise<string[]> =>
    page.evaluate(`[...document.querySelectorAll("input")]
      .filter((input) => !["checkbox", "radio", "file"].includes(input.type))
      .filter((input) => input.offsetParent !== null)
      .filter((input) => input.getAttribute("autocomplete") !== "off" &&
        input.form?.getAttribute("autocomplete") !== "off")
      .map((input) => input.id || input.getAttribute("aria-label") || input.outerHTML)`);
  const seen = new Set<string>();
  for (const tab of ["HTTP", "GraphQL", "WebSocket", "SSE"]) {
    await page.getByRole("tab", { name: tab }).click();
    for (const kind of ["basic", "bearer", "apikey", "oauth2"]) {
      await page.getByLabel("Auth", { exact: true }).first().selectOption(kind);
      const count = await page.locator("input:visible").count();
      seen.add(`${tab}/${kind}/${count}`);
      // Search and filter boxes (schema search, message filter) hold no secret.
      const left = (await remembered()).filter((name) => !/search|filter/i.test(name));
      assert.deepEqual(left, [], `${tab} with ${kind} auth`);
    }
  }
  assert.equal(seen.size, 16);
});
