/**
 * Builds the installed form of the CLI (`deno task build`, also run by `deno task install` and
 * `deno task bench`): `main.ts` and everything it can load → `dist/cli/`, in which
 *
 * - `dial.js` and one `core-*.js` chunk hold everything `dial GET …` runs (parsing, the
 *   request command, the credential step, the transport, the output), so starting dial loads
 *   two files instead of ~45 modules (each module costs Deno a lookup, a cache check and an
 *   instantiation: that, not parsing, was most of dial's start-up over a bare `fetch`);
 * - every lazily loaded part (GraphQL, WebSocket, SSE, OAuth 2.0, the UI, completions, `-k`,
 *   uploads…) is its own chunk that imports the shared code from `core-*.js`, so there is one
 *   instance of each module (`instanceof DialError` holds across chunks);
 * - npm packages stay imports, written as full `npm:name@version` specifiers (from deno.json),
 *   so the build runs without the project's configuration (`--no-config`); chunks are loaded
 *   with computed specifiers so that Deno's start-up graph stops at the two files and never
 *   resolves an npm package for `dial GET`.
 *
 * The sources are the truth: `deno task dial` and the tests run `main.ts`; this is a packaging
 * step like `deno compile`. `import.meta.url` in a bundled module still names its source file
 * (the UI finds `web/dist/` beside it), so a build runs beside the checkout it was built from.
 *
 * ```sh
 * deno task build                       # → dist/cli/dial.js
 * deno task build --out-dir /tmp/cli    # elsewhere (tests)
 * deno run -A --no-config dist/cli/dial.js GET https://example.com
 * ```
 * @module
 */
import { type OutputChunk, type Plugin, rollup } from "@rollup/wasm-node";
import ts from "typescript";
import denoJson from "../deno.json" with { type: "json" };
import { LAZY_MODULES } from "../src/cli/lazy.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;
/** Literal dynamic imports on the `dial GET` path: bundled into the start-up chunk. */
const START_UP_DYNAMIC = ["src/cli/request_run.ts", "src/http/client.ts"];
const IMPORTS: Record<string, string> = denoJson.imports;

/**
 * @param source a bare specifier from the sources, e.g. `meros/browser`
 * @returns its `npm:` specifier from deno.json's imports, with any subpath kept
 */
function npmSpecifier(source: string): string | undefined {
  for (const [name, target] of Object.entries(IMPORTS)) {
    if (name.endsWith("/") && source.startsWith(name)) return target + source.slice(name.length);
    if (source === name) return target;
    if (source.startsWith(`${name}/`) && target.startsWith("npm:")) {
      return `${target}${source.slice(name.length)}`;
    }
  }
  return undefined;
}

/** The lazy loader with one literal import per module, so that each becomes a chunk. */
function literalLoader(code: string): string {
  const cases = LAZY_MODULES.map((path) => `    case "${path}": return import("../../${path}");`);
  const replaced = code.replace(
    "return import(new URL(`../../${path}`, import.meta.url).href);",
    `switch (path) {\n${
      cases.join("\n")
    }\n  }\n  throw new Error(\`not a lazy module: \${path}\`);`,
  );
  if (replaced === code) throw new Error("src/cli/lazy.ts: the import line to replace is gone");
  return replaced;
}

const dial: Plugin = {
  name: "dial",
  resolveId(source) {
    if (source.startsWith("node:") || source.startsWith("npm:")) {
      return { id: source, external: true };
    }
    const npm = npmSpecifier(source);
    return npm ? { id: npm, external: true } : null;
  },
  async load(id) {
    const text = await Deno.readTextFile(id);
    if (id.endsWith(".json")) return `export default ${text};`;
    let code = id === `${ROOT}src/cli/lazy.ts` ? literalLoader(text) : text;
    // `import(new URL("./x.ts", import.meta.url).href)` keeps a module out of Deno's start-up
    // graph when running from source; for the bundler it is an ordinary lazy import.
    code = code.replace(
      /import\(\s*new URL\(("\.[^"]+"), import\.meta\.url\)\.href,?\s*\)/g,
      "import($1)",
    );
    return ts.transpileModule(code, {
      fileName: id,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        jsx: ts.JsxEmit.Preserve,
        removeComments: true,
      },
    }).outputText;
  },
  renderDynamicImport() {
    return { left: "import(new URL(", right: ", import.meta.url).href)" };
  },
  resolveImportMeta(property, { moduleId }) {
    // A module's own URL stays its source file's: the UI finds web/dist/ beside it.
    return property === "url" ? JSON.stringify(new URL(`file://${moduleId}`).href) : null;
  },
};

/**
 * @param info rollup's module lookup
 * @returns the modules `dial GET …` runs: `main.ts`'s static imports and the request path's
 *   own lazy imports
 */
function startUpModules(
  info: (
    id: string,
  ) => {
    importedIds: readonly string[];
    dynamicallyImportedIds: readonly string[];
    isExternal: boolean;
  } | null,
): Set<string> {
  const seen = new Set<string>();
  const stack = [MAIN];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const module = seen.has(id) ? null : info(id);
    if (!module || module.isExternal) continue;
    seen.add(id);
    stack.push(...module.importedIds);
    stack.push(
      ...module.dynamicallyImportedIds.filter((d) =>
        START_UP_DYNAMIC.includes(d.slice(ROOT.length))
      ),
    );
  }
  seen.delete(MAIN);
  return seen;
}

/**
 * Builds the CLI.
 *
 * @param outDir the directory to write (emptied first); default `dist/cli/` in the checkout
 * @returns the chunks written
 */
export async function buildCli(outDir = `${ROOT}dist/cli/`): Promise<OutputChunk[]> {
  const bundle = await rollup({ input: { dial: MAIN }, plugins: [dial], onwarn() {} });
  let startUp: Set<string> | undefined;
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const { output } = await bundle.write({
    dir: outDir,
    format: "es",
    chunkFileNames: "[name]-[hash].js",
    manualChunks(id, { getModuleInfo }) {
      startUp ??= startUpModules(getModuleInfo);
      return startUp.has(id) ? "core" : undefined;
    },
  });
  await bundle.close();
  return output.filter((o): o is OutputChunk => o.type === "chunk");
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out-dir");
  const outDir = at >= 0 ? Deno.args[at + 1] : undefined;
  const chunks = await buildCli(
    outDir?.endsWith("/") || outDir === undefined ? outDir : `${outDir}/`,
  );
  const size = chunks.reduce((sum, c) => sum + c.code.length, 0);
  const where = outDir ?? "dist/cli";
  Deno.stderr.writeSync(
    new TextEncoder().encode(
      `${where}/dial.js: ${chunks.length} files, ${(size / 1024).toFixed(0)} KiB\n`,
    ),
  );
}
