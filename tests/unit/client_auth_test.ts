import assert from "node:assert/strict";
import { formEncode } from "../../src/auth/oauth2/token_request.ts";

Deno.test("oauth2: client credentials use the URLSearchParams serializer (RFC 6749 2.3.1)", () => {
  assert.equal(formEncode("cli-secret.v1_x*"), "cli-secret.v1_x*");
  assert.equal(formEncode("a b:c&d~!'()é"), "a+b%3Ac%26d%7E%21%27%28%29%C3%A9");
});
