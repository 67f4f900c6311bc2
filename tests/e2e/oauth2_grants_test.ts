/**
 * OAuth 2.0 client_credentials and password grants, the token cache and refresh, against
 * oauth2-mock-server and oidc-provider started in-process.
 */
import assert from "node:assert/strict";
import { bearerApi, dial, expireCachedTokens, serve } from "../_helpers.ts";
import {
  oauthHome,
  OIDC_CLIENTS,
  passwordGrant,
  startMockServer,
  startOidcProvider,
} from "./_oauth_servers.ts";

async function cacheFiles(home: string): Promise<Array<{ name: string; text: string }>> {
  const dir = `${home}/.cache/dial/oauth2`;
  const files = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(".json")) {
      files.push({ name: entry.name, text: await Deno.readTextFile(`${dir}/${entry.name}`) });
    }
  }
  return files;
}

Deno.test("oauth2: client_credentials sends form-urlencoded Basic client auth, then the bearer token", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const result = await dial([
    "GET",
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:my app:s:e cr&t`,
    "--oauth2-scope",
    "write read",
  ], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), '{"ok":true}');
  assert.equal(mock.tokenRequests.length, 1);
  const [request] = mock.tokenRequests;
  assert.equal(request?.authorization, `Basic ${btoa("my+app:s%3Ae+cr%26t")}`);
  assert.equal(request?.body.get("grant_type"), "client_credentials");
  assert.equal(request?.body.get("scope"), "read write");
  assert.equal(request?.body.get("client_secret"), null);
  assert.match(target.seen[0] ?? "", /^Bearer ey/);
});

Deno.test("oauth2: --oauth2-client-auth post sends the client secret in the form", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:s3cret`,
    "--oauth2-client-auth",
    "post",
  ], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  const [request] = mock.tokenRequests;
  assert.equal(request?.authorization, undefined);
  assert.equal(request?.body.get("client_id"), "app");
  assert.equal(request?.body.get("client_secret"), "s3cret");
});

Deno.test("oauth2: a cached token is reused without a second token request", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const args = [
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:s3cret`,
  ];
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  const second = await dial(args, { env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(mock.tokenRequests.length, 1);
  assert.equal(target.seen.length, 2);
  assert.equal(target.seen[0], target.seen[1]);
});

Deno.test("oauth2: the cache file holds tokens but never the client secret or password", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const result = await dial([
    `${target.origin}/me`,
    ...passwordGrant(mock.tokenUrl, "ann-password-value", "app:client-secret-value"),
  ], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  const request = mock.tokenRequests[0];
  assert.equal(request?.body.get("grant_type"), "password");
  assert.equal(request?.body.get("username"), "ann");
  assert.equal(request?.body.get("password"), "ann-password-value");
  const files = await cacheFiles(home);
  assert.equal(files.length, 1);
  const text = files[0]!.text;
  assert.doesNotMatch(text, /client-secret-value|ann-password-value/);
  const entry = JSON.parse(text);
  assert.equal(entry.username, "ann");
  assert.equal(entry.flow, "password");
  assert.equal(`Bearer ${entry.accessToken}`, target.seen[0]);
  assert.equal(typeof entry.refreshToken, "string");
  const dirMode = (await Deno.stat(`${home}/.cache/dial/oauth2`)).mode! & 0o777;
  const fileMode = (await Deno.stat(`${home}/.cache/dial/oauth2/${files[0]!.name}`)).mode! & 0o777;
  assert.equal(dirMode, 0o700);
  assert.equal(fileMode, 0o600);
});

Deno.test("oauth2: secrets and tokens never appear in -v output", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const result = await dial([
    "-v",
    `${target.origin}/me`,
    ...passwordGrant(mock.tokenUrl, "ann-password-value", "app:client-secret-value"),
  ], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /authorization: \(redacted\)/i);
  const token = target.seen[0]!.replace("Bearer ", "");
  for (const secret of ["client-secret-value", "ann-password-value", token]) {
    assert.ok(!result.stderr.includes(secret), `stderr leaks ${secret.slice(0, 12)}`);
    assert.ok(!result.stdout.includes(secret), `stdout leaks ${secret.slice(0, 12)}`);
  }
});

Deno.test("oauth2: an expired token is refreshed with the refresh token", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const args = [
    `${target.origin}/me`,
    ...passwordGrant(mock.tokenUrl),
  ];
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  const firstRefresh = mock.tokenRequests.length === 1 ? "" : "unexpected";
  assert.equal(firstRefresh, "");
  assert.equal(await expireCachedTokens(home), 1);
  const second = await dial(args, { env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "password",
    "refresh_token",
  ]);
  assert.notEqual(target.seen[0], target.seen[1]);
  const entry = JSON.parse((await cacheFiles(home))[0]!.text);
  assert.equal(typeof entry.refreshedAt, "number");
});

Deno.test("oauth2: invalid_grant on refresh falls back to a new grant", async () => {
  await using mock = await startMockServer();
  mock.server.service.on("beforeResponse", (response, req) => {
    if (req.body?.grant_type === "refresh_token") {
      response.statusCode = 400;
      response.body = { error: "invalid_grant", error_description: "refresh token revoked" };
    }
  });
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const args = [
    `${target.origin}/me`,
    ...passwordGrant(mock.tokenUrl),
  ];
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  assert.equal(await expireCachedTokens(home), 1);
  const second = await dial(args, { env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "password",
    "refresh_token",
    "password",
  ]);
});

Deno.test("oauth2: a 401 for a cached token gets a new token and one retry", async () => {
  await using mock = await startMockServer();
  const revoked = new Set<string>();
  await using target = bearerApi({ revoked });
  const home = await oauthHome();
  const args = [
    "POST",
    `${target.origin}/things`,
    "--json",
    '{"a":1}',
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:s3cret`,
  ];
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  revoked.add(target.seen[0]!.replace("Bearer ", ""));
  const second = await dial(args, { env: { HOME: home } });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout.trim(), '{"ok":true}');
  assert.equal(mock.tokenRequests.length, 2);
  assert.equal(target.seen.length, 3);
  assert.equal(target.seen[1], target.seen[0]);
  assert.notEqual(target.seen[2], target.seen[1]);
});

Deno.test("oauth2: a 401 for a token just obtained is not retried", async () => {
  await using mock = await startMockServer();
  await using target = serve(() => new Response("denied", { status: 401 }));
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:s3cret`,
    "--check-status",
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 4);
  assert.equal(target.requests.length, 1);
  assert.equal(mock.tokenRequests.length, 1);
});

Deno.test("oauth2: invalid_client from the token endpoint exits 9 with the provider's error and sends nothing", async () => {
  await using mock = await startMockServer();
  mock.server.service.on("beforeResponse", (response) => {
    response.statusCode = 401;
    response.body = { error: "invalid_client", error_description: "client authentication failed" };
  });
  await using target = bearerApi({ requireBearer: true });
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:wrong`,
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 9);
  assert.equal(
    result.stderr.split("\n")[0],
    `error: OAuth 2.0 token request to ${mock.tokenUrl} failed: invalid_client (client authentication failed) (HTTP 401)`,
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: oidc-provider refuses a wrong client secret: exit 9 naming invalid_client", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:8484/"] });
  await using target = bearerApi({ requireBearer: true });
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${op.tokenUrl}:${OIDC_CLIENTS.web.id}:not-the-secret`,
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`^error: OAuth 2\\.0 token request to ${op.tokenUrl} failed: invalid_client`),
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: an unreachable token URL exits 9 and sends nothing", async () => {
  const closed = serve(() => new Response());
  const tokenUrl = `${closed.origin}/token`;
  await closed.close();
  await using target = bearerApi({ requireBearer: true });
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${tokenUrl}:app:s3cret`,
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 9);
  assert.match(
    result.stderr,
    new RegExp(
      `^error: OAuth 2\\.0 token request to ${tokenUrl} failed: Cannot reach 127\\.0\\.0\\.1:\\d+: connection refused`,
    ),
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: client_credentials against oidc-provider with basic and post client auth", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:8484/"] });
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const basic = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${op.tokenUrl}:${OIDC_CLIENTS.web.id}:${OIDC_CLIENTS.web.secret}`,
  ], { env: { HOME: home } });
  assert.equal(basic.code, 0, basic.stderr);
  const post = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${op.tokenUrl}:${OIDC_CLIENTS.post.id}:${OIDC_CLIENTS.post.secret}`,
    "--oauth2-client-auth",
    "post",
  ], { env: { HOME: home } });
  assert.equal(post.code, 0, post.stderr);
  assert.equal(op.grants.client_credentials, 2);
  assert.equal(target.seen.length, 2);
});

Deno.test("oauth2: --oauth2-no-cache neither reads nor writes the cache", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const args = [
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:s3cret`,
    "--oauth2-no-cache",
  ];
  // Without the cache a token lives as long as its process: two processes, two grants.
  assert.equal((await dial(args, { env: { HOME: home }, process: true })).code, 0);
  assert.equal((await dial(args, { env: { HOME: home }, process: true })).code, 0);
  assert.equal(mock.tokenRequests.length, 2);
  await assert.rejects(Deno.stat(`${home}/.cache/dial/oauth2`), Deno.errors.NotFound);
});

Deno.test("oauth2: a token URL that is not a token endpoint exits 9 naming the HTTP status", async () => {
  await using notOAuth = serve(() => new Response("<h1>Not here</h1>", { status: 404 }));
  await using target = bearerApi({ requireBearer: true });
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${notOAuth.origin}/nope:app:s3cret`,
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 9);
  assert.equal(
    result.stderr.split("\n")[0],
    `error: OAuth 2.0 token request to ${notOAuth.origin}/nope failed: HTTP 404 without an OAuth 2.0 error response`,
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: a token response without access_token exits 9 and sends nothing", async () => {
  await using broken = serve(() => Response.json({ token_type: "Bearer" }));
  await using target = bearerApi({ requireBearer: true });
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${broken.origin}/token:app:s3cret`,
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 9);
  assert.match(
    result.stderr,
    new RegExp(
      `^error: OAuth 2\\.0 token request to ${broken.origin}/token failed: invalid token response: .*access_token`,
    ),
  );
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: two dial processes at once with a cold cache make one token request", async () => {
  await using mock = await startMockServer();
  const home = await oauthHome();
  const args = [
    "auth",
    "token",
    ...passwordGrant(mock.tokenUrl),
  ];
  const [a, b] = await Promise.all([
    dial(args, { env: { HOME: home } }),
    dial(args, { env: { HOME: home } }),
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.equal(mock.tokenRequests.length, 1);
});

Deno.test("oauth2: a refresh response without a refresh token keeps the old one", async () => {
  await using mock = await startMockServer();
  mock.server.service.on("beforeResponse", (response, req) => {
    if (req.body?.grant_type === "refresh_token" && typeof response.body === "object") {
      delete response.body.refresh_token;
    }
  });
  await using target = bearerApi({ requireBearer: true });
  const home = await oauthHome();
  const args = [
    `${target.origin}/me`,
    ...passwordGrant(mock.tokenUrl),
  ];
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  const original = JSON.parse((await cacheFiles(home))[0]!.text).refreshToken;
  assert.equal(await expireCachedTokens(home), 1);
  assert.equal((await dial(args, { env: { HOME: home } })).code, 0);
  assert.equal(mock.tokenRequests[1]?.body.get("refresh_token"), original);
  const entry = JSON.parse((await cacheFiles(home))[0]!.text);
  assert.equal(entry.refreshToken, original);
  assert.equal(typeof entry.refreshedAt, "number");
});
