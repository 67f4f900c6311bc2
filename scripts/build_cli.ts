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
/**
 * What `--oauth2` with a cached token loads (its flags, the cache lookup), one chunk: a chunk
 * per module would cost a file each. Modules that import npm packages (the token request,
 * the login) stay out, loaded only when a token must be fetched.
 */
const OAUTH2_CACHED = ["src/cli/oauth2_flags.ts", "src/auth/oauth2/access_token.ts"];
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
    if (/import\(\s*new URL\(/.test(code)) {
      // A chunk would import a source path that is not beside it: refuse rather than ship it.
      throw new Error(`${id}: a computed import the build cannot turn into a chunk`);
    }
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

/** Rollup's view of a module, as `manualChunks` gets it. */
type ModuleInfo = {
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
  isExternal: boolean;
} | null;

/**
 * @param info rollup's module lookup
 * @param roots where to start
 * @param follow the literal dynamic imports to follow, from the project root
 * @returns the local modules the roots import statically, and through `follow`
 */
function reachable(
  info: (id: string) => ModuleInfo,
  roots: string[],
  follow: string[] = [],
): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const module = seen.has(id) ? null : info(id);
    if (!module || module.isExternal) continue;
    seen.add(id);
    stack.push(...module.importedIds);
    stack.push(
      ...module.dynamicallyImportedIds.filter((d) => follow.includes(d.slice(ROOT.length))),
    );
  }
  return seen;
}

/** @returns whether a module imports an npm package itself */
function importsNpm(info: (id: string) => ModuleInfo, id: string): boolean {
  return info(id)?.importedIds.some((i) => i.startsWith("npm:")) ?? false;
}

/**
 * Builds the CLI.
 *
 * @param outDir the directory to write (emptied first); default `dist/cli/` in the checkout
 * @returns the chunks written
 */
export async function buildCli(outDir = `${ROOT}dist/cli/`): Promise<OutputChunk[]> {
  const bundle = await rollup({ input: { dial: MAIN }, plugins: [dial], onwarn() {} });
  let groups: { core: Set<string>; oauth2: Set<string> } | undefined;
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const { output } = await bundle.write({
    dir: outDir,
    format: "es",
    chunkFileNames: "[name]-[hash].js",
    manualChunks(id, { getModuleInfo }) {
      if (!groups) {
        const core = reachable(getModuleInfo, [MAIN], START_UP_DYNAMIC);
        core.delete(MAIN);
        const oauth2 = reachable(getModuleInfo, OAUTH2_CACHED.map((p) => ROOT + p));
        for (const m of oauth2) if (core.has(m) || importsNpm(getModuleInfo, m)) oauth2.delete(m);
        groups = { core, oauth2 };
      }
      if (groups.core.has(id)) return "core";
      return groups.oauth2.has(id) ? "oauth2" : undefined;
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
