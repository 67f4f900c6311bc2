import assert from "node:assert/strict";
import { formEncode } from "../../src/auth/oauth2/token_request.ts";

Deno.test("oauth2: client credentials use the URLSearchParams serializer (RFC 6749 2.3.1)", () => {
  assert.equal(formEncode("cli-secret.v1_x*"), "cli-secret.v1_x*");
  assert.equal(formEncode("a b:c&d~!'()é"), "a+b%3Ac%26d%7E%21%27%28%29%C3%A9");
});

Deno.test("digest: the RFC 7616 3.9.1 example answers, SHA-256 and MD5", async () => {
  const { digestAuthorization, digestChallenge } = await import("../../src/auth/digest.ts");
  const { Secret } = await import("../../src/secret.ts");
  const header = (algorithm: string) =>
    `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`;
  // Both challenges in one header: SHA-256 is preferred.
  const challenge = digestChallenge(
    new Headers({ "www-authenticate": `${header("MD5")}, ${header("SHA-256")}` }),
  )!;
  assert.equal(challenge.algorithm, "SHA-256");
  const input = {
    username: "Mufasa",
    password: new Secret("Circle of Life"),
    method: "GET",
    uri: "/dir/index.html",
    nc: 1,
    cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
  };
  assert.match(
    digestAuthorization(challenge, input).reveal(),
    /response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"/,
  );
  assert.match(
    digestAuthorization({ ...challenge, algorithm: "MD5" }, input).reveal(),
    /response="8ca523f5e9506fed4657c9700eebdbec"/,
  );
  assert.equal(String(digestAuthorization(challenge, input)), "(redacted)");
});

Deno.test("oauth2: a PEM key that lost its line breaks (a one-line field) is read again", async () => {
  const { normalizePem, importClientKey } = await import("../../src/auth/oauth2/client_key.ts");
  const { Secret } = await import("../../src/secret.ts");
  const { generateKeyPairSync } = await import("node:crypto");
  const pem = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey
    .export({ format: "pem", type: "pkcs8" }).toString();
  const flat = pem.replaceAll("\n", " ");
  assert.equal(normalizePem(flat), pem);
  assert.equal((await importClientKey(new Secret(flat))).alg, "ES256");
});

Deno.test("digest: qop=auth-int alone is answered with the body's hash in HA2 (RFC 7616 3.4.3)", async () => {
  const { digestAuthorization, digestChallenge } = await import("../../src/auth/digest.ts");
  const { Secret } = await import("../../src/secret.ts");
  const { createHash } = await import("node:crypto");
  const md5 = (text: string) => createHash("md5").update(text).digest("hex");
  const challenge = digestChallenge(
    new Headers({
      "www-authenticate": 'Digest realm="r", qop="auth-int", nonce="n", algorithm=MD5',
    }),
  )!;
  assert.ok(challenge, "an auth-int-only challenge is taken");
  const body = "a=1&b=2";
  const value = digestAuthorization(challenge, {
    username: "u",
    password: new Secret("p"),
    method: "POST",
    uri: "/x",
    nc: 1,
    cnonce: "c",
    bodyHash: md5(body),
  }).reveal();
  const ha2 = md5(`POST:/x:${md5(body)}`);
  const expected = md5(`${md5("u:r:p")}:n:00000001:c:auth-int:${ha2}`);
  assert.match(value, new RegExp(`response="${expected}"`));
  assert.match(value, /qop=auth-int/);
});
