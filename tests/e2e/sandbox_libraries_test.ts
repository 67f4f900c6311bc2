/**
 * The libraries of the script sandbox (Postman's lodash 3, lodash 4 and moment; @xmldom/xmldom
 * for httpyac's parsedBody, and xpath) are the npm packages pinned in tests/deno.json: `deno info` resolves
 * them, and src/files/library_*.ts must be what scripts/gen_sandbox_libraries.ts makes of their
 * files (one file as it is; xmldom's lib/*.js in one module map).
 * @module
 */
import assert from "node:assert/strict";
import { libraryModules } from "../../scripts/gen_sandbox_libraries.ts";

Deno.test("sandbox libraries: src/files/library_*.ts are made of the pinned npm packages' files, byte for byte", async () => {
  const modules = await libraryModules();
  assert.equal(modules.size, 5);
  for (const [path, text] of modules) {
    const committed = await Deno.readTextFile(new URL(`../../${path}`, import.meta.url));
    // deno task libraries rewrites them from tests/deno.json's versions.
    assert.ok(committed === text, `${path} is not the package's file: run deno task libraries`);
  }
});
