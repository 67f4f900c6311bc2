/**
 * Request files' `Security.Auth` with the OAuth 2.0 breadth of the CLI flags, against
 * oidc-provider (and a token endpoint that keeps each form as sent): JetBrains' "Device
 * Authorization" grant and "Custom Request Parameters" (with "Use"), and dial's "Issuer",
 * "Client Credentials": "private_key_jwt" with a "Client Key" by reference.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { bearerApi, dial, serve } from "../_helpers.ts";
import { clientCredentialsAuth, project, securityAuthEnv } from "./_files.ts";
import { BROWSER, oauthHome, OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";
import { unusedPort } from "../_ports.ts";

/** A request file using `{{$auth.token("id")}}` and its public (and private) environment. */
async function authProject(
  target: string,
  config: Record<string, unknown>,
  privateConfig?: Record<string, unknown>,
): Promise<string> {
  return await project({
    "api.http": `GET ${target}/me\nAuthorization: Bearer {{$auth.token("id")}}\n`,
    "http-client.env.json": securityAuthEnv({ id: config }),
    ...(privateConfig
      ? { "http-client.private.env.json": securityAuthEnv({ id: privateConfig }) }
      : {}),
  });
}

/** `dial run DIR/api.http --env dev` with an empty token cache (or the given HOME and variables). */
async function runDev(dir: string, env: Record<string, string> = {}) {
  return await dial(["run", `${dir}/api.http`, "--env", "dev"], {
    env: { ...env, HOME: env.HOME ?? await oauthHome() },
  });
}

Deno.test("run: Security.Auth Device Authorization with only an Issuer, the page opened as Open Complete URI asks, then the cache", async () => {
  await using op = await startOidcProvider({ redirectUris: [], deviceFlow: true });
  await using target = bearerApi();
  const dir = await authProject(target.origin, {
    "Type": "OAuth2",
    "Grant Type": "Device Authorization",
    "Issuer": op.origin,
    "Client ID": OIDC_CLIENTS.device.id,
    "Client Credentials": "none",
    "Scope": "openid offline_access",
    "Open Complete URI": true,
  });
  const home = await oauthHome();
  const first = await runDev(dir, { HOME: home, BROWSER });
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    /To log in, visit http:\/\/127\.0\.0\.1:\d+\/device and enter the code [A-Z]{4}-[A-Z]{4}\n.*\nOpened the page in the browser\./,
  );
  assert.equal(op.grants["urn:ietf:params:oauth:grant-type:device_code"], 1);
  assert.match(target.seen[0] ?? "", /^Bearer \S+/);
  // The device endpoint came from discovery: no URL of it is in the file.
  assert.ok(op.paths.includes("/device/auth"), op.paths.join());
  const second = await runDev(dir, { HOME: home });
  assert.equal(second.code, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /To log in/);
  assert.equal(target.seen[1], target.seen[0]);
});

Deno.test("run: Security.Auth Custom Request Parameters go where their Use says, lists repeat, and key the cache", async () => {
  // A token endpoint that keeps each form body as sent (repeated names included).
  const forms: Array<{ body: URLSearchParams; authorization: string | null }> = [];
  await using server = serve(async (request) => {
    forms.push({
      body: new URLSearchParams(await request.text()),
      authorization: request.headers.get("authorization"),
    });
    return Response.json({ access_token: `t${forms.length}`, token_type: "Bearer" });
  });
  await using target = bearerApi();
  const config = {
    ...clientCredentialsAuth(`${server.origin}/token`, "app", "s"),
    "Client Credentials": "in body",
    "Custom Request Parameters": {
      "audience": "{{audience}}",
      "prompt": { "Value": "consent", "Use": "In Auth Request" },
      "tenant": { "Value": ["a", "b"], "Use": "In Token Request" },
    },
  };
  const dir = await authProject(target.origin, config);
  const envFile = `${dir}/http-client.env.json`;
  const env = JSON.parse(await Deno.readTextFile(envFile));
  env.dev.audience = "https://api.example.com/";
  await Deno.writeTextFile(envFile, JSON.stringify(env));
  const home = await oauthHome();
  const run = () => runDev(dir, { HOME: home });
  const first = await run();
  assert.equal(first.code, 0, first.stderr);
  const request = forms[0]!;
  assert.equal(request.body.get("audience"), "https://api.example.com/");
  assert.equal(request.body.get("prompt"), null, "an In Auth Request parameter stays out");
  assert.deepEqual(request.body.getAll("tenant"), ["a", "b"]);
  assert.equal(request.body.get("client_secret"), "s", "in body: client_secret_post");
  assert.equal(request.authorization, null);
  assert.deepEqual(target.seen, ["Bearer t1"]);
  assert.equal((await run()).code, 0);
  assert.equal(forms.length, 1, "the same parameters reuse the cached token");
  env.dev.audience = "https://other.example.com/";
  await Deno.writeTextFile(envFile, JSON.stringify(env));
  assert.equal((await run()).code, 0);
  assert.equal(forms.length, 2, "another audience gets its own token");
  assert.equal(forms[1]!.body.get("audience"), "https://other.example.com/");
});

Deno.test("run: Security.Auth resource parameters get an audience-bound JWT from oidc-provider", async () => {
  await using op = await startOidcProvider({
    redirectUris: ["http://localhost:1/"],
    resourceIndicators: true,
  });
  await using target = bearerApi();
  const dir = await authProject(target.origin, {
    ...clientCredentialsAuth(op.tokenUrl, OIDC_CLIENTS.web.id, OIDC_CLIENTS.web.secret),
    "Scope": "api:read",
    "Custom Request Parameters": { "resource": "https://api.example.com/" },
  });
  const result = await runDev(dir);
  assert.equal(result.code, 0, result.stderr);
  const token = target.seen[0]!.slice("Bearer ".length);
  const claims = JSON.parse(
    new TextDecoder().decode(
      Uint8Array.fromBase64(token.split(".")[1]!, { alphabet: "base64url" }),
    ),
  );
  assert.equal(claims.aud, "https://api.example.com/");
});

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString();

Deno.test("run: Security.Auth private_key_jwt signs with a Client Key given by reference; a key written in the shared file is refused", async () => {
  await using op = await startOidcProvider({
    redirectUris: [],
    clientKeys: [{ ...rsa.publicKey.export({ format: "jwk" }), kid: "k" } as JsonWebKey],
  });
  await using target = bearerApi();
  const config = {
    "Type": "OAuth2",
    "Grant Type": "Client Credentials",
    "Issuer": op.origin,
    "Client ID": OIDC_CLIENTS.jwt.id,
    "Client Credentials": "private_key_jwt",
    "Client Key": "@env:CLIENT_KEY",
    "Client Key Algorithm": "PS256",
  };
  const home = await oauthHome();
  const byEnv = await authProject(target.origin, config);
  const result = await runDev(byEnv, { HOME: home, CLIENT_KEY: PEM });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(op.grants.client_credentials, 1);
  assert.match(target.seen[0] ?? "", /^Bearer \S+/);
  // dial test runs the same step (the token now from the cache).
  const tested = await dial(["test", `${byEnv}/api.http`, "--env", "dev"], {
    env: { HOME: home, CLIENT_KEY: PEM },
  });
  assert.equal(tested.code, 0, tested.stderr);
  assert.equal(op.grants.client_credentials, 1);
  assert.equal(target.seen[1], target.seen[0]);
  // A file reference, from the private file.
  const keyFile = `${home}/client.pem`;
  await Deno.writeTextFile(keyFile, PEM);
  const byFile = await authProject(
    target.origin,
    { ...config, "Client Key": undefined, "Client Key Algorithm": undefined },
    { "Client Key": `@${keyFile}` },
  );
  const fromFile = await runDev(byFile);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.equal(op.grants.client_credentials, 2);
  assert.equal(target.seen.length, 3);
  // The key's text in the shared (committed) file is refused, and a missing key is named, both
  // before anything is sent and without echoing the key.
  const refusals: Array<[string | undefined, RegExp]> = [
    [PEM, /Security\.Auth "id" writes its "Client Key" in a shared file/],
    [undefined, /Missing "Client Key" in Security\.Auth "id": private_key_jwt signs with it/],
  ];
  for (const [key, message] of refusals) {
    const refused = await runDev(
      await authProject(target.origin, { ...config, "Client Key": key }),
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, message);
    assert.doesNotMatch(refused.stderr, /BEGIN|PRIVATE/);
    assert.equal(op.grants.client_credentials, 2);
    assert.equal(target.seen.length, 3);
  }
});

Deno.test("run: Security.Auth refuses an unknown Use, a parameter dial sets, and an Implicit grant", async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [
      { "Custom Request Parameters": { "x": { "Value": "1", "Use": "Sometimes" } } },
      /Invalid "Use": "Sometimes" of "x" in "Custom Request Parameters"/,
    ],
    [
      { "Custom Request Parameters": { "grant_type": "password" } },
      /Invalid "grant_type" of "Custom Request Parameters" .*: dial sets it/,
    ],
    [{ "Grant Type": "Implicit" }, /Unsupported "Grant Type": "Implicit"/],
  ];
  for (const [extra, message] of cases) {
    const dir = await authProject("http://127.0.0.1:9", {
      ...clientCredentialsAuth("http://127.0.0.1:9/token", "app", "s"),
      ...extra,
    });
    const result = await runDev(dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
  }
});

Deno.test("run: Security.Auth Authorization Code sends In Auth Request parameters in the login URL only", async () => {
  const port = unusedPort();
  await using op = await startOidcProvider({ redirectUris: [`http://localhost:${port}/`] });
  await using target = bearerApi();
  const dir = await authProject(target.origin, {
    "Type": "OAuth2",
    "Grant Type": "Authorization Code",
    "Issuer": op.origin,
    "Redirect URL": `http://localhost:${port}/`,
    "Client ID": OIDC_CLIENTS.public.id,
    "Scope": "openid",
    "Custom Request Parameters": {
      "prompt": { "Value": "consent", "Use": "In Auth Request" },
      "ui_locales": { "Value": "de", "Use": "In Token Request" },
    },
  });
  const log = await Deno.makeTempFile({ prefix: "dial-browser-", suffix: ".jsonl" });
  const result = await runDev(dir, {
    BROWSER,
    FAKE_BROWSER_MODE: "login",
    FAKE_BROWSER_LOG: log,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(op.grants.authorization_code, 1);
  const login = /visit:\n {2}(\S+)/.exec(result.stderr)?.[1] ?? "";
  const url = new URL(login);
  assert.equal(url.pathname, "/auth");
  assert.equal(url.searchParams.get("prompt"), "consent");
  assert.equal(url.searchParams.get("ui_locales"), null);
});
