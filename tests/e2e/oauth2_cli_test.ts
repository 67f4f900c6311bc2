/**
 * OAuth 2.0 flag validation (usage errors, nothing sent) and `dial auth token|status|logout`.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { passwordGrant, startMockServer } from "./_oauth_servers.ts";

const TOKEN_URL = "http://127.0.0.1:9/token";

const usage: Array<[string, string[], RegExp]> = [
  [
    "authorization_code needs --oauth2-auth-url",
    ["--oauth2", `authorization_code:${TOKEN_URL}:app`],
    /error: The authorization_code flow needs --oauth2-auth-url/,
  ],
  [
    "password needs --oauth2-username",
    ["--oauth2", `password:${TOKEN_URL}:app`, "--oauth2-password", "pw"],
    /error: The password flow needs --oauth2-username/,
  ],
  [
    "a missing password is an error when stdin is not a terminal",
    ["--oauth2", `password:${TOKEN_URL}:app`, "--oauth2-username", "ann"],
    /error: Missing --oauth2-password for "ann"\nhint: give --oauth2-password, or run in a terminal/,
  ],
  [
    "client_credentials needs a client secret",
    ["--oauth2", `client_credentials:${TOKEN_URL}:app`],
    /error: The client_credentials flow needs a client secret in --oauth2/,
  ],
  [
    "--oauth2-client-auth must be one of the four methods",
    ["--oauth2", `client_credentials:${TOKEN_URL}:app:s`, "--oauth2-client-auth", "jwt"],
    /error: Invalid --oauth2-client-auth "jwt": expected basic, post, private_key_jwt or client_secret_jwt/,
  ],
  [
    "--oauth2-redirect-uri must be loopback",
    [
      "--oauth2",
      `authorization_code:${TOKEN_URL}:app`,
      "--oauth2-auth-url",
      "http://127.0.0.1:9/auth",
      "--oauth2-redirect-uri",
      "http://example.com:8484/",
    ],
    /error: Invalid --oauth2-redirect-uri "http:\/\/example\.com:8484\/": the host must be localhost, 127\.0\.0\.1 or \[::1\]/,
  ],
  [
    "--oauth2-redirect-uri must be http",
    [
      "--oauth2",
      `authorization_code:${TOKEN_URL}:app`,
      "--oauth2-auth-url",
      "http://127.0.0.1:9/auth",
      "--oauth2-redirect-uri",
      "https://localhost:8484/",
    ],
    /error: Invalid URL "https:\/\/localhost:8484\/": scheme must be http:/,
  ],
  [
    "--oauth2-port and --oauth2-redirect-uri conflict",
    [
      "--oauth2",
      `authorization_code:${TOKEN_URL}:app`,
      "--oauth2-auth-url",
      "http://127.0.0.1:9/auth",
      "--oauth2-port",
      "9000",
      "--oauth2-redirect-uri",
      "http://localhost:9001/",
    ],
    /error: Conflicting flags --oauth2-port and --oauth2-redirect-uri/,
  ],
  [
    "--oauth2-timeout must be a positive number",
    [
      "--oauth2",
      `authorization_code:${TOKEN_URL}:app`,
      "--oauth2-auth-url",
      "http://127.0.0.1:9/auth",
      "--oauth2-timeout",
      "soon",
    ],
    /error: Invalid --oauth2-timeout "soon": expected a positive number of seconds/,
  ],
  [
    "a flag of another flow is refused",
    ["--oauth2", `client_credentials:${TOKEN_URL}:app:s`, "--oauth2-username", "ann"],
    /error: --oauth2-username is only used by the password flow/,
  ],
  [
    "--oauth2-no-cache needs --oauth2",
    ["--oauth2-no-cache"],
    /error: --oauth2-no-cache needs --oauth2/,
  ],
  [
    "an unknown flow",
    ["--oauth2", `implicit:${TOKEN_URL}:app`],
    /error: Unknown OAuth 2\.0 flow "implicit"\nhint: use one of .*--oauth2/,
  ],
];

for (const [name, flags, message] of usage) {
  Deno.test(`oauth2 flags: ${name} (exit 2, nothing sent)`, async () => {
    await using target = serve(() => new Response("ok"));
    const result = await dial([`${target.origin}/me`, ...flags]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.equal(target.requests.length, 0);
  });
}

Deno.test("dial auth token prints the access token, from the cache the second time", async () => {
  await using mock = await startMockServer();
  const home = await Deno.makeTempDir();
  const args = ["auth", "token", "--oauth2", `client_credentials:${mock.tokenUrl}:app:s3cret`];
  const first = await dial(args, { env: { HOME: home } });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^ey[\w-]+\.[\w-]+\.[\w-]+\n$/);
  const second = await dial(args, { env: { HOME: home } });
  assert.equal(second.stdout, first.stdout);
  assert.equal(mock.tokenRequests.length, 1);
});

Deno.test("dial auth token without --oauth2 is a usage error", async () => {
  const result = await dial(["auth", "token"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /error: "dial auth token" needs --oauth2/);
});

Deno.test("dial auth token: a refused grant exits 9 and prints no token", async () => {
  await using mock = await startMockServer();
  mock.server.service.on("beforeResponse", (response) => {
    response.statusCode = 400;
    response.body = { error: "invalid_grant", error_description: "bad password" };
  });
  const result = await dial([
    "auth",
    "token",
    ...passwordGrant(mock.tokenUrl, "wrong"),
  ], { env: { HOME: await Deno.makeTempDir() } });
  assert.equal(result.code, 9);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    new RegExp(
      `^error: OAuth 2\\.0 token request to ${mock.tokenUrl} failed: invalid_grant \\(bad password\\) \\(HTTP 400\\)`,
    ),
  );
});

Deno.test("dial auth status lists cached tokens without secrets; logout removes them", async () => {
  await using mock = await startMockServer();
  const home = await Deno.makeTempDir();
  const env = { env: { HOME: home } };
  const empty = await dial(["auth", "status"], env);
  assert.equal(empty.code, 0);
  assert.match(empty.stderr, /No cached OAuth 2\.0 tokens/);
  const cc = ["--oauth2", `client_credentials:${mock.tokenUrl}:app:client-secret-value`];
  const pw = [
    ...passwordGrant(mock.tokenUrl, "pw-value", "cli"),
    "--oauth2-scope",
    "read",
  ];
  const tokens = [
    (await dial(["auth", "token", ...cc], env)).stdout.trim(),
    (await dial(["auth", "token", ...pw], env)).stdout.trim(),
  ];
  const status = await dial(["auth", "status"], env);
  assert.equal(status.code, 0, status.stderr);
  assert.match(
    status.stdout,
    new RegExp(
      `client_credentials ${mock.tokenUrl} \\(client app\\)\\n  obtained \\S+Z, expires \\S+Z \\(in 60 min\\)\\n  refresh token: no`,
    ),
  );
  assert.match(status.stdout, /password \S+ \(client cli, user ann, scope "read"\)/);
  for (const secret of [...tokens, "client-secret-value", "pw-value"]) {
    assert.ok(!status.stdout.includes(secret));
  }
  const json = JSON.parse((await dial(["auth", "status", "--json"], env)).stdout);
  assert.equal(json.length, 2);
  assert.equal(json[1].hasRefreshToken, true);
  assert.equal(json[1].accessToken, undefined);
  const logout = await dial(["auth", "logout", ...cc.slice(0, 2)], env);
  assert.equal(logout.code, 0, logout.stderr);
  assert.match(logout.stderr, /Removed 1 cached OAuth 2\.0 token\n/);
  const after = await dial(["auth", "status", "--json"], env);
  assert.deepEqual(JSON.parse(after.stdout).map((s: { flow: string }) => s.flow), ["password"]);
  const all = await dial(["auth", "logout", "--all"], env);
  assert.match(all.stderr, /Removed 1 cached OAuth 2\.0 token/);
  assert.deepEqual(JSON.parse((await dial(["auth", "status", "--json"], env)).stdout), []);
});

Deno.test("dial auth logout without --oauth2 or --all is a usage error", async () => {
  const result = await dial(["auth", "logout"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /error: "dial auth logout" needs --oauth2 … or --all/);
});
