/**
 * The OAuth 2.0 step's notices in the UI, as the CLI prints them on stderr: a token response
 * without `token_type` is used as Bearer, and the auth panel says so (after Send and after Get
 * token).
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { fileBrowser, openApp } from "./_browser.ts";

const browser = fileBrowser();

Deno.test("browser: a token response without token_type is used as Bearer and the panel warns", async () => {
  let issued = 0;
  // A provider that leaves token_type out (seen in the wild; RFC 6749 requires it).
  await using provider = serve(() => {
    issued++;
    return Response.json({ access_token: `tok-${issued}`, expires_in: 3600 });
  });
  const seen: string[] = [];
  await using api = serve((request) => {
    seen.push(request.headers.get("authorization") ?? "");
    return Response.json({ ok: true });
  });
  const cacheDir = await Deno.makeTempDir();
  await using app = await openApp(browser(), { oauthCacheDir: cacheDir });
  const { page } = app;
  await page.getByLabel("Auth", { exact: true }).selectOption("oauth2");
  await page.getByLabel("Flow").selectOption("client_credentials");
  await page.getByLabel("Token URL").fill(`${provider.origin}/token`);
  await page.getByLabel("Client ID").fill("app");
  await page.getByLabel("Client secret").fill("s3cret");
  await page.getByLabel("URL", { exact: true }).fill(`${api.origin}/me`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
  assert.deepEqual(seen, ["Bearer tok-1"]);
  const notice = page.getByTestId("token-notice");
  await notice.filter({ hasText: /sent no token_type: using the token as a Bearer token/ })
    .waitFor();
  // A cached token needs no token request: Get token clears the warning. The notice goes at the
  // click already, but the server reads its cache while answering: the cache is emptied only
  // after that answer has been read whole (through the route), never while it may be read.
  let served!: () => void;
  const answered = new Promise<void>((resolve) => served = resolve);
  await page.route("**/api/auth/token", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response });
    served();
  }, { times: 1 });
  await page.getByRole("button", { name: "Get token" }).click();
  await answered;
  await page.getByTestId("token-state").filter({ hasText: /^Token: obtained/ }).waitFor();
  await notice.waitFor({ state: "detached" });
  assert.equal(issued, 1);
  // Without a cached token, Get token asks the provider again and warns again.
  for await (const entry of Deno.readDir(`${cacheDir}/oauth2`)) {
    if (entry.name.endsWith(".json")) await Deno.remove(`${cacheDir}/oauth2/${entry.name}`);
  }
  await page.getByRole("button", { name: "Get token" }).click();
  await notice.filter({ hasText: /sent no token_type/ }).waitFor();
  assert.equal(issued, 2);
  await Deno.remove(cacheDir, { recursive: true });
});
