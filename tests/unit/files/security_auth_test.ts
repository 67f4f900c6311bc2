import assert from "node:assert/strict";
import { oauth2FromConfig } from "../../../src/files/security_auth.ts";

Deno.test("Security.Auth: JetBrains OAuth 2.0 keys map to dial's OAuth 2.0 options", () => {
  const options = oauth2FromConfig("idp", {
    "Type": "OAuth2",
    "Grant Type": "Authorization Code",
    "Auth URL": "https://id.example.com/authorize",
    "Token URL": "https://id.example.com/token",
    "Redirect URL": "http://localhost:9123/callback",
    "Client ID": "app",
    "Client Secret": "s3cret",
    "Scope": "openid api",
    "Client Credentials": "in body",
  });
  assert.equal(options.flow, "authorization_code");
  assert.equal(options.tokenUrl?.href, "https://id.example.com/token");
  assert.equal(options.authUrl?.href, "https://id.example.com/authorize");
  assert.equal(options.redirectUri?.href, "http://localhost:9123/callback");
  assert.equal(options.port, 9123);
  assert.equal(options.clientSecret?.reveal(), "s3cret");
  assert.equal(String(options.clientSecret), "(redacted)");
  assert.equal(options.scope, "openid api");
  assert.equal(options.clientAuth, "post");
  const password = oauth2FromConfig("p", {
    "Grant Type": "Password",
    "Token URL": "https://id.example.com/token",
    "Client ID": "app",
    "Username": "ann",
    "Password": "pw",
  });
  assert.equal(password.flow, "password");
  assert.equal(password.port, 8484);
  assert.equal(password.password?.reveal(), "pw");
});

Deno.test("Security.Auth: grants dial does not run and missing keys are refused by name", () => {
  const base = { "Token URL": "https://id.example.com/token", "Client ID": "app" };
  assert.throws(
    () => oauth2FromConfig("x", { ...base, "Grant Type": "Implicit" }),
    /Unsupported "Grant Type": "Implicit" in Security\.Auth "x"/,
  );
  assert.throws(
    () => oauth2FromConfig("x", { ...base, "Grant Type": "Device Authorization" }),
    /Missing "Device Auth URL" in Security\.Auth "x": Device Authorization needs one/,
  );
  assert.throws(
    () => oauth2FromConfig("x", { "Grant Type": "Client Credentials", "Client ID": "a" }),
    /Missing "Token URL" or "Issuer" in Security\.Auth "x"/,
  );
  assert.throws(
    () => oauth2FromConfig("x", { ...base, "Grant Type": "Client Credentials" }),
    /Missing "Client Secret" in Security\.Auth "x"/,
  );
  assert.throws(
    () => oauth2FromConfig("x", { "Grant Type": "Client Credentials", "Client ID": "a" }),
    /Missing "Token URL"/,
  );
  assert.throws(
    () => oauth2FromConfig("x", { ...base, "Token URL": "not a url" }),
    /not an absolute URL/,
  );
});

Deno.test("Security.Auth: device flow, issuer, custom parameters and client assertions", () => {
  const device = oauth2FromConfig("d", {
    "Grant Type": "Device Authorization",
    "Issuer": "https://id.example.com",
    "Client ID": "tv",
    "Client Secret": "ignored",
    "Client Credentials": "none",
    "Open Complete URI": true,
    "Custom Request Parameters": {
      "audience": "https://api",
      "resource": ["https://a", "https://b"],
      "prompt": { "Value": "consent", "Use": "In Auth Request" },
      "tenant": { "Value": ["t1", "t2"], "Use": "In Token Request" },
      "n": 1,
    },
  });
  assert.equal(device.flow, "device_code");
  assert.equal(device.tokenUrl, undefined);
  assert.equal(device.issuer?.href, "https://id.example.com/");
  assert.equal(device.clientSecret, undefined, "none: the client does not authenticate");
  assert.equal(device.clientAuth, undefined);
  assert.equal(device.openDevicePage, true);
  assert.deepEqual(device.params, [
    ["audience", "https://api"],
    ["resource", "https://a"],
    ["resource", "https://b"],
    ["n", "1"],
  ]);
  assert.deepEqual(device.authParams, [["prompt", "consent"]]);
  assert.deepEqual(device.tokenParams, [["tenant", "t1"], ["tenant", "t2"]]);
  const jwt = oauth2FromConfig("j", {
    "Grant Type": "Client Credentials",
    "Token URL": "https://id.example.com/token",
    "Client ID": "svc",
    "Client Credentials": "private_key_jwt",
    "Client Key": "-----BEGIN PRIVATE KEY-----",
    "Client Key Algorithm": "ES256",
  });
  assert.equal(jwt.clientAuth, "private_key_jwt");
  assert.equal(String(jwt.clientKey), "(redacted)");
  assert.equal(jwt.clientKeyAlg, "ES256");
  assert.throws(
    () =>
      oauth2FromConfig("j", {
        "Grant Type": "Client Credentials",
        "Token URL": "https://id.example.com/token",
        "Client ID": "svc",
        "Client Credentials": "client_secret_jwt",
      }),
    /Missing "Client Secret" in Security\.Auth "j": client_secret_jwt signs with it/,
  );
  assert.throws(
    () =>
      oauth2FromConfig("j", {
        "Grant Type": "Client Credentials",
        "Token URL": "https://id.example.com/token",
        "Client ID": "svc",
        "Client Credentials": "mtls",
      }),
    /Unsupported "Client Credentials": "mtls"/,
  );
});
