import assert from "node:assert/strict";
import { excludes } from "../assert.ts";
import { bindEntry, entryMatches } from "../../src/auth/oauth2/binding.ts";
import type { ResolvedOAuth2Options as OAuth2Options } from "../../src/auth/oauth2/parse_value.ts";
import { type TokenEntry, tokenKey } from "../../src/auth/oauth2/token_cache.ts";
import { Secret } from "../../src/secret.ts";

function options(extra: Partial<OAuth2Options> = {}): OAuth2Options {
  return {
    flow: "client_credentials",
    tokenUrl: new URL("https://id.test/token"),
    clientId: "app",
    port: 8484,
    ...extra,
  };
}

function entry(o: OAuth2Options): TokenEntry {
  return { ...tokenKey(o), accessToken: "at", tokenType: "bearer", obtainedAt: 0 };
}

Deno.test("binding: an entry matches only the client secret that obtained it", async () => {
  const right = options({ clientSecret: new Secret("right-secret") });
  const bound = await bindEntry(entry(right), right);
  excludes(JSON.stringify(bound), "right-secret");
  assert.equal(await entryMatches(bound, right), true);
  assert.equal(await entryMatches(bound, options({ clientSecret: new Secret("wrong") })), false);
  assert.equal(await entryMatches(bound, options()), false);
});

Deno.test("binding: public clients match without a secret; an unbound entry never matches a secret", async () => {
  const open = options();
  assert.equal(await entryMatches(await bindEntry(entry(open), open), open), true);
  assert.equal(await entryMatches(entry(open), options({ clientSecret: new Secret("s") })), false);
});

Deno.test("binding: password flow checks user and password when a password is given", async () => {
  const given = options({ flow: "password", username: "ann", password: new Secret("pw") });
  const bound = await bindEntry(entry(given), given);
  excludes(JSON.stringify(bound), '"pw"');
  assert.equal(await entryMatches(bound, given), true);
  assert.equal(
    await entryMatches(bound, { ...given, password: new Secret("other") }),
    false,
  );
  // No password given: the cache is tried before anything asks for one.
  const { password: _, ...asking } = given;
  assert.equal(await entryMatches(bound, asking), true);
  // A refresh without a password keeps the owner binding.
  const refreshed = await bindEntry(bound, asking);
  assert.deepEqual(refreshed.ownerBinding, bound.ownerBinding);
});
