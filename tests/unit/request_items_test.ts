import assert from "node:assert/strict";
import { splitItem } from "../../src/cli/request_items.ts";
import { buildNestedJson, parseKeyPath } from "../../src/cli/nested_json.ts";
import { UsageError } from "../../src/errors/mod.ts";

Deno.test("request items: the first separator wins, the longest at that place", () => {
  const cases: Array<[string, string, string, string]> = [
    ["a=b", "a", "=", "b"],
    ["a:=1", "a", ":=", "1"],
    ["a:=@f", "a", ":=@", "f"],
    ["a==b=c", "a", "==", "b=c"],
    ["a==@f", "a", "==@", "f"],
    ["a=@f", "a", "=@", "f"],
    ["X:a=b", "X", ":", "a=b"],
    ["X:@f", "X", ":@", "f"],
    ["X;", "X", ";", ""],
    ["f@p;type=t", "f", "@", "p;type=t"],
    ["a\\=b=c", "a=b", "=", "c"],
    ["a\\:b:c", "a:b", ":", "c"],
    ["a\\@b@c", "a@b", "@", "c"],
    ["a\\b=c", "a\\b", "=", "c"],
    ["a=b\\=c", "a", "=", "b=c"],
  ];
  for (const [text, key, separator, value] of cases) {
    assert.deepEqual(splitItem(text), { key, separator, value, text }, text);
  }
  assert.equal(splitItem("plain"), undefined);
  assert.equal(splitItem("a\\=b"), undefined);
});

Deno.test("request items: nested JSON paths as HTTPie documents them", () => {
  const build = (pairs: Array<[string, unknown]>) =>
    buildNestedJson(pairs.map(([key, value]) => ({ key, value })));
  assert.deepEqual(build([["a[b][c]", "x"], ["a[b][d]", 1]]), { a: { b: { c: "x", d: 1 } } });
  assert.deepEqual(build([["a[1]", "x"]]), { a: [null, "x"] });
  assert.deepEqual(build([["a[]", 1], ["a[]", 2]]), { a: [1, 2] });
  assert.deepEqual(build([["[]", 1], ["[2]", 3]]), [1, null, 3]);
  assert.deepEqual(build([["a\\[b\\]", 1]]), { "a[b]": 1 });
  assert.deepEqual(build([["a[\\1]", 1]]), { a: { "1": 1 } });
  assert.deepEqual(build([["x", 1], ["x", 2]]), { x: 2 });
  assert.deepEqual(parseKeyPath(""), [{ kind: "key", key: "" }]);
  assert.throws(() => build([["a", 1], ["a[0]", 2]]), UsageError);
  assert.throws(() => build([["a", 1], ["[]", 2]]), /the top level is an object, not an array/);
  assert.throws(() => parseKeyPath("a[b"), /missing "\]"/);
  assert.throws(() => parseKeyPath("a[b]c"), /expected "\["/);
});
