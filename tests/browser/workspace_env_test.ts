import assert from "node:assert/strict";
import { clientCredentialsAuth, securityAuthEnv } from "../e2e/_files.ts";
import { serve, tempDir, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest, pickBodyType, replaceEditorText } from "./_browser.ts";
import { startMockServer } from "../e2e/_oauth_servers.ts";

const browser = fileBrowser();

Deno.test("browser: environments, the runner and the cookie jar", async (t) => {
  await using target = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/login") {
      return Response.json({ path }, { headers: { "Set-Cookie": "sid=abc123; Path=/" } });
    }
    return Response.json({ path, cookie: request.headers.get("cookie") });
  });
  await t.step(
    "an environment switch changes the sent URL; private values stay on the server",
    async () => {
      await using ws = await tempDir("dial-ui-env-", {
        "http-client.env.json": JSON.stringify({
          dev: { base: `${target.origin}/dev` },
          prod: { base: `${target.origin}/prod` },
        }),
        "http-client.private.env.json": JSON.stringify({
          dev: { token: "s3cr3t-dev" },
          prod: { token: "s3cr3t-prod" },
        }),
        "api.http":
          "@version = v2\n\n### users\n# @name users\nGET {{base}}/{{version}}/users\nAuthorization: Bearer {{token}}\n",
      });
      await using app = await openApp(browser(), { workspace: ws.path });
      const { page } = app;
      const sidebar = await openRequest(page, "api.http", "GET users");
      const line = page.getByLabel("Variables", { exact: true });
      // The first environment is chosen until one is picked.
      await line.getByText(`{{base}} = ${target.origin}/dev`).waitFor();
      await sidebar.getByLabel("Environment").selectOption("");
      await line.getByText("{{base}} is undefined: pick an environment").waitFor();
      await line.getByText("{{version}} = v2").waitFor();
      await sidebar.getByLabel("Environment").selectOption("dev");
      await line.getByText(`{{base}} = ${target.origin}/dev`).waitFor();
      await line.getByText("{{token}} = (private)").waitFor();
      // In the body editor too: marked, with the value on hover; an undefined one stands out.
      await pickBodyType(page, "text");
      await replaceEditorText(page.getByLabel("Request body"), "to {{base}} from {{nobody}}");
      const marked = page.locator(".body-editor .cm-variable");
      await marked.first().waitFor();
      assert.equal(
        await marked.filter({ hasText: "{{base}}" }).getAttribute("title"),
        `base = ${target.origin}/dev (dev in http-client.env.json)`,
      );
      assert.equal(
        await page.locator(".body-editor .cm-variable-undefined").getAttribute("title"),
        "nobody is undefined",
      );
      // Another environment marks again without an edit.
      await sidebar.getByLabel("Environment").selectOption("prod");
      await page.locator(
        `.body-editor .cm-variable[title="base = ${target.origin}/prod (prod in http-client.env.json)"]`,
      )
        .waitFor();
      await sidebar.getByLabel("Environment").selectOption("dev");
      await line.getByText(`{{base}} = ${target.origin}/dev`).waitFor();
      await page.getByRole("combobox", { name: "Body type" }).selectOption("none");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
      let sent = target.requests.at(-1)!;
      assert.equal(new URL(sent.url).pathname, "/dev/v2/users");
      assert.equal(sent.headers.get("authorization"), "Bearer s3cr3t-dev");
      await sidebar.getByLabel("Environment").selectOption("prod");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByLabel("Response body").getByText('"/prod/v2/users"').waitFor();
      sent = target.requests.at(-1)!;
      assert.equal(new URL(sent.url).pathname, "/prod/v2/users");
      assert.equal(sent.headers.get("authorization"), "Bearer s3cr3t-prod");
      // The private values never reached the page or its storage.
      const html = await page.content();
      const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
      for (const text of [html, stored]) assert.ok(!text.includes("s3cr3t"), "a private value");
    },
  );

  await t.step(
    "the runner runs a file's requests in order with their tests; no include from outside",
    async () => {
      await using base = await tempDir("dial-ui-run-", {
        "secret.txt": "outside",
        "ws/checks.http":
          `### one\nGET ${target.origin}/one\n\n> {% client.test("is 200", () => client.assert(response.status === 200, "not 200")); %}\n\n` +
          `### two\nGET ${target.origin}/two\n\n> {% client.test("says three", () => client.assert(response.body.path === "/three", "path is " + response.body.path)); %}\n`,
        "ws/leak.http": `POST ${target.origin}/leak\nContent-Type: text/plain\n\n< ../secret.txt\n`,
      });
      await using app = await openApp(browser(), { workspace: `${base.path}/ws` });
      const { page } = app;
      const sidebar = page.getByRole("navigation", { name: "Workspace" });
      await sidebar.getByRole("button", { name: "Run checks.http" }).click();
      const runner = page.getByRole("region", { name: "Runner" });
      await runner.getByText("1 passed, 1 failed").waitFor();
      const text = await runner.textContent() ?? "";
      assert.match(text, /200 one.*✓ is 200.*200 two.*✗ says three: path is \/two/s);
      const before = target.requests.length;
      await sidebar.getByRole("button", { name: "Run leak.http" }).click();
      await runner.getByRole("alert").filter({ hasText: "outside the workspace" }).waitFor();
      assert.equal(target.requests.length, before, "nothing sent");
    },
  );

  await t.step("the workspace's cookie jar sends what a response set, and is cleared", async () => {
    await using ws = await tempDir("dial-ui-jar-");
    await using app = await openApp(browser(), { workspace: ws.path });
    const { page } = app;
    const url = page.getByLabel("URL", { exact: true });
    const send = page.getByRole("button", { name: "Send", exact: true });
    const body = page.getByLabel("Response body");
    await url.fill(`${target.origin}/login`);
    await send.click();
    await body.getByText('"/login"').waitFor();
    await url.fill(`${target.origin}/me`);
    await send.click();
    await body.getByText('"cookie": "sid=abc123"').waitFor();
    await page.getByRole("button", { name: "Cookies" }).click();
    const jar = page.getByRole("region", { name: "Cookie jar" });
    await jar.getByText("abc123").waitFor();
    await jar.getByRole("button", { name: "Clear cookies" }).click();
    await jar.getByText("No cookies yet.").waitFor();
    await send.click();
    await body.getByText('"cookie": null').waitFor();
  });

  await t.step(
    "an environment's Security.Auth gives {{$auth.token}} its token, for Send and the runner",
    async () => {
      await using mock = await startMockServer(3600);
      await using cache = await tempDir("dial-ui-sec-cache-");
      await using ws = await tempDir("dial-ui-sec-", {
        "http-client.env.json": securityAuthEnv({
          api: clientCredentialsAuth(mock.tokenUrl, "app", "{{secret}}"),
        }),
        "http-client.private.env.json": JSON.stringify({ dev: { secret: "cs-9" } }),
        "me.http":
          `### me\nGET ${target.origin}/me\nAuthorization: Bearer {{$auth.token("api")}}\n`,
      });
      await using app = await openApp(browser(), { workspace: ws.path, oauthCacheDir: cache.path });
      const { page } = app;
      const sidebar = await openRequest(page, "me.http", "GET me", "dev");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
      const sent = target.requests.at(-1)!.headers.get("authorization") ?? "";
      assert.match(sent, /^Bearer ey[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(mock.tokenRequests.length, 1);
      assert.equal(mock.tokenRequests[0]!.body.get("grant_type"), "client_credentials");
      // The runner uses the same cached token.
      await sidebar.getByRole("button", { name: "Run me.http" }).click();
      await page.getByRole("region", { name: "Runner" }).getByText("1 passed, 0 failed")
        .waitFor();
      assert.equal(target.requests.at(-1)!.headers.get("authorization"), sent);
      assert.equal(mock.tokenRequests.length, 1);
    },
  );
});

/**
 * Page code, before the page's own: records each value the environment picker shows (its
 * selected option's text, "" for none), the server's picture of it included, after every
 * change of the page and in every frame, until the test reads `globalThis.__picker`.
 */
const RECORD_PICKER = `globalThis.__picker = [];
  const look = () => {
    for (const select of document.querySelectorAll("label.environment select")) {
      const text = select.selectedOptions[0]?.textContent ?? "";
      if (globalThis.__picker.at(-1) !== text) globalThis.__picker.push(text);
    }
  };
  new MutationObserver(look).observe(document, {
    childList: true, subtree: true, attributes: true, characterData: true,
  });
  const frame = () => { look(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);`;

Deno.test("browser: the environment picker never shows No environment while the workspace's environments load", async () => {
  await using ws = await tempDir("dial-ui-env-first-", {
    "http-client.env.json": JSON.stringify({
      dev: { base: "http://127.0.0.1:9/dev" },
      staging: { base: "http://127.0.0.1:9/staging" },
    }),
    "api.http": "### users\n# @name users\nGET {{base}}/users\n",
  });
  const shown = async (environment: string) => {
    await using app = await openApp(browser(), { workspace: ws.path }, {}, RECORD_PICKER);
    const record = () => app.page.evaluate("globalThis.__picker") as Promise<string[]>;
    await waitFor(async () => (await record()).at(-1) === environment, {
      message: `the picker showing ${environment}`,
    });
    return await record();
  };
  {
    // A first launch: the first environment, and no other value before it.
    const values = await shown("dev");
    assert.deepEqual(values.filter((text) => text !== ""), ["dev"], JSON.stringify(values));
  }
  {
    // Picked, then a restart: staging from the first value shown.
    await using app = await openApp(browser(), { workspace: ws.path });
    const picker = app.page.getByRole("navigation", { name: "Workspace" }).getByLabel(
      "Environment",
    );
    await picker.selectOption("staging");
    await app.page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
  }
  const values = await shown("staging");
  assert.deepEqual(values.filter((text) => text !== ""), ["staging"], JSON.stringify(values));
});
