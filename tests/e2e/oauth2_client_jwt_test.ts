/**
 * Client assertions (RFC 7523) against oidc-provider: private_key_jwt with RSA (RS256, PS256)
 * and EC (ES256) keys in the PEM forms people have (PKCS#8, PKCS#1, SEC1), given by path or
 * reference, and client_secret_jwt.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { dial } from "../_helpers.ts";
import { OIDC_CLIENTS, startOidcProvider } from "./_oauth_servers.ts";

function pair(type: "rsa" | "ec") {
  return type === "rsa"
    ? generateKeyPairSync("rsa", { modulusLength: 2048 })
    : generateKeyPairSync("ec", { namedCurve: "P-256" });
}

function publicJwk(key: KeyObject, kid: string): JsonWebKey {
  return { ...key.export({ format: "jwk" }), kid } as JsonWebKey;
}

const rsa = pair("rsa");
const ec = pair("ec");
const other = pair("rsa");

/** `dial auth token` for a client_credentials client at a token endpoint. */
function tokenCommand(tokenUrl: string): string[] {
  return ["auth", "token", "--oauth2", "client_credentials", "--oauth2-token-url", tokenUrl];
}

async function token(op: { tokenUrl: string }, home: string, ...extra: string[]) {
  return await dial([...tokenCommand(op.tokenUrl), "--oauth2-no-cache", ...extra], {
    env: { HOME: home },
  });
}

Deno.test("oauth2: private_key_jwt with RS256, PS256 and ES256 keys (PKCS#8, PKCS#1, SEC1) at oidc-provider", async () => {
  await using op = await startOidcProvider({
    redirectUris: [],
    clientKeys: [publicJwk(rsa.publicKey, "rsa"), publicJwk(ec.publicKey, "ec")],
  });
  const dir = await Deno.makeTempDir();
  const files = {
    pkcs8: `${dir}/rsa.pem`,
    pkcs1: `${dir}/rsa1.pem`,
    sec1: `${dir}/ec.pem`,
  };
  await Deno.writeTextFile(
    files.pkcs8,
    rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  );
  await Deno.writeTextFile(
    files.pkcs1,
    rsa.privateKey.export({ format: "pem", type: "pkcs1" }).toString(),
  );
  await Deno.writeTextFile(
    files.sec1,
    ec.privateKey.export({ format: "pem", type: "sec1" }).toString(),
  );
  const id = ["--oauth2-client-id", OIDC_CLIENTS.jwt.id];
  for (
    const extra of [
      ["--oauth2-client-auth", "private_key_jwt", "--oauth2-client-key", files.pkcs8],
      ["--oauth2-client-key", files.pkcs1],
      ["--oauth2-client-key", files.pkcs8, "--oauth2-client-key-alg", "PS256"],
      ["--oauth2-client-key", files.sec1],
    ]
  ) {
    const result = await token(op, dir, ...id, ...extra);
    assert.equal(result.code, 0, `${extra.join(" ")}: ${result.stderr}`);
    assert.match(result.stdout, /^\S{20,}\n$/);
  }
  assert.equal(op.grants.client_credentials, 4);
  // By reference, as every secret: the key from an environment variable.
  const fromEnv = await dial([
    ...tokenCommand(op.tokenUrl),
    ...id,
    "--oauth2-client-key",
    "@env:CLIENT_KEY",
  ], { env: { HOME: dir, CLIENT_KEY: await Deno.readTextFile(files.sec1) } });
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
});

Deno.test("oauth2: private_key_jwt with a key the provider does not know is its invalid_client", async () => {
  await using op = await startOidcProvider({
    redirectUris: [],
    clientKeys: [publicJwk(rsa.publicKey, "rsa")],
  });
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/other.pem`,
    other.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  );
  const result = await token(
    op,
    dir,
    "--oauth2-client-id",
    OIDC_CLIENTS.jwt.id,
    "--oauth2-client-key",
    `${dir}/other.pem`,
  );
  assert.equal(result.code, 9, result.stderr);
  assert.match(result.stderr, /invalid_client/);
  // Refused once, not retried as client_secret_post: there is no secret.
  assert.equal(op.grants.client_credentials, undefined);
});

Deno.test("oauth2: client_secret_jwt signs an HS256 assertion with the client secret", async () => {
  await using op = await startOidcProvider({ redirectUris: [], clientKeys: [] });
  const dir = await Deno.makeTempDir();
  const result = await token(
    op,
    dir,
    "--oauth2-client-id",
    OIDC_CLIENTS.hs.id,
    "--oauth2-client-secret",
    OIDC_CLIENTS.hs.secret,
    "--oauth2-client-auth",
    "client_secret_jwt",
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(op.grants.client_credentials, 1);
});

Deno.test("oauth2: client key usage errors: not a key, no key, a secret as well, a curve for RS256", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/not.pem`, "hello");
  await Deno.writeTextFile(
    `${dir}/ec.pem`,
    ec.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  );
  const base = [
    "GET",
    "http://127.0.0.1:9/",
    "--oauth2",
    "client_credentials:http://127.0.0.1:9/t:app",
  ];
  const cases: Array<[string[], RegExp, number]> = [
    [
      ["--oauth2-client-key", `${dir}/not.pem`],
      /Cannot read the client's private key: not a PEM private key\nhint: give --oauth2-client-key a PKCS#8/,
      2,
    ],
    [["--oauth2-client-auth", "private_key_jwt"], /private_key_jwt needs --oauth2-client-key/, 2],
    [
      ["--oauth2-client-key", `${dir}/missing.pem`],
      /Cannot read --oauth2-client-key @.*missing\.pem: no such file/,
      2,
    ],
    [
      ["--oauth2-client-key", `${dir}/ec.pem`, "--oauth2-client-key-alg", "RS256"],
      /Cannot use the client's private key \(ec prime256v1\) for RS256/,
      2,
    ],
    [["--oauth2-client-auth", "client_secret_jwt"], /client_secret_jwt needs a client secret/, 2],
  ];
  for (const [extra, message, code] of cases) {
    const result = await dial([...base, ...extra], { env: { HOME: dir } });
    assert.equal(result.code, code, `${extra.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, message);
  }
  const withSecret = await dial([
    "GET",
    "http://127.0.0.1:9/",
    "--oauth2",
    "client_credentials:http://127.0.0.1:9/t:app:s",
    "--oauth2-client-key",
    `${dir}/ec.pem`,
  ]);
  assert.match(
    withSecret.stderr,
    /private_key_jwt signs with --oauth2-client-key: drop the client secret/,
  );
});
