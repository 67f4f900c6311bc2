/**
 * axe-core on the views no other axe test reaches, light and dark: the "Set a secret" form (open
 * with a value, and saved), the OAuth 2.0 login states (a Security.Auth line not logged in, its
 * "Log in first", logged in; the auth panel's device code dialog, a failed token request and a
 * token obtained) and the import report (moved secrets and what was not carried).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve, tempDir } from "../_helpers.ts";
import { violations } from "./_axe.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";
import { OIDC_CLIENTS, startMockServer, startOidcProvider } from "../e2e/_oauth_servers.ts";
import { postmanCollection, postmanEnvironment } from "../e2e/_newman.ts";
import { unusedPort } from "../_ports.ts";

const browser = fileBrowser();

/** Drops files on the sidebar as a browser does (a DataTransfer holding them). */
async function drop(page: Page, files: Array<{ name: string; text: string }>): Promise<void> {
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  const dataTransfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) transfer.items.add(new File([f.text], f.name));
    return transfer;
  })()`);
  await sidebar.dispatchEvent("dragover", { dataTransfer });
  await sidebar.dispatchEvent("drop", { dataTransfer });
}

/** A collection with a secret to move and an auth kind a request file cannot carry. */
function collection(origin: string) {
  return postmanCollection("Shop", {
    variable: [{ key: "base", value: origin }, { key: "apiKey", value: "k3y-literal" }],
    item: [
      {
        name: "List",
        request: {
          method: "GET",
          header: [{ key: "X-Api-Key", value: "{{apiKey}}" }],
          url: "{{base}}/users",
        },
      },
      {
        name: "Legacy",
        request: {
          method: "GET",
          auth: {
            type: "ntlm",
            ntlm: [{ key: "username", value: "ann", type: "string" }],
          },
          url: "{{base}}/legacy",
        },
      },
    ],
  });
}

for (const colorScheme of ["light", "dark"] as const) {
  Deno.test(`browser: axe-core finds nothing critical, serious or moderate in Set a secret, the OAuth login states and the import report (${colorScheme})`, async () => {
    await using target = serve((r) => Response.json({ auth: r.headers.get("authorization") }));
    await using mock = await startMockServer(3600);
    await using op = await startOidcProvider({ redirectUris: [], deviceFlow: true });
    await using cache = await tempDir("dial-ui-a11y-forms-cache-");
    await using dir = await tempDir("dial-ui-a11y-forms-", {
      "api.http": "### me\nGET {{base}}/me\nAuthorization: Bearer {{token}}\n\n" +
        `### login\nGET {{base}}/login\nAuthorization: Bearer {{$auth.token("login")}}\n`,
      "http-client.env.json": JSON.stringify({
        dev: {
          base: target.origin,
          Security: {
            Auth: {
              login: {
                "Type": "OAuth2",
                "Grant Type": "Authorization Code",
                "Auth URL": mock.authUrl,
                "Token URL": mock.tokenUrl,
                "Redirect URL": `http://127.0.0.1:${unusedPort()}/callback`,
                "Client ID": "cli-app",
              },
            },
          },
        },
      }),
    });
    await using app = await openApp(
      browser(),
      { workspace: dir.path, oauthCacheDir: cache.path },
      { colorScheme },
    );
    const { page } = app;
    const found: string[] = [];
    const check = async (view: string) =>
      found.push(...(await violations(page)).map((v) => `${view}: ${v}`));

    // Set a secret: opened from an undefined variable, a value typed, then saved.
    const sidebar = await openRequest(page, "api.http", "GET me", "dev");
    const line = page.getByLabel("Variables", { exact: true });
    await line.getByRole("button", { name: "Set token" }).click();
    const form = page.getByRole("region", { name: "Set a secret" });
    await form.getByLabel("Secret value").fill("s3cr3t-v1");
    await check("Set a secret (open)");
    await form.getByRole("button", { name: "Save to private env file" }).click();
    await form.getByRole("status").filter({ hasText: "Saved {{token}}" }).waitFor();
    await check("Set a secret (saved)");

    // A Security.Auth login: not logged in, Send says "Log in first", then logged in.
    await sidebar.getByRole("button", { name: "GET login", exact: true }).click();
    const auth = page.getByRole("region", { name: "Request auth" });
    await auth.getByTestId("token-state").filter({ hasText: "not obtained yet" }).waitFor();
    await check("Security.Auth (not logged in)");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Log in first" }).waitFor();
    await check("Security.Auth (Log in first)");
    const popup = page.context().waitForEvent("page");
    await auth.getByRole("button", { name: "Log in Security.Auth login" }).click();
    await popup;
    await auth.getByTestId("token-state").filter({ hasText: /^Token: obtained/ }).waitFor();
    await check("Security.Auth (logged in)");

    // The auth panel: a token request refused, the device code dialog, a token obtained.
    await page.getByRole("button", { name: "New request tab" }).click();
    await page.getByLabel("Auth", { exact: true }).selectOption("oauth2");
    await page.getByLabel("Flow").selectOption("device_code");
    await page.getByText("Issuer and extra parameters").click();
    await page.getByLabel("Issuer").fill(op.origin);
    await page.getByLabel("Client ID").fill("no-such-client");
    await page.getByRole("button", { name: "Get token" }).click();
    await page.locator(".token-message[role=alert]").waitFor();
    await check("auth panel (token refused)");
    await page.getByLabel("Client ID").fill(OIDC_CLIENTS.device.id);
    await page.getByRole("button", { name: "Get token" }).click();
    const dialog = page.getByRole("dialog", { name: "Device login" });
    await dialog.getByTestId("user-code").waitFor();
    await check("auth panel (device code)");
    const link = await dialog.getByRole("link").getAttribute("href");
    // The person logs in elsewhere (the test browser of the CLI's tests).
    const login = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        new URL("../e2e/_browser.ts", import.meta.url).pathname,
        link!,
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    assert.equal(login.code, 0);
    await page.getByTestId("token-state").filter({ hasText: "obtained" }).waitFor();
    await dialog.waitFor({ state: "detached" });
    await check("auth panel (token obtained)");

    // The import report: a secret moved, an auth kind not carried.
    await drop(page, [
      { name: "shop.postman_collection.json", text: JSON.stringify(collection(target.origin)) },
      {
        name: "dev.postman_environment.json",
        text: JSON.stringify(postmanEnvironment("dev", [])),
      },
    ]);
    const report = page.getByRole("region", { name: "Import report" });
    await report.getByRole("list", { name: "Moved secrets" }).waitFor();
    await report.getByRole("list", { name: "Not carried" }).waitFor();
    await check("import report");

    assert.deepEqual(found, []);
  });
}
