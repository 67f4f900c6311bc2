import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { attachFile, fileBrowser, openApp, replaceEditorText, writeRequest } from "./_browser.ts";

const browser = fileBrowser();

/** Echoes what arrived: method, query, and a multipart form's parts. */
async function echo(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/octets") {
    // Binary without a zero byte: only its type (and invalid UTF-8) say it is not text.
    return new Response(Uint8Array.from([0xff, 0xfe, 0x41, 0x80, 0x7f, 0x01, 0x42]), {
      headers: { "Content-Type": "application/octet-stream" },
    });
  }
  if (url.pathname === "/big") {
    const items = Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `item-${i}` }));
    return Response.json(items);
  }
  const parts: Record<string, unknown> = {};
  if (request.headers.get("content-type")?.startsWith("multipart/form-data")) {
    for (const [name, value] of await request.formData()) {
      parts[name] = typeof value === "string"
        ? value
        : { file: value.name, type: value.type, text: await value.text() };
    }
  } else if (request.body) {
    parts.body = await request.text();
  }
  return Response.json({ method: request.method, query: url.search, parts });
}

Deno.test("browser: HTTP tab editing", async (t) => {
  await using target = serve(echo);

  await t.step("the JSON body is linted while typed and Ctrl+Enter sends from it", async () => {
    await using app = await openApp(browser());
    const { page } = app;
    await writeRequest(page, "POST", `${target.origin}/items`, "json");
    const body = page.getByLabel("Request body");
    await replaceEditorText(body, '{"a": }');
    await page.locator(".body-editor .cm-lint-marker-error").waitFor();
    await replaceEditorText(body, '{"a": 1}');
    await page.locator(".body-editor .cm-lint-marker-error").waitFor({ state: "detached" });
    await body.press("Control+Enter");
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const sent = target.requests.at(-1)!;
    assert.equal(sent.method, "POST");
    assert.equal(await sent.text(), '{"a": 1}');
  });

  await t.step("the URL's query string and the parameters table follow each other", async () => {
    await using app = await openApp(browser());
    const { page } = app;
    const urlField = page.getByLabel("URL", { exact: true });
    await urlField.fill(`${target.origin}/q?b=1&c=two%20words`);
    assert.equal(await page.getByLabel("Query parameters name 1").inputValue(), "b");
    assert.equal(await page.getByLabel("Query parameters value 2").inputValue(), "two words");
    await page.getByLabel("Query parameters value 1").fill("9");
    assert.equal(await urlField.inputValue(), `${target.origin}/q?b=9&c=two%20words`);
    await page.getByLabel("Use query parameters row 2").uncheck();
    assert.equal(await urlField.inputValue(), `${target.origin}/q?b=9`);
    await page.getByLabel("Query parameters name 3").fill("d");
    await page.getByLabel("Query parameters value 3").fill("x&y");
    assert.equal(await urlField.inputValue(), `${target.origin}/q?b=9&d=x%26y`);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    assert.equal(new URL(target.requests.at(-1)!.url).search, "?b=9&d=x%26y");
    // The switched-off row stays in the table, off.
    assert.equal(await page.getByLabel("Query parameters name 2").inputValue(), "c");
    assert.equal(await page.getByLabel("Use query parameters row 2").isChecked(), false);
  });

  await t.step("a multipart form sends an attached file, and the file is not stored", async () => {
    await using app = await openApp(browser());
    const { page } = app;
    await writeRequest(page, "POST", `${target.origin}/upload`, "form");
    await page.getByLabel("Form fields name 1").fill("title");
    await page.getByLabel("Form fields value 1").fill("hello");
    // The file is read in the page before it is attached.
    await attachFile(page, 2, "notes.txt", "line one\nline two\n");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const answer = JSON.parse(await page.evaluate("localStorage.getItem('dial.http.form')") ?? "");
    assert.ok(!JSON.stringify(answer).includes("base64"), "no file in localStorage");
    const viewer = await page.getByLabel("Response body").textContent() ?? "";
    assert.match(viewer, /"title": "hello"/);
    assert.match(viewer, /"file": "notes.txt"/);
    assert.match(viewer, /"text": "line one\\nline two\\n"/);
  });

  await t.step(
    "binary without a zero byte is a hex dump; a cut JSON preview is indented",
    async () => {
      await using app = await openApp(browser());
      const { page } = app;
      await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/octets`);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      const viewer = page.getByLabel("Response body");
      await viewer.getByText("ff fe 41 80 7f 01 42").waitFor();
      await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/big`);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("note").filter({ hasText: "Preview" }).waitFor();
      // The preview is formatted by a worker: its first item is shown when it has come.
      await page.locator(".viewer .cm-line").filter({ hasText: '"name": "item-0"' }).waitFor();
      const lines = await page.locator(".viewer .cm-line").evaluateAll((rows) =>
        rows.slice(0, 4).map((row) => row.textContent)
      );
      assert.deepEqual(lines, ["[", "  {", '    "id": 0,', '    "name": "item-0"']);
    },
  );

  await t.step("history keeps failures too, and its search finds them", async () => {
    await using app = await openApp(browser());
    const { page } = app;
    const refused = (() => {
      using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      return listener.addr.port;
    })();
    await page.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${refused}/down`);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByRole("alert").waitFor();
    await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/up`);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    await page.getByText("History (2)").click();
    const list = page.getByRole("list", { name: "History" });
    await page.getByLabel("Search history").fill("failed down");
    await list.getByRole("button").filter({ hasText: "/down" }).waitFor();
    assert.equal(await list.getByRole("button").count(), 1);
    assert.match(await list.textContent() ?? "", /failed: .*127\.0\.0\.1/);
    await page.getByLabel("Search history").fill("200");
    await list.getByRole("button").filter({ hasText: "/up" }).waitFor();
    assert.equal(await list.getByRole("button").count(), 1);
  });
});
