/**
 * The built CLI (`deno task build`) as `deno task install` installs it, proven self-contained:
 * every chunk imports only files of the build (and Node's built-ins), no chunk names the
 * checkout, `dial GET` starts from two files, and the installed `dial` runs every command on
 * an empty `DENO_DIR` with every download refused, printing no `Download` line and leaving no
 * package in the cache: against real servers on loopback with HTTPS_PROXY and the npm
 * registry pointing at a closed port (Deno downloads only over HTTPS, or from that registry),
 * and in a network namespace of its own (`unshare -rn`, loopback only, nothing listening).
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { firstLine, serve } from "../_helpers.ts";
import { eagerFunctions, eagerInner, lexicallyFree } from "../../scripts/build_cli.ts";
import ts from "typescript";
import { builtCli, installedDial } from "./_built.ts";
import { deferServer, subscriptionServer } from "./_graphql_servers.ts";
import { GREETER_PROTOS, startGreeter } from "./_grpc.ts";
import { startMockServer } from "./_oauth_servers.ts";
import { oneGetSpec } from "./_openapi_pets.ts";
import { unusedPort } from "../_ports.ts";

const CHECKOUT = new URL("../../", import.meta.url).pathname;
const decoder = new TextDecoder();

/** @returns the modules of a file's graph, as `deno info --json --no-config` lists them */
async function graph(file: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, decoder.decode(output.stderr));
  const info = JSON.parse(decoder.decode(output.stdout));
  return info.modules.map((m: { specifier: string }) => m.specifier);
}

Deno.test("built CLI: every chunk imports only files of the build and Node built-ins", async () => {
  const { dir, files } = await builtCli();
  const chunks = files.filter((f) => f.endsWith(".js") && !f.startsWith("web/"));
  assert.ok(chunks.some((c) => c.startsWith("npm-graphql-")), chunks.join(" "));
  const foreign: string[] = [];
  for (const chunk of chunks) {
    for (const module of await graph(`${dir}/${chunk}`)) {
      if (!module.startsWith(`file://${dir}/`) && !module.startsWith("node:")) {
        foreign.push(`${chunk} -> ${module}`);
      }
    }
    const text = await Deno.readTextFile(`${dir}/${chunk}`);
    if (text.includes(CHECKOUT)) foreign.push(`${chunk} names the checkout ${CHECKOUT}`);
    if (/\bfrom\s*["']npm:|import\(\s*["']npm:/.test(text)) foreign.push(`${chunk}: npm: import`);
  }
  assert.deepEqual(foreign, []);
  assert.deepEqual(files.filter((f) => f.startsWith("web/")).sort(), [
    "web/dist/app.css",
    "web/dist/app.js",
    "web/dist/boot.js",
    "web/dist/json_worker.js",
  ]);
});

Deno.test("built CLI: each entry of the lazy registries (src/load.ts, src/cli/lazy.ts) is in a chunk the build's hook loads, never in the start-up file", async () => {
  const { modules } = await builtCli();
  const entries: string[] = [];
  for (const registry of ["../../src/load.ts", "../../src/cli/lazy.ts"]) {
    const url = new URL(registry, import.meta.url);
    const text = (await Deno.readTextFile(url)).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const [, path] of text.matchAll(/import\(new URL\("([^"]+)", import\.meta\.url\)/g)) {
      entries.push(new URL(path!, url).pathname);
    }
  }
  assert.ok(entries.some((e) => e.endsWith("/src/cli/graphql_run.ts")), entries.join(" "));
  assert.ok(entries.some((e) => e.endsWith("/src/http/h2.ts")), entries.join(" "));
  const chunkOf = (entry: string) =>
    [...modules].find(([, ids]) => ids.includes(entry))?.[0] ?? "(none)";
  const misplaced = entries.filter((e) => chunkOf(e) === "(none)" || chunkOf(e) === "dial.js");
  assert.deepEqual(misplaced.map((e) => `${e}: ${chunkOf(e)}`), []);
  // Most are a chunk of their own; the build groups a few (the start-up request path, --oauth2).
  const own = entries.filter((e) =>
    chunkOf(e).startsWith(`${e.slice(e.lastIndexOf("/") + 1, -3)}-`)
  );
  assert.ok(
    own.length > entries.length / 2,
    `${own.length} of ${entries.length} in chunks of their own`,
  );
});

Deno.test("built CLI: dial GET starts from two files", async () => {
  const { dir } = await builtCli();
  const modules = await graph(`${dir}/dial.js`);
  assert.equal(modules.length, 2, modules.join("\n"));
});

Deno.test("built CLI: eagerFunctions keeps what a hoisted declaration is (callable before its line, its name, async and generator functions, exports)", async () => {
  const source = [
    'import { strict } from "node:assert";',
    "export const early = [late(2), named.name, typeof gen];",
    "function late(x) { return x * 21; }",
    "async function named() { return late(1); }",
    "function* gen() { yield 1; }",
    "class Keep { m() { return late(3); } }",
    "export { named, gen, Keep, strict };",
  ].join("\n");
  const code = eagerFunctions(source);
  assert.match(code, /^var late = \(function late\(x\)/m);
  assert.match(code, /^named = \(async function named\(\)/m);
  const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  assert.deepEqual(module.early, [42, "named", "function"]);
  assert.equal(await module.named(), 21);
  assert.deepEqual([...module.gen()], [1]);
  assert.equal(new module.Keep().m(), 63);
  assert.equal(eagerFunctions("const a = 1;\n"), "const a = 1;\n");
});

Deno.test("built CLI: eagerInner turns arrow functions into parenthesised function expressions only where they mean the same (this, arguments, names, async, nesting)", async () => {
  const source = [
    "export const add = (x) => x + 1;",
    "export const twice = async x => { await 0; return x * 2; };",
    "export const curried = [1, 2].map((n) => (m) => n * m);",
    "export const object = { f: () => ({ k: 1 }), g() { return this; }, h: function () { return 3; } };",
    "export function outer() { const t = () => this; const u = () => arguments.length; return [t(), u()]; }",
    "export const defaults = (p = () => 1) => p();",
    "export const classy = () => class { m() { return 7; } };",
    "export const pair = () => (1, 2);",
  ].join("\n");
  const code = eagerInner(source);
  assert.match(code, /^export const add = \(function \(x\) \{ return x \+ 1; \}\);$/m);
  assert.match(code, /^export const twice = \(async function \(x\) \{ await 0;/m);
  assert.match(code, /h: \(function \(\) \{ return 3; \}\)/);
  // Kept as written: they read `this` or `arguments`, hold a class, or a function in parameters.
  assert.match(code, /const t = \(\) => this; const u = \(\) => arguments\.length;/);
  assert.match(code, /classy = \(\) => class/);
  assert.match(code, /defaults = \(p = \(function \(\) \{ return 1; \}\)\) => p\(\)/);
  const module = await import(`data:text/javascript,${encodeURIComponent(eagerFunctions(source))}`);
  assert.equal(module.add(1), 2);
  assert.equal(await module.twice(2), 4);
  assert.equal(module.curried[1](3), 6);
  assert.deepEqual([module.object.f(), module.object.h()], [{ k: 1 }, 3]);
  assert.equal(module.object.g(), module.object);
  assert.deepEqual(module.outer.call("me", 1, 2), ["me", 2]);
  assert.equal(module.defaults(), 1);
  assert.equal(new (module.classy())().m(), 7);
  assert.equal(module.pair(), 2);
  assert.deepEqual([module.add.name, module.twice.name], ["add", "twice"]);
});

Deno.test("canary: Deno's code cache still leaves out a function compiled after its module ran (why eagerFunctions, scripts/build_cli.ts)", async () => {
  const work = await Deno.makeTempDir({ prefix: "dial-code-cache-" });
  try {
    await Deno.writeTextFile(
      `${work}/m.js`,
      "function later(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }\n" +
        "const eager = (function eager(n) { return n + 1; });\n" +
        "Deno.stdout.writeSync(new TextEncoder().encode(`${later(3) + eager(1)}\\n`));\n",
    );
    // The same DENO_DIR twice: the second run reads the code cache the first one wrote.
    const run = async () => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          "--no-config",
          "--v8-flags=--log-function-events,--logfile=v8.log,--no-logfile-per-isolate",
          "m.js",
        ],
        cwd: work,
        env: { DENO_DIR: `${work}/deno` },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(decoder.decode(output.stdout), "5\n", decoder.decode(output.stderr));
      const log = (await Deno.readTextFile(`${work}/v8.log`)).split("\n").map((l) => l.split(","));
      const script = log.find((f) => f[0] === "script-details" && f[2]?.endsWith("/m.js"))?.[1];
      const named = (event: string) =>
        log.filter((f) => f[1] === event && f[2] === script).map((f) => f[7]);
      return { deserialized: named("deserialize").length > 0, lazy: named("parse-function") };
    };
    await run();
    const cached = await run();
    assert.ok(cached.deserialized, "the second run did not read the code cache");
    // When this fails, Deno caches what ran after the module was compiled: eagerFunctions can go.
    assert.deepEqual(cached.lazy, ["later"]);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("built CLI: V8 compiles the core chunk's functions with the chunk, so a dial GET compiles none of them lazily (they are in Deno's code cache)", async () => {
  await using server = serve(() => Response.json({ ok: true }));
  const { dir, files } = await builtCli();
  const core = files.find((name) => name.startsWith("core-"))!;
  // The functions `eagerFunctions` (scripts/build_cli.ts) turned into parenthesised expressions.
  const code = await Deno.readTextFile(`${dir}/${core}`);
  // By where V8's log puts them: the "(" of their parameters.
  const eager = new Map(
    [...code.matchAll(/^(?:var )?(\w+) = \((?:async )?function\*? \1\(/gm)]
      .map((m) => [m.index + m[0].length - 1, m[1]!]),
  );
  const names = new Set(eager.values());
  for (const name of ["parseArgv", "connectOnce", "exchangeH1", "printResponse"]) {
    assert.ok(names.has(name), `${name} is not compiled eagerly`);
  }
  const work = await Deno.makeTempDir({ prefix: "dial-v8-log-" });
  try {
    // A fresh DENO_DIR: no code cache, so every compile of the run is in V8's log.
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        "--no-config",
        "--v8-flags=--log-function-events,--logfile=v8.log,--no-logfile-per-isolate",
        `${dir}/dial.js`,
        "GET",
        `${server.origin}/`,
      ],
      cwd: work,
      env: { DENO_DIR: `${work}/deno` },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, decoder.decode(output.stderr));
    assert.deepEqual(JSON.parse(decoder.decode(output.stdout)), { ok: true });
    const log = (await Deno.readTextFile(`${work}/v8.log`)).split("\n").map((l) => l.split(","));
    const script = log.find((f) => f[0] === "script-details" && f[2]?.endsWith(core))?.[1];
    const events = (event: string) =>
      log.filter((f) => f[1] === event && f[2] === script).map((f) => Number(f[3]));
    // V8 made their bytecode with the chunk, and compiled none of them lazily ("parse-function").
    const compiled = new Set(events("interpreter").map((at) => eager.get(at)));
    assert.ok(
      compiled.has("connectOnce") && compiled.has("parseArgv"),
      "no eager function compiled",
    );
    const lazy = events("parse-function");
    assert.deepEqual(lazy.filter((at) => eager.has(at)).map((at) => eager.get(at)), []);
    assert.ok(lazy.length > 0, "no lazy compile seen at all (methods stay lazy): is the log read?");
    // Nor a function expression or arrow function inside them (eagerInner): what V8 still
    // compiled lazily is a method, a constructor, a function declared inside a function or an
    // arrow function that reads `this` (left as it is).
    const file = ts.createSourceFile(core, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
    const expressions: string[] = [];
    const visit = (node: ts.Node): void => {
      const at = (node as ts.FunctionLikeDeclaration).parameters?.pos;
      const rewritten = ts.isFunctionExpression(node) ||
        (ts.isArrowFunction(node) && lexicallyFree(node));
      if (rewritten && lazy.includes(at - 1)) {
        expressions.push(code.slice(node.getStart(file), node.getStart(file) + 80));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    assert.deepEqual(expressions, []);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

/** iproute2's `ip`, to bring up loopback in a network namespace. */
const IP = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/** Whether util-linux `unshare` can give a child a network namespace of its own here. */
const canUnshare = IP !== undefined && await new Deno.Command("unshare", {
  args: ["-rn", IP, "link", "set", "lo", "up"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);

/** The files Deno downloaded into a cache: npm packages and remote modules. */
async function downloads(denoDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const sub of ["npm", "remote"]) {
    try {
      for await (const entry of Deno.readDir(`${denoDir}/${sub}`)) {
        found.push(`${sub}/${entry.name}`);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return found;
}

/** An installed dial started offline: the child, and the check to run once it has ended. */
async function startOffline(
  args: string[],
  options: { home?: string; stdin?: boolean; netns?: boolean } = {},
): Promise<{ child: Deno.ChildProcess; denoDir: string }> {
  const denoDir = await Deno.makeTempDir({ prefix: "dial-empty-deno-dir-" });
  const home = options.home ?? await Deno.makeTempDir({ prefix: "dial-home-" });
  const refused = `http://127.0.0.1:${unusedPort()}`;
  const denoBin = Deno.execPath().replace(/\/[^/]+$/, "");
  const dial = await installedDial();
  // A network namespace of its own: loopback (brought up, with nothing listening) and no route.
  const command = options.netns ? "unshare" : dial;
  const inNamespace = ["-rn", "sh", "-c", `${IP} link set lo up && exec "$@"`, "sh", dial];
  const child = new Deno.Command(command, {
    args: options.netns ? [...inNamespace, ...args] : args,
    cwd: home,
    clearEnv: true,
    env: {
      PATH: `${denoBin}:/usr/bin:/bin`,
      HOME: home,
      XDG_CACHE_HOME: `${home}/.cache`,
      XDG_CONFIG_HOME: `${home}/.config`,
      DENO_DIR: denoDir,
      NO_COLOR: "1",
      HTTPS_PROXY: refused,
      NPM_CONFIG_REGISTRY: `${refused}/`,
    },
    stdin: options.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return { child, denoDir };
}

/** Asserts that a run downloaded nothing. */
async function assertNothingDownloaded(denoDir: string, stderr: string): Promise<void> {
  assert.doesNotMatch(stderr, /Download|npm|Failed loading/);
  assert.deepEqual(await downloads(denoDir), []);
  await Deno.remove(denoDir, { recursive: true });
}

/** Runs the installed dial offline to the end. */
async function offline(
  args: string[],
  options: { home?: string; stdin?: string; netns?: boolean } = {},
) {
  const { child, denoDir } = await startOffline(args, {
    ...options,
    stdin: options.stdin !== undefined,
  });
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const result = {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
  await assertNothingDownloaded(denoDir, result.stderr);
  return result;
}

Deno.test("installed offline: requests, -v with a redacted credential, usage errors, --version", async () => {
  await using server = serve((request) =>
    Response.json({ method: request.method, auth: request.headers.get("authorization") })
  );
  const get = await offline(["GET", `${server.origin}/x`, "-v", "-B", "tok"]);
  assert.equal(get.code, 0, get.stderr);
  assert.deepEqual(JSON.parse(get.stdout), { method: "GET", auth: "Bearer tok" });
  assert.match(get.stderr, /\nauthorization: \(redacted\)\n/i);
  const post = await offline(["POST", `${server.origin}/x`, "--json", '{"a":1}']);
  assert.equal(JSON.parse(post.stdout).method, "POST");
  const usage = await offline(["GET", `${server.origin}/x`, "--bogus"]);
  assert.equal(usage.code, 2);
  includes(usage.stderr, "--bogus");
  assert.match((await offline(["--version"])).stdout, /^\d+\.\d+\.\d+\n$/);
});

Deno.test("installed offline: dial graphql (graphql-js, graphql-ws bundled) and its errors' exit codes", async () => {
  await using server = await deferServer({ kind: "none" });
  const ok = await offline(["graphql", `${server.origin}/graphql`, "-q", "{ fast numbers }"]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), { data: { fast: "now", numbers: [1, 2, 3] } });
  const invalid = await offline(["graphql", `${server.origin}/graphql`, "-q", "{ fast(", "-v"]);
  assert.equal(invalid.code, 2, invalid.stderr);
  await using plain = serve(() => Response.json({ nothing: true }));
  const notGraphQL = await offline(["graphql", `${plain.origin}/`, "-q", "{ a }"]);
  assert.equal(notGraphQL.code, 1, notGraphQL.stderr);
  includes(notGraphQL.stderr, "error: Not a GraphQL response");
  await using subscriptions = subscriptionServer({ kind: "none" });
  const query = "subscription { countdown(from: 1) }";
  const ws = await offline([
    "graphql",
    `${subscriptions.origin}/graphql`,
    "--transport",
    "ws",
    "-q",
    query,
  ]);
  assert.equal(ws.code, 0, ws.stderr);
  assert.equal(ws.stdout, '{"data":{"countdown":1}}\n{"data":{"countdown":0}}\n');
});

Deno.test("installed offline: dial grpc by reflection and with --proto (Connect, @bufbuild/protobuf, protobufjs bundled)", async () => {
  await using server = await startGreeter("--no-reflection");
  const call = await offline([
    "grpc",
    "--plaintext",
    "--proto",
    `${GREETER_PROTOS}greeter.proto`,
    server.address,
    "greet.v1.Greeter/StreamHellos",
    "-d",
    '{"name":"x","times":2}',
  ]);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout.trimEnd().split("\n").length, 2, call.stdout);
  includes(call.stdout, '"bigNumber":"9007199254740993"');
  const none = await offline(["grpc", "--plaintext", server.address, "list"]);
  assert.equal(none.code, 2);
  includes(none.stderr, "does not offer reflection");
  await using reflecting = await startGreeter();
  const missing = await offline([
    "grpc",
    "--plaintext",
    reflecting.address,
    "greet.v1.Greeter/Missing",
  ]);
  assert.equal(missing.code, 69, missing.stderr);
});

Deno.test("installed offline: dial ws sends each line and prints each reply", async () => {
  await using server = serve((request) => {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(`echo: ${event.data}`);
    return response;
  });
  const ws = await offline(["ws", `ws://127.0.0.1:${server.port}/`], { stdin: "hello\nworld\n" });
  assert.equal(ws.code, 0, ws.stderr);
  assert.equal(ws.stdout, "echo: hello\necho: world\n");
});

Deno.test("installed offline: dial sse prints the events (eventsource-parser bundled)", async () => {
  await using server = serve(() =>
    new Response("event: tick\ndata: 1\n\ndata: two\n\n", {
      headers: { "content-type": "text/event-stream" },
    })
  );
  const sse = await offline(["sse", server.origin, "--no-reconnect"]);
  assert.equal(sse.code, 0, sse.stderr);
  includes(sse.stdout, "1");
  includes(sse.stdout, "two");
});

Deno.test("installed offline: --oauth2 (oauth4webapi bundled), dial auth token and status, exit 9", async () => {
  await using oauth = await startMockServer();
  await using api = serve((request) => new Response(request.headers.get("authorization") ?? ""));
  const home = await Deno.makeTempDir({ prefix: "dial-home-" });
  const grant = ["--oauth2", `client_credentials:${oauth.tokenUrl}:app:secret`];
  const get = await offline(["GET", api.origin, ...grant], { home });
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /^Bearer ey/);
  const token = await offline(["auth", "token", ...grant], { home });
  assert.equal(`Bearer ${token.stdout.trim()}`, get.stdout);
  assert.equal(oauth.tokenRequests.length, 1);
  const status = await offline(["auth", "status"], { home });
  assert.equal(status.code, 0, status.stderr);
  includes(status.stdout + status.stderr, oauth.tokenUrl);
  await using refusing = serve(() => Response.json({ error: "invalid_client" }, { status: 401 }));
  const bad = `client_credentials:${refusing.origin}/token:app:secret`;
  const failed = await offline(["GET", api.origin, "--oauth2", bad, "--oauth2-no-cache"]);
  assert.equal(failed.code, 9, failed.stderr);
  includes(failed.stderr, "invalid_client");
});

Deno.test("installed offline: dial ui serves the app and its bundle from the build", async () => {
  const { child, denoDir } = await startOffline(["ui", "--no-open"]);
  const { line, cancel } = await firstLine(child.stdout);
  let stderr = "";
  try {
    const launch = new URL(line.trim());
    const page = await fetch(launch);
    const html = await page.text();
    assert.equal(page.status, 200, html);
    includes(html, '<script type="module" src="/app.js">');
    const { dir } = await builtCli();
    for (const name of ["app.js", "app.css", "json_worker.js"]) {
      const asset = await fetch(new URL(`/${name}`, launch));
      assert.equal(asset.status, 200);
      assert.equal(await asset.text(), await Deno.readTextFile(`${dir}/web/dist/${name}`));
    }
  } finally {
    child.kill("SIGINT");
    await child.status;
    await cancel();
    stderr = decoder.decode(await new Response(child.stderr).arrayBuffer());
  }
  await assertNothingDownloaded(denoDir, stderr);
});

Deno.test("installed offline: completions, and an upload through its node:http chunk", async () => {
  const completions = await offline(["completions", "bash"]);
  assert.equal(completions.code, 0, completions.stderr);
  includes(completions.stdout, "complete -o default -F _dial dial");
  const home = await Deno.makeTempDir({ prefix: "dial-home-" });
  await Deno.writeTextFile(`${home}/note.txt`, "hello");
  await using server = serve(async (request) =>
    new Response(`${request.headers.get("content-length")} ${await request.text()}`)
  );
  const upload = await offline(["PUT", `${server.origin}/up`, "-d", "@note.txt"], { home });
  assert.equal(upload.code, 0, upload.stderr);
  assert.equal(upload.stdout, "5 hello");
});

Deno.test({
  name: "installed offline: with no network at all (unshare -rn), every command loads its code",
  ignore: !canUnshare,
  fn: async () => {
    const port = unusedPort();
    const refused = `127.0.0.1:${port}: connection refused`;
    const runs: Array<[string[], number, string]> = [
      [["GET", `http://127.0.0.1:${port}/`], 7, `Cannot reach ${refused}`],
      [["graphql", `http://127.0.0.1:${port}/graphql`, "-q", "{ a }"], 7, refused],
      [["ws", `ws://127.0.0.1:${port}/`], 7, `Cannot open a WebSocket to ${refused}`],
      [["sse", `http://127.0.0.1:${port}/`, "--no-reconnect"], 7, refused],
      [
        [
          "GET",
          `http://127.0.0.1:${port}/`,
          "--oauth2",
          `client_credentials:http://127.0.0.1:${port}/token:a:b`,
        ],
        9,
        refused,
      ],
      [["auth", "status"], 0, "No cached OAuth 2.0 tokens"],
      [["completions", "zsh"], 0, ""],
    ];
    for (const [args, code, message] of runs) {
      const result = await offline(args, { netns: true });
      assert.equal(result.code, code, `dial ${args.join(" ")}: ${result.stderr}`);
      includes(result.stderr, message);
    }
    const { child, denoDir } = await startOffline(["ui", "--no-open"], { netns: true });
    const { line, cancel } = await firstLine(child.stdout);
    assert.match(line, /^http:\/\/127\.0\.0\.1:\d+\//);
    child.kill("SIGINT");
    await child.status;
    await cancel();
    await assertNothingDownloaded(
      denoDir,
      decoder.decode(await new Response(child.stderr).bytes()),
    );
  },
});

Deno.test("installed offline: dial run and dial test run a request file's scripts (QuickJS's wasm beside the build)", async () => {
  await using server = serve(() => Response.json({ id: 7 }));
  const home = await Deno.makeTempDir({ prefix: "dial-home-" });
  await Deno.writeTextFile(
    `${home}/api.http`,
    `### item\nGET ${server.origin}/item\n\n> {%\n  client.test("id is 7", () => {\n` +
      `    client.assert(response.body.id === 7, "id");\n  });\n%}\n`,
  );
  const test = await offline(["test", "api.http"], { home });
  assert.equal(test.code, 0, test.stderr);
  assert.match(test.stdout + test.stderr, /1 passed, 0 failed/);
  const run = await offline(["run", "api.http"], { home });
  assert.equal(run.code, 0, run.stderr);
  includes(run.stdout, '"id"');
});

Deno.test("installed offline: dial mcp answers initialize and lists tools; dial test --openapi checks (its validator bundled)", async () => {
  await using server = serve(() => Response.json({ id: "seven" }));
  const home = await Deno.makeTempDir({ prefix: "dial-home-" });
  await Deno.writeTextFile(`${home}/api.http`, `# @name item\nGET ${server.origin}/item\n`);
  await Deno.writeTextFile(
    `${home}/spec.json`,
    oneGetSpec("/item", { type: "object", properties: { id: { type: "integer" } } }),
  );
  const lines = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ].map((m) => JSON.stringify(m)).join("\n") + "\n";
  const mcp = await offline(["mcp", "."], { home, stdin: lines });
  assert.equal(mcp.code, 0, mcp.stderr);
  const [init, list] = mcp.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(init.result.serverInfo.name, "dial");
  assert.deepEqual(list.result.tools.map((t: { name: string }) => t.name), ["api_item"]);
  const test = await offline(["test", "api.http", "--openapi", "spec.json"], { home });
  assert.equal(test.code, 11, test.stderr);
  assert.match(test.stdout, /\/id: must be integer, got string \(response 200 body\)/);
});
