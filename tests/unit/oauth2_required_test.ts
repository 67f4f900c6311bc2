import assert from "node:assert/strict";
import {
  checkOAuth2Settings,
  missingOAuth2Setting,
  OAUTH2_NEEDS,
} from "../../src/auth/oauth2/required.ts";
import { OAUTH2_FLOWS } from "../../src/auth/oauth2/parse_value.ts";
import { UsageError, wordRemedy } from "../../src/errors/mod.ts";
import { CLI_REMEDIES } from "../../src/cli/cli_remedies.ts";
import { UI_REMEDIES } from "../../src/ui/api/ui_remedies.ts";

Deno.test("oauth2 rule: each flow names the setting it cannot do without", () => {
  assert.deepEqual(Object.keys(OAUTH2_NEEDS).sort(), [...OAUTH2_FLOWS].sort());
  assert.equal(missingOAuth2Setting({ flow: "client_credentials" }), "client_secret");
  assert.equal(missingOAuth2Setting({ flow: "client_credentials", clientSecret: "s" }), undefined);
  assert.equal(missingOAuth2Setting({ flow: "authorization_code", authUrl: "" }), "auth_url");
  assert.equal(missingOAuth2Setting({ flow: "authorization_code" }), "auth_url");
  assert.equal(missingOAuth2Setting({ flow: "password", username: "ann" }), undefined);
});

Deno.test("oauth2 rule: the library's error names no flag; each face words its remedy", () => {
  assert.throws(() => checkOAuth2Settings({ flow: "password" }), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, "The password flow needs a user name");
    assert.match(wordRemedy(error.remedy, error.details, CLI_REMEDIES) ?? "", /--oauth2-username/);
    assert.equal(
      wordRemedy(error.remedy, error.details, UI_REMEDIES),
      "fill in OAuth username in the auth panel",
    );
    return true;
  });
});
