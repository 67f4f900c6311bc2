import assert from "node:assert/strict";
import { postmanCollection, postmanEnvironment } from "../e2e/_newman.ts";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

function collection(origin: string) {
  return postmanCollection("Shop", {
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{apiToken}}", type: "string" }] },
    event: [{ listen: "prerequest", script: { exec: ["pm.variables.set('a', 1);"] } }],
    // A token-named collection variable: moved to the private environment file like any secret.
    variable: [{ key: "base", value: origin }, { key: "apiKey", value: "k3y-literal" }],
    item: [{
      name: "Users",
      item: [{
        name: "List",
        request: {
          method: "GET",
          header: [{ key: "X-Api-Key", value: "{{apiKey}}" }],
          url: "{{base}}/users?page=2",
        },
      }],
    }],
  });
}

const ENV = postmanEnvironment("dev", [
  { key: "apiToken", value: "t0ken", type: "secret", enabled: true },
]);

const OPENAPI = (origin: string) =>
  `openapi: 3.0.3
info: { title: Pets, version: "1" }
servers: [{ url: "${origin}" }]
paths:
  /pets:
    get:
      operationId: listPets
      responses: { "200": { description: ok } }
`;

/** Drops files on the sidebar as a browser does (a DataTransfer holding them). */
async function drop(page: Page, files: Array<{ name: string; text: string }>): Promise<void> {
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  // Evaluated in the page (DataTransfer is a DOM type).
  const dataTransfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) transfer.items.add(new File([f.text], f.name));
    return transfer;
  })()`);
  await sidebar.dispatchEvent("dragover", { dataTransfer });
  await sidebar.dispatchEvent("drop", { dataTransfer });
}

Deno.test("browser: files dropped on the sidebar or chosen with Import are imported into the workspace", async (t) => {
  await using target = serve(() => Response.json({ ok: true }));
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-import-" });
  // An environment the user has already: the import adds to it.
  await Deno.writeTextFile(
    `${workspace}/http-client.private.env.json`,
    JSON.stringify({ dev: { other: "kept" } }),
  );
  const postman = [
    { name: "shop.postman_collection.json", text: JSON.stringify(collection(target.origin)) },
    { name: "dev.postman_environment.json", text: JSON.stringify(ENV) },
  ];

  await t.step(
    "a dropped Postman collection and environment become a .http file that sends",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await drop(page, postman);
      const report = page.getByRole("region", { name: "Import report" });
      await report.getByRole("status").filter({ hasText: "Imported 1 request from postman" })
        .waitFor();
      await report.getByText("Secrets are in http-client.private.env.json").waitFor();
      // The collection's pre-request script is carried (a # @postman handler), not reported.
      await report.getByRole("list", { name: "Moved secrets" }).getByText(
        '{{apiKey}} <- variable "apiKey"',
      )
        .waitFor();
      await openRequest(page, "users.http", /^GET/);
      await page.getByLabel("Environment").selectOption("dev");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
      assert.equal(target.requests.at(-1)?.headers.get("authorization"), "Bearer t0ken");
      assert.equal(target.requests.at(-1)?.headers.get("x-api-key"), "k3y-literal");
      const http = await Deno.readTextFile(`${workspace}/users.http`);
      assert.ok(
        !http.includes("t0ken") && !http.includes("k3y-literal"),
        "no secret in the .http file",
      );
      const secrets = JSON.parse(
        await Deno.readTextFile(`${workspace}/http-client.private.env.json`),
      );
      assert.deepEqual(secrets.dev, { other: "kept", apiToken: "t0ken", apiKey: "k3y-literal" });
      const mode = (await Deno.stat(`${workspace}/http-client.private.env.json`)).mode! & 0o777;
      assert.equal(mode, 0o600);
    },
  );

  await t.step("an import that would change a file asks first; No keeps it", async () => {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const edited = `${await Deno.readTextFile(`${workspace}/users.http`)}\n# my note\n`;
    await Deno.writeTextFile(`${workspace}/users.http`, edited);
    const asked = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      })
    );
    await drop(page, postman);
    assert.match(await asked, /would change "users\.http"/);
    await page.getByRole("alert").filter({ hasText: "Not imported" }).waitFor();
    assert.equal(await Deno.readTextFile(`${workspace}/users.http`), edited);
    // Yes replaces it.
    page.once("dialog", (dialog) => void dialog.accept());
    await drop(page, postman);
    await page.getByRole("region", { name: "Import report" }).waitFor();
    assert.ok(!(await Deno.readTextFile(`${workspace}/users.http`)).includes("# my note"));
  });

  await t.step(
    "Import… takes OpenAPI YAML and .http files; a dropped name cannot leave the folder",
    async () => {
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await page.getByLabel("Import files").setInputFiles({
        name: "pets.yaml",
        mimeType: "application/yaml",
        buffer: Buffer.from(OPENAPI(target.origin)),
      });
      await page.getByRole("status").filter({ hasText: "from openapi into pets.http" }).waitFor();
      const sidebar = page.getByRole("navigation", { name: "Workspace" });
      await sidebar.getByRole("button", { name: "pets.http", exact: true }).waitFor();
      await drop(page, [{ name: "../../outside.http", text: "GET http://127.0.0.1:1/x\n" }]);
      await page.getByRole("status").filter({ hasText: "from http into outside.http" }).waitFor();
      await sidebar.getByRole("button", { name: "outside.http", exact: true }).waitFor();
      assert.equal(
        await Deno.readTextFile(`${workspace}/outside.http`),
        "GET http://127.0.0.1:1/x\n",
      );
    },
  );
  await Deno.remove(workspace, { recursive: true });
});
