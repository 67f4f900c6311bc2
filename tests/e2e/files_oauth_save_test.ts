/**
 * `--save` writes the OAuth 2.0 breadth into `Security.Auth` (issuer, extra parameters, client
 * assertion with the key as referenced, device endpoint), and `dial run` runs what it wrote,
 * against oidc-provider.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { bearerApi, dial } from "../_helpers.ts";
import { oauthHome, OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PEM = rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString();

Deno.test("run: a request saved with --oauth2-issuer, --oauth2-param and a client key runs from its file", async () => {
  await using op = await startOidcProvider({
    redirectUris: [],
    resourceIndicators: true,
    clientKeys: [{ ...rsa.publicKey.export({ format: "jwk" }), kid: "k" } as JsonWebKey],
  });
  await using target = bearerApi();
  const dir = await Deno.makeTempDir({ prefix: "dial-save-oauth-" });
  const home = await oauthHome();
  const env = { HOME: home, CLIENT_KEY: PEM };
  const saved = await dial([
    "GET",
    `${target.origin}/me`,
    "--oauth2",
    "client_credentials",
    "--oauth2-issuer",
    op.origin,
    "--oauth2-client-id",
    OIDC_CLIENTS.jwt.id,
    "--oauth2-client-key",
    "@env:CLIENT_KEY",
    "--oauth2-scope",
    "api:read",
    "--oauth2-param",
    "resource=https://api.example.com/",
    "--save",
    `${dir}/api.http`,
    "--name",
    "me",
  ], { env });
  assert.equal(saved.code, 0, saved.stderr);
  const privateEnv = JSON.parse(await Deno.readTextFile(`${dir}/http-client.private.env.json`));
  assert.deepEqual(privateEnv.$shared.Security.Auth.me, {
    "Type": "OAuth2",
    "Grant Type": "Client Credentials",
    "Client ID": OIDC_CLIENTS.jwt.id,
    "Scope": "api:read",
    "Issuer": `${op.origin}/`,
    "Client Credentials": "private_key_jwt",
    "Client Key": "@env:CLIENT_KEY",
    "Custom Request Parameters": { "resource": "https://api.example.com/" },
  });
  assert.doesNotMatch(JSON.stringify(privateEnv), /BEGIN/);
  await dial(["auth", "logout", "--all"], { env });
  const run = await dial(["run", `${dir}/api.http`], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(op.grants.client_credentials, 2);
  const claims = JSON.parse(
    new TextDecoder().decode(
      Uint8Array.fromBase64(target.seen[1]!.split(".")[1]!, { alphabet: "base64url" }),
    ),
  );
  assert.equal(claims.aud, "https://api.example.com/");
});

Deno.test("save: a device_code request keeps its device URL and repeated parameters in Security.Auth", async () => {
  await using op = await startOidcProvider({ redirectUris: [], deviceFlow: true });
  await using target = bearerApi();
  const dir = await Deno.makeTempDir({ prefix: "dial-save-oauth-" });
  const saved = await dial([
    "GET",
    `${target.origin}/me`,
    "--oauth2",
    `device_code:${op.tokenUrl}:${OIDC_CLIENTS.device.id}`,
    "--oauth2-device-url",
    `${op.origin}/device/auth`,
    "--oauth2-param",
    "prompt=login",
    "--oauth2-param",
    "prompt=consent",
    "--offline",
    "--save",
    `${dir}/api.http`,
    "--name",
    "tv",
  ], { env: { HOME: await Deno.makeTempDir() } });
  assert.equal(saved.code, 0, saved.stderr);
  const privateEnv = JSON.parse(await Deno.readTextFile(`${dir}/http-client.private.env.json`));
  const config = privateEnv.$shared.Security.Auth.tv;
  assert.equal(config["Grant Type"], "Device Authorization");
  assert.equal(config["Device Auth URL"], `${op.origin}/device/auth`);
  assert.deepEqual(config["Custom Request Parameters"], { prompt: ["login", "consent"] });
});
