// `>> path` outputs of request files: a new name beside an existing file, `>>!` replaces, and a
// missing folder is named in plain words (not the OS's errno text).
import assert from "node:assert/strict";
import { openOutput } from "../../../src/files/_run_parts.ts";

Deno.test("outputs: >> picks name_1.ext beside an existing file; >>! replaces it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/x.json`, "old");
    const next = await openOutput(`${dir}/x.json`, false);
    await next.write(new TextEncoder().encode("new"));
    await next.close();
    assert.equal(next.path, `${dir}/x_1.json`);
    assert.equal(await Deno.readTextFile(`${dir}/x.json`), "old");
    const over = await openOutput(`${dir}/x.json`, true);
    await over.write(new TextEncoder().encode("replaced"));
    await over.close();
    assert.equal(await Deno.readTextFile(`${dir}/x.json`), "replaced");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outputs: a missing folder is named in the error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => openOutput(`${dir}/out/sub/x.json`, false),
      (error: Error) => {
        assert.equal(
          error.message,
          `Cannot save the response to ${dir}/out/sub/x.json: the folder ${dir}/out/sub does not exist`,
        );
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
