/**
 * Deno's module graph for a root file, as `deno info --json` reports it.
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).href;

/**
 * Modules a file loads before it runs: static imports only, types erased.
 *
 * @param root the entry file
 * @returns specifiers relative to the repository (`src/…`) or `npm:…`, sorted
 */
export async function staticModules(root: URL): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root.pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info: unknown = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.ok(typeof info === "object" && info !== null && "modules" in info && "roots" in info);
  assert.ok(Array.isArray(info.modules) && Array.isArray(info.roots));
  const edges = new Map<string, string[]>();
  for (const module of info.modules) {
    const deps = Array.isArray(module?.dependencies) ? module.dependencies : [];
    edges.set(
      String(module?.specifier),
      deps.filter((d: { isDynamic?: boolean; code?: { specifier?: string } }) =>
        !d.isDynamic && typeof d.code?.specifier === "string"
      ).map((d: { code: { specifier: string } }) => d.code.specifier),
    );
  }
  const seen = new Set<string>();
  const stack = [String(info.roots[0])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(edges.get(next) ?? []));
  }
  return [...seen].map((s) => s.replace(ROOT, "")).sort();
}
