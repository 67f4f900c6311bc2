import assert from "node:assert/strict";
import { assertionFor, filterJson } from "../../src/ui/web/filter_assertion.ts";

Deno.test("ui response filter: the values a JSONPath selects, or why it cannot", () => {
  assert.deepEqual(filterJson('{"a": [1, 2]}', "$.a[*]"), { values: [1, 2] });
  assert.deepEqual(filterJson('{"a": 1}', "$.b"), { values: [] });
  assert.match((filterJson('{"a": 1}', "$.a[") as { error: string }).error, /^Invalid JSONPath/);
  assert.match((filterJson("<html>", "$.a") as { error: string }).error, /not JSON/);
});

Deno.test("ui response filter: the ?? line reads back as its path and the value", () => {
  assert.equal(assertionFor("$.a", ["pen"]), "$.a == pen");
  assert.equal(assertionFor("$.a", [7]), "$.a == 7");
  assert.equal(assertionFor("$.a", [null]), "$.a == null");
  assert.equal(assertionFor("$.a[*]", ["a", "b"]), '$.a[*] == ["a","b"]');
  assert.equal(assertionFor("$.a", [""]), "$.a isString");
  assert.equal(assertionFor("$.a", ["{{x}}"]), "$.a isString");
  // The value holds an operator between spaces: only that the path selects something.
  assert.equal(assertionFor("$.a", ["x == y"]), "$.a exists");
  assert.equal(assertionFor("$[?@.a == 1]", [{ a: 1 }]), '$[?@.a == 1] == {"a":1}');
});
