import assert from "node:assert/strict";
import {
  blankLiterals,
  isLiteralSecret,
  isSecretName,
  jsonWithoutSecrets,
  urlWithoutSecrets,
  visitJson,
  visitUrl,
  withoutSecrets,
} from "../../src/ui/web/storage.ts";
import {
  emptySlots,
  refillDraft,
  withheldDraft,
} from "../../src/ui/web/workspace/draft_secrets.ts";

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
    '{"user":"ann","auth":{"password":"","tokens":["a"]}}',
  );
  const typed = '{ "user": "ann" }';
  assert.equal(jsonWithoutSecrets(typed), typed);
  // Nothing else is touched: a secret's blanking keeps the text's own layout.
  assert.equal(
    jsonWithoutSecrets('{\n    "user" : "ann",\n    "pwd": 1234\n}'),
    '{\n    "user" : "ann",\n    "pwd": ""\n}',
  );
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

Deno.test("ui drafts: a reference is not a credential value and is kept verbatim", () => {
  for (
    const value of [
      "{{token}}",
      "Bearer {{token}}",
      'bearer   {{$auth.token("main")}}',
      "Basic {{user}}:{{password}}",
      "{{login.response.body.$.token}}",
      "sid={{sid}}; csrf={{csrf}}",
      "",
      "Bearer ",
      '"{{password}}"',
      '""',
    ]
  ) assert.ok(!isLiteralSecret(value), value);
  for (
    const value of [
      "abc123",
      "Bearer abc123",
      "Bearer {{token}}x",
      "{{user}}:hunter2",
      "hunter2 {{x}}",
      "sid=abc",
      '"pw"',
      "1234",
    ]
  ) assert.ok(isLiteralSecret(value), value);
  assert.deepEqual(
    withoutSecrets([
      { name: "Authorization", value: "Bearer {{token}}", enabled: true },
      { name: "X-Api-Key", value: "k-123", enabled: true },
    ]),
    [
      { name: "Authorization", value: "Bearer {{token}}", enabled: true },
      { name: "X-Api-Key", value: "", enabled: true },
    ],
  );
  const body = '{\n  "user": "{{user}}",\n  "password": "{{password}}",\n  "otp": {{otp}}\n}';
  assert.equal(jsonWithoutSecrets(body), body);
  assert.equal(
    urlWithoutSecrets("https://{{user}}:{{pass}}@api.test/x?api_key={{key}}&token=t1"),
    "https://{{user}}:{{pass}}@api.test/x?api_key={{key}}&token=",
  );
});

Deno.test("ui drafts: slots name each credential value, so a file can fill what was withheld", () => {
  const withheld: string[] = [];
  const stored = jsonWithoutSecrets('{"a": {"token": "x"}, "token": "{{t}}", "Token": 5}');
  assert.equal(stored, '{"a": {"token": ""}, "token": "{{t}}", "Token": ""}');
  const url = visitUrl("https://a:pw@h/?key=1&key={{k}}", blankLiterals(withheld));
  assert.equal(url, "https://a@h/?key=&key={{k}}");
  assert.deepEqual(withheld, ["url@password", "url?key#0"]);
  const slots: string[] = [];
  visitJson('{"token": "x", "n": {"token": 1}}', (slot, value) => (slots.push(slot), value));
  assert.deepEqual(slots, ["body:token#0", "body:token#1"]);
});

Deno.test("ui drafts: a body member blanked for storage is an empty slot the file fills again", () => {
  const file = {
    method: "WEBSOCKET",
    url: "ws://h/feed",
    headers: [],
    bodyKind: "text" as const,
    body: '{"password": "{{password}}"}\n===\n{"token": "lit-1"}',
    form: [],
  };
  const { draft: stored, withheld } = withheldDraft(file);
  assert.equal(stored.body, '{"password": "{{password}}"}\n===\n{"token": ""}');
  assert.deepEqual(withheld, ["body:token#0"]);
  assert.deepEqual(emptySlots(stored), ["body:token#0"]);
  assert.equal(refillDraft(stored, emptySlots(stored), file).draft.body, file.body);
});
