/**
 * Token endpoint answers as providers write them (GitHub's 200 with `error`, no `token_type`,
 * DPoP-bound tokens, `invalid_request` to Basic client auth), and `--oauth2-param` on token
 * requests, against oauth2-mock-server and oidc-provider's resource indicators (RFC 8707).
 */
import assert from "node:assert/strict";
import { bearerApi, dial, serve } from "../_helpers.ts";
import { oauthHome, passwordGrant, startMockServer, startOidcProvider } from "./_oauth_servers.ts";

/** A token endpoint answering every request with one JSON body and status. */
function tokenEndpoint(body: unknown, status = 200) {
  return serve(() => Response.json(body, { status }));
}

async function run(target: string, oauth2: string, ...extra: string[]) {
  const home = await oauthHome();
  return await dial(["GET", target, "--oauth2", oauth2, ...extra], { env: { HOME: home } });
}

Deno.test("oauth2: an error member in a 200 token response (GitHub) is the provider's error", async () => {
  await using token = tokenEndpoint({
    error: "incorrect_client_credentials",
    error_description: "The client_id and/or client_secret passed are incorrect.",
    error_uri: "https://docs.github.com/apps/troubleshooting",
  });
  await using target = bearerApi();
  const result = await run(
    `${target.origin}/`,
    `client_credentials:${token.origin}/login/oauth/access_token:app:wrong`,
  );
  assert.equal(result.code, 9, result.stderr);
  assert.match(
    result.stderr,
    /access_token failed: incorrect_client_credentials \(The client_id and\/or client_secret passed are incorrect\.\) \(HTTP 200\)/,
  );
  assert.match(result.stderr, /hint: check the client id and secret/);
  assert.doesNotMatch(result.stderr, /property must be a string|token URL must point/);
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: a token response without token_type is a Bearer token, with a warning", async () => {
  await using token = tokenEndpoint({ access_token: "tok-123", expires_in: 60 });
  await using target = bearerApi();
  const result = await run(`${target.origin}/`, `client_credentials:${token.origin}/t:app:s`);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /sent no token_type: using the token as a Bearer token/);
  assert.deepEqual(target.seen, ["Bearer tok-123"]);
});

Deno.test("oauth2: a DPoP-bound token is refused, not sent as Bearer", async () => {
  await using token = tokenEndpoint({ access_token: "tok", token_type: "DPoP", expires_in: 60 });
  await using target = bearerApi();
  const result = await run(`${target.origin}/`, `client_credentials:${token.origin}/t:app:s`);
  assert.equal(result.code, 9, result.stderr);
  assert.match(result.stderr, /issued a DPoP-bound token \(token_type "DPoP"\)/);
  assert.equal(target.seen.length, 0);
});

Deno.test("oauth2: invalid_request to client_secret_basic hints --oauth2-client-auth post", async () => {
  // A provider that reads the secret only from the form (as some do) and says invalid_request.
  await using token = serve(async (request) => {
    const form = new URLSearchParams(await request.text());
    return form.get("client_secret") === "s"
      ? Response.json({ access_token: "tok", token_type: "bearer" })
      : Response.json({ error: "invalid_request", error_description: "client_secret missing" }, {
        status: 400,
      });
  });
  await using target = bearerApi();
  const client = [`${target.origin}/`, `client_credentials:${token.origin}/t:app:s`] as const;
  const basic = await run(...client);
  assert.equal(basic.code, 9, basic.stderr);
  assert.match(basic.stderr, /invalid_request \(client_secret missing\) \(HTTP 400\)/);
  assert.match(basic.stderr, /hint: .*add --oauth2-client-auth post/);
  const explicit = await run(...client, "--oauth2-client-auth", "basic");
  assert.match(explicit.stderr, /hint: .*add --oauth2-client-auth post/);
  const post = await run(...client, "--oauth2-client-auth", "post");
  assert.equal(post.code, 0, post.stderr);
  assert.deepEqual(target.seen, ["Bearer tok"]);
});

Deno.test("oauth2: --oauth2-param goes into client_credentials and password token requests, and keys the cache", async () => {
  await using server = await startMockServer();
  await using target = bearerApi();
  const home = await oauthHome();
  const go = (...extra: string[]) =>
    dial([
      "GET",
      `${target.origin}/`,
      "--oauth2",
      `client_credentials:${server.tokenUrl}:app:s`,
      ...extra,
    ], { env: { HOME: home } });
  const first = await go(
    "--oauth2-param",
    "audience=https://api.example.com/",
  );
  assert.equal(first.code, 0, first.stderr);
  const body = server.tokenRequests[0]!.body;
  assert.equal(body.get("audience"), "https://api.example.com/");
  const again = await go(
    "--oauth2-param",
    "audience=https://api.example.com/",
  );
  assert.equal(again.code, 0, again.stderr);
  assert.equal(server.tokenRequests.length, 1, "the same parameters reuse the cached token");
  const other = await go("--oauth2-param", "audience=https://other.example.com/");
  assert.equal(other.code, 0, other.stderr);
  assert.equal(server.tokenRequests.length, 2, "other parameters get their own token");
  assert.equal(server.tokenRequests[1]!.body.get("audience"), "https://other.example.com/");
  const password = await dial([
    "GET",
    `${target.origin}/`,
    ...passwordGrant(server.tokenUrl),
    "--oauth2-param",
    "audience=x",
  ], { env: { HOME: home } });
  assert.equal(password.code, 0, password.stderr);
  assert.equal(server.tokenRequests[2]!.body.get("audience"), "x");
  assert.equal(server.tokenRequests[2]!.body.get("grant_type"), "password");
});

Deno.test("oauth2: --oauth2-param resource=… gets an audience-bound JWT from oidc-provider (RFC 8707)", async () => {
  await using op = await startOidcProvider({
    redirectUris: ["http://localhost:1/"],
    resourceIndicators: true,
  });
  const home = await oauthHome();
  const result = await dial([
    "auth",
    "token",
    "--oauth2",
    `client_credentials:${op.tokenUrl}:web-app:web:s3cret&more`,
    "--oauth2-scope",
    "api:read",
    "--oauth2-param",
    "resource=https://api.example.com/",
  ], { env: { HOME: home } });
  assert.equal(result.code, 0, result.stderr);
  const [, payload] = result.stdout.trim().split(".");
  const claims = JSON.parse(
    new TextDecoder().decode(Uint8Array.fromBase64(payload!, { alphabet: "base64url" })),
  );
  assert.equal(claims.aud, "https://api.example.com/");
  assert.equal(claims.scope, "api:read");
});

Deno.test("oauth2: --oauth2-param refuses what dial sets itself and a value without =", async () => {
  for (
    const [param, message] of [
      [
        "scope=x",
        /The OAuth 2\.0 parameter "scope" cannot be set: dial sets it\nhint: use --oauth2-scope/,
      ],
      ["grant_type=x", /"grant_type" cannot be set/],
      [
        "audience",
        /Invalid OAuth 2\.0 parameter "audience": expected NAME=VALUE\nhint: e\.g\. --oauth2-param/,
      ],
    ] as const
  ) {
    const result = await run(
      "http://127.0.0.1:9/",
      "client_credentials:http://127.0.0.1:9/t:a:s",
      "--oauth2-param",
      param,
    );
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
  }
});

Deno.test("oauth2: a repeated --oauth2-param name is sent once per value, in order", async () => {
  const bodies: string[] = [];
  await using token = serve(async (request) => {
    bodies.push(await request.text());
    return Response.json({ access_token: "tok", token_type: "Bearer" });
  });
  await using target = bearerApi();
  const result = await run(
    `${target.origin}/`,
    `client_credentials:${token.origin}/t:app:s`,
    "--oauth2-param",
    "resource=https://a.example/",
    "--oauth2-param",
    "resource=https://b.example/",
  );
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(new URLSearchParams(bodies[0]).getAll("resource"), [
    "https://a.example/",
    "https://b.example/",
  ]);
});
