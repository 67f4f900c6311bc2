import assert from "node:assert/strict";
import { isCredentialName } from "../../src/credential_name.ts";

const CREDENTIALS = [
  "Authorization",
  "Proxy-Authorization",
  "Cookie",
  "Set-Cookie",
  "X-Api-Key",
  "apikey",
  "X-Auth-Token",
  "access_token",
  "X-Secret",
  "client_secret",
  "X-Session-Id",
  "JSESSIONID",
  "X-Password",
  "passwd",
  "db_pwd",
  "X-Passphrase",
  "X-Signature",
  "X-Amz-Signature",
  "X-Amz-Credential",
  "X-Credentials",
  "X-Jwt",
  "jwt",
  "X-CSRF-Token",
  "X-XSRF",
  "X-Bearer",
  "private_key",
  "sig",
  "X-Sig",
  "pw",
  "pass",
  "x-PASSWORD",
];

const PLAIN = [
  "Accept",
  "Content-Type",
  "User-Agent",
  "X-Request-Id",
  "If-None-Match",
  "page",
  "q",
  "signal",
  "design",
  "passenger",
  "Cache-Control",
  "X-Forwarded-For",
];

Deno.test("credential name: the rule matches credential word parts in any case", () => {
  const missed = CREDENTIALS.filter((name) => !isCredentialName(name));
  assert.deepEqual(missed, []);
});

Deno.test("credential name: ordinary header and parameter names are not credentials", () => {
  const flagged = PLAIN.filter((name) => isCredentialName(name));
  assert.deepEqual(flagged, []);
});
