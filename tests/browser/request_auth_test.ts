import assert from "node:assert/strict";
import { clientCredentialsAuth, securityAuthEnv } from "../e2e/_files.ts";
import { serve, tempDir, withoutServeSignal } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";
import { setAuth } from "./_gql_app.ts";
import { startMockServer } from "../e2e/_oauth_servers.ts";
import { unusedPort } from "../_ports.ts";

const browser = fileBrowser();

// Imported through a variable so `deno check` skips its declarations (they pull in the DOM).
const YOGA = "graphql-yoga";

Deno.test("browser: a request from a file uses its own auth, not the auth panel's", async (t) => {
  await using target = serve((request) =>
    Response.json({ authorization: request.headers.get("authorization") })
  );
  await using mock = await startMockServer(3600);

  await t.step(
    "its Authorization header or Security.Auth is sent, the panel's Bearer token never; a new tab keeps the panel",
    async () => {
      await using cache = await tempDir("dial-ui-reqauth-cache-");
      await using ws = await tempDir("dial-ui-reqauth-", {
        "http-client.env.json": securityAuthEnv({
          api: clientCredentialsAuth(mock.tokenUrl, "app", "{{secret}}"),
        }),
        "http-client.private.env.json": JSON.stringify({ dev: { secret: "cs-1" } }),
        "api.http": `### with token\nGET ${target.origin}/a\n` +
          `Authorization: Bearer {{$auth.token("api")}}\n\n` +
          `### plain\nGET ${target.origin}/b\n\n` +
          `### own header\nGET ${target.origin}/c\nAuthorization: Basic dTpw\n`,
      });
      await using app = await openApp(browser(), { workspace: ws.path, oauthCacheDir: cache.path });
      const { page } = app;
      await setAuth(page, { kind: "bearer", token: "panel-token" });
      const sidebar = page.getByRole("navigation", { name: "Workspace" });
      await sidebar.getByLabel("Environment").selectOption("dev");
      await sidebar.getByRole("button", { name: "api.http", exact: true }).click();
      const send = page.getByRole("button", { name: "Send", exact: true });
      const line = page.getByRole("region", { name: "Request auth" });
      const status = page.getByTestId("status");

      // 1. Security.Auth through the header: no "Conflicting auth" with the panel's Bearer.
      await sidebar.getByRole("button", { name: "with token" }).click();
      await line.getByText('Security.Auth "api" of dev (Client Credentials)').waitFor();
      await line.getByTestId("token-state").filter({ hasText: "not obtained yet" }).waitFor();
      await send.click();
      await status.filter({ hasText: "200" }).waitFor();
      const jwt = target.requests.at(-1)!.headers.get("authorization") ?? "";
      assert.match(jwt, /^Bearer ey[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(mock.tokenRequests.length, 1);
      assert.equal(mock.tokenRequests[0]!.body.get("grant_type"), "client_credentials");
      await line.getByTestId("token-state").filter({ hasText: /^Token: obtained/ }).waitFor();

      // 2. Its own Basic header: sent as written.
      await sidebar.getByRole("button", { name: "own header" }).click();
      await line.getByText("the request's Authorization header").waitFor();
      await send.click();
      await page.getByLabel("Response body").getByText("Basic dTpw").waitFor();
      assert.equal(target.requests.at(-1)!.headers.get("authorization"), "Basic dTpw");

      // 3. No header: sent without auth, said so; the environment's configuration is offered.
      await sidebar.getByRole("button", { name: "plain" }).click();
      await line.getByText("none: this request has no Authorization header").waitFor();
      await send.click();
      await page.getByRole("status").filter({
        hasText: "Sent without auth: a request from a file",
      })
        .waitFor();
      // The notice is decided when the request is built: wait for its answer too.
      await page.getByLabel("Response body").getByText('"authorization": null').waitFor();
      assert.equal(target.requests.at(-1)!.headers.get("authorization"), null);
      await line.getByRole("button", { name: 'Use Security.Auth "api"' }).click();
      assert.equal(
        await page.getByLabel("Headers value 1", { exact: true }).inputValue(),
        'Bearer {{$auth.token("api")}}',
      );
      await send.click();
      await page.getByLabel("Response body").getByText(jwt.slice(0, 30)).waitFor();
      assert.equal(target.requests.at(-1)!.headers.get("authorization"), jwt);
      assert.equal(mock.tokenRequests.length, 1, "the cached token, no second grant");

      // 4. A new tab (no file) still uses the panel, scoped to the first origin.
      await page.getByRole("button", { name: "New request tab" }).click();
      await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/d`);
      await send.click();
      await page.getByLabel("Response body").getByText("Bearer panel-token").waitFor();
      assert.equal(await page.getByRole("region", { name: "Request auth" }).count(), 0);
    },
  );

  await t.step(
    "an authorization-code Security.Auth logs in from the request's auth line",
    async () => {
      await using cache = await tempDir("dial-ui-reqauth-cache-");
      const before = mock.tokenRequests.length;
      await using ws = await tempDir("dial-ui-reqauth-", {
        "http-client.env.json": securityAuthEnv({
          login: {
            "Type": "OAuth2",
            "Grant Type": "Authorization Code",
            "Auth URL": mock.authUrl,
            "Token URL": mock.tokenUrl,
            "Redirect URL": `http://127.0.0.1:${unusedPort()}/callback`,
            "Client ID": "cli-app",
          },
        }),
        "me.http": `### me\nGET ${target.origin}/me\n` +
          `Authorization: Bearer {{$auth.token("login")}}\n`,
      });
      await using app = await openApp(browser(), { workspace: ws.path, oauthCacheDir: cache.path });
      const { page } = app;
      const sidebar = page.getByRole("navigation", { name: "Workspace" });
      await sidebar.getByLabel("Environment").selectOption("dev");
      await sidebar.getByRole("button", { name: "me.http", exact: true }).click();
      await sidebar.getByRole("button", { name: "GET me", exact: true }).click();
      const line = page.getByRole("region", { name: "Request auth" });
      // Without a token, Send says to log in first; nothing reaches the target.
      const sent = target.requests.length;
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "Log in first" }).waitFor();
      assert.equal(target.requests.length, sent);
      const popup = page.context().waitForEvent("page");
      await line.getByRole("button", { name: "Log in Security.Auth login" }).click();
      await popup;
      await line.getByTestId("token-state").filter({ hasText: /^Token: obtained/ }).waitFor();
      assert.deepEqual(
        mock.tokenRequests.slice(before).map((r) => r.body.get("grant_type")),
        ["authorization_code"],
      );
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
      assert.match(
        target.requests.at(-1)!.headers.get("authorization") ?? "",
        /^Bearer ey[\w-]+\./,
      );
    },
  );
  await t.step(
    "a GRAPHQL request from a file sends its own Authorization header, the panel's Bearer never",
    async () => {
      const yoga = await import(YOGA);
      const server = yoga.createYoga({
        schema: yoga.createSchema({
          typeDefs: "type Query { who: String }",
          resolvers: { Query: { who: () => "yoga" } },
        }),
        logging: false,
        graphiql: false,
      });
      const seen: string[] = [];
      await using gql = serve(async (request) => {
        seen.push(request.headers.get("authorization") ?? "");
        return await server.fetch(withoutServeSignal(request));
      });
      await using ws = await tempDir("dial-ui-reqauth-", {
        "q.http": `### who\n# @name who\nGRAPHQL ${gql.origin}/graphql\n` +
          "Authorization: Bearer from-file\n\nquery { who }\n",
      });
      await using app = await openApp(browser(), { workspace: ws.path });
      const { page } = app;
      await setAuth(page, { kind: "bearer", token: "panel-token" });
      await openRequest(page, "q.http", "GRAPHQL who");
      await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
      await page.getByRole("button", { name: "Run", exact: true }).click();
      await page.getByLabel("GraphQL response").getByText('"who": "yoga"').waitFor();
      assert.equal(seen.at(-1), "Bearer from-file");
      assert.ok(!seen.includes("Bearer panel-token"));
    },
  );
});
