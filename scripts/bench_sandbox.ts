/**
 * The script sandbox's own cost per script (issues 37 and 38): CPU microseconds per script run
 * through `ScriptSession` in a fresh process, for a JetBrains handler (the 1,000-request chain's:
 * `client.global.set` from a JSON body and a `client.test`, each at its own line as in a file)
 * and a Postman test script (`pm.globals.set`, `pm.test` with `pm.response.to.have.status`),
 * each a distinct text at its own line, all named to the session first (`expect`, compiled
 * together a batch at a time) as the runner names a file's scripts.
 * "first 1,000" is what a `dial test` run of 1,000 requests pays (V8 still compiling QuickJS's
 * WebAssembly); "warm" the last 1,000 of 5,000. CPU is the whole process's (V8's compiler
 * threads included), from `process.cpuUsage` around the loop ("30 scripts": their CPU in all, in
 * a fresh process, until V8 has stopped compiling for them); each number is the median of
 * `runs` processes. With `--baseline DIR` (another checkout of dial, e.g. `git archive main`
 * unpacked) both are run, interleaved, for a before/after table in one run, and then end to end:
 * both checkouts' built CLIs, the baseline as it was installed before (no V8 flags), this one
 * with `V8_FLAGS` and without, on a 1,000-request chain with a JetBrains handler each (the
 * files section's, beside a bare `fetch` loop) and on Conduit and the 200-request collection
 * against newman (bench_migrate.ts).
 * First, where one JetBrains handler's CPU goes ({@link partsChild}): the host's input texts,
 * the QuickJS call with an empty script and with the chain's, reading the answer, compiling,
 * against the whole `ScriptSession.run`.
 *
 * ```sh
 * deno run -A --config tests/deno.json scripts/bench_sandbox.ts [--runs 3] [--baseline DIR]
 * ```
 * @module
 */
import process from "node:process";
import { V8_FLAGS } from "./compile.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The V8 flags the installed dial runs with (`deno task install`, the Dockerfile, compile). */
const INSTALLED_FLAGS = V8_FLAGS.replace(/^--v8-flags=/, "");

const KINDS = {
  jetbrains: {
    postman: false,
    code: (i: number) =>
      `\n  client.global.set("next", response.body.next);\n` +
      `  client.test("step ${i}", function () { client.assert(response.status === 200); });\n`,
  },
  postman: {
    postman: true,
    code: (i: number) =>
      `\npm.globals.set("next", pm.response.json().next);\n` +
      `pm.test("step ${i}", function () { pm.response.to.have.status(200); });\n`,
  },
} as const;

/** In the child: runs `total` scripts of a kind, prints CPU µs per script of each 1,000. */
async function child(root: string, kind: keyof typeof KINDS, total: number): Promise<void> {
  const loading = process.cpuUsage();
  const { ScriptSession } = await import(`${root}src/files/script_sandbox.ts`);
  let firstMs = 0;
  const { postman, code } = KINDS[kind];
  const session = new ScriptSession({ postman });
  const source = (i: number) => ({ code: code(i), file: "chain.http", line: 4 + 7 * i, column: 1 });
  // The file's scripts, as the runner names them (compiled together); a checkout from before
  // 2026-11-28 18:10 compiles each alone.
  session.expect?.(Array.from({ length: total }, (_, i) => source(i)));
  const per1000: number[] = [];
  const start = process.cpuUsage();
  let cpu = start;
  for (let i = 0; i < total; i++) {
    const input = {
      ...chainInput(i),
      ...(postman
        ? {
          postman: {
            requestName: `step ${i}`,
            requestId: `chain.http#${i}`,
            responseTime: 1,
            typed: { globals: {}, environment: {}, local: {} },
          },
        }
        : {}),
    };
    const output = await session.run(source(i), input);
    // pm.globals.set lands in Postman's own globals (dial's before 2026-11-28 12:23).
    if (i === 0) {
      const used = process.cpuUsage(loading);
      firstMs = (used.user + used.system) / 1000;
    }
    const next = output.postmanGlobals?.next ?? output.globals.next;
    if (next !== String(i + 1) || output.tests[0]?.passed !== true) {
      throw new Error(`Script ${i} did not do its work: ${JSON.stringify(output)}`);
    }
    if ((i + 1) % 1000 === 0) {
      const used = process.cpuUsage(cpu);
      per1000.push((used.user + used.system) / 1000);
      cpu = process.cpuUsage();
    }
  }
  session.dispose();
  // V8 goes on compiling QuickJS's WebAssembly in its background threads after the loop: what
  // a short run pays includes that (idle half a second, then read the whole process's CPU).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const all = process.cpuUsage(start);
  const line = JSON.stringify({ per1000, totalMs: (all.user + all.system) / 1000, firstMs });
  await Deno.stdout.write(new TextEncoder().encode(line));
}

/** The chain's handler input for step `i` (as the runner gives it). */
function chainInput(i: number) {
  return {
    globals: { next: String(i) },
    requestVariables: {},
    environment: {},
    file: { origin: "http://127.0.0.1:8080" },
    request: {
      method: "GET",
      url: `http://127.0.0.1:8080/steps/${i}`,
      headers: [["User-Agent", "dial"]] as [string, string][],
      body: "",
    },
    response: {
      status: 200,
      headers: [["content-type", "application/json"], ["content-length", "27"]] as [
        string,
        string,
      ][],
      body: JSON.stringify({ next: i + 1, token: `t-${i}` }),
      mimeType: "application/json",
      charset: "utf-8",
    },
  };
}

/**
 * In the child: CPU µs per JetBrains handler of each part of one `ScriptSession.run`, each part
 * timed over 1,000 calls after 100 to warm up, in one process with the installed V8 flags: the
 * host's input texts (`inputArguments`), those texts into QuickJS strings, the prelude's `exec`
 * with an empty compiled script and with the chain's (strings included), reading its answer
 * (`getString` + `JSON.parse`), compiling 1,000 distinct scripts 32 to an evaluation (as a
 * session does) and one at a time; then the whole `run` of 1,000 distinct scripts in a fresh
 * session (compiling included) and of 200 already compiled ones. Prints JSON.
 */
async function partsChild(root: string): Promise<void> {
  const cpu = () => {
    const used = process.cpuUsage();
    return used.user + used.system;
  };
  const { ScriptSession, newModule } = await import(`${root}src/files/script_sandbox.ts`);
  const { inputArguments, scriptPrelude } = await import(`${root}src/files/script_api.ts`);
  const { code } = KINDS.jetbrains;
  const quickjs = await newModule(new WebAssembly.Memory({ initial: 256, maximum: 1280 }));
  const runtime = quickjs.newRuntime();
  const context = runtime.newContext();
  const prelude = context.unwrapResult(context.evalCode(scriptPrelude(false), "prelude.js"));
  const api = context.unwrapResult(
    context.callFunction(prelude, context.undefined, context.newObject()),
  );
  const exec = context.getProp(api, "exec");
  const compile = (text: string, name: string) =>
    context.unwrapResult(context.evalCode(text, name, { type: "global", strict: false }));
  const empty = compile("(function () {\n})", "empty.http");
  const script = compile(`(function () {${code(1)}\n})`, "chain.http");
  const inputs = Array.from({ length: 1000 }, (_, i) => chainInput(i));
  // deno-lint-ignore no-explicit-any
  const handles = (values: unknown[]): any[] =>
    values.map((v) =>
      typeof v === "number"
        ? context.newNumber(v)
        : v === undefined
        ? context.undefined
        : v === null
        ? context.null
        : context.newString(v as string)
    );
  // deno-lint-ignore no-explicit-any
  const call = (fn: any, i: number, read: boolean) => {
    const given = handles(inputArguments(inputs[i]!));
    const result = context.unwrapResult(
      context.callFunction(exec, context.undefined, fn, ...given),
    );
    for (const handle of given) handle.dispose();
    if (read) JSON.parse(context.getString(result));
    result.dispose();
  };
  let compiled = 0;
  const parts: [string, (i: number) => void, number][] = [
    ["input", (i) => inputArguments(inputs[i]!), 1],
    ["strings", (i) => {
      for (const handle of handles(inputArguments(inputs[i]!))) handle.dispose();
    }, 1],
    ["execEmpty", (i) => call(empty, i, false), 1],
    ["execScript", (i) => call(script, i, false), 1],
    ["execRead", (i) => call(script, i, true), 1],
    ["compileBatched", () => {
      let text = "[";
      for (let k = 0; k < 32; k++) text += `(function () {${code(compiled++)}\n}),\n`;
      const made = compile(`${text}]`, `batch${compiled}.http`);
      for (let k = 0; k < 32; k++) context.getProp(made, k).dispose();
      made.dispose();
    }, 32],
    ["compileAlone", () => {
      compile(`(function () {${code(compiled++)}\n})`, `alone${compiled}.http`).dispose();
    }, 1],
  ];
  // Each part warmed up, then timed in turns (7 rounds of 224 calls, the median round), so that
  // a change of the machine's load moves them alike.
  const rounds: Record<string, number[]> = {};
  let at = 0;
  for (const [, part, per] of parts) {
    for (let i = 0; i < 96; i += per) part(at++ % inputs.length);
  }
  for (let round = 0; round < 7; round++) {
    for (const [name, part, per] of parts) {
      const start = cpu();
      for (let i = 0; i < 224; i += per) part(at++ % inputs.length);
      (rounds[name] ??= []).push((cpu() - start) / 224);
    }
  }
  const result: Record<string, number> = {};
  for (const [name, values] of Object.entries(rounds)) result[name] = median(values);
  const source = (i: number) => ({ code: code(i), file: "chain.http", line: 4 + 7 * i, column: 1 });
  // A fresh session, as a file's run makes it: its first script (the sandbox's creation) apart.
  const session = new ScriptSession({});
  session.expect(Array.from({ length: 1000 }, (_, i) => source(i)));
  let start = cpu();
  await session.run(source(0), inputs[0]!);
  result.create = cpu() - start;
  start = cpu();
  for (let i = 1; i < 1000; i++) await session.run(source(i), inputs[i]!);
  result.runFirst = (cpu() - start) / 999;
  for (let i = 0; i < 200; i++) await session.run(source(i), inputs[i]!);
  start = cpu();
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 200; i++) await session.run(source(i), inputs[i]!);
  }
  result.runCompiled = (cpu() - start) / 1000;
  session.dispose();
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result)));
}

/**
 * Where one JetBrains handler's CPU goes: {@link partsChild} in `runs` processes with the
 * installed V8 flags, medians (also printed by the files section, bench_files.ts).
 *
 * @param root the checkout whose sources are timed
 * @param runs processes (the median of each part)
 * @param out prints Markdown
 */
export async function partsTable(
  root: string,
  runs: number,
  out: (text: string) => void,
): Promise<void> {
  const results: Record<string, number>[] = [];
  for (let run = 0; run < runs; run++) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-check",
        "--config",
        `${root}deno.json`,
        V8_FLAGS,
        new URL(import.meta.url).pathname,
        "--parts",
        root,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
    results.push(JSON.parse(new TextDecoder().decode(output.stdout)));
  }
  const m = (name: string) => median(results.map((r) => r[name]!));
  const rest = m("runFirst") - m("compileBatched") - m("execRead") - m("input");
  const rows: [string, number][] = [
    ["host: the input's arguments (`inputArguments`: status, media type, body …)", m("input")],
    ["host: those texts into QuickJS strings (and freed)", m("strings") - m("input")],
    ["QuickJS: `exec` with an empty script (setup, call, `take`)", m("execEmpty") - m("strings")],
    [
      "QuickJS: the chain's script itself (JSON body, `global.set`, `test`)",
      m("execScript") - m("execEmpty"),
    ],
    ["host: reading the answer (`getString` + `JSON.parse`)", m("execRead") - m("execScript")],
    ["QuickJS: compiling the script, 32 to an evaluation", m("compileBatched")],
    ["QuickJS: compiling the script alone (for comparison)", m("compileAlone")],
    [
      "**`ScriptSession.run`, scripts 2–1,000 of a fresh session, compiling included**",
      m("runFirst"),
    ],
    ["`ScriptSession.run` of an already compiled script", m("runCompiled")],
    ["the rest of `run` (its bookkeeping, output checks, batching, cold code, GC)", rest],
    ["a session's first script, the sandbox's creation included (ms)", m("create") / 1000],
  ];
  out(
    `\n### Script sandbox: where one JetBrains handler's CPU goes (µs, median of ${runs} processes, ${V8_FLAGS})\n\n`,
  );
  out(`load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}\n\n`);
  out("| part | µs per handler |\n| --- | --- |\n");
  for (const [name, value] of rows) out(`| ${name} | ${value.toFixed(1)} |\n`);
}

/** One child process: CPU µs per script of each 1,000 scripts. */
async function measure(
  root: string,
  kind: keyof typeof KINDS,
  total: number,
  flags: string | undefined,
): Promise<{ per1000: number[]; totalMs: number; firstMs: number }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-check",
      "--config",
      `${root}deno.json`,
      ...(flags ? [`--v8-flags=${flags}`] : []),
      new URL(import.meta.url).pathname,
      "--child",
      root,
      kind,
      String(total),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1]!;

/**
 * Prints the table: per kind and checkout, with dial's installed V8 flags and without.
 *
 * @param options runs per number (median), an optional baseline checkout, where lines go
 */
export async function benchSandbox(
  { runs, baseline, out }: { runs: number; baseline?: string; out: (text: string) => void },
): Promise<void> {
  const roots: [string, string][] = [["this checkout", ROOT]];
  if (baseline) roots.unshift(["baseline", baseline.endsWith("/") ? baseline : `${baseline}/`]);
  const flagSets: (string | undefined)[] = [undefined, INSTALLED_FLAGS];
  await partsTable(ROOT, runs, out);
  out(`\n### Script sandbox: CPU per script (µs, median of ${runs} processes)\n\n`);
  out(`load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}\n\n`);
  out(
    "| script | checkout | V8 flags | first 1,000 | warm (4,001-5,000) | 30 scripts in all (ms) | " +
      "the first script, its modules' loading included (ms) |\n",
  );
  out("| --- | --- | --- | --- | --- | --- | --- |\n");
  for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
    const rows = new Map<
      string,
      { first: number[]; warm: number[]; short: number[]; one: number[] }
    >();
    // Interleaved: each run measures every checkout and flag set once, so load moves them alike.
    for (let run = 0; run < runs; run++) {
      for (const [label, root] of roots) {
        for (const flags of flagSets) {
          const key = `| ${kind} | ${label} | ${flags ?? "none"} |`;
          const row = rows.get(key) ?? { first: [], warm: [], short: [], one: [] };
          rows.set(key, row);
          const long = await measure(root, kind, 5000, flags);
          row.first.push(long.per1000[0]!);
          row.warm.push(long.per1000[4]!);
          // A Conduit-sized file: the CPU of its 30 scripts, V8's compiling for them included.
          const short = await measure(root, kind, 30, flags);
          row.short.push(short.totalMs);
          row.one.push(short.firstMs);
        }
      }
    }
    for (const [key, { first, warm, short, one }] of rows) {
      out(
        `${key} ${median(first).toFixed(0)} | ${median(warm).toFixed(0)} | ${
          median(short).toFixed(0)
        } | ${median(one).toFixed(0)} |\n`,
      );
    }
  }
  if (baseline) await endToEnd(roots[0]![1], runs, out);
}

/** A command's wall and CPU (user + system, all threads) milliseconds, from /usr/bin/time. */
async function timed(command: string[], cwd: string): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "cpu %U %S", ...command],
    cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const errors = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`${command.join(" ")} failed: ${errors}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(errors);
  return { ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN };
}

/** Builds a checkout's CLI into a temporary folder with that checkout's own build script. */
async function built(root: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-sandbox-cli-" });
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${root}scripts/build/deno.json`,
      `${root}scripts/build_cli.ts`,
      "--out-dir",
      `${dir}/`,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
  return `${dir}/dial.js`;
}

/** The files section's chain: each request's URL carries what the previous handler captured. */
function chain(origin: string, requests: number): string {
  let text = `@origin = ${origin}\n\n`;
  for (let i = 0; i < requests; i++) {
    text += `### step ${i}\nGET {{origin}}/steps/${i === 0 ? "0" : "{{next}}"}\n\n` +
      `> {%\n  client.global.set("next", response.body.next);\n` +
      `  client.test("step ${i}", function () { client.assert(response.status === 200); });\n%}\n\n`;
  }
  return text;
}

/**
 * End to end, before and after: the baseline's built CLI (no V8 flags, as it was installed) and
 * this checkout's (with and without `V8_FLAGS`), interleaved, median of `runs`.
 */
async function endToEnd(
  baseline: string,
  runs: number,
  out: (text: string) => void,
): Promise<void> {
  const before = await built(baseline);
  const after = await built(ROOT);
  const deno = Deno.execPath();
  const dials: [string, string[]][] = [
    ["baseline, no V8 flags", [deno, "run", "-A", "--no-config", before]],
    ["this checkout, no V8 flags", [deno, "run", "-A", "--no-config", after]],
    [`this checkout, ${V8_FLAGS}`, [deno, "run", "-A", "--no-config", V8_FLAGS, after]],
  ];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const step = Number(new URL(request.url).pathname.split("/").pop());
    return Response.json({ next: step + 1, token: `t-${step}` });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-sandbox-" });
  try {
    await Deno.writeTextFile(`${dir}/chain.http`, chain(origin, 1000));
    await Deno.writeTextFile(
      `${dir}/fetch_loop.ts`,
      `let next = 0;\nfor (let i = 0; i < 1000; i++) {\n` +
        `  const response = await fetch(\`\${Deno.args[0]}/steps/\${next}\`);\n` +
        `  next = (await response.json()).next;\n}\n`,
    );
    const rows = new Map<string, { ms: number[]; cpuMs: number[] }>();
    const add = (name: string, time: { ms: number; cpuMs: number }) => {
      const row = rows.get(name) ?? { ms: [], cpuMs: [] };
      rows.set(name, row);
      row.ms.push(time.ms);
      row.cpuMs.push(time.cpuMs);
    };
    for (let run = 0; run < runs; run++) {
      add(
        "bare Deno fetch loop",
        await timed([deno, "run", "-A", "--no-config", `${dir}/fetch_loop.ts`, origin], dir),
      );
      for (const [name, command] of dials) {
        add(name, await timed([...command, "test", "chain.http", "--reporter", "json"], dir));
      }
    }
    out(`\n#### 1,000 chained requests, a JetBrains handler each (\`dial test chain.http\`)\n\n`);
    out(`load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}\n\n`);
    out("| runner | wall | CPU | ÷ fetch loop (wall / CPU) |\n| --- | --- | --- | --- |\n");
    const floor = rows.get("bare Deno fetch loop")!;
    for (const [name, { ms, cpuMs }] of rows) {
      out(
        `| ${name} | ${median(ms).toFixed(0)} ms | ${median(cpuMs).toFixed(0)} ms | ${
          (median(ms) / median(floor.ms)).toFixed(1)
        }× / ${(median(cpuMs) / median(floor.cpuMs)).toFixed(1)}× |\n`,
      );
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
  const { benchMigrate } = await import("./bench_migrate.ts");
  for (const [name, command] of dials) {
    out(`\n#### Imported Postman collections, ${name}\n\n`);
    out(`load average ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}\n\n`);
    await benchMigrate({ dial: command, runs, out });
  }
  await Deno.remove(before.replace(/\/dial\.js$/, ""), { recursive: true });
  await Deno.remove(after.replace(/\/dial\.js$/, ""), { recursive: true });
}

if (import.meta.main) {
  const args = Deno.args;
  if (args[0] === "--parts") {
    await partsChild(args[1]!);
  } else if (args[0] === "--child") {
    await child(args[1]!, args[2] as keyof typeof KINDS, Number(args[3]));
  } else {
    const at = (name: string) => args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
    const baseline = at("--baseline");
    await benchSandbox({
      runs: Number(at("--runs")) || 3,
      ...(baseline ? { baseline } : {}),
      out: (text) => Deno.stdout.writeSync(new TextEncoder().encode(text)),
    });
  }
}
