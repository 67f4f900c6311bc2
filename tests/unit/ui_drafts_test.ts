import assert from "node:assert/strict";
import {
  isSecretName,
  jsonWithoutSecrets,
  urlWithoutSecrets,
  withoutSecrets,
} from "../../src/ui/web/storage.ts";

Deno.test("ui drafts: credential-looking names", () => {
  for (const name of ["Authorization", "X-Api-Key", "access_token", "password", "client_secret"]) {
    assert.ok(isSecretName(name), name);
  }
  for (const name of ["Accept", "page", "user", "X-Trace"]) assert.ok(!isSecretName(name), name);
});

Deno.test("ui drafts: a URL keeps its text but loses credential values and its password", () => {
  assert.equal(
    urlWithoutSecrets("https://ann:pw@api.test/x?page=2&access_token=abc&api%5Fkey=k#top"),
    "https://ann@api.test/x?page=2&access_token=&api%5Fkey=#top",
  );
  assert.equal(urlWithoutSecrets("api.test/x?q=token"), "api.test/x?q=token");
  assert.equal(urlWithoutSecrets("not a url ?token=t"), "not a url ?token=");
});

Deno.test("ui drafts: JSON members with credential names are blanked at any depth", () => {
  assert.equal(
    jsonWithoutSecrets('{"user":"ann","auth":{"password":"pw","tokens":["a"]}}'),
    JSON.stringify({ user: "ann", auth: { password: "", tokens: ["a"] } }, null, 2),
  );
  const typed = '{ "user": "ann" }';
  assert.equal(jsonWithoutSecrets(typed), typed);
  assert.equal(jsonWithoutSecrets('{"password": '), '{"password": ');
  // Half-typed: the secret so far is not kept.
  assert.equal(
    jsonWithoutSecrets('{"user": "ann", "password": "hunt'),
    '{"user": "ann", "password": ""',
  );
  assert.equal(
    jsonWithoutSecrets('{"token": "a\\"b", "note": "x",'),
    '{"token": "", "note": "x",',
  );
});

Deno.test("ui drafts: table rows keep names and blank credential values", () => {
  assert.deepEqual(
    withoutSecrets([
      { name: "X-Session-Id", value: "s", enabled: true },
      { name: "page", value: "2", enabled: false },
    ]),
    [
      { name: "X-Session-Id", value: "", enabled: true },
      { name: "page", value: "2", enabled: false },
    ],
  );
});
