/**
 * OAuth 2.0 client_credentials and password grants, the token cache and refresh, against
 * oauth2-mock-server and oidc-provider started in-process.
 */
import assert from "node:assert/strict";
import {
  bearerApi,
  type BearerApiOptions,
  dial,
  type DialOptions,
  type DialResult,
  expireCachedTokens,
  serve,
} from "../_helpers.ts";
import {
  oauthHome,
  OIDC_CLIENTS,
  passwordGrant,
  startMockServer,
  startOidcProvider,
} from "./_oauth_servers.ts";

/**
 * oauth2-mock-server, an API that wants a bearer token (or the given rules), and a HOME of the
 * test's own: `run` runs dial with that HOME, so the token cache starts empty.
 */
async function setUp(api: BearerApiOptions = { requireBearer: true }) {
  const mock = await startMockServer();
  const target = bearerApi(api);
  const home = await oauthHome();
  return {
    mock,
    target,
    home,
    /** The API's `/me` */
    me: `${target.origin}/me`,
    /** The grant_type of each token request so far */
    grantTypes: () => mock.tokenRequests.map((r) => r.body.get("grant_type")),
    /** `--oauth2 client_credentials:…` for the client `app` with the secret `s3cret` */
    clientCredentials: ["--oauth2", `client_credentials:${mock.tokenUrl}:app:s3cret`],
    run: (args: string[], options: DialOptions = {}) =>
      dial(args, { ...options, env: { HOME: home } }),
    /**
     * Runs `args` (which must pass), then `between`, makes the cached token look expired, and
     * runs `args` again.
     *
     * @returns the second run
     */
    async runExpired(args: string[], between?: () => Promise<void>): Promise<DialResult> {
      assert.equal((await this.run(args)).code, 0);
      await between?.();
      assert.equal(await expireCachedTokens(home), 1);
      return await this.run(args);
    },
    async [Symbol.asyncDispose]() {
      await target.close();
      await mock[Symbol.asyncDispose]();
    },
  };
}

/**
 * Runs `dial <API>/me --oauth2 client_credentials:<tokenUrl>:<client>` with an empty token cache
 * where getting the token fails: asserts exit 9 and that the API received nothing.
 *
 * @returns the result, for its error text
 */
async function failedGrant(tokenUrl: string, client = "app:s3cret"): Promise<DialResult> {
  await using target = bearerApi({ requireBearer: true });
  const result = await dial([
    `${target.origin}/me`,
    "--oauth2",
    `client_credentials:${tokenUrl}:${client}`,
  ], { env: { HOME: await oauthHome() } });
  assert.equal(result.code, 9, result.stderr);
  assert.equal(target.seen.length, 0);
  return result;
}

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
  await using t = await setUp();
  const result = await t.run([
    "GET",
    t.me,
    "--oauth2",
    `client_credentials:${t.mock.tokenUrl}:my app:s:e cr&t`,
    "--oauth2-scope",
    "write read",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), '{"ok":true}');
  assert.equal(t.mock.tokenRequests.length, 1);
  const [request] = t.mock.tokenRequests;
  assert.equal(request?.authorization, `Basic ${btoa("my+app:s%3Ae+cr%26t")}`);
  assert.equal(request?.body.get("grant_type"), "client_credentials");
  assert.equal(request?.body.get("scope"), "read write");
  assert.equal(request?.body.get("client_secret"), null);
  assert.match(t.target.seen[0] ?? "", /^Bearer ey/);
});

Deno.test("oauth2: --oauth2-client-auth post sends the client secret in the form", async () => {
  await using t = await setUp();
  const result = await t.run([
    t.me,
    ...t.clientCredentials,
    "--oauth2-client-auth",
    "post",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const [request] = t.mock.tokenRequests;
  assert.equal(request?.authorization, undefined);
  assert.equal(request?.body.get("client_id"), "app");
  assert.equal(request?.body.get("client_secret"), "s3cret");
});

Deno.test("oauth2: a cached token is reused without a second token request", async () => {
  await using t = await setUp();
  const args = [t.me, ...t.clientCredentials];
  assert.equal((await t.run(args)).code, 0);
  const second = await t.run(args);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(t.mock.tokenRequests.length, 1);
  assert.equal(t.target.seen.length, 2);
  assert.equal(t.target.seen[0], t.target.seen[1]);
});

Deno.test("oauth2: the cache file holds tokens but never the client secret or password", async () => {
  await using t = await setUp();
  const result = await t.run([
    t.me,
    ...passwordGrant(t.mock.tokenUrl, "ann-password-value", "app:client-secret-value"),
  ]);
  assert.equal(result.code, 0, result.stderr);
  const request = t.mock.tokenRequests[0];
  assert.equal(request?.body.get("grant_type"), "password");
  assert.equal(request?.body.get("username"), "ann");
  assert.equal(request?.body.get("password"), "ann-password-value");
  const files = await cacheFiles(t.home);
  assert.equal(files.length, 1);
  const text = files[0]!.text;
  assert.doesNotMatch(text, /client-secret-value|ann-password-value/);
  const entry = JSON.parse(text);
  assert.equal(entry.username, "ann");
  assert.equal(entry.flow, "password");
  assert.equal(`Bearer ${entry.accessToken}`, t.target.seen[0]);
  assert.equal(typeof entry.refreshToken, "string");
  const dirMode = (await Deno.stat(`${t.home}/.cache/dial/oauth2`)).mode! & 0o777;
  const fileMode = (await Deno.stat(`${t.home}/.cache/dial/oauth2/${files[0]!.name}`)).mode! &
    0o777;
  assert.equal(dirMode, 0o700);
  assert.equal(fileMode, 0o600);
});

Deno.test("oauth2: secrets and tokens never appear in -v output", async () => {
  await using t = await setUp();
  const result = await t.run([
    "-v",
    t.me,
    ...passwordGrant(t.mock.tokenUrl, "ann-password-value", "app:client-secret-value"),
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /authorization: \(redacted\)/i);
  const token = t.target.seen[0]!.replace("Bearer ", "");
  for (const secret of ["client-secret-value", "ann-password-value", token]) {
    assert.ok(!result.stderr.includes(secret), `stderr leaks ${secret.slice(0, 12)}`);
    assert.ok(!result.stdout.includes(secret), `stdout leaks ${secret.slice(0, 12)}`);
  }
});

Deno.test("oauth2: an expired token is refreshed with the refresh token", async () => {
  await using t = await setUp();
  const args = [t.me, ...passwordGrant(t.mock.tokenUrl)];
  // The sequence of grants below also says that the first run made one token request.
  const second = await t.runExpired(args);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(t.grantTypes(), ["password", "refresh_token"]);
  assert.notEqual(t.target.seen[0], t.target.seen[1]);
  const entry = JSON.parse((await cacheFiles(t.home))[0]!.text);
  assert.equal(typeof entry.refreshedAt, "number");
});

Deno.test("oauth2: invalid_grant on refresh falls back to a new grant", async () => {
  await using t = await setUp();
  t.mock.server.service.on("beforeResponse", (response, req) => {
    if (req.body?.grant_type === "refresh_token") {
      response.statusCode = 400;
      response.body = { error: "invalid_grant", error_description: "refresh token revoked" };
    }
  });
  const args = [t.me, ...passwordGrant(t.mock.tokenUrl)];
  const second = await t.runExpired(args);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(t.grantTypes(), ["password", "refresh_token", "password"]);
});

Deno.test("oauth2: a 401 for a cached token gets a new token and one retry", async () => {
  const revoked = new Set<string>();
  await using t = await setUp({ revoked });
  const args = [
    "POST",
    `${t.target.origin}/things`,
    "--json",
    '{"a":1}',
    ...t.clientCredentials,
  ];
  assert.equal((await t.run(args)).code, 0);
  revoked.add(t.target.seen[0]!.replace("Bearer ", ""));
  const second = await t.run(args);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout.trim(), '{"ok":true}');
  assert.equal(t.mock.tokenRequests.length, 2);
  assert.equal(t.target.seen.length, 3);
  assert.equal(t.target.seen[1], t.target.seen[0]);
  assert.notEqual(t.target.seen[2], t.target.seen[1]);
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
  const result = await failedGrant(mock.tokenUrl, "app:wrong");
  assert.equal(
    result.stderr.split("\n")[0],
    `error: OAuth 2.0 token request to ${mock.tokenUrl} failed: invalid_client (client authentication failed) (HTTP 401)`,
  );
});

Deno.test("oauth2: oidc-provider refuses a wrong client secret: exit 9 naming invalid_client", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:8484/"] });
  const result = await failedGrant(op.tokenUrl, `${OIDC_CLIENTS.web.id}:not-the-secret`);
  assert.match(
    result.stderr,
    new RegExp(`^error: OAuth 2\\.0 token request to ${op.tokenUrl} failed: invalid_client`),
  );
});

Deno.test("oauth2: an unreachable token URL exits 9 and sends nothing", async () => {
  const closed = serve(() => new Response());
  const tokenUrl = `${closed.origin}/token`;
  await closed.close();
  const result = await failedGrant(tokenUrl);
  assert.match(
    result.stderr,
    new RegExp(
      `^error: OAuth 2\\.0 token request to ${tokenUrl} failed: Cannot reach 127\\.0\\.0\\.1:\\d+: connection refused`,
    ),
  );
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
  await using t = await setUp();
  const args = [t.me, ...t.clientCredentials, "--oauth2-no-cache"];
  // Without the cache a token lives as long as its process: two processes, two grants.
  assert.equal((await t.run(args, { process: true })).code, 0);
  assert.equal((await t.run(args, { process: true })).code, 0);
  assert.equal(t.mock.tokenRequests.length, 2);
  await assert.rejects(Deno.stat(`${t.home}/.cache/dial/oauth2`), Deno.errors.NotFound);
});

Deno.test("oauth2: a token URL that is not a token endpoint exits 9 naming the HTTP status", async () => {
  await using notOAuth = serve(() => new Response("<h1>Not here</h1>", { status: 404 }));
  const result = await failedGrant(`${notOAuth.origin}/nope`);
  assert.equal(
    result.stderr.split("\n")[0],
    `error: OAuth 2.0 token request to ${notOAuth.origin}/nope failed: HTTP 404 without an OAuth 2.0 error response`,
  );
});

Deno.test("oauth2: a token response without access_token exits 9 and sends nothing", async () => {
  await using broken = serve(() => Response.json({ token_type: "Bearer" }));
  const result = await failedGrant(`${broken.origin}/token`);
  assert.match(
    result.stderr,
    new RegExp(
      `^error: OAuth 2\\.0 token request to ${broken.origin}/token failed: invalid token response: .*access_token`,
    ),
  );
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
  await using t = await setUp();
  t.mock.server.service.on("beforeResponse", (response, req) => {
    if (req.body?.grant_type === "refresh_token" && typeof response.body === "object") {
      delete response.body.refresh_token;
    }
  });
  const args = [t.me, ...passwordGrant(t.mock.tokenUrl)];
  let original = "";
  const second = await t.runExpired(args, async () => {
    original = JSON.parse((await cacheFiles(t.home))[0]!.text).refreshToken;
  });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(t.mock.tokenRequests[1]?.body.get("refresh_token"), original);
  const entry = JSON.parse((await cacheFiles(t.home))[0]!.text);
  assert.equal(entry.refreshToken, original);
  assert.equal(typeof entry.refreshedAt, "number");
});
