import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve, tempDir } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

const FILE = `### login
# @name login
POST {{base}}/login
Content-Type: application/json

{
  "user": "{{user}}",
  "password": "{{password}}"
}

### profile
# @name profile
GET {{base}}/profile
Authorization: Bearer {{token}}
X-Api-Key: literal-key-123
Cookie: sid={{sid}}
`;

/** Runs `action`, then waits until every draft it changed has reached the workspace. */
async function saved(page: Page, action: () => Promise<void>): Promise<void> {
  await action();
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
}

function tabButton(page: Page, name: string) {
  return page.locator(".request-tab-name", { hasText: name });
}

async function headerValue(page: Page, row: number): Promise<string> {
  return await page.getByLabel(`Headers value ${row}`, { exact: true }).inputValue();
}

Deno.test("browser: a tab is its text across reload, restart and another window", async () => {
  await using target = serve(async (request) =>
    Response.json({ path: new URL(request.url).pathname, body: await request.text() })
  );
  await using ws = await tempDir("dial-ui-tab-text-", {
    "api.http": FILE,
    "http-client.env.json": JSON.stringify({ dev: { base: target.origin, user: "ann" } }),
    "http-client.private.env.json": JSON.stringify({
      dev: { password: "pw-s3cr3t", token: "tok-s3cr3t", sid: "sid-s3cr3t" },
    }),
  });
  const workspace = ws.path;

  /** The profile tab's fields are the file's text, and Send fills the references. */
  async function checkProfile(page: Page): Promise<void> {
    await tabButton(page, "profile").click();
    assert.equal(
      await page.getByLabel("URL", { exact: true }).inputValue(),
      "{{base}}/profile?edited=1",
    );
    assert.equal(await headerValue(page, 1), "Bearer {{token}}");
    assert.equal(await headerValue(page, 2), "literal-key-123");
    assert.equal(await headerValue(page, 3), "sid={{sid}}");
    const before = target.requests.length;
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const sent = target.requests[before]!;
    assert.equal(new URL(sent.url).pathname + new URL(sent.url).search, "/profile?edited=1");
    assert.equal(sent.headers.get("authorization"), "Bearer tok-s3cr3t");
    assert.equal(sent.headers.get("x-api-key"), "literal-key-123");
    assert.equal(sent.headers.get("cookie"), "sid=sid-s3cr3t");
  }

  /** The login tab (no unsaved edits) is its file: its body verbatim, sent filled. */
  async function checkLogin(page: Page): Promise<void> {
    await tabButton(page, "login").click();
    const details = page.locator("details", {
      has: page.locator("summary", { hasText: "Body" }),
    });
    if (await details.getAttribute("open") === null) {
      await page.locator("summary", { hasText: "Body" }).click();
    }
    const body = page.getByLabel("Request body");
    await body.getByText('"password": "{{password}}"').waitFor();
    const before = target.requests.length;
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    const sent = target.requests[before]!;
    assert.deepEqual(JSON.parse(await sent.text()), { user: "ann", password: "pw-s3cr3t" });
  }

  {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByLabel("Environment").selectOption("dev");
    await sidebar.getByRole("button", { name: "api.http", exact: true }).click();
    await sidebar.getByRole("button", { name: "POST login" }).dblclick();
    await sidebar.getByRole("button", { name: "GET profile" }).dblclick();
    await page.getByLabel("URL", { exact: true }).fill("{{base}}/profile?edited=1");
    await tabButton(page, "profile •").waitFor();
    // Each tab shows its own unsaved mark: profile's stays while login is in front.
    await saved(page, () => tabButton(page, "login").click());
    await tabButton(page, "profile •").waitFor();
    assert.equal(
      await tabButton(page, "login").evaluate((tab) => tab.textContent?.includes("•")),
      false,
    );

    await page.reload();
    await page.getByRole("tablist", { name: "Request kind" }).waitFor();
    await tabButton(page, "profile •").waitFor();
    await checkLogin(page);
    await checkProfile(page);

    // "New window": a second page of the same app, restored from the workspace.
    const [second] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("button", { name: "New window" }).click(),
    ]);
    await second.getByRole("tablist", { name: "Request kind" }).waitFor();
    await tabButton(second, "profile •").waitFor();
    await checkProfile(second);
    await saved(page, () => tabButton(page, "login").click());
  }
  const state = await Deno.readTextFile(`${workspace}/.dial/ui-state.json`);
  assert.ok(state.includes("Bearer {{token}}"), "the reference is stored");
  for (const secret of ["literal-key-123", "s3cr3t"]) {
    assert.ok(!state.includes(secret), `${secret} is not stored`);
  }

  // A restart (another port, another origin: empty browser storage).
  await using app = await openApp(browser(), { workspace });
  const { page } = app;
  await tabButton(page, "profile •").waitFor();
  await checkLogin(page);
  await checkProfile(page);
  // Ctrl+S writes the tab's text: the references and the file's literal value, not blanks.
  await page.getByLabel("URL", { exact: true }).focus();
  await page.keyboard.press("Control+s");
  await page.getByText("Saved to api.http").waitFor();
  assert.equal(
    await Deno.readTextFile(`${workspace}/api.http`),
    FILE.replace("GET {{base}}/profile", "GET {{base}}/profile?edited=1"),
  );
  await tabButton(page, "profile").filter({ hasNotText: "•" }).waitFor();
  const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
  assert.ok(!stored.includes("literal-key-123") && !stored.includes("s3cr3t"), stored);
});

Deno.test("browser: a typed credential is not kept, and the reload says so", async () => {
  await using ws = await tempDir("dial-ui-tab-text-");
  const workspace = ws.path;
  await using app = await openApp(browser(), { workspace });
  const { page } = app;
  await page.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:9/x?api_key={{key}}");
  await page.getByLabel("Headers name 1", { exact: true }).fill("Authorization");
  await saved(
    page,
    () => page.getByLabel("Headers value 1", { exact: true }).fill("Bearer typed-s3cr3t"),
  );
  await page.reload();
  await page.getByRole("tablist", { name: "Request kind" }).waitFor();
  await page.getByText("Not kept across the reload").waitFor();
  assert.equal(
    await page.getByLabel("URL", { exact: true }).inputValue(),
    "http://127.0.0.1:9/x?api_key={{key}}",
  );
  assert.equal(await headerValue(page, 1), "");
  const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
  assert.ok(!stored.includes("typed-s3cr3t"), stored);
});

Deno.test("browser: a file's literal credential changed in the tab is not taken back from the file after a reload: it stays blank, unsaved, and the tab says so", async () => {
  await using ws = await tempDir("dial-ui-tab-text-", { "api.http": FILE });
  await using app = await openApp(browser(), { workspace: ws.path });
  const { page } = app;
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  await sidebar.getByRole("button", { name: "api.http", exact: true }).click();
  await sidebar.getByRole("button", { name: "GET profile" }).dblclick();
  assert.equal(await headerValue(page, 2), "literal-key-123");
  await saved(
    page,
    () => page.getByLabel("Headers value 2", { exact: true }).fill("typed-n3w-key"),
  );
  await tabButton(page, "profile •").waitFor();
  await page.reload();
  await page.getByRole("tablist", { name: "Request kind" }).waitFor();
  await page.getByText(
    "Not kept across the reload (browser storage never holds a credential value): header x-api-key; type it again",
  ).waitFor();
  assert.equal(await headerValue(page, 2), "", "not the file's literal-key-123");
  assert.equal(await headerValue(page, 1), "Bearer {{token}}");
  await tabButton(page, "profile •").waitFor();
  const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
  assert.ok(!stored.includes("typed-n3w-key") && !stored.includes("literal-key-123"), stored);
});
