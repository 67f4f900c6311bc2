/**
 * The response viewer finds the value an OpenAPI violation points at in the body's text,
 * pretty or raw, or the nearest ancestor that exists.
 */
import assert from "node:assert/strict";
import { pointerRange } from "../../src/ui/web/openapi/json_pointer.ts";

const BODY = {
  pets: [{ id: 1, name: "Rex", tags: ["a]b", 'q"}'] }, { id: 2, name: null }],
  "a/b": { "c~d": true },
  n: -1.5e3,
};

Deno.test("openapi: a JSON pointer's value is found in the body's text, pretty or raw", () => {
  for (const text of [JSON.stringify(BODY), JSON.stringify(BODY, null, 2)]) {
    const shown = (pointer: string) => {
      const range = pointerRange(text, pointer)!;
      return [text.slice(range.from, range.to), range.exact];
    };
    assert.deepEqual(shown("/pets/0/name"), ['"Rex"', true]);
    assert.deepEqual(shown("/pets/1/name"), ["null", true]);
    assert.deepEqual(shown("/pets/0/tags/1"), ['"q\\"}"', true]);
    assert.deepEqual(shown("/a~1b/c~0d"), ["true", true]);
    assert.deepEqual(shown("/n"), ["-1500", true]);
    const [pet, whole] = shown("/pets/1");
    assert.deepEqual([JSON.parse(pet as string), whole], [BODY.pets[1], true]);
    // A missing property: the object that lacks it.
    const [missing, exact] = shown("/pets/1/tag");
    assert.equal(exact, false);
    assert.equal(JSON.parse(missing as string).id, 2);
    assert.deepEqual(shown(""), [text, true]);
  }
  // A cut body is read as far as it goes.
  assert.deepEqual(pointerRange('{"a": [1, 2', "/a/1"), { from: 10, to: 11, exact: true });
  assert.equal(pointerRange("   ", ""), undefined);
});
