/**
 * The request-file part of `deno task bench`: 1,000 chained requests from one `.http` file
 * (each request's URL carries the value the previous response handler captured) run by
 * `dial test`, by a bare Deno `fetch` loop doing the same chain (the floor), by httpyac on the
 * same file, and by newman on the equivalent Postman collection, against one loopback server;
 * the same chain written without scripts (each request names the previous one's response,
 * `{{stepN.response.body.$.next}}`) with the TCP connections it opened; where one handler's CPU
 * goes inside the sandbox (bench_sandbox.ts's parts table); and the time to parse a 10,000-request
 * file.
 * @module
 */
import { V8_FLAGS } from "./compile.ts";

/** What bench.ts hands over. */
export interface FilesBenchContext {
  /** The dial command (the built CLI). */
  dial: string[];
  /** Runs a shell command under /usr/bin/time: wall ms and peak RSS. */
  timeShell: (
    command: string,
    options?: { env?: Record<string, string>; timeoutMs?: number },
  ) => Promise<{ ms: number; rssMb?: number; timedOut?: boolean }>;
  /** Quotes arguments for a shell. */
  shell: (args: string[]) => string;
  /** Prints Markdown. */
  out: (text: string) => void;
  /** The environment of the children. */
  env: Record<string, string>;
  /** Fewer runs. */
  quick: boolean;
}

const REQUESTS = 1000;
const DENO = Deno.execPath();
const ROOT = new URL("../", import.meta.url).pathname;

/**
 * Runs the request-file benchmarks and prints their tables.
 *
 * @param context the commands and printers of bench.ts
 */
export async function benchFiles(context: FilesBenchContext): Promise<void> {
  const { out } = context;
  // The client ports the server saw: one per TCP connection.
  const ports = new Set<number>();
  // When each request arrived (ms since the epoch, as python's time.time() gives a run's start).
  let arrivals: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request, info) => {
    arrivals.push(performance.timeOrigin + performance.now());
    ports.add(info.remoteAddr.port);
    const step = Number(new URL(request.url).pathname.split("/").pop());
    // A step that is not a number (a value the chain lost) fails the run.
    if (!Number.isInteger(step)) return new Response("no such step\n", { status: 404 });
    return Response.json({ next: step + 1, token: `t-${step}` });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "dial-bench-files-" });
  try {
    await Deno.writeTextFile(`${dir}/chain.http`, chainFile(origin));
    await Deno.writeTextFile(
      `${dir}/chain.postman.json`,
      JSON.stringify(postmanCollection(origin)),
    );
    await Deno.writeTextFile(`${dir}/fetch_loop.ts`, FETCH_LOOP);
    await Deno.writeTextFile(`${dir}/one.http`, chainFile(origin, 1));
    await Deno.writeTextFile(`${dir}/refs.http`, referenceChainFile(origin));
    out(`\n### 6. Request files: ${REQUESTS} chained requests (one capture per request)\n\n`);
    out(`Load average at the start: ${await loadAverage()}.\n\n`);
    out(
      "| runner | wall | CPU (user + system) | peak RSS | wall vs dial | CPU vs dial |\n" +
        "| --- | --- | --- | --- | --- | --- |\n",
    );
    const runs = context.quick ? 1 : 3;
    /** Connections each run of the last measured command opened. */
    let connections: number[] = [];
    const measure = async (command: string): Promise<Measured | undefined> => {
      const times: Timed[] = [];
      const phases: Phases[] = [];
      connections = [];
      for (let i = 0; i < runs; i++) {
        ports.clear();
        arrivals = [];
        const result = await timed(command, context);
        connections.push(ports.size);
        if (!result) return undefined;
        times.push(result);
        const phased = phasesOf(result, arrivals);
        if (phased) phases.push(phased);
      }
      const median = (values: number[]) =>
        values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      return {
        ...(phases.length === runs
          ? {
            phases: {
              start: median(phases.map((p) => p.start)),
              first: median(phases.map((p) => p.first)),
              each: median(phases.map((p) => p.each)),
              end: median(phases.map((p) => p.end)),
            },
          }
          : {}),
        ms: median(times.map((t) => t.ms)),
        ...(times[0]!.cpuMs !== undefined ? { cpuMs: median(times.map((t) => t.cpuMs!)) } : {}),
        ...(times[0]!.rssMb !== undefined
          ? { rssMb: Math.max(...times.map((t) => t.rssMb!)) }
          : {}),
      };
    };
    const inDir = (args: string[]) => `cd ${context.shell([dir])} && ${context.shell(args)}`;
    const dial = await measure(
      inDir([...context.dial, "test", "chain.http", "--reporter", "json"]),
    );
    const floor = await measure(
      context.shell([DENO, "run", "-A", "--quiet", "--no-config", `${dir}/fetch_loop.ts`, origin]),
    );
    const npm = (pkg: string, ...args: string[]) =>
      inDir([DENO, "run", "-A", "--quiet", "--no-config", "--no-lock", `npm:${pkg}`, ...args]);
    const row = (name: string, r: Timed | undefined) => {
      if (!r) return `| ${name} | did not finish | | | | |\n`;
      const times = (a: number | undefined, b: number | undefined) =>
        a !== undefined && b !== undefined ? `${(a / b).toFixed(1)}×` : "";
      return `| ${name} | ${fmt(r.ms)} | ${r.cpuMs !== undefined ? fmt(r.cpuMs) : "?"} | ${
        r.rssMb?.toFixed(0) ?? "?"
      } MB | ${times(r.ms, dial?.ms)} | ${times(r.cpuMs, dial?.cpuMs)} |\n`;
    };
    out(row("dial test", dial));
    out(row("bare Deno fetch loop (floor)", floor));
    // Issue 35's chain: no scripts, each request takes the previous response's value by a
    // request reference.
    const referenced = await measure(
      inDir([...context.dial, "test", "refs.http", "--check-status", "--reporter", "json"]),
    );
    const referencedConnections = [...connections];
    out(row("dial test, chained by request references (no scripts)", referenced));
    // The same 1,000 requests and handlers as iterations of a one-request file (`--repeat`): each
    // iteration is a run of the file, with the file's script sandbox kept from one to the next.
    const repeated = await measure(
      inDir([
        ...context.dial,
        "test",
        "one.http",
        "--repeat",
        String(REQUESTS),
        "--reporter",
        "json",
      ]),
    );
    out(row(`dial test --repeat ${REQUESTS} of one request`, repeated));
    // The installed form runs QuickJS's WebAssembly with Liftoff only and optimises dial's own
    // code sooner (V8_FLAGS): the same chain with V8's defaults (TurboFan for QuickJS's hot
    // functions, Maglev after 400 calls), side by side.
    const tiered = await measure(
      inDir([
        ...context.dial.filter((arg) => arg !== V8_FLAGS),
        "test",
        "chain.http",
        "--reporter",
        "json",
      ]),
    );
    out(row(`dial test without \`${V8_FLAGS}\` (V8's default tiering)`, tiered));
    const peers = new Map<string, Timed | undefined>();
    for (
      const [name, command] of [
        [
          "httpyac 6.16.7 (same file)",
          npm("httpyac@6.16.7", "send", "chain.http", "--all", "-o", "none"),
        ],
        [
          "newman 6.2.2 (Postman collection)",
          npm("newman@6.2.2", "run", "chain.postman.json", "--reporters", "json"),
        ],
      ]
    ) {
      try {
        const result = await measure(command!);
        peers.set(name!, result);
        out(row(name!, result));
      } catch (error) {
        out(`| ${name} | failed: ${(error as Error).message.split("\n")[0]} | | | | |\n`);
      }
    }
    out(verdicts(dial, floor, peers.get("httpyac 6.16.7 (same file)")));
    out(referenceVerdict(referenced, floor, referencedConnections));
    out(handlerShare(dial, referenced, floor));
    out(tieringShare(dial, tiered));
    out(phaseTable([
      ["dial test (a handler each)", dial],
      ["dial test (a handler each), V8's default tiering", tiered],
      ["dial test, by request references", referenced],
      ["bare Deno fetch loop", floor],
    ]));
    out(`Load average at the end: ${await loadAverage()}.\n`);
    out(await partsTiming(dir, origin));
    // Where one handler's CPU goes inside the sandbox (issue 37), beside the chain's numbers.
    const { partsTable } = await import("./bench_sandbox.ts");
    await partsTable(ROOT, context.quick ? 1 : 3, out);
    out(await parseTiming(dir, context.quick ? 3 : 9));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

/** One run: wall ms, and (with python3) CPU ms of the child and its peak RSS. */
interface Timed {
  ms: number;
  cpuMs?: number;
  rssMb?: number;
  /** When the child was started, ms since the epoch (with python3). */
  startedAt?: number;
}

/**
 * Where a run's wall time went, from when the server saw each request: ms from the start of
 * the process to the first request, from the first request to the second (for dial test, the
 * first handler: the sandbox is made then), µs per request from the second to the last, and ms
 * from the last request to the process's end.
 */
interface Phases {
  start: number;
  first: number;
  each: number;
  end: number;
}

/** A command's medians (and its largest peak RSS). */
interface Measured extends Timed {
  phases?: Phases;
}

/** A run's {@link Phases}, when it sent all the chain's requests and its start is known. */
function phasesOf(run: Timed, arrivals: number[]): Phases | undefined {
  if (run.startedAt === undefined || arrivals.length !== REQUESTS) return undefined;
  const last = arrivals[REQUESTS - 1]!;
  return {
    start: arrivals[0]! - run.startedAt,
    first: arrivals[1]! - arrivals[0]!,
    each: (last - arrivals[1]!) * 1000 / (REQUESTS - 2),
    end: run.startedAt + run.ms - last,
  };
}

/** The {@link Phases} of the chain's runners side by side, and each one's difference from the last row's. */
function phaseTable(rows: [string, Measured | undefined][]): string {
  const floor = rows[rows.length - 1]![1]?.phases;
  if (!floor || rows.some(([, r]) => !r?.phases)) return "";
  const cell = (value: number, base: number, unit: string, digits: number) =>
    `${value.toFixed(digits)} ${unit}${
      base === value ? "" : ` (${value >= base ? "+" : ""}${(value - base).toFixed(digits)})`
    }`;
  let text = "\nWhere the wall time goes (medians; from when the server saw each request; in " +
    "brackets the difference from the fetch loop):\n\n" +
    "| runner | start → 1st request | 1st → 2nd request | each request after | last request → exit |\n" +
    "| --- | --- | --- | --- | --- |\n";
  for (const [name, measured] of rows) {
    const p = measured!.phases!;
    text += `| ${name} | ${cell(p.start, floor.start, "ms", 1)} | ${
      cell(p.first, floor.first, "ms", 1)
    } | ${cell(p.each, floor.each, "µs", 0)} | ${cell(p.end, floor.end, "ms", 1)} |\n`;
  }
  return text;
}

/**
 * Times a shell command: python3's `os.wait4` gives the child's CPU (user + system, all its
 * threads) and peak RSS exactly (`/usr/bin/time` rounds CPU to 10 ms); without python3, the
 * bench's own timer (wall and RSS).
 */
async function timed(command: string, context: FilesBenchContext): Promise<Timed | undefined> {
  if (!PYTHON) {
    const result = await context.timeShell(command, { env: context.env, timeoutMs: 600_000 });
    return result.timedOut ? undefined : result;
  }
  const output = await new Deno.Command(PYTHON, {
    args: ["-c", WAIT4, command],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: context.env,
  }).output();
  const [ms, cpuMs, rssKb, status, startedAt] = new TextDecoder().decode(output.stdout).trim()
    .split(" ").map(Number);
  if (status !== 0) {
    throw new Error(`${command} failed: ${new TextDecoder().decode(output.stderr).slice(-500)}`);
  }
  return { ms: ms!, cpuMs: cpuMs!, rssMb: rssKb! / 1024, startedAt: startedAt! };
}

const PYTHON = ["/usr/bin/python3", "/usr/local/bin/python3"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/**
 * Runs `sh -c COMMAND` (stdout discarded), prints wall ms, CPU ms, peak RSS KiB, exit status and
 * when it started (ms since the epoch).
 */
const WAIT4 = `import os, sys, time
started = time.time()
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
_, status, usage = os.wait4(pid, 0)
print((time.perf_counter() - t) * 1000, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss, status, started * 1000)`;

async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}

/**
 * Issue 37's goal: ≤ 2× the time (wall) of the fetch loop, ≥ 15× faster (wall) than httpyac,
 * and peak RSS ≤ 150 MB; then the whole goal's verdict. The CPU ratios are printed beside.
 */
function verdicts(
  dial: Timed | undefined,
  floor: Timed | undefined,
  httpyac: Timed | undefined,
): string {
  if (!dial) return "\n";
  const ratio = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined ? a / b : undefined;
  const verdicts: boolean[] = [];
  // The goal is about time (wall): the CPU ratio is shown beside it, not judged.
  const both = (name: string, wall?: number, cpu?: number, met?: (r: number) => boolean) => {
    const ok = wall !== undefined && met!(wall);
    verdicts.push(ok);
    return `${name}: ${wall?.toFixed(2) ?? "?"}× by wall (${ok ? "met" : "NOT met"}), ${
      cpu?.toFixed(1) ?? "?"
    }× by CPU`;
  };
  const fetchLoop = both(
    "dial test against the fetch loop (goal ≤ 2×)",
    ratio(dial.ms, floor?.ms),
    ratio(dial.cpuMs, floor?.cpuMs),
    (r) => r <= 2,
  );
  const peer = both(
    "httpyac against dial (goal ≥ 15×)",
    ratio(httpyac?.ms, dial.ms),
    ratio(httpyac?.cpuMs, dial.cpuMs),
    (r) => r >= 15,
  );
  const rss = dial.rssMb !== undefined && dial.rssMb <= 150;
  verdicts.push(rss);
  return `\nIssue 37's goal (1,000 chained requests with a handler each): ${fetchLoop}; ${peer}; ` +
    `peak RSS ${dial.rssMb?.toFixed(0) ?? "?"} MB (goal ≤ 150 MB, ${rss ? "met" : "NOT met"}). ` +
    `The goal: ${verdicts.every(Boolean) ? "met" : "NOT met"}.\n`;
}

/**
 * Issue 35's goal on its own terms: the chain without scripts, ≤ 2× the fetch loop, on one TCP
 * connection.
 */
function referenceVerdict(
  referenced: Timed | undefined,
  floor: Timed | undefined,
  connections: number[],
): string {
  if (!referenced || !floor) return "\n";
  const wall = referenced.ms / floor.ms;
  const cpu = referenced.cpuMs !== undefined && floor.cpuMs !== undefined
    ? referenced.cpuMs / floor.cpuMs
    : undefined;
  const one = connections.length > 0 && connections.every((n) => n === 1);
  const met = wall <= 2 && cpu !== undefined && cpu <= 2 && one;
  return `\ndial test chained by request references against the fetch loop (goal ≤ 2× on 1 TCP ` +
    `connection): ${wall.toFixed(1)}× by wall, ${cpu?.toFixed(1) ?? "?"}× by CPU, ` +
    `TCP connections per run: ${connections.join(", ")} (${met ? "met" : "NOT met"}).\n`;
}

/**
 * What a handler adds to a chained request (the handler chain against the same chain by request
 * references, no scripts), and what issue 37's ≤ 2× leaves it.
 */
function handlerShare(
  dial: Timed | undefined,
  referenced: Timed | undefined,
  floor: Timed | undefined,
): string {
  if (!dial || !referenced || !floor) return "";
  const per = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined ? `${((a - b) * 1000 / REQUESTS).toFixed(0)} µs` : "?";
  return `\nA handler adds ${per(dial.ms, referenced.ms)} wall, ${
    per(dial.cpuMs, referenced.cpuMs)
  } CPU per request (dial test with a handler each, less the same chain by request references); ` +
    `≤ 2× the fetch loop leaves it ${per(2 * floor.ms, referenced.ms)} wall, ${
      floor.cpuMs !== undefined ? per(2 * floor.cpuMs, referenced.cpuMs) : "?"
    } CPU.\n`;
}

/**
 * The installed form's V8 flags (`--liftoff-only`, Maglev sooner) against V8's defaults on the
 * handler chain: the flags stay while the defaults read no faster by wall.
 */
function tieringShare(installed: Timed | undefined, tiered: Timed | undefined): string {
  if (!installed || !tiered) return "";
  return `\nV8 flags on the handler chain: without \`${V8_FLAGS}\` ${fmt(tiered.ms)} wall, ${
    tiered.cpuMs !== undefined ? fmt(tiered.cpuMs) : "?"
  } CPU against ${fmt(installed.ms)}, ${
    installed.cpuMs !== undefined ? fmt(installed.cpuMs) : "?"
  } as installed (${(tiered.ms / installed.ms).toFixed(2)}× by wall): ${
    tiered.ms < installed.ms ? "V8's defaults read faster" : "the installed flags stay"
  }.\n`;
}

function fmt(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
}

/** The floor: the same chain as a bare `fetch` loop, the value read from each JSON answer. */
const FETCH_LOOP = `let next = 0;
for (let i = 0; i < ${REQUESTS}; i++) {
  const response = await fetch(\`\${Deno.args[0]}/steps/\${next}\`);
  next = (await response.json()).next;
  if (response.status !== 200) throw new Error("step " + i);
}
`;

/** A file whose every request carries the value the previous handler captured. */
function chainFile(origin: string, requests = REQUESTS): string {
  let text = `@origin = ${origin}\n\n`;
  for (let i = 0; i < requests; i++) {
    const step = i === 0 ? "0" : "{{next}}";
    text += `### step ${i}\nGET {{origin}}/steps/${step}\n\n` +
      `> {%\n  client.global.set("next", response.body.next);\n` +
      `  client.test("step ${i}", function () { client.assert(response.status === 200); });\n%}\n\n`;
  }
  return text;
}

/**
 * The same chain without scripts: each request is named and takes the previous response's
 * `next` by a request reference, as docs/request-files.md documents.
 */
function referenceChainFile(origin: string, requests = REQUESTS): string {
  let text = `@origin = ${origin}\n\n`;
  for (let i = 0; i < requests; i++) {
    const step = i === 0 ? "0" : `{{step${i - 1}.response.body.$.next}}`;
    text += `### step ${i}\n# @name step${i}\nGET {{origin}}/steps/${step}\n\n`;
  }
  return text;
}

/** The same chain as a Postman collection (v2.1) for newman. */
function postmanCollection(origin: string) {
  return {
    info: {
      name: "chain",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: Array.from({ length: REQUESTS }, (_, i) => ({
      name: `step ${i}`,
      request: { method: "GET", url: `${origin}/steps/${i === 0 ? "0" : "{{next}}"}` },
      event: [{
        listen: "test",
        script: {
          exec: [
            'pm.globals.set("next", pm.response.json().next);',
            `pm.test("step ${i}", function () { pm.response.to.have.status(200); });`,
          ],
        },
      }],
    })),
  };
}

/**
 * Where the CPU of one chained request goes, in one process: the same 1,000 requests as a bare
 * `fetch` loop, as dial's `send()` on one keep-alive pool, as `runHttpFile` of the file without
 * its handlers, of the chain by request references, of the file with its handlers, and of that
 * file with each handler's sandbox call answering at once (the runner's own share of a handler);
 * CPU (all threads) per request of the first run and of the third (V8 has compiled the hot code
 * by then).
 */
async function partsTiming(dir: string, origin: string): Promise<string> {
  const src = (path: string) => JSON.stringify(`${ROOT}src/${path}`);
  await Deno.writeTextFile(
    `${dir}/plain.http`,
    (await Deno.readTextFile(`${dir}/chain.http`)).replace(/\n> \{%[\s\S]*?%\}\n/g, "")
      .replaceAll("{{next}}", "1"),
  );
  const code = `
    import process from "node:process";
    import { send } from ${src("http/send.ts")};
    import { ConnectionPool } from ${src("http/pool.ts")};
    import { runHttpFile } from ${src("files/run_http_file.ts")};
    import { parseHttpFile } from ${src("files/parse_http_file.ts")};
    const origin = ${JSON.stringify(origin)};
    const cpu = async (body) => {
      const before = process.cpuUsage();
      await body();
      const used = process.cpuUsage(before);
      return (used.user + used.system) / ${REQUESTS};
    };
    const loops = {
      "bare fetch": async () => {
        let next = 0;
        for (let i = 0; i < ${REQUESTS}; i++) {
          next = (await (await fetch(origin + "/steps/" + next)).json()).next;
        }
      },
      "send() on one pool": async () => {
        const pool = new ConnectionPool();
        let next = 0;
        for (let i = 0; i < ${REQUESTS}; i++) {
          const spec = { method: "GET", url: new URL(origin + "/steps/" + next), headers: [],
            auth: { queryKeys: [] } };
          next = (await (await send(spec, { transport: { pool } })).response.json()).next;
        }
        pool.close();
      },
    };
    for (const [name, path] of [["runHttpFile, no handlers", "plain.http"], ["runHttpFile, request references", "refs.http"]]) {
      const file = parseHttpFile(await Deno.readTextFile(${
    JSON.stringify(dir)
  } + "/" + path), path);
      loops[name] = async () => {
        const pool = new ConnectionPool();
        await runHttpFile(file, { send: { transport: { pool } }, keepGoing: true });
        pool.close();
      };
    }
    // The runner's own path around each handler: the sandbox's run answers at once what the
    // chain's handler answers (the rest of a handler's cost is the sandbox's). Timed before the
    // real handlers, whose runs leave the heap and caches otherwise.
    const { ScriptSession } = await import(${src("files/script_sandbox.ts")});
    const chain = parseHttpFile(await Deno.readTextFile(${
    JSON.stringify(dir)
  } + "/chain.http"), "chain.http");
    loops["runHttpFile, a handler each, the sandbox answering at once"] = async () => {
      const run = ScriptSession.prototype.run;
      let next = 0;
      ScriptSession.prototype.run = () => Promise.resolve({
        globals: { next: String(++next) }, requestVariables: {}, logs: [],
        tests: [{ name: "step", passed: true, durationMs: 0 }],
      });
      const pool = new ConnectionPool();
      try {
        await runHttpFile(chain, { send: { transport: { pool } }, keepGoing: true });
      } finally {
        ScriptSession.prototype.run = run;
        pool.close();
      }
    };
    loops["runHttpFile, a handler each"] = async () => {
      const pool = new ConnectionPool();
      await runHttpFile(chain, { send: { transport: { pool } }, keepGoing: true });
      pool.close();
    };
    const lines = [];
    for (const [name, loop] of Object.entries(loops)) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await cpu(loop));
      lines.push("| " + name + " | " + runs[0].toFixed(0) + " µs | " + runs[2].toFixed(0) + " µs |");
    }
    console.log(lines.join("\\n"));
  `;
  // With the installed form's V8 flags, as the CLI rows run.
  const output = await new Deno.Command(DENO, {
    args: ["eval", "--no-check", "--config", `${ROOT}deno.json`, V8_FLAGS, code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) return `\nParts timing failed: ${new TextDecoder().decode(output.stderr)}\n`;
  return `\nCPU per request in one process (all threads, ${V8_FLAGS}; load ${await loadAverage()}):\n\n` +
    "| what | 1st run of 1,000 | 3rd run |\n| --- | --- | --- |\n" +
    new TextDecoder().decode(output.stdout);
}

/**
 * Parses a 10,000-request file, and the chain by references (`refs.http`: 1,000 requests, the
 * parse before its first request), each in fresh processes: a cold parser, as the CLI runs it,
 * with the installed form's V8 flags.
 */
async function parseTiming(dir: string, runs: number): Promise<string> {
  const one = "### r\nPOST http://127.0.0.1/items?i={{i}}\nContent-Type: application/json\n\n" +
    '{"a": 1}\n\n> {% client.global.set("i", response.body.i); %}\n\n';
  await Deno.writeTextFile(`${dir}/big.http`, one.repeat(10_000));
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const timed = async (name: string, requests: number) => {
    const code = `
      import process from "node:process";
      import { parseHttpFile } from ${JSON.stringify(`${ROOT}src/files/parse_http_file.ts`)};
      const text = await Deno.readTextFile(${JSON.stringify(`${dir}/${name}`)});
      const start = performance.now();
      const cpu = process.cpuUsage();
      const file = parseHttpFile(text, ${JSON.stringify(name)});
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      if (file.requests.length !== ${requests}) throw new Error("wrong count");
      await Deno.stdout.write(new TextEncoder().encode(ms + " " + (used.user + used.system) / 1000));
    `;
    const times: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < runs; i++) {
      const output = await new Deno.Command(DENO, {
        args: ["eval", "--no-check", V8_FLAGS, code],
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
      const [wall, cpu] = new TextDecoder().decode(output.stdout).split(" ").map(Number);
      times.push(wall!);
      cpus.push(cpu!);
    }
    return `median ${median(times).toFixed(1)} ms wall, ${median(cpus).toFixed(1)} ms CPU`;
  };
  try {
    const big = await timed("big.http", 10_000);
    const chain = await timed("refs.http", REQUESTS);
    return `\nParsing in a fresh process (all threads, GC included; ${runs} runs each, the installed ` +
      `form's V8 flags): a 10,000-request file (1.0 MB) ${big} (target: under 200 ms); the chain ` +
      `by references (${
        REQUESTS.toLocaleString("en-US")
      } requests, the parse before its first request) ${chain}.\n`;
  } catch (error) {
    return `\nParse timing failed: ${(error as Error).message}\n`;
  }
}
