import assert from "node:assert/strict";
import { authorizationUrl } from "../../src/auth/oauth2/login.ts";
import { parseOAuth2Param } from "../../src/auth/oauth2/parse_value.ts";
import { tokenKey } from "../../src/auth/oauth2/token_cache.ts";

const base = {
  flow: "authorization_code" as const,
  tokenUrl: new URL("https://id.example/token"),
  clientId: "cli",
  authUrl: new URL("https://id.example/authorize?tenant=x"),
  port: 8484,
};

Deno.test("oauth2 params: the authorization request carries --oauth2-param after dial's own", () => {
  const url = authorizationUrl(
    { ...base, params: [["audience", "https://api/"], ["prompt", "login"]] },
    "st",
    "ch",
  );
  assert.equal(url.searchParams.get("tenant"), "x");
  assert.equal(url.searchParams.get("audience"), "https://api/");
  assert.equal(url.searchParams.get("prompt"), "login");
  assert.equal(url.searchParams.get("state"), "st");
});

Deno.test("oauth2 params: NAME=VALUE keeps = in the value and allows an empty one", () => {
  assert.deepEqual(parseOAuth2Param("audience=a=b"), ["audience", "a=b"]);
  assert.deepEqual(parseOAuth2Param("prompt="), ["prompt", ""]);
  assert.throws(() => parseOAuth2Param("=x"), /expected NAME=VALUE/);
});

Deno.test("oauth2 params: a key without parameters has no params field (old cache files still match)", () => {
  assert.equal("params" in tokenKey(base), false);
  assert.equal(tokenKey({ ...base, params: [["a", "1"], ["b", "2"]] }).params, "a=1&b=2");
});
