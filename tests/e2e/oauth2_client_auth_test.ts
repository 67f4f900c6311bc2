/**
 * client_secret_basic encoded as RFC 6749 2.3.1 says, against @node-oauth/oauth2-server (which
 * does not form-decode) and oidc-provider (which does), and the one retry with
 * client_secret_post after invalid_client.
 */
import assert from "node:assert/strict";
import { bearerApi, dial } from "../_helpers.ts";
import { startNodeOAuthServer } from "./_node_oauth_server.ts";
import { oauthHome, OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";

/**
 * Runs `dial GET <API>/ --oauth2 client_credentials:<token URL>:<id>:<secret>` with an empty token
 * cache, against an API that wants a bearer token (or `target`).
 */
async function run(
  tokenUrl: string,
  client: { id: string; secret: string },
  extra: string[] = [],
  target?: string,
) {
  await using api = bearerApi({ requireBearer: true });
  const oauth2 = `client_credentials:${tokenUrl}:${client.id}:${client.secret}`;
  return await dial(["GET", target ?? `${api.origin}/`, "--oauth2", oauth2, ...extra], {
    env: { HOME: await oauthHome() },
  });
}

Deno.test("oauth2: client_secret_basic leaves *-._ unencoded; @node-oauth/oauth2-server accepts it as curl -u", async () => {
  const client = { id: "cli.app_1", secret: "cli-secret.v1_x*" };
  await using server = await startNodeOAuthServer(client);
  const result = await run(server.tokenUrl, client);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), '{"ok":true}');
  assert.deepEqual(server.requests.map((r) => r.authorization), [
    `Basic ${btoa("cli.app_1:cli-secret.v1_x*")}`,
  ]);
  // curl -u sends the same header, and the server gives it a token.
  const curl = await new Deno.Command("curl", {
    args: [
      "-sS",
      "-u",
      `${client.id}:${client.secret}`,
      "-d",
      "grant_type=client_credentials",
      server.tokenUrl,
    ],
    stdout: "piped",
  }).output();
  assert.match(new TextDecoder().decode(curl.stdout), /"access_token"/);
  assert.equal(server.requests[1]?.authorization, server.requests[0]?.authorization);
});

Deno.test("oauth2: invalid_client to basic is retried once with client_secret_post, said under -v", async () => {
  // The server does not form-decode Basic credentials, so "s3cr&t" (sent as s3cr%26t) fails.
  const client = { id: "app", secret: "s3cr&t" };
  await using server = await startNodeOAuthServer(client);
  const result = await run(server.tokenUrl, client, ["-v"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /answered invalid_client to client_secret_basic: retrying once with client_secret_post/,
  );
  assert.equal(server.requests.length, 2);
  assert.equal(server.requests[1]?.authorization, undefined);
  assert.equal(server.requests[1]?.body.get("client_secret"), "s3cr&t");
  const quiet = await run(server.tokenUrl, client);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, "");
});

Deno.test("oauth2: an explicit --oauth2-client-auth basic is not retried", async () => {
  const client = { id: "app", secret: "s3cr&t" };
  await using server = await startNodeOAuthServer(client);
  const result = await run(
    server.tokenUrl,
    client,
    ["--oauth2-client-auth", "basic"],
    "http://127.0.0.1:9/",
  );
  assert.equal(result.code, 9, result.stderr);
  assert.match(result.stderr, /invalid_client/);
  assert.equal(server.requests.length, 1);
});

Deno.test("oauth2: oidc-provider form-decodes the new basic encoding (:, & and - in secrets)", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:1/"] });
  // web-app's secret is "web:s3cret&more"; post-s3cret belongs to a client_secret_post
  // client, which oidc-provider also accepts through Basic.
  for (const client of [OIDC_CLIENTS.web, OIDC_CLIENTS.post]) {
    const result = await run(op.tokenUrl, client, ["-v"]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /retrying/);
  }
  assert.equal(op.grants["client_credentials"], 2);
});
