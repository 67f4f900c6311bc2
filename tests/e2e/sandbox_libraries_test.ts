/**
 * The libraries of the Postman sandbox (lodash 3, lodash 4, moment) are the npm packages pinned
 * in tests/deno.json: `deno info` resolves them and their files must equal src/files/library_*.ts.
 * @module
 */
import assert from "node:assert/strict";
import { libraryModules } from "../../scripts/gen_sandbox_libraries.ts";

Deno.test("sandbox libraries: src/files/library_*.ts are the pinned npm packages' files, byte for byte", async () => {
  const modules = await libraryModules();
  assert.equal(modules.size, 3);
  for (const [path, text] of modules) {
    const committed = await Deno.readTextFile(new URL(`../../${path}`, import.meta.url));
    // deno task libraries rewrites them from tests/deno.json's versions.
    assert.ok(committed === text, `${path} is not the package's file: run deno task libraries`);
  }
});
