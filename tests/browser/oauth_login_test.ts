import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { startMockServer } from "../e2e/_oauth_servers.ts";
import { fileBrowser, openApp } from "./_browser.ts";
import { mockOAuth, openOAuthApp } from "./_gql_app.ts";
import { startGraphqlServer } from "./_graphql_server.ts";
import { apiHeaders, sessionOf } from "../ui/_session.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { unusedPort } from "../_ports.ts";

const browser = fileBrowser();

Deno.test("browser: Load schema with the authorization-code flow and no token starts the login, then loads", async () => {
  await using mock = await startMockServer(3600);
  await using graphql = await startGraphqlServer((r) =>
    (r.headers.get("authorization") ?? "").startsWith("Bearer ")
  );
  await using app = await openOAuthApp(
    browser(),
    mockOAuth("authorization_code", mock, unusedPort()),
  );
  const { page } = app;
  await page.getByTestId("token-state").filter({ hasText: "not obtained yet" }).waitFor();
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL").fill(graphql.endpoint);
  const popup = page.context().waitForEvent("page");
  await page.getByRole("button", { name: "Load schema" }).click();
  await popup;
  await page.getByRole("tree", { name: "Schema" }).waitFor();
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "authorization_code",
  ]);
  assert.equal(graphql.introspections(), 1);
});

Deno.test('browser: without a login the server answers "Log in first" at once, naming the Log in button', async () => {
  await using mock = await startMockServer(3600);
  const cacheDir = await Deno.makeTempDir();
  await using server = await startUiServer({ oauthCacheDir: cacheDir });
  const session = await sessionOf(server);
  const response = await fetch(new URL("/api/graphql/schema", server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({
      url: "http://127.0.0.1:9/graphql",
      headers: [],
      auth: mockOAuth("authorization_code", mock, unusedPort()),
    }),
  });
  assert.equal(response.status, 200);
  // The answer is one NDJSON line: the error in the protocol's shape.
  const events = (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(events.length, 1);
  assert.equal(events[0].type, "error");
  assert.equal(events[0].error.code, "auth");
  assert.match(events[0].error.message, /^Log in first/);
  assert.equal(events[0].error.hint, "press Log in in the auth panel");
  assert.equal(mock.tokenRequests.length, 0);
});

Deno.test("browser: Cancel stops a schema load that hangs; a late answer does not undo it", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await using target = serve(async () => {
    await held;
    return Response.json({ data: null });
  });
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL").fill(`${target.origin}/graphql`);
  await page.getByRole("button", { name: "Load schema" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByText("Cannot load the schema: Cancelled: the schema was not loaded").waitFor();
  await page.getByRole("button", { name: "Load schema" }).waitFor();
  release();
});

Deno.test('browser: Client authentication "post" sends the client secret in the token request body', async () => {
  await using mock = await startMockServer(3600);
  await using app = await openOAuthApp(browser(), mockOAuth("client_credentials", mock));
  const { page } = app;
  await page.getByLabel("Client authentication").selectOption("post");
  await page.getByRole("button", { name: "Get token" }).click();
  await page.getByTestId("token-state").filter({ hasText: /^Token: obtained/ }).waitFor();
  assert.equal(mock.tokenRequests[0]!.body.get("client_secret"), "s3cret");
  assert.equal(mock.tokenRequests[0]!.authorization, undefined);
});
