/**
 * OAuth 2.0 secrets by reference, the separate client flags, the password flow served from
 * the cache, and cached tokens bound to the secret that obtained them.
 */
import assert from "node:assert/strict";
import { excludes, includes } from "../assert.ts";
import { bearerApi, dial, expireCachedTokens } from "../_helpers.ts";
import {
  oauthHome,
  OIDC_CLIENTS,
  passwordGrant,
  startMockServer,
  startOidcProvider,
} from "./_oauth_servers.ts";

function basicClient(header: string | undefined): string {
  const text = new TextDecoder().decode(Uint8Array.fromBase64(header!.replace(/^Basic /, "")));
  // RFC 6749 2.3.1: id and secret are form-urlencoded before they are joined.
  return text.split(":").map(decodeURIComponent).join(" ");
}

Deno.test("oauth2 refs: the client secret by reference, packed or as --oauth2-client-secret", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const secretFile = await Deno.makeTempFile();
  await Deno.writeTextFile(secretFile, "file-secret\n");
  const runs = [
    await dial([
      `${target.origin}/a`,
      "--oauth2",
      `client_credentials:${mock.tokenUrl}:app:@env:CS`,
    ], {
      env: { HOME: await oauthHome(), CS: "env-secret" },
    }),
    await dial([
      `${target.origin}/b`,
      "--oauth2",
      `client_credentials:${mock.tokenUrl}`,
      "--oauth2-client-id",
      "my:app",
      "--oauth2-client-secret",
      "@-",
    ], { env: { HOME: await oauthHome() }, stdin: "stdin-secret\n" }),
    await dial([
      `${target.origin}/c`,
      "--oauth2",
      "client_credentials",
      "--oauth2-token-url",
      mock.tokenUrl,
      "--oauth2-client-id",
      "app",
      "--oauth2-client-secret",
      `@${secretFile}`,
    ], { env: { HOME: await oauthHome() } }),
  ];
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(mock.tokenRequests.map((r) => basicClient(r.authorization)), [
    "app env-secret",
    "my:app stdin-secret",
    "app file-secret",
  ]);
  assert.equal(target.seen.length, 3);
});

/** Each reference form, as [flag value, stdin, env] giving the value "v@lue:1". */
async function forms(): Promise<Array<[string, string | undefined, Record<string, string>]>> {
  const file = await Deno.makeTempFile();
  await Deno.writeTextFile(file, "v@lue:1\n");
  return [
    [`@${file}`, undefined, {}],
    ["@-", "v@lue:1\n", {}],
    ["@env:THE_SECRET", undefined, { THE_SECRET: "v@lue:1" }],
    ["@@lue:1", undefined, {}],
  ];
}

Deno.test("oauth2 refs: every form for --oauth2-password, --oauth2-client-secret and the packed secret", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const expected = (value: string) => value === "@@lue:1" ? "@lue:1" : "v@lue:1";
  const want: string[] = [];
  for (const [value, stdin, env] of await forms()) {
    const runs = [
      [
        ...passwordGrant(mock.tokenUrl, value),
      ],
      ["--oauth2", `client_credentials:${mock.tokenUrl}:app:${value}`],
      [
        "--oauth2",
        `client_credentials:${mock.tokenUrl}`,
        "--oauth2-client-id",
        "app",
        "--oauth2-client-secret",
        value,
      ],
    ];
    for (const flags of runs) {
      const home = await oauthHome();
      const result = await dial([`${target.origin}/me`, ...flags], {
        env: { HOME: home, ...env },
        ...(stdin !== undefined ? { stdin } : {}),
      });
      assert.equal(result.code, 0, `${flags.join(" ")}: ${result.stderr}`);
    }
    want.push(
      `password=${expected(value)}`,
      `secret=${expected(value)}`,
      `secret=${expected(value)}`,
    );
  }
  const got = mock.tokenRequests.map((r) =>
    r.body.get("grant_type") === "password"
      ? `password=${r.body.get("password")}`
      : `secret=${basicClient(r.authorization).split(" ")[1]}`
  );
  assert.deepEqual(got, want);
});

Deno.test("oauth2 refs: dial auth token takes references too", async () => {
  await using mock = await startMockServer();
  const result = await dial([
    "auth",
    "token",
    "--oauth2",
    `client_credentials:${mock.tokenUrl}:app:@env:CS`,
  ], { env: { HOME: await oauthHome(), CS: "env-secret" } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim().length > 10, true);
  assert.equal(basicClient(mock.tokenRequests[0]!.authorization), "app env-secret");
});

Deno.test("oauth2 refs: a client id or secret given both ways is exit 2", async () => {
  const cases: Array<[string[], string]> = [
    [
      ["--oauth2", "client_credentials:http://127.0.0.1:1/token:app:s", "--oauth2-client-id", "x"],
      "The client id is given twice",
    ],
    [
      [
        "--oauth2",
        "client_credentials:http://127.0.0.1:1/token:app:s",
        "--oauth2-client-secret",
        "@env:X",
      ],
      "The client secret is given twice",
    ],
    [
      [
        "--oauth2",
        "client_credentials:http://127.0.0.1:1/token",
        "--oauth2-token-url",
        "http://127.0.0.1:1/t",
      ],
      "The token url is given twice",
    ],
    [["--oauth2", "client_credentials", "--oauth2-client-id", "app"], "Missing token URL"],
    [["--oauth2-client-secret", "x"], "--oauth2-client-secret needs --oauth2"],
  ];
  for (const [flags, message] of cases) {
    const result = await dial(["http://127.0.0.1:1/", ...flags], { env: { X: "S3CRET" } });
    assert.equal(result.code, 2, result.stderr);
    includes(result.stderr, message);
    excludes(result.stderr, "S3CRET");
  }
});

Deno.test("oauth2 password flow: a later run needs no password while the cache or a refresh serves", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const home = await oauthHome();
  const base = [`${target.origin}/me`, ...passwordGrant(mock.tokenUrl, null)];
  const first = await dial([...base, "--oauth2-password", "pw"], { env: { HOME: home } });
  assert.equal(first.code, 0, first.stderr);
  // No password, no terminal (stdin is /dev/null): served from the cache.
  const cached = await dial(base, { env: { HOME: home } });
  assert.equal(cached.code, 0, cached.stderr);
  assert.equal(mock.tokenRequests.length, 1);
  assert.deepEqual(target.seen[1], target.seen[0]);
  // Once the token has expired, a refresh serves, still without a password.
  assert.equal(await expireCachedTokens(home), 1);
  const refreshed = await dial(base, { env: { HOME: home } });
  assert.equal(refreshed.code, 0, refreshed.stderr);
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("grant_type")), [
    "password",
    "refresh_token",
  ]);
});

Deno.test("oauth2 password flow: a different password does not get the cached token", async () => {
  await using mock = await startMockServer();
  await using target = bearerApi();
  const home = await oauthHome();
  const run = (password: string) =>
    dial([
      `${target.origin}/me`,
      ...passwordGrant(mock.tokenUrl, password),
    ], { env: { HOME: home } });
  assert.equal((await run("right")).code, 0);
  assert.equal((await run("wrong")).code, 0);
  assert.deepEqual(mock.tokenRequests.map((r) => r.body.get("password")), ["right", "wrong"]);
  assert.equal(target.seen.length, 2);
  assert.equal(target.seen[0] === target.seen[1], false);
});

Deno.test("oauth2 binding: a wrong client secret never gets the cached token; invalid_client, exit 9", async () => {
  await using op = await startOidcProvider({ redirectUris: ["http://localhost:8484/"] });
  await using target = bearerApi();
  const home = await oauthHome();
  const client = `client_credentials:${op.tokenUrl}:${OIDC_CLIENTS.web.id}`;
  const right = await dial([`${target.origin}/me`, "--oauth2", `${client}:@env:CS`], {
    env: { HOME: home, CS: OIDC_CLIENTS.web.secret },
  });
  assert.equal(right.code, 0, right.stderr);
  assert.equal(target.seen.length, 1);
  const cacheText = await Array.fromAsync(Deno.readDir(`${home}/.cache/dial/oauth2`))
    .then((items) => items.find((i) => i.name.endsWith(".json"))!.name)
    .then((name) => Deno.readTextFile(`${home}/.cache/dial/oauth2/${name}`));
  excludes(cacheText, OIDC_CLIENTS.web.secret);
  includes(cacheText, '"clientBinding": "pbkdf2-sha256$');
  const wrong = await dial([`${target.origin}/me`, "--oauth2", `${client}:not-the-secret`], {
    env: { HOME: home },
  });
  assert.equal(wrong.code, 9, wrong.stderr);
  includes(wrong.stderr, "invalid_client");
  assert.equal(target.seen.length, 1);
  // The right secret still gets its cached token: the wrong one did not replace it.
  const again = await dial([`${target.origin}/me`, "--oauth2", `${client}:@env:CS`], {
    env: { HOME: home, CS: OIDC_CLIENTS.web.secret },
  });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(op.grants.client_credentials, 1);
  assert.deepEqual(target.seen[1], target.seen[0]);
});
