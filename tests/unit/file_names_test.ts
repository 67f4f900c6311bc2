import assert from "node:assert/strict";
import { sourceFiles } from "../_sources.ts";

Deno.test("file names: each source file name under src/ is unique (mod.ts entries aside)", async () => {
  const byName = new Map<string, string[]>();
  for (const file of await sourceFiles("src")) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (name !== "mod.ts") byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const twice = [...byName.values()].filter((paths) => paths.length > 1);
  assert.deepEqual(twice, []);
});
