import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp, openFromSidebar, openRequest } from "./_browser.ts";
import { startHttpbin } from "../e2e/_httpbin.ts";

const browser = fileBrowser();

Deno.test("browser: {{variables}} are marked inline in the URL and headers, with value and source on hover", async () => {
  await using target = serve((r) => Response.json({ url: r.url }));
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-inline-" });
  try {
    await Deno.writeTextFile(
      `${workspace}/http-client.env.json`,
      JSON.stringify({ dev: { base: target.origin } }),
    );
    await Deno.writeTextFile(
      `${workspace}/http-client.private.env.json`,
      JSON.stringify({ dev: { token: "s3cr3t" } }),
    );
    await Deno.writeTextFile(
      `${workspace}/api.http`,
      "@who = me\n\n### one\nGET {{base}}/users/{{who}}?q={{nope}}\nX-Key: {{token}}\n",
    );
    await Deno.writeTextFile(
      `${workspace}/gql.http`,
      "@path = graphql\n\n### q\n# @name q\nGRAPHQL {{base}}/{{path}}\nX-Key: {{token}}\n\nquery { a }\n",
    );
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const sidebar = await openRequest(page, "api.http", "GET one");
    const url = page.getByLabel("URL", { exact: true });
    const header = page.getByLabel("Headers value 1", { exact: true });
    // Without an environment (the first one is chosen until one is picked: pick none):
    // {{base}} and {{token}} are undefined, {{who}} comes from the file.
    await page.locator(`input[title^="base = ${target.origin}"]`).waitFor();
    await sidebar.getByLabel("Environment").selectOption("");
    await page.locator('input[title^="base is undefined"]').waitFor();
    assert.equal(await url.getAttribute("aria-invalid"), "true");
    assert.equal(
      await url.getAttribute("title"),
      "base is undefined; who = me (@who of api.http); nope is undefined",
    );
    assert.equal(await header.getAttribute("title"), "token is undefined");
    await sidebar.getByLabel("Environment").selectOption("dev");
    await page.locator(`input[title^="base = ${target.origin} (dev in http-client.env.json)"]`)
      .waitFor();
    assert.equal(
      await url.getAttribute("title"),
      `base = ${target.origin} (dev in http-client.env.json); who = me (@who of api.http); nope is undefined`,
    );
    assert.equal(await url.getAttribute("aria-invalid"), "true");
    assert.equal(
      await header.getAttribute("title"),
      "token = (private) (dev in http-client.private.env.json)",
    );
    assert.equal(await header.getAttribute("aria-invalid"), null);
    // Each mark sits over its text, and the pointer on one titles the input with it alone.
    const marks = page.locator(".field .var-layer mark");
    assert.equal(await marks.count(), 3);
    assert.equal(await page.locator(".field .var-layer mark.undefined").count(), 1);
    const box = await marks.nth(1).boundingBox();
    const inputBox = await url.boundingBox();
    assert.ok(
      box && inputBox && box.x > inputBox.x && box.x + box.width < inputBox.x + inputBox.width,
    );
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    assert.equal(await url.getAttribute("title"), "who = me (@who of api.http)");
    // Typing keeps the marks in step; a fixed variable stops the warning.
    await url.fill(`{{base}}/users/{{who}}`);
    await page.locator(".field .var-layer mark").nth(1).filter({ hasText: "{{who}}" }).waitFor();
    assert.equal(await url.getAttribute("aria-invalid"), null);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByLabel("Response body").getByText("/users/me").waitFor();
    // A GRAPHQL request of another file: its endpoint and headers are marked from its own file.
    await sidebar.getByRole("button", { name: "gql.http", exact: true }).click();
    await sidebar.getByRole("button", { name: "GRAPHQL q" }).click();
    await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
    const endpoint = page.getByLabel("Endpoint URL");
    await page.locator(
      `input[title="base = ${target.origin} (dev in http-client.env.json); path = graphql (@path of gql.http)"]`,
    )
      .waitFor();
    assert.equal(await endpoint.getAttribute("aria-invalid"), null);
    assert.equal(
      await page.getByLabel("GraphQL headers value 1", { exact: true }).getAttribute("title"),
      "token = (private) (dev in http-client.private.env.json)",
    );
    // No private value reached the page.
    assert.ok(!(await page.content()).includes("s3cr3t"));
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("browser: the variables line names {{$processEnv NAME}} and {{$dotenv NAME}} where Send reads them, never their values", async () => {
  await using httpbin = await startHttpbin();
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-system-vars-" });
  const outside = await Deno.makeTempDir({ prefix: "dial-ui-system-outside-" });
  try {
    await Deno.writeTextFile(
      `${workspace}/http-client.env.json`,
      JSON.stringify({ dev: { base: httpbin.origin } }),
    );
    await Deno.writeTextFile(`${workspace}/.env`, "TOKEN=dotenv-s3cr3t-1\n");
    await Deno.writeTextFile(
      `${workspace}/api.http`,
      `### sys
# @name sys
GET {{base}}/anything?home={{$processEnv DIAL_SYS_HOME}}&token={{$dotenv TOKEN}}

### missing
# @name missing
GET {{base}}/anything?x={{$processEnv DIAL_SYS_UNSET}}&y={{$dotenv NOPE}}
`,
    );
    // A .env that links out of the workspace is not read by Send (dial run's rule): said so.
    await Deno.writeTextFile(`${outside}/.env`, "TOKEN=outside-s3cr3t-2\n");
    await Deno.mkdir(`${workspace}/sub`);
    await Deno.copyFile(
      `${workspace}/http-client.env.json`,
      `${workspace}/sub/http-client.env.json`,
    );
    await Deno.symlink(`${outside}/.env`, `${workspace}/sub/.env`);
    await Deno.writeTextFile(
      `${workspace}/sub/linked.http`,
      `### linked\n# @name linked\nGET ${httpbin.origin}/anything?t={{$dotenv TOKEN}}\n`,
    );
    await using app = await openApp(browser(), {
      workspace,
      transport: {
        env: (name) => name === "DIAL_SYS_HOME" ? "pe-s3cr3t-3" : Deno.env.get(name),
      },
    });
    const { page } = app;
    const line = page.getByLabel("Variables", { exact: true });
    const item = async (expr: string) => {
      const span = line.locator(".variable", { hasText: expr });
      await span.waitFor();
      return await span.textContent();
    };
    await openRequest(page, "api.http", "GET sys");
    assert.equal(
      await item("{{$processEnv DIAL_SYS_HOME}}"),
      "{{$processEnv DIAL_SYS_HOME}} = (private) (the environment dial ui was started in)",
    );
    assert.equal(await item("{{$dotenv TOKEN}}"), "{{$dotenv TOKEN}} = (private) (.env)");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const body = page.getByLabel("Response body");
    await body.getByText('"home": "pe-s3cr3t-3"').waitFor();
    await body.getByText('"token": "dotenv-s3cr3t-1"').waitFor();

    await openFromSidebar(page, "api.http", "GET missing");
    assert.equal(
      await item("{{$processEnv DIAL_SYS_UNSET}}"),
      "{{$processEnv DIAL_SYS_UNSET}} is not set in the environment dial ui was started in",
    );
    assert.equal(await item("{{$dotenv NOPE}}"), "{{$dotenv NOPE}} is not in .env");

    await openFromSidebar(page, "sub/linked.http", "GET linked");
    const linked = await item("{{$dotenv TOKEN}}");
    assert.equal(
      linked,
      "{{$dotenv TOKEN}} is not read: sub/.env links out of the workspace (dial ui --allow-path DIR widens it)",
    );
    // Send refuses it too.
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "is outside the workspace" }).waitFor();
    // Neither the values nor the linked file's reached the line, the page or its storage (the
    // response bodies aside, which are the server's answer).
    const lines = await line.textContent();
    const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
    for (const text of [lines ?? "", stored, linked ?? ""]) {
      for (const secret of ["pe-s3cr3t", "dotenv-s3cr3t", "outside-s3cr3t"]) {
        assert.ok(!text.includes(secret), text);
      }
    }
  } finally {
    await Deno.remove(workspace, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
