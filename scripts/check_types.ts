/**
 * Type-checks every TypeScript file of the repository (`deno task check` runs it after fmt and
 * lint). The files are checked in three groups, each with the configuration whose import map
 * resolves its packages:
 *
 * - `src/ui/web/deno.json`: the browser frontend (Preact, CodeMirror; built by `deno task bundle`);
 * - `tests/deno.json`: the tests, the benchmarks, the scripts that drive Chromium or the test
 *   servers (Playwright, graphql-yoga, oidc-provider …) and the CLI build (Rollup, TypeScript);
 * - `deno.json`: everything else, i.e. what `main.ts` and `mod.ts` run.
 *
 * The root `deno.json` lists only the runtime packages, so that running dial from source on a
 * fresh Deno cache installs only those (Deno installs every package of a lockfile as soon as it
 * resolves one).
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/** Files outside `tests/` that import test helpers, test-only or build-only packages. */
export const TEST_CONFIG_FILES = [
  "scripts/bench.ts",
  "scripts/bench_http.ts",
  "scripts/bench_ui.ts",
  "scripts/bench_ui_body.ts",
  "scripts/bench_ui_streams.ts",
  "scripts/bench_ui_workspace.ts",
  "scripts/build_cli.ts",
  "scripts/cdp.ts",
  "scripts/screenshots.ts",
  "scripts/sweep_http_files.ts",
];

/** Skipped: generated or not TypeScript of ours. */
const SKIP = ["src/ui/web/dist/", "docs/", "dist/", "node_modules/", ".git/"];

/**
 * The configuration that resolves a file's imports.
 *
 * @param path a path relative to the repository
 * @returns the configuration's path relative to the repository
 */
export function configFor(path: string): string {
  if (path.startsWith("src/ui/web/")) return "src/ui/web/deno.json";
  if (path.startsWith("tests/") || path.startsWith("benches/")) return "tests/deno.json";
  if (TEST_CONFIG_FILES.includes(path)) return "tests/deno.json";
  return "deno.json";
}

/**
 * Every `.ts`/`.tsx` file under a directory.
 *
 * @param dir a directory relative to the repository ("" for the root)
 * @returns paths relative to the repository
 */
export async function sourceFiles(dir = ""): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir || ".", ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) {
      if (!SKIP.includes(`${path}/`)) files.push(...await sourceFiles(`${path}/`));
    } else if (entry.isFile && /\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

if (import.meta.main) {
  const groups = new Map<string, string[]>();
  for (const file of await sourceFiles()) {
    const config = configFor(file);
    groups.set(config, [...groups.get(config) ?? [], file]);
  }
  for (const [config, files] of groups) {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", config, ...files],
      cwd: ROOT.pathname,
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    if (code !== 0) Deno.exit(code);
  }
}
