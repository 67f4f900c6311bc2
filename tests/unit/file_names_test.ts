import assert from "node:assert/strict";

/** Source files under a directory, as paths from the repository root. */
async function sources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(`../../${dir}`, import.meta.url))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await sources(path));
    else if (/\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

Deno.test("file names: each source file name outside src/ui/ is unique (mod.ts entries aside)", async () => {
  const files = (await sources("src")).filter((f) => !f.startsWith("src/ui/"));
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (name !== "mod.ts") byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const twice = [...byName.values()].filter((paths) => paths.length > 1);
  assert.deepEqual(twice, []);
});
