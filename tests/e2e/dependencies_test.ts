/**
 * The root `deno.json` and `deno.lock` hold only the npm packages dial runs: Deno installs every
 * package of a lockfile once a run resolves one, so a test-only or build-only package there would
 * be downloaded by the first `dial graphql` on a fresh Deno cache. Tests, benches and the
 * Chromium scripts use `tests/deno.json`; the frontend build uses `src/ui/web/deno.json`, the CLI
 * build (`deno task build`, `deno task install`) `scripts/build/deno.json`.
 */
import assert from "node:assert/strict";
import { dialEnv, firstLine, serve } from "../_helpers.ts";
import { importEdges } from "./_import_graph.ts";
import { configFor, sourceFiles } from "../../scripts/check_types.ts";

const ROOT = new URL("../../", import.meta.url);
const MAIN = new URL("main.ts", ROOT).pathname;

interface Config {
  imports: Record<string, string>;
}
interface FullConfig extends Config {
  fmt: { lineWidth: number };
  lint: { rules: unknown };
  compilerOptions: Record<string, unknown>;
}
interface Lock {
  specifiers: Record<string, string>;
  npm: Record<
    string,
    { dependencies?: string[]; optionalDependencies?: string[] }
  >;
  workspace: { dependencies: string[] };
}

const readJson = async <T>(path: string): Promise<T> =>
  JSON.parse(await Deno.readTextFile(new URL(path, ROOT)));

/** `npm:graphql@16.15.0`, `npm:/meros@1.3.2/browser`, `npm:@a/b@1` → the package name. */
function packageName(specifier: string): string {
  const match = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)@/.exec(specifier);
  assert.ok(match, `not an npm specifier with a version: ${specifier}`);
  return match[1]!;
}

/**
 * The lockfile's package keys (`name@version[_peers]`) reachable from some of its specifiers.
 *
 * @param lock the lockfile
 * @param names the packages to start from (default: every specifier)
 * @returns the keys
 */
function lockClosure(lock: Lock, names?: Set<string>): Set<string> {
  const byName = (dep: string) => {
    if (dep in lock.npm) return dep;
    const keys = Object.keys(lock.npm).filter((k) => k.slice(0, k.indexOf("@", 1)) === dep);
    assert.equal(
      keys.length,
      1,
      `${dep} names ${keys.length} lockfile entries`,
    );
    return keys[0]!;
  };
  const reached = new Set<string>();
  const stack = Object.entries(lock.specifiers)
    .filter(([s]) => names?.has(packageName(s)) ?? true)
    .map(([s, v]) => `${packageName(s)}@${v}`);
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (reached.has(key)) continue;
    assert.ok(key in lock.npm, `${key} is missing from the lockfile`);
    reached.add(key);
    const entry = lock.npm[key]!;
    for (
      const dep of [
        ...entry.dependencies ?? [],
        ...entry.optionalDependencies ?? [],
      ]
    ) {
      stack.push(byName(dep));
    }
  }
  return reached;
}

/** The npm packages imported by dial's own modules (every file the root config checks). */
async function runtimePackages(): Promise<Set<string>> {
  const files = (await sourceFiles()).filter((f) => configFor(f) === "deno.json");
  assert.ok(
    files.includes("main.ts") && files.includes("src/graphql/ws_client.ts"),
  );
  assert.ok(
    !files.some((f) => f.startsWith("tests/") || f.startsWith("src/ui/web/")),
  );
  const edges = await importEdges(files.map((f) => new URL(f, ROOT)));
  return new Set(
    edges.filter((e) => e.to.startsWith("npm:")).map((e) => packageName(e.to)),
  );
}

Deno.test("dependencies: the root deno.json imports exactly the npm packages dial's own modules load", async () => {
  const loaded = await runtimePackages();
  const { imports } = await readJson<Config>("deno.json");
  const listed = new Set(Object.values(imports).map(packageName));
  assert.deepEqual([...listed].sort(), [...loaded].sort());
});

Deno.test("dependencies: the root deno.lock holds the root imports and their dependencies, no test or UI package", async () => {
  const { imports } = await readJson<Config>("deno.json");
  const lock = await readJson<Lock>("deno.lock");
  const wanted = Object.values(imports).sort();
  assert.deepEqual([...lock.workspace.dependencies].sort(), wanted);
  assert.deepEqual(Object.keys(lock.specifiers).sort(), wanted);
  assert.deepEqual(Object.keys(lock.npm).sort(), [...lockClosure(lock)].sort());
  // Named too, so a failure says which package crept in.
  const others = [
    ...Object.keys((await readJson<Config>("tests/deno.json")).imports),
    ...Object.keys((await readJson<Config>("src/ui/web/deno.json")).imports),
    ...Object.keys((await readJson<Config>("scripts/build/deno.json")).imports),
  ].filter((name) => !(name in imports));
  assert.ok(others.includes("playwright-core") && others.includes("preact"));
  const crept = Object.keys(lock.npm).filter((key) =>
    others.some((name) => key.startsWith(`${name.replace(/\/$/, "")}@`))
  );
  assert.deepEqual(crept, []);
});

Deno.test("dependencies: tests, the frontend and the CLI build pin shared packages alike, and check, format and lint alike", async () => {
  const root = await readJson<FullConfig>("deno.json");
  const tests = await readJson<FullConfig>("tests/deno.json");
  const web = await readJson<FullConfig>("src/ui/web/deno.json");
  for (const [name, target] of Object.entries(root.imports)) {
    assert.equal(tests.imports[name], target, `tests/deno.json: ${name}`);
    if (name in web.imports) {
      assert.equal(web.imports[name], target, `src/ui/web/deno.json: ${name}`);
    }
  }
  // The CLI build's packages, at the versions the tests build with.
  const build = await readJson<Config>("scripts/build/deno.json");
  for (const [name, target] of Object.entries(build.imports)) {
    assert.equal(tests.imports[name], target, `scripts/build/deno.json: ${name}`);
  }
  // `deno fmt` and `deno lint` given a file use the configuration nearest to it.
  for (const nested of [tests, web]) {
    assert.equal(nested.fmt.lineWidth, root.fmt.lineWidth);
    assert.deepEqual(nested.lint.rules, root.lint.rules);
    for (const [option, value] of Object.entries(root.compilerOptions)) {
      assert.deepEqual(nested.compilerOptions[option], value, option);
    }
  }
});

/**
 * A Deno cache holding only these packages of the shared cache (copied: Deno loads a symlinked
 * package as a plain file).
 *
 * @param keys lockfile keys, `name@version[_peers]`
 * @returns the new DENO_DIR
 */
async function cacheWith(keys: Iterable<string>): Promise<string> {
  const from = `${dialEnv().DENO_DIR}/npm/registry.npmjs.org`;
  const dir = await Deno.makeTempDir({ prefix: "dial-deno-dir-" });
  for (const key of keys) {
    const at = key.indexOf("@", 1);
    const [name, version] = [
      key.slice(0, at),
      key.slice(at + 1).split("_")[0]!,
    ];
    const to = `${dir}/npm/registry.npmjs.org/${name}`;
    await Deno.mkdir(to, { recursive: true });
    // Deno writes a package's registry.json only when it fetched the package's metadata: a
    // package installed from the lockfile alone (on an empty DENO_DIR) has none, and needs none.
    await Deno.copyFile(`${from}/${name}/registry.json`, `${to}/registry.json`).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
    await copyTree(`${from}/${name}/${version}`, `${to}/${version}`);
  }
  return dir;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) {
      await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    } else if (entry.isFile) {
      await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
    }
  }
}

/** `deno run --cached-only main.ts …` on a given Deno cache, from a directory outside the repo. */
function spawnCachedOnly(
  args: string[],
  denoDir: string,
  cwd: string,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--cached-only", MAIN, ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: dialEnv({ DENO_DIR: denoDir }),
  }).spawn();
}

async function runCachedOnly(args: string[], denoDir: string, cwd: string) {
  const output = await spawnCachedOnly(args, denoDir, cwd).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    stdout: text(output.stdout),
    stderr: text(output.stderr),
  };
}

Deno.test("dependencies: with only the packages dial imports in the Deno cache, dial graphql, an OAuth grant and dial ui run from another directory", async () => {
  const keys = lockClosure(
    await readJson<Lock>("deno.lock"),
    await runtimePackages(),
  );
  assert.ok([...keys].some((k) => k.startsWith("graphql@")));
  const denoDir = await cacheWith(keys);
  const cwd = await Deno.makeTempDir();
  await using server = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/token") {
      return Response.json({
        access_token: "t0k",
        token_type: "Bearer",
        expires_in: 60,
      });
    }
    if (path === "/graphql") {
      return Response.json({ data: { __typename: "Query" } });
    }
    return Response.json({
      authorization: request.headers.get("authorization"),
    });
  });
  try {
    const graphql = await runCachedOnly(
      ["graphql", `${server.origin}/graphql`, "-q", "{ __typename }"],
      denoDir,
      cwd,
    );
    assert.equal(graphql.code, 0, graphql.stderr);
    assert.match(graphql.stdout, /"__typename": ?"Query"/);
    const oauth = await runCachedOnly(
      [
        "GET",
        `${server.origin}/`,
        "--oauth2",
        `client_credentials:${server.origin}/token:id:secret`,
      ],
      denoDir,
      cwd,
    );
    assert.equal(oauth.code, 0, oauth.stderr);
    assert.match(oauth.stdout, /"authorization": ?"Bearer t0k"/);
    const ui = spawnCachedOnly(["ui", "--no-open"], denoDir, cwd);
    const stderr = new Response(ui.stderr).text();
    const { line, cancel } = await firstLine(ui.stdout);
    ui.kill("SIGINT");
    const status = await ui.status;
    await cancel();
    assert.match(line, /^http:\/\/127\.0\.0\.1:\d+\/#launch=/, await stderr);
    assert.equal(status.code, 130, await stderr);
  } finally {
    await Deno.remove(denoDir, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});
