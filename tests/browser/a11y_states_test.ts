/**
 * axe-core on the states no other axe test reaches, light and dark: an empty workspace (no
 * request file) in every kind of tab, an import that failed, a device login whose code expired,
 * a run with a failing test, a kind tab's save conflict and its "changed on disk" note, a kind
 * tab whose file is gone, and the variables line of a tab in no file whose
 * `{{login.response…}}` names a request two files have.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve, tempDir } from "../_helpers.ts";
import { violations } from "./_axe.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

/** Drops a file on the sidebar as a browser does (a DataTransfer holding it). */
async function drop(page: Page, name: string, text: string): Promise<void> {
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  const dataTransfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}));
    return transfer;
  })()`);
  await sidebar.dispatchEvent("dragover", { dataTransfer });
  await sidebar.dispatchEvent("drop", { dataTransfer });
}

/**
 * A device authorization server whose codes have expired by the first poll: the token endpoint
 * answers `expired_token` (RFC 8628, 3.5), as any server does once a code's lifetime is over.
 */
function expiringDeviceServer() {
  return serve(async (request) => {
    await request.text();
    const path = new URL(request.url).pathname;
    if (path === "/device") {
      return Response.json({
        device_code: "dc-1",
        user_code: "WXYZ-1234",
        verification_uri: `${new URL(request.url).origin}/verify`,
        expires_in: 600,
        interval: 1,
      });
    }
    return Response.json({ error: "expired_token" }, { status: 400 });
  });
}

const KINDS = ["HTTP", "GraphQL", "WebSocket", "SSE", "gRPC"];

async function showKind(page: Page, kind: string): Promise<void> {
  await page.getByRole("tablist", { name: "Request kind" }).getByRole("tab", { name: kind })
    .click();
  await page.getByRole("tab", { name: kind, selected: true }).waitFor();
}

for (const colorScheme of ["light", "dark"] as const) {
  Deno.test(`browser: axe-core finds nothing critical, serious or moderate in an empty workspace, a failed import and an expired device code (${colorScheme})`, async () => {
    await using device = expiringDeviceServer();
    await using dir = await tempDir("dial-ui-a11y-empty-");
    await using app = await openApp(browser(), { workspace: dir.path }, { colorScheme });
    const { page } = app;
    const found: string[] = [];
    const check = async (view: string) =>
      found.push(...(await violations(page)).map((v) => `${view}: ${v}`));
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByText("No .http files in this folder yet").waitFor();
    for (const kind of KINDS) {
      await showKind(page, kind);
      await check(`empty workspace, ${kind}`);
    }

    await showKind(page, "HTTP");
    await drop(page, "broken.postman_collection.json", "{ not json");
    await page.getByRole("alert").filter({ hasText: "Not imported" }).waitFor();
    await check("failed import");

    await page.getByLabel("Auth", { exact: true }).selectOption("oauth2");
    await page.getByLabel("Flow").selectOption("device_code");
    await page.getByLabel("Device authorization URL").fill(`${device.origin}/device`);
    await page.getByLabel("Token URL").fill(`${device.origin}/token`);
    await page.getByLabel("Client ID").fill("cli");
    await page.getByRole("button", { name: "Get token" }).click();
    await page.locator(".token-message[role=alert]").filter({ hasText: "expired" }).waitFor();
    await check("device code expired");
    assert.deepEqual(found, []);
  });

  Deno.test(`browser: axe-core finds nothing critical, serious or moderate in a failed run, a kind tab's conflict and notes, and an ambiguous reference (${colorScheme})`, async () => {
    await using target = serve(() => Response.json({ token: "t" }));
    const file = `### login\n# @name login\nGET ${target.origin}/login\n\n` +
      `> {% client.test("fails", () => client.assert(false, "on purpose")); %}\n\n` +
      `### feed\n# @name feed\nWEBSOCKET ws://127.0.0.1:${target.port}/feed\n` +
      "Authorization: Bearer {{token}}\n";
    await using dir = await tempDir("dial-ui-a11y-states-", {
      "api.http": file,
      "other.http": `### login\n# @name login\nGET ${target.origin}/other\n`,
    });
    const path = `${dir.path}/api.http`;
    const found: string[] = [];
    {
      await using app = await openApp(browser(), { workspace: dir.path }, { colorScheme });
      const { page } = app;
      const check = async (view: string) =>
        found.push(...(await violations(page)).map((v) => `${view}: ${v}`));
      await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });

      // A tab in no file whose reference two files could answer: the variables line says so.
      await page.getByLabel("URL", { exact: true }).fill(
        `${target.origin}/x?t={{login.response.body.$.token}}`,
      );
      await page.locator("p.variables-line:visible").getByRole("alert")
        .filter({ hasText: "login is named in api.http and other.http" }).waitFor();
      await check("ambiguous reference");

      // ▶ Run with a failing test.
      const sidebar = await openRequest(page, "api.http", "GET login");
      await sidebar.getByRole("button", { name: "Run api.http" }).click();
      await page.getByRole("region", { name: "Runner" }).getByText("✗ fails: on purpose").waitFor();
      await check("failed run");

      // A WebSocket tab of the file, edited; its request changes on disk; Ctrl+S conflicts.
      await sidebar.getByRole("button", { name: "WEBSOCKET feed" }).click();
      await page.getByLabel("WebSocket endpoint").fill(`ws://127.0.0.1:${target.port}/feed2`);
      await Deno.writeTextFile(path, file.replace("/feed\n", "/feed\nX-Outside: 1\n"));
      const panel = page.getByRole("tabpanel", { name: "WebSocket" });
      await panel.getByText("api.http changed on disk; your edits are kept").waitFor();
      await check("changed on disk");
      await page.getByLabel("WebSocket endpoint").focus();
      await page.keyboard.press("Control+s");
      await page.getByRole("alert", { name: "Save conflict" }).getByText("X-Outside: 1").waitFor();
      await check("kind tab conflict");
      await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
    }
    // Its file deleted while dial ui was closed: the tab says so.
    await Deno.remove(path);
    await using app = await openApp(browser(), { workspace: dir.path }, { colorScheme });
    const { page } = app;
    await page.getByRole("tab", { name: "WebSocket", selected: true }).waitFor();
    await page.getByRole("tabpanel", { name: "WebSocket" })
      .getByText('"api.http" is not in the workspace').waitFor();
    found.push(...(await violations(page)).map((v) => `file gone: ${v}`));
    assert.deepEqual(found, []);
  });
}
