/**
 * `dial test` against `newman run` on the same Postman collections and loopback servers (issue
 * 38's speed goal: dial at least 5× faster), wall time per run, median of `--runs` (default 5):
 *
 * - Conduit (tests/e2e/fixtures/conduit: 32 requests, 30 legacy-API scripts, 323 assertions)
 *   against a fresh in-memory Conduit API per run (tests/e2e/_conduit_server.ts);
 * - a synthetic collection of 200 requests with a pm.test each, against one raw server.
 *
 * Newman 6.2.2 runs under Node (`node node_modules/newman/bin/newman.js`, installed into a
 * temporary folder with `deno install`), as teams run it; dial as `dial test FILE.json` (the
 * collection imported in memory on each run) and as `dial test DIR` on the imported folder, from
 * source (`deno run -A main.ts`) or, with `--dial PATH`, the built CLI (`deno task build`).
 * Each run is checked to have the same assertion count on both sides, so a run that skipped work
 * cannot look fast. Prints Markdown rows for docs/benchmarks.md.
 *
 * ```sh
 * deno run -A --config tests/deno.json scripts/bench_migrate.ts [--runs 5] [--dial dist/cli/dial.js]
 * ```
 * @module
 */
import { conduitServer } from "../tests/e2e/_conduit_server.ts";
import { rawServer } from "../tests/e2e/_raw_server.ts";
import { V8_FLAGS } from "./compile.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Runs a command under /usr/bin/time: wall and CPU (user + system) milliseconds, stdout. */
async function run(
  command: string[],
  cwd: string,
): Promise<{ ms: number; cpuMs: number; out: string }> {
  const started = performance.now();
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "cpu %U %S", ...command],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(new TextDecoder().decode(output.stderr));
  const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN;
  return { ms, cpuMs, out: new TextDecoder().decode(output.stdout) };
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1]!;

/** Newman's JSON report: assertions counted once per item run. */
async function newmanAssertions(path: string): Promise<number> {
  const executions = JSON.parse(await Deno.readTextFile(path)).run.executions as {
    cursor: { ref: string };
    assertions?: unknown[];
  }[];
  const unique = new Map(executions.map((e) => [e.cursor.ref, e.assertions?.length ?? 0]));
  return [...unique.values()].reduce((a, b) => a + b, 0);
}

function dialAssertions(out: string): number {
  return (JSON.parse(out).cases as { name: string }[]).filter((c) => !/^HTTP \d+$/.test(c.name))
    .length;
}

interface Case {
  name: string;
  /** Writes the collection (c.json) and globals (g.json) for a server; returns its stopper. */
  prepare(dir: string): Promise<AsyncDisposable>;
}

const CONDUIT: Case = {
  name: "Conduit (32 requests, 30 scripts)",
  async prepare(dir) {
    const server = conduitServer();
    await Deno.copyFile(
      `${ROOT}tests/e2e/fixtures/conduit/Conduit.postman_collection.json`,
      `${dir}/c.json`,
    );
    const values = { APIURL: server.api, USERNAME: "u1", EMAIL: "u1@mail.com", PASSWORD: "pw" };
    await Deno.writeTextFile(
      `${dir}/g.json`,
      JSON.stringify({
        name: "globals",
        _postman_variable_scope: "globals",
        values: Object.entries(values).map(([key, value]) => ({ key, value, enabled: true })),
      }),
    );
    return server;
  },
};

const SYNTHETIC: Case = {
  name: "200 requests, a pm.test each",
  async prepare(dir) {
    const server = rawServer(() => ({
      headers: [["Content-Type", "application/json"]],
      body: '{"ok":true}',
    }));
    const item = Array.from({ length: 200 }, (_, i) => ({
      name: `r${i}`,
      event: [{
        listen: "test",
        script: {
          exec: [
            "pm.test('ok', function () { pm.response.to.have.status(200); pm.expect(pm.response.json().ok).to.be.true; });",
          ],
        },
      }],
      request: { method: "GET", url: `{{base}}/items/${i}` },
    }));
    await Deno.writeTextFile(
      `${dir}/c.json`,
      JSON.stringify({
        info: {
          name: "synthetic",
          schema: "https://schema.getpostman.com/json/collection/v2.1.0/",
        },
        item,
      }),
    );
    await Deno.writeTextFile(
      `${dir}/g.json`,
      JSON.stringify({
        name: "globals",
        _postman_variable_scope: "globals",
        values: [{ key: "base", value: server.origin, enabled: true }],
      }),
    );
    return server;
  },
};

/**
 * Runs both cases and prints their Markdown table (`deno task bench --only migrate` runs it too).
 *
 * @param options dial's command line, the runs per case (median), and where lines go
 */
export async function benchMigrate(
  { dial: DIAL, runs, out }: { dial: string[]; runs: number; out: (text: string) => void },
): Promise<void> {
  const say = (text: string) => out(`${text}\n`);
  const work = await Deno.makeTempDir({ prefix: "dial-bench-migrate-" });
  try {
    await Deno.writeTextFile(`${work}/package.json`, '{"dependencies":{"newman":"6.2.2"}}');
    const installed = await new Deno.Command(Deno.execPath(), {
      args: ["install", "--node-modules-dir=auto"],
      cwd: work,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!installed.success) throw new Error(new TextDecoder().decode(installed.stderr));
    const NEWMAN = ["node", `${work}/node_modules/newman/bin/newman.js`];
    say(
      `| collection | newman 6.2.2 (node) | dial test c.json | dial test dir/ | newman ÷ dial (file / dir) |`,
    );
    say(`| --- | --- | --- | --- | --- |`);
    for (const c of [CONDUIT, SYNTHETIC]) {
      const times = { newman: [] as number[], file: [] as number[], dir: [] as number[] };
      const cpu = { newman: [] as number[], file: [] as number[], dir: [] as number[] };
      let counts = "";
      for (let i = 0; i < runs; i++) {
        const dir = await Deno.makeTempDir({ dir: work });
        {
          await using _ = await c.prepare(dir);
          const n = await run([
            ...NEWMAN,
            "run",
            "c.json",
            "-g",
            "g.json",
            "--reporters",
            "json",
            "--reporter-json-export",
            "n.json",
          ], dir);
          times.newman.push(n.ms);
          cpu.newman.push(n.cpuMs);
          counts = `${await newmanAssertions(`${dir}/n.json`)}`;
        }
        {
          await using _ = await c.prepare(dir);
          const d = await run(
            [...DIAL, "test", "c.json", "-g", "g.json", "--reporter", "json"],
            dir,
          );
          times.file.push(d.ms);
          cpu.file.push(d.cpuMs);
          if (`${dialAssertions(d.out)}` !== counts) {
            throw new Error(
              `${c.name}: dial ran ${dialAssertions(d.out)} assertions, newman ${counts}`,
            );
          }
        }
        {
          await using _ = await c.prepare(dir);
          await run([...DIAL, "import", "c.json", "g.json", "--out", "api", "--force"], dir);
          const d = await run([...DIAL, "test", "api", "--reporter", "json"], dir);
          times.dir.push(d.ms);
          cpu.dir.push(d.cpuMs);
        }
      }
      const [n, f, d] = [median(times.newman), median(times.file), median(times.dir)];
      const [cn, cf, cd] = [median(cpu.newman), median(cpu.file), median(cpu.dir)];
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      say(
        `| ${c.name}, ${counts} assertions | ${s(n)} (CPU ${s(cn)}) | ${s(f)} (CPU ${s(cf)}) | ${
          s(d)
        } (CPU ${s(cd)}) | wall ${(n / f).toFixed(1)}× / ${(n / d).toFixed(1)}×, CPU ${
          (cn / cf).toFixed(1)
        }× / ${(cn / cd).toFixed(1)}× |`,
      );
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) {
  const args = Deno.args;
  const built = args.includes("--dial") ? args[args.indexOf("--dial") + 1] : undefined;
  await benchMigrate({
    dial: built
      ? [Deno.execPath(), "run", "-A", "--no-config", V8_FLAGS, built]
      : [Deno.execPath(), "run", "-A", "--config", `${ROOT}deno.json`, V8_FLAGS, `${ROOT}main.ts`],
    runs: Number(args[args.indexOf("--runs") + 1]) || 5,
    out: (text) => Deno.stdout.writeSync(new TextEncoder().encode(text)),
  });
}
