/**
 * `deno task bench`: dial side by side with a bare Deno fetch, curl, jq and HTTPie, on
 * loopback against a local server this script starts. Prints Markdown tables of medians and
 * ratios. Tools that are not installed are skipped with a note.
 *
 * ```sh
 * deno task bench              # full run (a few minutes)
 * deno task bench --quick      # fewer runs and smaller bodies, for a smoke test
 * deno task bench --only start,oauth   # build, start, stream, json, oauth, graphql, files, http, openapi, migrate, sandbox, mcp, ui
 * deno task bench --only download      # http's section 8 alone: the 512 MiB download and its verdicts
 * deno task bench --only upload        # http's section 9 alone: the 300 MB uploads and their verdict
 * deno task bench --only upload --beside /tmp/ab/main   # …beside another build's dial
 *                                      # (`deno task build --out-dir /tmp/ab/main` in that checkout)
 * deno task bench --only sandbox --baseline ../main   # the sandbox's cost, beside another checkout
 * ```
 * @module
 */
import { buildCli } from "./build_cli.ts";
import { V8_FLAGS } from "./compile.ts";

const quick = Deno.args.includes("--quick");
const onlyAt = Deno.args.indexOf("--only");
const only = onlyAt >= 0 ? Deno.args[onlyAt + 1]?.split(",") : undefined;
const wanted = (name: string) => only === undefined || only.includes(name);
const ROOT = new URL("../", import.meta.url).pathname;
const DENO = Deno.execPath();
/** dial as `deno task install` installs it: the built CLI (scripts/build_cli.ts), no config. */
const BUILT = await Deno.makeTempDir({ prefix: "dial-bench-cli-" });
const BUILD = await buildCli(`${BUILT}/`);
// As `deno task install` runs it: with the installed form's V8 flags.
const DIAL = [DENO, "run", "-A", "--quiet", "--no-config", V8_FLAGS, `${BUILT}/dial.js`];
/** dial run from the checkout, as `deno task dial` does. */
const DIAL_SOURCE = [DENO, "run", "-A", "--quiet", V8_FLAGS, `${ROOT}main.ts`];
const STARTS = quick ? 5 : 21;
const OAUTH_RUNS = quick ? 5 : 25;
const STREAM_RUNS = quick ? 1 : 3;
const STREAM_BYTES = (quick ? 64 : 1024) * 1024 * 1024;
const JSON_BYTES = (quick ? 5 : 50) * 1000 * 1000;
const JSON_RUNS = quick ? 1 : 3;
const HTTPIE_TIMEOUT_MS = 180_000;
const TOKEN = "bench-token";

function out(text: string): void {
  writeSync("stdout", text);
}

function note(text: string): void {
  writeSync("stderr", `${text}\n`);
}

function which(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function shell(args: string[]): string {
  return args.map((a) => /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)
    .join(" ");
}

// --- the server -----------------------------------------------------------------------------

const chunk = new Uint8Array(1024 * 1024).fill(0x61);
const small = JSON.stringify({ id: 1, name: "Ann", roles: ["admin"] });
const bigJson = makeJson(JSON_BYTES);

function makeJson(size: number): Uint8Array<ArrayBuffer> {
  const parts: string[] = [];
  let length = 2;
  for (let i = 0; length < size; i++) {
    const item = JSON.stringify({
      id: i,
      name: `user ${i}`,
      email: `user${i}@example.com`,
      active: i % 3 !== 0,
      score: i * 1.25,
      tags: ["alpha", "beta"],
      address: { city: "Lyon", zip: "69001", geo: [45.76, 4.84] },
      manager: null,
    });
    parts.push(item);
    length += item.length + 1;
  }
  return new TextEncoder().encode(`[${parts.join(",")}]`);
}

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
  const url = new URL(request.url);
  if (url.pathname === "/token") {
    await request.body?.cancel();
    return Response.json({ access_token: TOKEN, token_type: "Bearer", expires_in: 3600 });
  }
  if (url.pathname === "/big") {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= STREAM_BYTES) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/octet-stream", "content-length": `${STREAM_BYTES}` },
    });
  }
  if (url.pathname === "/graphql") {
    await request.body?.cancel();
    return Response.json({ data: { viewer: { login: "ann" } } });
  }
  if (url.pathname === "/json") {
    return new Response(bigJson, { headers: { "content-type": "application/json" } });
  }
  return new Response(small, { headers: { "content-type": "application/json" } });
});
const origin = `http://127.0.0.1:${server.addr.port}`;

// --- running commands -----------------------------------------------------------------------

const home = await Deno.makeTempDir({ prefix: "dial-bench-" });
const env = {
  HOME: home,
  XDG_CACHE_HOME: `${home}/.cache`,
  XDG_CONFIG_HOME: `${home}/.config`,
  NO_COLOR: "1",
  // Deno looks for a newer release from every process that runs longer than ~0.5 s and has no
  // record of a check in its cache (this empty one): offline, every such run of dial and of the
  // bare scripts reads the system's root certificates and asks DNS for dl.deno.land meanwhile.
  DENO_NO_UPDATE_CHECK: "1",
};

/** Runs a command with stdout discarded; returns the wall time in ms. */
async function time(
  args: string[],
  extraEnv: Record<string, string> = env,
  cwd?: string,
): Promise<number> {
  const start = performance.now();
  const output = await new Deno.Command(args[0]!, {
    args: args.slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: extraEnv,
    ...(cwd ? { cwd } : {}),
  }).output();
  const ms = performance.now() - start;
  if (!output.success) {
    throw new Error(`${shell(args)} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return ms;
}

const TIME = which("time") ? "/usr/bin/time" : undefined;
const PYTHON = which("python3");

/** Runs a shell command under /usr/bin/time; returns wall ms and the peak RSS in MB. */
async function timeShell(
  command: string,
  options: { tty?: boolean; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<{ ms: number; rssMb?: number; timedOut?: boolean }> {
  const rssFile = await Deno.makeTempFile();
  const measured = TIME ? `${TIME} -f %M -o ${rssFile} sh -c ${shell([command])}` : command;
  const args = options.tty ? ["script", "-qec", measured, "/dev/null"] : ["sh", "-c", measured];
  const child = new Deno.Command(args[0]!, {
    args: args.slice(1),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: options.env ?? env,
  }).spawn();
  const start = performance.now();
  let timedOut = false;
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs);
  const output = await child.output();
  clearTimeout(timer);
  const ms = performance.now() - start;
  if (timedOut) return { ms, timedOut };
  if (!output.success) {
    throw new Error(`${command} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  const kb = Number((await Deno.readTextFile(rssFile)).trim().split("\n").pop());
  await Deno.remove(rssFile);
  return { ms, ...(Number.isFinite(kb) && kb > 0 ? { rssMb: kb / 1024 } : {}) };
}

const fmtMs = (ms: number) => ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

// --- 0. the build ---------------------------------------------------------------------------

/** The size of what `deno task install` installs: the start-up files, the chunks, the UI. */
function buildSize(): void {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const size = (names: string[]) =>
    names.reduce((sum, n) => sum + Deno.statSync(`${BUILT}/${n}`).size, 0);
  const chunks = BUILD.chunks.map((c) => c.fileName);
  const startUp = chunks.filter((n) => n === "dial.js" || n.startsWith("core-"));
  const npm = chunks.filter((n) => n.startsWith("npm-"));
  out("\n### 0. The build (`deno task build`, what `deno task install` installs)\n\n");
  out("| part | files | size |\n| --- | --- | --- |\n");
  out(`| start-up (\`dial.js\`, \`core-*.js\`) | ${startUp.length} | ${kib(size(startUp))} |\n`);
  out(`| npm packages (\`npm-*.js\`) | ${npm.length} | ${kib(size(npm))} |\n`);
  out(`| all chunks | ${chunks.length} | ${kib(size(chunks))} |\n`);
  out(
    `| files beside them (UI bundle, QuickJS wasm) | ${BUILD.files.length} | ${
      kib(size(BUILD.files))
    } |\n`,
  );
}

// --- 1. cold start --------------------------------------------------------------------------

/**
 * Times one child precisely: python3's `os.wait4` gives its CPU time in microseconds
 * (`/usr/bin/time` rounds to 10 ms, too coarse for a 20 ms program), and the wall time is taken
 * around the child alone, not around python's own start-up. The child's stdout is discarded.
 */
const PRECISE = `import os, sys, time
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print((time.perf_counter() - t) * 1000, (usage.ru_utime + usage.ru_stime) * 1000, status)`;

/** Runs a command; returns wall ms and, with python3 or /usr/bin/time, CPU ms (user + system). */
async function timeCpu(args: string[], cwd: string): Promise<{ ms: number; cpu?: number }> {
  if (PYTHON) {
    const output = await new Deno.Command(PYTHON, {
      args: ["-c", PRECISE, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      env,
      cwd,
    }).output();
    const [ms, cpu, status] = new TextDecoder().decode(output.stdout).trim().split("\n").pop()!
      .split(" ").map(Number);
    if (status !== 0) throw new Error(`${shell(args)} failed (status ${status})`);
    return { ms: ms!, cpu: cpu! };
  }
  const cpuFile = TIME ? await Deno.makeTempFile() : undefined;
  const wrapped = cpuFile ? [TIME!, "-f", "%U %S", "-o", cpuFile, ...args] : args;
  const ms = await time(wrapped, env, cwd);
  if (!cpuFile) return { ms };
  const [user, system] = (await Deno.readTextFile(cpuFile)).trim().split("\n").pop()!.split(" ")
    .map(Number);
  await Deno.remove(cpuFile);
  return { ms, cpu: ((user ?? NaN) + (system ?? NaN)) * 1000 };
}

async function coldStart(): Promise<void> {
  const url = `${origin}/small`;
  // Both dial and the floor run from a directory without the project's deno.json, the floor
  // script copied there, so the floor pays no config or lockfile cost.
  const outside = await Deno.makeTempDir({ prefix: "dial-bench-cwd-" });
  await Deno.copyFile(`${ROOT}scripts/bench_fetch.ts`, `${outside}/fetch.ts`);
  // One request and, for `dial test`, one JetBrains handler: the other commands' start-up,
  // which a change to the start-up chunk or to V8's flags must not make slower.
  await Deno.writeTextFile(`${outside}/one.http`, `### one\nGET ${url}\n`);
  await Deno.writeTextFile(
    `${outside}/check.http`,
    `### one\nGET ${url}\n\n> {%\n  client.test("ok", () => client.assert(response.status === 200));\n%}\n`,
  );
  const FLOOR = "bare Deno fetch (floor)";
  const tools: Array<[string, string[]]> = [
    [FLOOR, [DENO, "run", "-A", "--quiet", `${outside}/fetch.ts`, url]],
    ["dial GET", [...DIAL, "GET", url]],
    ["dial --help", [...DIAL, "--help"]],
    ["dial --version", [...DIAL, "--version"]],
    ["dial GET, from source", [...DIAL_SOURCE, "GET", url]],
    ["dial graphql -q", [...DIAL, "graphql", `${origin}/graphql`, "-q", "{ viewer { login } }"]],
    ["dial run (1 request)", [...DIAL, "run", "one.http"]],
    ["dial test (1 request, 1 handler)", [...DIAL, "test", "check.http"]],
  ];
  if (which("curl")) tools.push(["curl", ["curl", "-s", url]]);
  else note("curl not found: skipped");
  if (which("http")) tools.push(["HTTPie", ["http", "--ignore-stdin", "GET", url]]);
  else note("HTTPie (http) not found: skipped (apt-get install httpie)");
  const runs = new Map<string, Array<{ ms: number; cpu?: number }>>(
    tools.map(([name]) => [name, []]),
  );
  // Warm the disk cache and Deno's transpile and code caches, then interleave the runs so a
  // burst of load on the machine hits every tool alike.
  for (const [, args] of tools) await time(args, env, outside);
  for (let i = 0; i < STARTS; i++) {
    for (const [name, args] of tools) runs.get(name)!.push(await timeCpu(args, outside));
  }
  await Deno.remove(outside, { recursive: true });
  const medians = new Map(
    [...runs].map(([name, values]) => [name, {
      ms: median(values.map((v) => v.ms)),
      cpu: values[0]?.cpu === undefined ? undefined : median(values.map((v) => v.cpu!)),
    }]),
  );
  const floor = medians.get(FLOOR)!;
  const dial = medians.get("dial GET")!;
  const help = medians.get("dial --help")!;
  out(`\n### 1. Cold start (median of ${STARTS} interleaved runs, from a directory without the `);
  out("project's deno.json)\n\n| tool | wall | vs floor | CPU (user+sys) | vs floor |\n");
  out("| --- | --- | --- | --- | --- |\n");
  for (const [name, { ms, cpu }] of medians) {
    const cpuCells = cpu === undefined || floor.cpu === undefined
      ? "? | ?"
      : `${fmtMs(cpu)} | ${ratio(cpu, floor.cpu)}`;
    out(`| ${name} | ${fmtMs(ms)} | ${ratio(ms, floor.ms)} | ${cpuCells} |\n`);
  }
  const verdict = (value: number, goal: number) => value <= goal ? "met" : "NOT met";
  const cpuRatio = dial.cpu && floor.cpu ? dial.cpu / floor.cpu : 0;
  const both = Math.max(dial.ms / floor.ms, cpuRatio);
  out(
    `\nFloor ${fmtMs(floor.ms)}. dial GET ${ratio(dial.ms, floor.ms)} the floor's wall time` +
      `${cpuRatio ? ` and ${ratio(dial.cpu!, floor.cpu!)} its CPU` : ""} (issue 35: ` +
      `≤ 1.10× both: ${verdict(both, 1.1)}); dial --help ${ratio(help.ms, floor.ms)} (goal ≤ ` +
      `1.3×: ${verdict(help.ms / floor.ms, 1.3)})${
        medians.has("HTTPie") ? `; HTTPie ${ratio(medians.get("HTTPie")!.ms, dial.ms)} dial` : ""
      }.\n`,
  );
}

// --- 2. streaming ---------------------------------------------------------------------------

async function streaming(): Promise<void> {
  const url = `${origin}/big`;
  const file = `${home}/big.bin`;
  const cases: Array<[string, string]> = [
    ["dial -o file", `${shell([...DIAL, "GET", url, "-o", file])}`],
    ["dial > pipe", `${shell([...DIAL, "GET", url])} | cat > /dev/null`],
  ];
  if (which("curl")) {
    cases.push(["curl -s -o file", `curl -s -o ${file} ${url}`]);
    cases.push(["curl -s > pipe", `curl -s ${url} | cat > /dev/null`]);
  }
  const mib = STREAM_BYTES / 1024 / 1024;
  out(
    `\n### 2. Streaming a ${mib >= 1024 ? `${mib / 1024} GiB` : `${mib} MiB`} body ` +
      `(median of ${STREAM_RUNS})\n\n`,
  );
  out("| case | time | throughput | peak RSS | vs curl |\n| --- | --- | --- | --- | --- |\n");
  const results = new Map<string, { ms: number; rssMb?: number }>();
  for (const [name, command] of cases) {
    const runs = [];
    for (let i = 0; i < STREAM_RUNS; i++) runs.push(await timeShell(command));
    const ms = median(runs.map((r) => r.ms));
    const rss = Math.max(...runs.map((r) => r.rssMb ?? 0));
    results.set(name, { ms, rssMb: rss });
    await Deno.remove(file).catch(() => {});
  }
  for (const [name, { ms, rssMb }] of results) {
    const curl = results.get(name.includes("pipe") ? "curl -s > pipe" : "curl -s -o file");
    const throughput = STREAM_BYTES / 1024 / 1024 / (ms / 1000);
    out(
      `| ${name} | ${fmtMs(ms)} | ${throughput.toFixed(0)} MiB/s | ${
        rssMb ? `${rssMb.toFixed(0)} MB` : "?"
      } | ${curl ? `${(curl.ms / ms).toFixed(2)}× curl's throughput` : "-"} |\n`,
    );
  }
  out("\nTarget: at least 0.9× curl's throughput; peak RSS under 100 MB whatever the size.\n");
}

// --- 3. pretty-printing ---------------------------------------------------------------------

async function prettyJson(): Promise<void> {
  if (!which("script")) {
    out(
      "\n### 3. Pretty-printing JSON\n\nSkipped: `script` (util-linux) is needed for a terminal.\n",
    );
    return;
  }
  const url = `${origin}/json`;
  const jsonFile = `${home}/big.json`;
  await Deno.writeFile(jsonFile, bigJson);
  const ttyEnv = { ...env, TERM: "xterm-256color" } as Record<string, string>;
  delete ttyEnv.NO_COLOR;
  const cases: Array<[string, string, number]> = [
    ["dial GET (pretty, coloured)", shell([...DIAL, "GET", url]), JSON_RUNS],
  ];
  if (which("jq")) cases.push(["jq . (from a file)", `jq . ${jsonFile}`, JSON_RUNS]);
  else note("jq not found: skipped");
  if (which("http")) {
    cases.push(["HTTPie (pretty, coloured)", `http --ignore-stdin GET ${url}`, 1]);
  }
  const mb = (JSON_BYTES / 1e6).toFixed(0);
  out(`\n### 3. Pretty-printing ${mb} MB of JSON to a terminal (a pty through \`script\`)\n\n`);
  out("| tool | time | peak RSS | dial is faster by |\n| --- | --- | --- | --- |\n");
  const rows: Array<[string, number, number | undefined, boolean]> = [];
  for (const [name, command, runs] of cases) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      results.push(
        await timeShell(command, { tty: true, timeoutMs: HTTPIE_TIMEOUT_MS, env: ttyEnv }),
      );
    }
    const timedOut = results.some((r) => r.timedOut);
    rows.push([name, median(results.map((r) => r.ms)), results[0]?.rssMb, timedOut]);
  }
  const dial = rows[0]![1];
  for (const [name, ms, rss, timedOut] of rows) {
    out(
      `| ${name} | ${timedOut ? `> ${fmtMs(ms)} (stopped)` : fmtMs(ms)} | ${
        rss ? `${rss.toFixed(0)} MB` : "?"
      } | ${ratio(ms, dial)} |\n`,
    );
  }
  out("\nTarget: faster than both jq and HTTPie.\n");
}

// --- 4. OAuth 2.0 with a cached token -------------------------------------------------------

async function oauthOverhead(): Promise<void> {
  const url = `${origin}/small`;
  const oauth = [
    ...DIAL,
    "GET",
    url,
    "--oauth2",
    `client_credentials:${origin}/token:bench:secret`,
  ];
  const bearer = [...DIAL, "GET", url, "-B", TOKEN];
  await time(oauth); // fetches and caches the token
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < OAUTH_RUNS; i++) {
    a.push(await time(oauth));
    b.push(await time(bearer));
  }
  const diff = median(a) - median(b);
  out(
    `\n### 4. \`--oauth2\` with a cached token vs a plain bearer (median of ${OAUTH_RUNS}, interleaved)\n\n`,
  );
  out("| case | median |\n| --- | --- |\n");
  out(
    `| dial -B token | ${fmtMs(median(b))} |\n| dial --oauth2 (cached) | ${fmtMs(median(a))} |\n`,
  );
  out(`\nOverhead: ${diff.toFixed(1)} ms (target: at most 5 ms).\n`);
}

// --- 5. GraphQL (the GraphQL helper's deno bench, when present) -----------------------------

async function graphql(): Promise<void> {
  const bench = `${ROOT}benches/graphql_bench.ts`;
  try {
    await Deno.stat(bench);
  } catch {
    return;
  }
  out("\n### 5. GraphQL (`deno bench benches/graphql_bench.ts`)\n\n```\n");
  const output = await new Deno.Command(DENO, {
    // The benchmark reads GitHub's schema from a test-only package: the tests' configuration.
    args: ["bench", "-A", "--no-check", "--config", `${ROOT}tests/deno.json`, bench],
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).output();
  out(new TextDecoder().decode(output.stdout).trim() + "\n```\n");
}

// --- the desktop UI in headless Chromium (each script has its own browser and servers) ----------

/** The desktop UI's benchmarks, each with the load average before it (a shared machine's). */
async function desktopUi(): Promise<void> {
  const scripts = [
    ["A 5 MB JSON response in the HTTP tab", "bench_ui_body.ts"],
    ["The 1,000-request workspace against the 64-request one", "bench_ui_workspace.ts"],
    ["The WebSocket and SSE logs, 100,000-message bursts", "bench_ui_streams.ts"],
    ["The GraphQL tab on GitHub's schema", "bench_ui.ts"],
    ["The base digests' cost in file reads and saves", "bench_ui_digest.ts"],
  ];
  for (const [title, script] of scripts) {
    const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?")).split(" ");
    out(`\n### ${title} (\`scripts/${script}\`, load average ${load.slice(0, 3).join(" ")})\n\n`);
    const output = await new Deno.Command(DENO, {
      args: ["run", "-A", "--config", `${ROOT}tests/deno.json`, `${ROOT}scripts/${script}`],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`scripts/${script} failed (status ${output.code})`);
    out(new TextDecoder().decode(output.stdout));
  }
}

try {
  out(
    `## dial benchmarks\n\n${new Date().toISOString().slice(0, 10)}, Deno ${Deno.version.deno}, ` +
      `${navigator.hardwareConcurrency} CPUs, loopback${quick ? ", --quick" : ""}. ` +
      "dial is the built CLI as `deno task install` installs it (`deno run -A --no-config " +
      "dist/cli/dial.js`), unless a row says from source.\n",
  );
  if (wanted("build")) buildSize();
  if (wanted("start")) await coldStart();
  if (wanted("stream")) await streaming();
  if (wanted("json")) await prettyJson();
  if (wanted("oauth")) await oauthOverhead();
  if (wanted("graphql")) await graphql();
  if (wanted("http")) {
    const { benchHttp } = await import("./bench_http.ts");
    await benchHttp({ dial: DIAL, timeShell, timeCpu, shell, out, env, quick });
  } else if (only?.includes("download")) {
    // Section 8 of `http` alone: the 512 MiB download's rows and verdicts.
    const { benchDownloadOnly } = await import("./bench_http.ts");
    await benchDownloadOnly({ dial: DIAL, timeShell, timeCpu, shell, out, env, quick });
  }
  if (only?.includes("upload")) {
    // Section 9 of `http` alone: the 300 MB uploads' rows and verdict, another build beside.
    const { benchUploadOnly } = await import("./bench_http.ts");
    const at = Deno.args.indexOf("--beside");
    const beside = at >= 0 ? Deno.args[at + 1]!.replace(/\/$/, "") : undefined;
    await benchUploadOnly({
      dial: DIAL,
      timeShell,
      timeCpu,
      shell,
      out,
      env,
      quick,
      ...beside
        ? {
          beside: {
            label: beside,
            dial: [DENO, "run", "-A", "--quiet", "--no-config", V8_FLAGS, `${beside}/dial.js`],
          },
        }
        : {},
    });
  }
  if (wanted("files")) {
    const { benchFiles } = await import("./bench_files.ts");
    await benchFiles({ dial: DIAL, timeShell, shell, out, env, quick });
  }
  if (wanted("openapi")) {
    const { benchOpenapi } = await import("./bench_openapi.ts");
    await benchOpenapi({ out, quick });
  }
  if (wanted("migrate")) {
    // Newman's and dial's runs of imported collections (issue 38's 5× goal).
    out("\n### dial test against newman run (imported Postman collections)\n\n");
    const { benchMigrate } = await import("./bench_migrate.ts");
    await benchMigrate({ dial: DIAL, runs: quick ? 3 : 5, out });
  }
  if (wanted("sandbox")) {
    // The script sandbox's CPU per script (issues 37 and 38); --baseline DIR: another checkout.
    const { benchSandbox } = await import("./bench_sandbox.ts");
    const at = Deno.args.indexOf("--baseline");
    await benchSandbox({
      runs: quick ? 1 : 3,
      ...(at >= 0 ? { baseline: Deno.args[at + 1]! } : {}),
      out,
    });
  }
  if (wanted("mcp")) {
    const { benchMcp } = await import("./bench_mcp.ts");
    await benchMcp({ dial: DIAL, url: `${origin}/small`, out, env, quick });
  }
  if (wanted("ui")) await desktopUi();
} finally {
  await server.shutdown();
  await Deno.remove(home, { recursive: true });
  await Deno.remove(BUILT, { recursive: true });
}

/** Writes text to the process's stdout or stderr at once (before an exit). */
function writeSync(stream: "stdout" | "stderr", text: string): void {
  const file = stream === "stdout" ? Deno.stdout : Deno.stderr;
  let bytes = new TextEncoder().encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
}
