import assert from "node:assert/strict";
import { expireCachedTokens } from "../_helpers.ts";
import { startMockServer } from "../e2e/_oauth_servers.ts";
import { fileBrowser } from "./_browser.ts";
import { loadSchema, mockOAuth, openOAuthApp, setEditorText } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";
import { unusedPort } from "../_ports.ts";

const browser = fileBrowser();

/** Accepts only access tokens the mock issued, until they expire. */
function tokenGate(mock: Awaited<ReturnType<typeof startMockServer>>, ttlMs: number) {
  const issued = new Map<string, number>();
  mock.server.service.on("beforeResponse", (response) => {
    const body = response.body;
    if (typeof body === "object" && body !== null && typeof body.access_token === "string") {
      issued.set(body.access_token, Date.now() + ttlMs);
    }
  });
  const seen: string[] = [];
  const gate = (request: Request) => {
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    seen.push(token);
    return (issued.get(token) ?? 0) > Date.now();
  };
  return { gate, seen };
}

Deno.test("browser: OAuth 2.0 tokens are refreshed before expiry for introspection and queries, and the panel shows the state", async () => {
  await using mock = await startMockServer(3600);
  const { gate, seen } = tokenGate(mock, 3_600_000);
  await using graphql = await startGraphqlServer(gate);
  await using app = await openOAuthApp(browser(), mockOAuth("password", mock));
  const { page, cacheDir } = app;
  await page.getByLabel("OAuth username").fill("ann");
  await page.getByLabel("OAuth password").fill("pw");
  await loadSchema(page, graphql.endpoint);
  const state = page.getByTestId("token-state");
  await state.filter({ hasText: /^Token: obtained/ }).waitFor();
  assert.match(await state.textContent() ?? "", /expires in .+ · refresh token held/);
  assert.doesNotMatch(await page.content(), new RegExp(seen[0]!));
  assert.equal(await expireCachedTokens(cacheDir), 1);
  await setEditorText(page, "Query", "{ viewer { login } }");
  await page.getByRole("button", { name: "Run" }).click();
  const panel = page.getByRole("region", { name: "GraphQL response" });
  await panel.getByTestId("status").filter({ hasText: "200" }).waitFor();
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "password",
    "refresh_token",
  ]);
  assert.notEqual(seen.at(-1), seen[0]);
  await state.filter({ hasText: "refreshed" }).waitFor();
});

Deno.test("browser: a 401 for a cached OAuth 2.0 token gets a new token and one retry", async () => {
  await using mock = await startMockServer(3600);
  const { gate, seen } = tokenGate(mock, 3_600_000);
  let revokeFirst = true;
  await using graphql = await startGraphqlServer((request) => {
    const ok = gate(request);
    if (ok && revokeFirst && seen.length > 1) {
      revokeFirst = false;
      return false;
    }
    return ok;
  });
  await using app = await openOAuthApp(browser(), mockOAuth("client_credentials", mock));
  const { page } = app;
  await loadSchema(page, graphql.endpoint);
  await setEditorText(page, "Query", "{ viewer { login } }");
  await page.getByRole("button", { name: "Run" }).click();
  const panel = page.getByRole("region", { name: "GraphQL response" });
  await panel.getByTestId("status").filter({ hasText: "200" }).waitFor();
  assert.equal(mock.tokenRequests.length, 2);
  assert.equal(seen.length, 3);
  assert.equal(seen[1], seen[0]);
  assert.notEqual(seen[2], seen[1]);
});

Deno.test("browser: the authorization-code login opens in a new tab and completes through the loopback callback", async () => {
  await using mock = await startMockServer(3600);
  const port = unusedPort();
  await using app = await openOAuthApp(browser(), mockOAuth("authorization_code", mock, port));
  const { page } = app;
  const popup = page.context().waitForEvent("page");
  await page.getByRole("button", { name: "Log in" }).click();
  const tab = await popup;
  await page.getByTestId("token-state").filter({ hasText: /^Token: obtained/ }).waitFor();
  await tab.waitForURL(new RegExp(`^http://localhost:${port}/\\?code=`));
  assert.match(await tab.content(), /Login succeeded/);
  // The provider's and the callback's pages cannot reach the app (noopener, COOP).
  assert.equal(
    await tab.evaluate(() => (globalThis as unknown as { opener: unknown }).opener),
    null,
  );
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "authorization_code",
  ]);
  assert.ok(mock.tokenRequests[0]!.body.get("code_verifier"));
});

Deno.test("browser: a provider whose ID token names another issuer is named, with the Issuer setting as the hint (not the token URL)", async () => {
  await using mock = await startMockServer(3600);
  const named = mock.origin.replace("127.0.0.1", "localhost");
  mock.server.issuer.url = named;
  const port = unusedPort();
  await using app = await openOAuthApp(browser(), mockOAuth("authorization_code", mock, port));
  const { page } = app;
  const popup = page.context().waitForEvent("page");
  await page.getByRole("button", { name: "Log in" }).click();
  await popup;
  const alert = page.locator(".token-message").filter({ hasText: "ID token" });
  assert.equal(
    await alert.textContent(),
    `OAuth 2.0 token request to ${mock.tokenUrl} failed: the ID token names the issuer "${named}", where "${mock.origin}" was expected` +
      ` (if ${named} is your provider, set Issuer to it: under "Issuer and extra parameters" in the auth panel, or "Issuer" in the environment's Security.Auth; if not, check the Authorization and Token URLs)`,
  );
});
