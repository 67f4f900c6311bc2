import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { finish, type ProgramResult } from "../_process.ts";
import { importEdges, reachable, staticModules } from "./_import_graph.ts";
import { spawnDial } from "./_spawn.ts";

const MAIN = new URL("../../main.ts", import.meta.url);

/** Modules a file loads before it runs: static imports only, types erased. */
function startupModules(root = MAIN): Promise<string[]> {
  return staticModules(root);
}

/**
 * Where the modules `main.ts` loads before it runs may live: the command declarations and the
 * parser (`src/cli/*.ts`, not its subfolders), the request's path (`src/http/`, `src/output/`,
 * the credential step's small modules `src/auth/*.ts`), the error table (`src/errors/`) and the
 * small shared modules at the top of `src/`. A new folder on this path is a decision: add it
 * here with its reason. Everything else (GraphQL, the UI, streams, request files, import and
 * export, OAuth 2.0 but its defaults, completions) loads when its command runs.
 */
const START_UP_PLACES: readonly RegExp[] = [
  /^main\.ts$/,
  /^deno\.json$/,
  /^src\/[a-z0-9_]+\.ts$/,
  /^src\/cli\/[a-z0-9_]+\.ts$/,
  /^src\/(http|output|errors)\/[a-z0-9_]+\.ts$/,
  /^src\/auth\/[a-z0-9_]+\.ts$/,
  /^src\/auth\/oauth2\/defaults\.ts$/,
];

/**
 * The modules loaded through a computed specifier (`import(new URL("./x.ts", import.meta.url)
 * .href)`: the entries of src/cli/lazy.ts and the core's own lazy imports), as paths from the
 * repository's root.
 */
async function lazyTargets(): Promise<string[]> {
  const root = new URL("../../", import.meta.url);
  const targets: string[] = [];
  for await (const file of walkTs(new URL("src/", root))) {
    const text = (await Deno.readTextFile(file)).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const [, literal] of text.matchAll(/import\(new URL\("([^"]+)", import\.meta\.url\)/g)) {
      targets.push(new URL(literal!, file).href.replace(root.href, ""));
    }
  }
  return targets.sort();
}

async function* walkTs(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory && entry.name !== "dist") yield* walkTs(url);
    else if (entry.isFile && /\.tsx?$/.test(entry.name)) yield url;
  }
}

Deno.test("startup: dial loads no npm: module, nothing loaded lazily, and only modules of the start-up places up front", async () => {
  const modules = await startupModules();
  assert.ok(modules.includes("src/cli/request.ts"), modules.join("\n"));
  const npm = modules.filter((m) => m.startsWith("npm:"));
  assert.deepEqual(npm, [], `npm packages imported statically from main.ts: ${npm.join(", ")}`);
  const lazy = await lazyTargets();
  assert.ok(lazy.includes("src/cli/graphql_run.ts"), lazy.join("\n"));
  const eager = modules.filter((m) => lazy.includes(m));
  assert.deepEqual(eager, [], `lazy modules imported statically from main.ts: ${eager.join(", ")}`);
  const elsewhere = modules.filter((m) => !START_UP_PLACES.some((place) => place.test(m)));
  assert.deepEqual(elsewhere, [], `imported statically from main.ts: ${elsewhere.join(", ")}`);
});

Deno.test("startup: no module reaches main.ts's graph through a literal dynamic import (dial GET opens only the start-up modules)", async () => {
  const root = "main.ts";
  const reached = reachable(root, await importEdges([MAIN]));
  const loaded = new Set(await startupModules());
  const extra = [...reached].filter((m) => !loaded.has(m)).sort();
  assert.deepEqual(
    extra,
    [],
    `in Deno's graph of main.ts only through a literal import("…"): load them through src/load.ts or src/cli/lazy.ts: ${
      extra.join(", ")
    }`,
  );
});

Deno.test("lazy: every lazy load is an entry of a registry (src/load.ts, src/cli/lazy.ts)", async () => {
  const root = new URL("../../", import.meta.url);
  const registries = ["src/load.ts", "src/cli/lazy.ts"];
  const startup = new Set(await startupModules());
  const elsewhere: string[] = [];
  for await (const file of walkTs(new URL("src/", root))) {
    const path = file.href.replace(root.href, "");
    if (registries.includes(path) || path.startsWith("src/ui/web/")) continue;
    const text = (await Deno.readTextFile(file)).replace(/\/\*[\s\S]*?\*\//g, "");
    if (/import\(\s*new URL\(/.test(text)) elsewhere.push(path);
    // A literal import("./x.ts") stays only for a module of the start-up graph (a cycle broken).
    for (
      const [, literal] of text.matchAll(/(?<!typeof )\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)(?!\.)/g)
    ) {
      const target = new URL(literal!, file).href.replace(root.href, "");
      if (!startup.has(target)) elsewhere.push(`${path} → ${target}`);
    }
  }
  assert.deepEqual(elsewhere, [], `lazy loads outside the registries: ${elsewhere.join(", ")}`);
});

/** Runs main.ts with Deno's npm resolution switched off: any `npm:` import fails the run. */
async function dialWithoutNpm(args: string[]): Promise<ProgramResult> {
  return await finish(spawnDial(args, { denoFlags: ["--no-npm"], stdin: "null" }), undefined);
}

Deno.test("startup: dial GET and dial --version run with npm resolution switched off", async () => {
  await using server = serve(() => Response.json({ ok: true }));
  const get = await dialWithoutNpm(["GET", `${server.origin}/`]);
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /"ok": ?true/);
  assert.equal(server.requests.length, 1);
  const version = await dialWithoutNpm(["--version"]);
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  // The check can fail: a command that does load an npm package stops before it sends (and
  // sends when npm resolution is on).
  const args = ["graphql", `${server.origin}/`, "-q", "{ a }"];
  const graphql = await dialWithoutNpm(args);
  assert.notEqual(graphql.code, 0);
  assert.equal(server.requests.length, 1);
  await dial(args);
  assert.equal(server.requests.length, 2);
});

Deno.test("startup: a cached OAuth 2.0 token is used without loading the OAuth library", async () => {
  const modules = await startupModules(
    new URL("../../src/auth/oauth2/access_token.ts", import.meta.url),
  );
  const npm = modules.filter((m) => m.startsWith("npm:"));
  assert.deepEqual(npm, [], `loaded with the token cache: ${npm.join(", ")}`);
  // Deno also resolves the npm packages of literal dynamic imports when a module loads (about
  // 10 ms): the token request is imported through a computed specifier, out of this graph.
  const root = "src/auth/oauth2/access_token.ts";
  const reached = reachable(root, await importEdges([new URL(`../../${root}`, import.meta.url)]));
  const resolved = [...reached].filter((m) => m.startsWith("npm:"));
  assert.deepEqual(resolved, [], `resolved when the token cache loads: ${resolved.join(", ")}`);
});

Deno.test("canary: Deno still resolves the npm package of a literal dynamic import that never runs (why src/cli/lazy.ts computes its specifiers)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-canary-" });
  await Deno.writeTextFile(
    `${dir}/main.js`,
    'if (Deno.args[0] === "load") await import("./lazy.js");\n',
  );
  await Deno.writeTextFile(`${dir}/lazy.js`, 'import "npm:dial-canary-unpublished@1.0.0";\n');
  await using registry = serve(() => new Response("not found", { status: 404 }));
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", `${dir}/main.js`],
      stdout: "null",
      stderr: "piped",
      clearEnv: true,
      env: { DENO_DIR: `${dir}/deno`, NPM_CONFIG_REGISTRY: `${registry.origin}/`, NO_COLOR: "1" },
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const asked = registry.requests.some((r) => r.url.includes("dial-canary-unpublished"));
    // When this fails, Deno resolves dynamic imports only when they run: the entries of
    // src/cli/lazy.ts (and the build's resolveDynamicImport hook) can become literal imports.
    assert.ok(asked, "Deno no longer resolves a literal dynamic import that does not run");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
