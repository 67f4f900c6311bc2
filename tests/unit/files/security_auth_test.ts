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
    () => oauth2FromConfig("x", { ...base, "Grant Type": "Device Authorization" }),
    /Unsupported "Grant Type": "Device Authorization" in Security\.Auth "x"/,
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
