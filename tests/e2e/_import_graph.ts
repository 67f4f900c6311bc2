/**
 * Deno's module graph, as `deno info --json` reports it: the modules a file loads, and the
 * imports between source files.
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** How one module names another. */
export type ImportKind = "static" | "dynamic" | "type";

/** One import between two modules, as paths relative to the repository (`src/…`) or `npm:…`. */
export interface ImportEdge {
  /** The importing module. */
  from: string;
  /** The imported module. */
  to: string;
  /** A static import, a dynamic `import("…")`, or a type-only reference. */
  kind: ImportKind;
}

/** @returns the specifier relative to the repository, or as it is (npm:, jsr:) */
function relative(specifier: string): string {
  return specifier.replace(ROOT.href, "");
}

/**
 * The imports of every module reachable from the roots, through any kind of import.
 *
 * @param roots entry files
 * @returns one edge per import
 */
export async function importEdges(roots: URL[]): Promise<ImportEdge[]> {
  // One `deno info` run for all roots: a temporary file that imports each of them.
  const dir = await Deno.makeTempDir();
  try {
    const root = `${dir}/root.ts`;
    await Deno.writeTextFile(root, roots.map((r) => `import "${r.href}";\n`).join(""));
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", root],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    const info: unknown = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.ok(typeof info === "object" && info !== null && "modules" in info);
    assert.ok(Array.isArray(info.modules));
    const edges: ImportEdge[] = [];
    for (const module of info.modules) {
      const from = String(module?.specifier);
      if (from.startsWith("file://" + dir)) continue;
      const deps = Array.isArray(module?.dependencies) ? module.dependencies : [];
      for (const d of deps) {
        const code = d?.code?.specifier, type = d?.type?.specifier;
        if (typeof code === "string") {
          edges.push({
            from: relative(from),
            to: relative(code),
            kind: d.isDynamic ? "dynamic" : "static",
          });
        }
        if (typeof type === "string" && type !== code) {
          edges.push({ from: relative(from), to: relative(type), kind: "type" });
        }
      }
    }
    return edges;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Modules a file loads before it runs: static imports only, types erased.
 *
 * @param root the entry file
 * @returns specifiers relative to the repository (`src/…`) or `npm:…`, sorted
 */
export async function staticModules(root: URL): Promise<string[]> {
  const edges = new Map<string, string[]>();
  for (const edge of await importEdges([root])) {
    if (edge.kind !== "static") continue;
    edges.set(edge.from, [...(edges.get(edge.from) ?? []), edge.to]);
  }
  const seen = new Set<string>();
  const stack = [relative(root.href)];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(edges.get(next) ?? []));
  }
  return [...seen].sort();
}

/**
 * The modules Deno's graph holds from a root through value imports (static or dynamic, not
 * type-only ones).
 *
 * @param root the root, as a path relative to the repository
 * @param edges the graph's imports ({@link importEdges})
 * @returns the root and every module reached
 */
export function reachable(root: string, edges: ImportEdge[]): Set<string> {
  const reached = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const edge of edges) {
      if (edge.kind === "type" || !reached.has(edge.from) || reached.has(edge.to)) continue;
      reached.add(edge.to);
      grew = true;
    }
  }
  return reached;
}
