/**
 * The files `dial GET` opens, as strace sees them (issue 42: it opened 108 source files to run
 * about 30): only modules it runs, and a number that only grows for a module the request path
 * needs.
 * @module
 */
import assert from "node:assert/strict";
import { dialEnv, serve } from "../_helpers.ts";
import { installed, runProgram } from "../_process.ts";
import { staticModules } from "./_import_graph.ts";

const MAIN = new URL("../../main.ts", import.meta.url);

/** strace, to see which files a process opens (the test below needs it). */
const STRACE = ["/usr/bin/strace", "/bin/strace"].find((path) => installed(path));

/**
 * The optional modules of the core that a plain `dial GET` loads through src/load.ts: the
 * transport (client, plan) and the keep-alive pool (the TLS and proxy settings' module only
 * when one of their flags is given). Everything else a GET
 * opens is in the static graph of `main.ts` or of the request command (`request_run.ts`).
 */
const GET_LOADS = [
  "src/http/client.ts",
  "src/http/plan.ts",
  "src/http/pool.ts",
];

/**
 * How many source files `dial GET` may open (73 on 2026-11-28: 54 start-up modules, the
 * request command's and the transport's). Lower it when a change makes it open fewer; raise it
 * only for a module the request path needs.
 */
const GET_OPENS_AT_MOST = 73;

Deno.test({
  name:
    "startup: dial GET opens only the modules it runs (main.ts's graph, the request command's and the transport's), counted by strace",
  ignore: STRACE === undefined,
  async fn() {
    await using server = serve(() => Response.json({ ok: true }));
    const dir = await Deno.makeTempDir({ prefix: "dial-opens-" });
    try {
      const trace = `${dir}/trace`;
      const output = await runProgram(STRACE!, [
        ...["-f", "-qq", "-e", "trace=openat,open", "-o", trace],
        ...[Deno.execPath(), "run", "-A", "--quiet", MAIN.pathname, "GET", `${server.origin}/`],
      ], { clearEnv: true, env: dialEnv() });
      assert.equal(output.code, 0, output.stderr);
      assert.equal(server.requests.length, 1);
      const root = new URL("../../", import.meta.url).pathname;
      const opened = new Set<string>();
      for (const [, path] of (await Deno.readTextFile(trace)).matchAll(/"([^"]+\.tsx?)"/g)) {
        if (path!.startsWith(`${root}src/`)) opened.add(path!.slice(root.length));
      }
      const runs = new Set([
        ...await staticModules(MAIN),
        ...await staticModules(new URL("../../src/cli/request_run.ts", import.meta.url)),
      ]);
      for (const module of GET_LOADS) {
        for (const m of await staticModules(new URL(`../../${module}`, import.meta.url))) {
          runs.add(m);
        }
      }
      const extra = [...opened].filter((m) => !runs.has(m)).sort();
      assert.deepEqual(extra, [], `dial GET opened modules it does not run: ${extra.join(", ")}`);
      assert.ok(opened.size > 40, `strace saw ${opened.size} source files: is the trace read?`);
      assert.ok(
        opened.size <= GET_OPENS_AT_MOST,
        `dial GET opened ${opened.size} source files (at most ${GET_OPENS_AT_MOST}): ${
          [...opened].sort().join(", ")
        }`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
