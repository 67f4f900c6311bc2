/**
 * Builds the installed form of the CLI (`deno task build`, also run by `deno task install`,
 * `deno task compile` and `deno task bench`): `main.ts` and everything it can load →
 * `dist/cli/`, a folder that runs on its own: no `npm:` or remote import, no path into the
 * checkout, so it runs on an empty `DENO_DIR` without network, from wherever it is copied.
 *
 * - `dial.js` and one `core-*.js` chunk hold everything `dial GET …` runs (parsing, the
 *   request command, the credential step, the transport, the output), so starting dial loads
 *   two files instead of ~45 modules (each module costs Deno a lookup, a cache check and an
 *   instantiation: that, not parsing, was most of dial's start-up over a bare `fetch`); the
 *   core chunk's top-level functions are compiled with it, so Deno's code cache holds their
 *   bytecode (`eagerFunctions`);
 * - what `dial run` and `dial test` load beyond the core (the file runner, its parser,
 *   substitution, the reporters) is one `files-*.js` chunk, compiled with the chunk too;
 * - every other lazily loaded part (GraphQL, WebSocket, SSE, OAuth 2.0, the UI, completions, `-k`,
 *   uploads…) is its own chunk that imports the shared code from `core-*.js`, so there is one
 *   instance of each module (`instanceof DialError` holds across chunks);
 * - the npm packages dial uses are bundled, each into one `npm-<name>-*.js` chunk, from the
 *   files Deno resolved for them (`scripts/build_npm.ts`);
 * - chunks import each other through computed specifiers
 *   (`import(new URL("./x.js", import.meta.url).href)`), so Deno's start-up graph stops at the
 *   two files; the sources' own lazy imports are written in that form too (src/cli/lazy.ts)
 *   and a `resolveDynamicImport` hook turns each into a chunk;
 * - the UI's bundle (`src/ui/web/dist/`, built first when missing or stale) is copied to
 *   `web/dist/`: src/ui/assets.ts looks for it beside its own module, which in the build is a
 *   chunk at the top of the folder.
 *
 * The sources are the truth: `deno task dial` and the tests run `main.ts`; this is a packaging
 * step like `deno compile`.
 *
 * ```sh
 * deno task build                       # → dist/cli/dial.js
 * deno task build --out-dir /tmp/cli    # elsewhere (tests)
 * deno run -A --no-config dist/cli/dial.js GET https://example.com
 * ```
 * @module
 */
import { type OutputChunk, type Plugin, rollup } from "@rollup/wasm-node";
import commonjsPlugin from "@rollup/plugin-commonjs";
import { builtinModules } from "node:module";

// The package's types declare an ES default export that Deno's type check reads as the module.
const commonjs = commonjsPlugin as unknown as (options: {
  include: RegExp;
  ignoreDynamicRequires: boolean;
}) => Plugin;
import ts from "typescript";
import denoJson from "../deno.json" with { type: "json" };
import { NpmPackages } from "./build_npm.ts";
import { bundleIsStale, bundleUi } from "./bundle_ui.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;
/** Lazy modules (registry entries) on the `dial GET` path: bundled into the start-up chunk. */
const START_UP_DYNAMIC = ["src/cli/request_run.ts", "src/http/client.ts"];
/**
 * What `--oauth2` with a cached token loads (its flags, the cache lookup), one chunk: a chunk
 * per module would cost a file each. Modules that import npm packages (the token request,
 * the login) stay out, loaded only when a token must be fetched.
 */
const OAUTH2_CACHED = ["src/cli/oauth2_flags.ts", "src/auth/oauth2/access_token.ts"];
/**
 * What `dial run` and `dial test` load beyond the core (the file runner, its parser, the
 * substitution, the reporters), one chunk: as a chunk per module they were ~20 files loaded one
 * after another before a file's first request. npm packages stay chunks of their own.
 */
const FILE_RUN = ["src/cli/test_files.ts", "src/cli/run_files.ts"];
/**
 * The modules that read files beside their own URL (`new URL("x", import.meta.url)`), and the
 * files they read, relative to the module. In the build a module's URL is its chunk's, at the
 * top of the output folder, so the build copies the files there at the same relative paths.
 * Such a module may also use `import.meta.resolve` (left as it is: a bare specifier fails to
 * resolve in the build, which has no import map). Any other use of `import.meta` fails the
 * build. A module is a path from the project root, or `npm:<package>/<path in the package>`.
 */
export const FILES_BESIDE: ReadonlyArray<{ module: string; files: readonly string[] }> = [
  // The UI's bundle, built when missing or stale.
  {
    module: "src/ui/assets.ts",
    files: [
      "web/dist/app.js",
      "web/dist/app.css",
      "web/dist/json_worker.js",
      "web/dist/boot.js",
    ],
  },
  // QuickJS, the sandbox of request files' scripts: its Emscripten loader names the .wasm, which
  // the sandbox reads beside itself in the build (from the package through the import map when
  // run from the sources) and compiles once per process.
  {
    module: "npm:@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.mjs",
    files: ["emscripten-module.wasm"],
  },
  { module: "src/files/script_sandbox.ts", files: [] },
];

/** Rollup's view of an ESTree node, as `resolveDynamicImport` gets a computed specifier. */
type Node = { type: string; [key: string]: unknown };

/**
 * @param node a dynamic import's argument
 * @returns the literal of `new URL("<literal>", import.meta.url).href`, the one computed
 *   import the build resolves
 */
function urlLiteral(node: Node): string | undefined {
  const member = node.type === "MemberExpression" ? node : undefined;
  const property = member?.property as Node | undefined;
  const url = member?.object as Node | undefined;
  if (property?.name !== "href" || url?.type !== "NewExpression") return undefined;
  if ((url.callee as Node).name !== "URL") return undefined;
  const [literal, base] = url.arguments as Node[];
  const meta = base?.object as Node | undefined;
  if (literal?.type !== "Literal" || typeof literal.value !== "string") return undefined;
  if (base?.type !== "MemberExpression" || meta?.type !== "MetaProperty") return undefined;
  return (base.property as Node).name === "url" ? literal.value : undefined;
}

/**
 * @param npm the npm packages
 * @param beside the modules of {@link FILES_BESIDE}, by their file
 * @returns the build's Rollup plugin
 */
function dialPlugin(npm: NpmPackages, beside: Map<string, readonly string[]>): Plugin {
  return {
    name: "dial",
    resolveId(source, importer) {
      if (source.startsWith("node:")) return { id: source, external: true };
      // CommonJS packages require Node's modules by their bare names ("fs").
      if (builtinModules.includes(source)) return { id: `node:${source}`, external: true };
      return npm.resolve(source, importer) ?? null;
    },
    resolveDynamicImport(specifier, importer) {
      if (typeof specifier === "string") return null;
      const literal = urlLiteral(specifier as unknown as Node);
      if (literal === undefined || !literal.startsWith(".")) {
        // A chunk would import a path that is not beside it: refuse rather than ship it.
        throw new Error(`${importer}: a computed import the build cannot turn into a chunk`);
      }
      return { id: new URL(literal, `file://${importer}`).pathname };
    },
    async load(id) {
      // Modules of other plugins (CommonJS's proxies and helpers).
      if (id.startsWith("\0")) return null;
      // JSON modules, dial's and the packages' (protobufjs requires its descriptor.json).
      if (id.endsWith(".json")) return `export default ${await Deno.readTextFile(id)};`;
      if (npm.packageOf(id) !== undefined) return null;
      const text = await Deno.readTextFile(id);
      return ts.transpileModule(text, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          jsx: ts.JsxEmit.Preserve,
          removeComments: true,
        },
      }).outputText;
    },
    renderChunk(code, chunk) {
      return chunk.name === "core" || chunk.name === "files"
        ? { code: eagerFunctions(code), map: null }
        : null;
    },
    renderDynamicImport() {
      return { left: "import(new URL(", right: ", import.meta.url).href)" };
    },
    resolveImportMeta(property, { moduleId }) {
      if ((property === "url" || property === "resolve") && beside.has(moduleId)) return null;
      // A module's URL is its chunk's: a path from it that the build did not copy is broken.
      throw new Error(
        `${moduleId} uses import.meta.${property}: in the build that is its chunk's; if it ` +
          "reads files beside itself, list it and them in FILES_BESIDE (scripts/build_cli.ts)",
      );
    },
  };
}

/**
 * Makes V8 compile a chunk's functions with the chunk, so Deno's code cache (made when a module
 * is compiled, before it runs) holds their bytecode. V8 compiles a function lazily, on its first
 * call, unless it is a parenthesised function expression (and then it also compiles the
 * parenthesised function expressions inside it); a function that runs on every `dial GET` was
 * parsed and compiled again on every run.
 *
 * - Top-level declarations (~210 run on a GET: ~3 ms of CPU, the larger part of dial's start-up
 *   over a bare `fetch` script then): each `function f() {}` becomes `f = (function f() {})` in
 *   one `var` before the chunk's other statements (after its imports), so every function exists
 *   before any top-level code runs, as a hoisted declaration does, and keeps its name.
 * - Inside them ({@link eagerInner}): arrow functions and function expressions (~90 ran
 *   lazily on a GET: ~2 ms of CPU, V8's `--log-function-events`).
 *
 * Methods and functions declared inside functions stay lazy. Only the core chunk and the files
 * chunk (`dial run`, `dial test`): other chunks' functions mostly stay unused in a run, and a
 * compiled function costs code-cache bytes to read.
 *
 * @param code a chunk as Rollup renders it
 * @returns the same module with its functions compiled eagerly
 */
export function eagerFunctions(chunk: string): string {
  const code = eagerInner(chunk);
  const file = parseChunk(code);
  const head = file.statements.findLast(ts.isImportDeclaration)?.end ?? 0;
  const functions: string[] = [];
  let rest = code.slice(0, head);
  let at = head;
  for (const statement of file.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body) continue;
    if (
      statement.pos < head ||
      statement.modifiers?.some((m) => m.kind !== ts.SyntaxKind.AsyncKeyword)
    ) {
      continue;
    }
    const start = statement.getStart(file);
    functions.push(`${statement.name.text} = (${code.slice(start, statement.end)})`);
    rest += code.slice(at, start);
    at = statement.end;
  }
  if (functions.length === 0) return code;
  rest += code.slice(at);
  return `${rest.slice(0, head)}\nvar ${functions.join(",\n")};\n${rest.slice(head)}`;
}

/** @returns a chunk's syntax tree (with parents set: positions of nested nodes are read) */
function parseChunk(code: string): ts.SourceFile {
  return ts.createSourceFile("chunk.js", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
}

/** One text edit of {@link eagerInner}: at `at`, `cut` characters replaced by `text`. */
type Edit = { at: number; cut: number; text: string; order: number };

/**
 * Makes a chunk's function expressions parenthesised, and its arrow functions parenthesised
 * function expressions, so V8 compiles them with the function around them (see
 * {@link eagerFunctions}). An arrow function that reads `this`, `arguments`, `super` or
 * `new.target`, contains a class, or has a function in its parameters stays as it is: a function
 * expression would not mean the same.
 *
 * @param code a chunk
 * @returns the same chunk with its inner functions compiled eagerly
 */
export function eagerInner(code: string): string {
  const file = parseChunk(code);
  const edits: Edit[] = [];
  // At one place, closing text of deeper functions first, opening text of outer ones first.
  const open = (at: number, cut: number, text: string, depth: number) =>
    edits.push({ at, cut, text, order: depth });
  const close = (at: number, text: string, depth: number) =>
    edits.push({ at, cut: 0, text, order: -1_000_000 - depth });
  const visit = (node: ts.Node, depth: number): void => {
    if (ts.isFunctionExpression(node) && !ts.isParenthesizedExpression(node.parent)) {
      open(node.getStart(file), 0, "(", 2 * depth);
      close(node.end, ")", 2 * depth);
    } else if (ts.isArrowFunction(node) && lexicallyFree(node)) {
      const start = node.getStart(file);
      const arrow = node.equalsGreaterThanToken;
      const async = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
      const head = code.slice(start, arrow.getStart(file)).replace(/^async\b/, "").trim();
      const params = head.startsWith("(") ? head : `(${head})`;
      open(start, arrow.end - start, `(${async ? "async " : ""}function ${params}`, 2 * depth);
      if (!ts.isBlock(node.body)) {
        open(node.body.getStart(file), 0, "{ return ", 2 * depth + 1);
        close(node.body.end, "; }", 2 * depth + 1);
      }
      close(node.end, ")", 2 * depth);
    }
    ts.forEachChild(node, (child) => visit(child, depth + 1));
  };
  visit(file, 0);
  edits.sort((a, b) => a.at - b.at || a.order - b.order);
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += code.slice(at, edit.at) + edit.text;
    at = edit.at + edit.cut;
  }
  return out + code.slice(at);
}

/**
 * @param arrow an arrow function
 * @returns whether a function expression with its parameters and body means the same: it reads
 *   no `this`, `arguments`, `super` or `new.target` of the function around it, and it has no
 *   class inside and no function in its parameters (their text is rewritten whole)
 */
export function lexicallyFree(arrow: ts.ArrowFunction): boolean {
  const inParameters = arrow.parameters.some(function hasFunction(node: ts.Node): boolean {
    return ts.isFunctionLike(node) || ts.forEachChild(node, hasFunction) === true;
  });
  if (inParameters) return false;
  const free = (node: ts.Node): boolean => {
    if (
      node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.SuperKeyword ||
      ts.isMetaProperty(node) || ts.isClassLike(node) ||
      (ts.isIdentifier(node) && node.text === "arguments")
    ) {
      return false;
    }
    // A function of its own (not an arrow) has its own `this` and `arguments`.
    if (ts.isFunctionLike(node) && !ts.isArrowFunction(node)) return true;
    return ts.forEachChild(node, (child) => free(child) ? undefined : true) !== true;
  };
  return free(arrow);
}

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

/**
 * Builds the CLI.
 *
 * @param outDir the directory to write (emptied first); default `dist/cli/` in the checkout
 * @returns the chunks written and the other files copied, relative to `outDir`
 */
export async function buildCli(
  outDir = `${ROOT}dist/cli/`,
): Promise<{ chunks: OutputChunk[]; files: string[] }> {
  if (await bundleIsStale()) await bundleUi();
  const npm = await NpmPackages.resolve(denoJson.imports);
  const beside = new Map(FILES_BESIDE.map(({ module, files }) => [npm.file(module, ROOT), files]));
  const bundle = await rollup({
    input: { dial: MAIN },
    // CommonJS packages (protobufjs, for `dial grpc --proto`) become ES modules.
    plugins: [
      dialPlugin(npm, beside),
      commonjs({ include: /registry\.npmjs\.org/, ignoreDynamicRequires: true }),
    ],
    onwarn() {},
  });
  const built = new Set(bundle.cache?.modules.map((m) => m.id));
  let groups: { core: Set<string>; oauth2: Set<string>; files: Set<string> } | undefined;
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const { output } = await bundle.write({
    dir: outDir,
    format: "es",
    chunkFileNames: "[name]-[hash].js",
    manualChunks(id, { getModuleInfo }) {
      const pkg = npm.packageOf(id);
      if (pkg !== undefined) return `npm-${pkg.replace("@", "").replace("/", "-")}`;
      if (!groups) {
        const core = reachable(getModuleInfo, [MAIN], START_UP_DYNAMIC);
        core.delete(MAIN);
        const oauth2 = reachable(getModuleInfo, OAUTH2_CACHED.map((p) => ROOT + p));
        const importsNpm = (m: string) =>
          getModuleInfo(m)?.importedIds.some((i) => npm.packageOf(i));
        for (const m of oauth2) if (core.has(m) || importsNpm(m)) oauth2.delete(m);
        const files = reachable(getModuleInfo, FILE_RUN.map((p) => ROOT + p));
        for (const m of files) if (core.has(m) || oauth2.has(m)) files.delete(m);
        groups = { core, oauth2, files };
      }
      if (groups.core.has(id)) return "core";
      if (groups.oauth2.has(id)) return "oauth2";
      return groups.files.has(id) ? "files" : undefined;
    },
  });
  await bundle.close();
  const files: string[] = [];
  for (const [module, names] of beside) {
    if (!built.has(module)) throw new Error(`FILES_BESIDE: ${module} is not part of the build`);
    for (const name of names) {
      const to = `${outDir}${name}`;
      await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
      await Deno.copyFile(new URL(name, `file://${module}`), to);
      files.push(name);
    }
  }
  return { chunks: output.filter((o): o is OutputChunk => o.type === "chunk"), files };
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out-dir");
  const outDir = at >= 0 ? Deno.args[at + 1] : undefined;
  const { chunks, files } = await buildCli(
    outDir?.endsWith("/") || outDir === undefined ? outDir : `${outDir}/`,
  );
  const size = chunks.reduce((sum, c) => sum + c.code.length, 0);
  const where = outDir ?? "dist/cli";
  Deno.stderr.writeSync(
    new TextEncoder().encode(
      `${where}/dial.js: ${chunks.length} chunks, ${(size / 1024).toFixed(0)} KiB; ` +
        `${files.join(", ")}\n`,
    ),
  );
}
