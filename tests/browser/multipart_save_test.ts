import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { httpyac } from "../e2e/_files.ts";
import { attachFile, fileBrowser, openApp, openRequest, writeRequest } from "./_browser.ts";

const browser = fileBrowser();

/** Answers with the form it received, parsed by Deno's own multipart reader. */
async function formEcho(request: Request): Promise<Response> {
  const parts: Record<string, unknown> = {};
  for (const [name, value] of await request.formData()) {
    parts[name] = typeof value === "string"
      ? value
      : { file: value.name, text: await value.text() };
  }
  return Response.json(parts);
}

const FILE = (origin: string) =>
  `# Uploads
### upload
# @name upload
POST ${origin}/upload
Content-Type: multipart/form-data; boundary=WebAppBoundary

--WebAppBoundary
Content-Disposition: form-data; name="title"

first
--WebAppBoundary
Content-Disposition: form-data; name="data"; filename="data.json"

< ./data.json
--WebAppBoundary--

### after
GET ${origin}/after
`;

Deno.test("browser: a multipart form of a request file opens as the form table, sends its < file, and saves back", async (t) => {
  await using target = serve(formEcho);
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-multipart-" });
  await Deno.mkdir(`${workspace}/api`);
  const file = `${workspace}/api/uploads.http`;
  await Deno.writeTextFile(file, FILE(target.origin));
  await Deno.writeTextFile(`${workspace}/api/data.json`, '{"from": "disk"}\n');

  await t.step("open, send, edit a field, Ctrl+S", async () => {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    await openRequest(page, "api/uploads.http", "POST upload");
    assert.equal(await page.getByRole("combobox", { name: "Body type" }).inputValue(), "form");
    assert.equal(await page.getByLabel("Form fields value 1").inputValue(), "first");
    assert.equal(await page.getByLabel("Form fields value 2").inputValue(), "< ./data.json");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const viewer = page.getByLabel("Response body");
    await viewer.getByText('"title": "first"').waitFor();
    assert.match(await viewer.textContent() ?? "", /"text": "\{\\"from\\": \\"disk\\"\}\\n"/);
    await page.getByLabel("Form fields value 1").fill("second");
    await page.getByRole("tab", { name: "upload •" }).waitFor();
    await page.keyboard.press("Control+s");
    await page.getByRole("tab", { name: "upload", exact: true }).waitFor();
    await page.getByRole("status").filter({ hasText: "Saved to api/uploads.http" }).waitFor();
    assert.equal(
      await Deno.readTextFile(file),
      FILE(target.origin).replace(
        'multipart/form-data; boundary=WebAppBoundary\n\n--WebAppBoundary\nContent-Disposition: form-data; name="title"\n\nfirst\n--WebAppBoundary\nContent-Disposition: form-data; name="data"; filename="data.json"\n\n< ./data.json',
        'multipart/form-data; boundary=WebAppBoundary\n\n--WebAppBoundary\nContent-Disposition: form-data; name="title"\n\nsecond\n--WebAppBoundary\nContent-Disposition: form-data; name="data"; filename="data.json"\n\n< ./data.json',
      ),
    );
  });

  await t.step("dial run sends what the UI saved", async () => {
    const result = await dial(["run", file, "upload"]);
    assert.equal(result.code, 0, result.stderr);
    const answer = JSON.parse(result.stdout);
    assert.deepEqual(answer, {
      title: "second",
      data: { file: "data.json", text: '{"from": "disk"}\n' },
    });
  });

  await t.step("httpyac (npm) sends the saved form the same", async () => {
    const output = await httpyac(["uploads.http", "--name", "upload", "-o", "body"], {
      cwd: `${workspace}/api`,
    });
    const text = output.stdout;
    assert.equal(output.code, 0, text + output.stderr);
    const body = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
    assert.deepEqual(JSON.parse(body), {
      title: "second",
      data: { file: "data.json", text: '{"from": "disk"}\n' },
    });
  });

  await t.step(
    "a file attached in the browser is refused in words; text fields save as",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await page.getByRole("button", { name: "New request tab" }).click();
      await writeRequest(page, "POST", `${target.origin}/new`, "form");
      await page.getByLabel("Form fields name 1").fill("note");
      await page.getByLabel("Form fields value 1").fill("hi");
      await attachFile(page, 2, "notes.txt", "x");
      await page.getByRole("button", { name: "Save as…" }).click();
      await page.getByLabel("File", { exact: true }).fill("new.http");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({
        hasText: "Not saved: A file attached in the browser",
      })
        .waitFor();
      await page.getByRole("button", { name: "Remove form fields row 2" }).click();
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "Saved to new.http" }).waitFor();
      assert.equal(
        await Deno.readTextFile(`${workspace}/new.http`),
        `POST ${target.origin}/new\nContent-Type: multipart/form-data; boundary=WebAppBoundary\n\n` +
          `--WebAppBoundary\nContent-Disposition: form-data; name="note"\n\nhi\n--WebAppBoundary--\n`,
      );
    },
  );
  await Deno.remove(workspace, { recursive: true });
});
