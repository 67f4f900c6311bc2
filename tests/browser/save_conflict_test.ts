import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

const FILE = `### users
# @name users
GET https://api.test/users
Accept: application/json

### orders
# @name orders
GET https://api.test/orders
`;

async function openUsers(page: Page): Promise<void> {
  await openRequest(page, "api.http", "GET users");
  await page.getByLabel("URL", { exact: true }).fill("https://api.test/users?mine=1");
  await page.locator(".request-tab-name", { hasText: "users •" }).waitFor();
}

async function save(page: Page): Promise<void> {
  await page.getByLabel("URL", { exact: true }).focus();
  await page.keyboard.press("Control+s");
}

Deno.test("browser: a save never overwrites what changed on disk since the tab opened", async (t) => {
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-conflict-" });
  const path = `${workspace}/api.http`;
  const outside = FILE.replace("Accept: application/json", "Accept: text/csv");
  try {
    await t.step("a conflict is shown and nothing is written; Keep both adds mine", async () => {
      await Deno.writeTextFile(path, FILE);
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await openUsers(page);
      await Deno.writeTextFile(path, outside);
      await save(page);
      const conflict = page.getByRole("alert", { name: "Save conflict" });
      await conflict.getByLabel("On disk").getByText("Accept: text/csv").waitFor();
      await conflict.getByLabel("Yours").getByText("GET https://api.test/users?mine=1").waitFor();
      assert.equal(await Deno.readTextFile(path), outside, "nothing written");
      await conflict.getByRole("button", { name: "Keep both" }).click();
      await page.getByText("Saved to api.http as a new request, users-mine").waitFor();
      assert.equal(
        await Deno.readTextFile(path),
        `${outside}\n### users-mine\n# @name users-mine\nGET https://api.test/users?mine=1\nAccept: application/json\n`,
      );
      await page.locator(".request-tab-name", { hasText: "users-mine" }).filter({
        hasNotText: "•",
      }).waitFor();
    });

    await t.step(
      "Overwrite with mine, by explicit choice only; another request's edit merges",
      async () => {
        await Deno.remove(`${workspace}/.dial`, { recursive: true }).catch(() => {});
        await Deno.writeTextFile(path, FILE);
        await using app = await openApp(browser(), { workspace });
        const { page } = app;
        await openUsers(page);
        // An outside edit of another request is no conflict: the save goes in place beside it.
        const other = FILE.replace(
          "GET https://api.test/orders",
          "GET https://api.test/orders?x=1",
        );
        await Deno.writeTextFile(path, other);
        await save(page);
        await page.getByText("Saved to api.http").waitFor();
        assert.equal(
          await Deno.readTextFile(path),
          other.replace("GET https://api.test/users", "GET https://api.test/users?mine=1"),
        );
        // Now the same request changes outside: refused until Overwrite is chosen.
        await page.getByLabel("URL", { exact: true }).fill("https://api.test/users?mine=2");
        const changed = (await Deno.readTextFile(path)).replace(
          "Accept: application/json",
          "X-A: 1",
        );
        await Deno.writeTextFile(path, changed);
        await save(page);
        const conflict = page.getByRole("alert", { name: "Save conflict" });
        await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
        await page.getByText("Saved to api.http", { exact: true }).waitFor();
        assert.match(
          await Deno.readTextFile(path),
          /GET https:\/\/api\.test\/users\?mine=2\nAccept: application\/json\n/,
        );
      },
    );

    await t.step("two windows edit one request: the second save shows the first's", async () => {
      await Deno.remove(`${workspace}/.dial`, { recursive: true }).catch(() => {});
      await Deno.writeTextFile(path, FILE);
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await openUsers(page);
      const [second] = await Promise.all([
        page.context().waitForEvent("page"),
        page.getByRole("button", { name: "New window" }).click(),
      ]);
      await second.getByRole("tablist", { name: "Request kind" }).waitFor();
      const sidebar = second.getByRole("navigation", { name: "Workspace" });
      await sidebar.getByRole("button", { name: "api.http", exact: true }).click();
      await sidebar.getByRole("button", { name: "GET users" }).dblclick();
      await second.getByLabel("URL", { exact: true }).fill("https://api.test/users?theirs=1");
      await save(page);
      await page.getByText("Saved to api.http").waitFor();
      await save(second);
      const conflict = second.getByRole("alert", { name: "Save conflict" });
      await conflict.getByLabel("On disk").getByText("users?mine=1").waitFor();
      assert.match(await Deno.readTextFile(path), /users\?mine=1\n/, "the first save stays");
      await conflict.getByRole("button", { name: "Keep both" }).click();
      await second.getByText("as a new request, users-mine").waitFor();
      const text = await Deno.readTextFile(path);
      assert.match(text, /GET https:\/\/api\.test\/users\?mine=1\n/);
      assert.match(text, /GET https:\/\/api\.test\/users\?theirs=1\n/);
    });

    await t.step("a tab without unsaved edits follows the file", async () => {
      // A fresh start: no tab of the steps before (their last drafts may still be unsaved).
      await Deno.remove(`${workspace}/.dial`, { recursive: true }).catch(() => {});
      await Deno.writeTextFile(path, FILE);
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await openRequest(page, "api.http", "GET users");
      await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
      await Deno.writeTextFile(path, FILE.replace("/users", "/people"));
      await page.getByText("Reloaded: api.http changed on disk").waitFor();
      assert.equal(
        await page.getByLabel("URL", { exact: true }).inputValue(),
        "https://api.test/people",
      );
    });
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("browser: an edited HTTP tab restored after an outside edit of only a literal credential or only spacing, made while dial ui was closed, conflicts on save", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-conflict-closed-" });
  const path = `${workspace}/api.http`;
  const file = FILE.replace(
    "Accept: application/json",
    "Accept: application/json\nX-Api-Key: lit-s3cr3t",
  );
  try {
    for (
      const [what, outside] of [
        ["a literal credential", file.replace("lit-s3cr3t", "lit-r0tat3d")],
        ["spacing", file.replace("Accept: application/json", "Accept:   application/json")],
      ]
    ) {
      await Deno.remove(`${workspace}/.dial`, { recursive: true }).catch(() => {});
      await Deno.writeTextFile(path, file);
      {
        await using app = await openApp(browser(), { workspace });
        const { page } = app;
        await openUsers(page);
        await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
      }
      const state = await Deno.readTextFile(`${workspace}/.dial/ui-state.json`);
      assert.ok(!state.includes("s3cr3t"), "no credential stored");
      await Deno.writeTextFile(path, outside!);
      await using app = await openApp(browser(), { workspace });
      const { page } = app;
      await page.getByText("api.http changed on disk; your edits are kept").waitFor();
      await save(page);
      const conflict = page.getByRole("alert", { name: "Save conflict" });
      await conflict.getByLabel("Yours").getByText("GET https://api.test/users?mine=1").waitFor();
      assert.equal(await Deno.readTextFile(path), outside, `nothing written (${what})`);
      const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
      assert.ok(!stored.includes("s3cr3t") && !stored.includes("r0tat3d"), stored);
      // Take theirs: the file's version, and a save without a conflict after it.
      await conflict.getByRole("button", { name: "Take theirs (drop my edits)" }).click();
      await page.getByText("Reloaded from api.http: your edits were dropped").waitFor();
      await page.getByLabel("URL", { exact: true }).fill("https://api.test/users?again=1");
      await save(page);
      await page.getByText("Saved to api.http", { exact: true }).waitFor();
      assert.equal(
        await Deno.readTextFile(path),
        outside!.replace("GET https://api.test/users", "GET https://api.test/users?again=1"),
      );
    }
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("browser: Keep both writes the tab's request as a save in place would: the lines it did not change keep their spacing", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-conflict-keep-" });
  const path = `${workspace}/api.http`;
  const file = `### createUser
# @name createUser
POST https://api.test/users
Content-Type:   application/json
X-Trace:    keep-spacing

{"name": "a"}

### feed
# @name feed
WEBSOCKET ws://127.0.0.1:9/feed
X-Trace:    keep-spacing
X-Other: 1
`;
  const outside = file.replace('"a"', '"b"');
  try {
    await Deno.writeTextFile(path, file);
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    await openRequest(page, "api.http", "POST createUser");
    await page.getByLabel("URL", { exact: true }).fill("https://api.test/users?mine=1");
    await page.locator(".request-tab-name", { hasText: "createUser •" }).waitFor();
    await Deno.writeTextFile(path, outside);
    await save(page);
    const conflict = page.getByRole("alert", { name: "Save conflict" });
    const mine = `POST https://api.test/users?mine=1
Content-Type:   application/json
X-Trace:    keep-spacing

{"name": "a"}
`;
    // What the conflict shows as yours is what Keep both writes.
    await conflict.getByLabel("Yours").getByText("X-Trace:    keep-spacing").waitFor();
    assert.equal(await conflict.getByLabel("Yours").textContent(), mine);
    await conflict.getByRole("button", { name: "Keep both" }).click();
    await page.getByText("Saved to api.http as a new request, createUser-mine").waitFor();
    const both = `${outside}\n### createUser-mine\n# @name createUser-mine\n${mine}`;
    assert.equal(await Deno.readTextFile(path), both);

    // A WebSocket tab's (every kind tab's) Keep both is written by the same writer.
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByRole("button", { name: "WEBSOCKET feed" }).click();
    const endpoint = page.getByLabel("WebSocket endpoint");
    await endpoint.fill("ws://127.0.0.1:9/feed?mine=1");
    const theirs = both.replace("X-Other: 1", "X-Other: 2");
    await Deno.writeTextFile(path, theirs);
    await page.getByText("api.http changed on disk; your edits are kept").waitFor();
    await endpoint.focus();
    await page.keyboard.press("Control+s");
    const feedMine = `WEBSOCKET ws://127.0.0.1:9/feed?mine=1
X-Trace:    keep-spacing
X-Other: 1
`;
    await conflict.getByLabel("On disk").getByText("X-Other: 2").waitFor();
    assert.equal(await conflict.getByLabel("Yours").textContent(), feedMine);
    await conflict.getByRole("button", { name: "Keep both" }).click();
    await page.getByRole("status").filter({
      hasText: "Saved to api.http as a new request, feed-mine",
    }).waitFor();
    assert.equal(
      await Deno.readTextFile(path),
      `${theirs}\n### feed-mine\n# @name feed-mine\n${feedMine}`,
    );
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});
