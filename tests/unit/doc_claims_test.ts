/**
 * Claims the docs make about the code, checked so they cannot drift: the runtime packages that
 * CONTRIBUTING.md lists are the root deno.json's imports.
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** The package names listed after "runtime packages:" in CONTRIBUTING.md (one paragraph). */
export function listedRuntimePackages(text: string): string[] {
  const start = text.indexOf("runtime packages:");
  if (start < 0) return [];
  const list = text.slice(start, text.indexOf(";", start));
  return [...list.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).sort();
}

Deno.test("docs: CONTRIBUTING.md lists exactly the runtime packages of the root deno.json", async () => {
  const contributing = await Deno.readTextFile(new URL("CONTRIBUTING.md", ROOT));
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    imports: Record<string, string>;
  };
  const imports = Object.keys(config.imports).sort();
  assert.deepEqual(
    listedRuntimePackages(contributing),
    imports,
    'Update the "runtime packages:" list of CONTRIBUTING.md (the paragraph on configurations) ' +
      "to the root deno.json's imports",
  );
});

Deno.test("docs: the runtime-package list is read from its paragraph only", () => {
  const text = "x (runtime packages: `b`, `a`; later `c`) and `d`";
  assert.deepEqual(listedRuntimePackages(text), ["a", "b"]);
  assert.deepEqual(listedRuntimePackages("no list here"), []);
});
