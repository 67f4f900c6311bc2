/**
 * The auth panel's Digest and AWS Signature v4 kinds in Chromium: Digest against Debian's
 * python3-httpbin, SigV4 against the verifying store; the AWS secret never reaches localStorage.
 */
import assert from "node:assert/strict";
import { fileBrowser, openApp } from "./_browser.ts";
import { startHttpbin } from "../e2e/_httpbin.ts";
import { startSigV4Server } from "../e2e/_sigv4_server.ts";

const browser = fileBrowser();

Deno.test("browser: the Digest kind answers httpbin's challenge; AWS SigV4 passes the verifier", async () => {
  await using httpbin = await startHttpbin();
  await using s3 = startSigV4Server({ AKIDUI: "ui-secret-value" });
  await using app = await openApp(browser());
  const { page } = app;
  const send = async (url: string, status: string) => {
    await page.getByLabel("URL", { exact: true }).fill(url);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByTestId("status").filter({ hasText: status }).waitFor();
  };
  await page.getByLabel("Auth", { exact: true }).selectOption("digest");
  await page.getByLabel("Username", { exact: true }).fill("user");
  await page.getByLabel("Password", { exact: true }).fill("passwd");
  await send(`${httpbin.origin}/digest-auth/auth/user/passwd/SHA-256`, "200");
  await page.getByLabel("Response body").getByText('"authenticated"').waitFor();

  await page.getByLabel("Auth", { exact: true }).selectOption("aws-sigv4");
  await page.getByLabel("Provider:region:service").fill("aws:amz:us-east-1:s3");
  await page.getByLabel("Access key ID").fill("AKIDUI");
  await page.getByLabel("Secret access key").fill("ui-secret-value");
  // The panel's auth goes to the origin it was first used with (httpbin's): the store's first
  // request goes without, is refused, and the notice adds its origin.
  await send(`${s3.origin}/bucket/none`, "403");
  const notice = page.getByRole("status").filter({ hasText: "Sent without auth" });
  await notice.getByRole("button", { name: `Add ${s3.origin} to auth` }).click();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByTestId("status").filter({ hasText: "404" }).waitFor();
  assert.equal(s3.verdicts[0]?.reason, "no SigV4 Authorization header");
  assert.equal(s3.verdicts.at(-1)?.ok, true, JSON.stringify(s3.verdicts));
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.equal(stored.includes("ui-secret-value"), false);
  // (httpbin's Digest password is part of its URL, so it is in the drafts by design.)
});

Deno.test("browser: the device code flow shows the code and its link in the panel, then the token state", async () => {
  const { startOidcProvider, OIDC_CLIENTS } = await import("../e2e/_oauth_servers.ts");
  await using op = await startOidcProvider({ redirectUris: [], deviceFlow: true });
  const cacheDir = await Deno.makeTempDir();
  await using app = await openApp(browser(), { oauthCacheDir: cacheDir });
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("oauth2");
  await page.getByLabel("Flow").selectOption("device_code");
  await page.getByText("Issuer and extra parameters").click();
  await page.getByLabel("Issuer").fill(op.origin);
  await page.getByLabel("Client ID").fill(OIDC_CLIENTS.device.id);
  await page.getByRole("button", { name: "Get token" }).click();
  const dialog = page.getByRole("dialog", { name: "Device login" });
  const code = await dialog.getByTestId("user-code").textContent();
  assert.match(code ?? "", /^[A-Z]{4}-[A-Z]{4}$/);
  const link = await dialog.getByRole("link").getAttribute("href");
  assert.equal(link, `${op.origin}/device?user_code=${code}`);
  // The person logs in elsewhere (the test browser of the CLI's tests).
  const login = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", new URL("../e2e/_browser.ts", import.meta.url).pathname, link!],
    stdout: "null",
    stderr: "null",
  }).output();
  assert.equal(login.code, 0);
  await page.getByTestId("token-state").filter({ hasText: "obtained" }).waitFor();
  await dialog.waitFor({ state: "detached" });
  await Deno.remove(cacheDir, { recursive: true });
});
