import assert from "node:assert/strict";

/** Source files under a directory, as paths from the repository root (the built bundle aside). */
async function sources(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(`../../${dir}`, import.meta.url))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) {
      if (path !== "src/ui/web/dist") files.push(...await sources(path));
    } else if (/\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

Deno.test("file names: each source file name under src/ is unique (mod.ts entries aside)", async () => {
  const byName = new Map<string, string[]>();
  for (const file of await sources("src")) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (name !== "mod.ts") byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const twice = [...byName.values()].filter((paths) => paths.length > 1);
  assert.deepEqual(twice, []);
});
