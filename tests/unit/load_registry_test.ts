import assert from "node:assert/strict";
import { load, memoised } from "../../src/load.ts";
import { lazy } from "../../src/cli/lazy.ts";

Deno.test("load registries: each entry imports once; a later call returns the first call's promise", async () => {
  let imports = 0;
  const registry = memoised({
    one: () => {
      imports++;
      return Promise.resolve({ value: 1 });
    },
    other: () => Promise.resolve({ value: 2 }),
  });
  const first = registry.one();
  assert.equal(registry.one(), first);
  assert.deepEqual(await registry.one(), { value: 1 });
  assert.deepEqual(await registry.other(), { value: 2 });
  assert.equal(imports, 1);
  // The registries themselves: the same module namespace through the same promise.
  assert.equal(load.plan(), load.plan());
  assert.equal(lazy.jsonFilter(), lazy.jsonFilter());
  assert.equal(typeof (await load.plan()).planFor, "function");
});
