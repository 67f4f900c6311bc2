/**
 * `dial test --jobs`, `--data`, `--repeat` and `--reporter html`: files run at once (a server
 * answers only when N requests are open at the same time), output and reports in file order
 * and identical to a serial run apart from timings; data rows as variables; iterations named.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { project } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";

/** Answers each request only once `open` requests are waiting together (when `hold`). */
function barrierServer(open: number) {
  let waiting: (() => void)[] = [];
  let hold = true;
  let peak = 0;
  const server = serve(async (request) => {
    if (hold) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        peak = Math.max(peak, waiting.length);
        if (waiting.length >= open) {
          for (const release of waiting) release();
          waiting = [];
        }
      });
    }
    return Response.json({ path: new URL(request.url).pathname });
  });
  return {
    server,
    get peak() {
      return peak;
    },
    release() {
      hold = false;
    },
  };
}

// Timings differ, and so does which request found a kept-alive connection.
const timing = (text: string) =>
  text.replace(/\d+ ms/g, "T").replace(/time="[\d.]+"/g, "").replace(/ \(kept-alive\)/g, "");

Deno.test("jobs: --jobs 3 has three files in flight; output and report equal a serial run's", async () => {
  const barrier = barrierServer(3);
  await using _ = barrier.server;
  const files: Record<string, string> = {};
  for (const name of ["a", "b", "c", "d", "e", "f"]) {
    files[`${name}.http`] =
      `### ${name}\nGET ${barrier.server.origin}/${name}\n\n?? body path == /${name}\n?? status == 201\n`;
  }
  const dir = await project(files);
  const parallel = await dial([
    ...["test", dir, "--jobs", "3", "--timeout", "60"],
    ...["--reporter", "junit", "--report-file", `${dir}/parallel.xml`],
  ]);
  assert.equal(parallel.code, 11, parallel.stderr);
  assert.equal(barrier.peak, 3);
  barrier.release();
  const serial = await dial([
    ...["test", dir, "--reporter", "junit", "--report-file", `${dir}/serial.xml`],
  ]);
  assert.equal(timing(parallel.stdout), timing(serial.stdout));
  assert.equal(
    timing(await Deno.readTextFile(`${dir}/parallel.xml`)),
    timing(await Deno.readTextFile(`${dir}/serial.xml`)),
  );
  // File order, not completion order.
  assert.deepEqual(
    [...parallel.stdout.matchAll(/› (\w) › body/g)].map((m) => m[1]),
    ["a", "b", "c", "d", "e", "f"],
  );
});

Deno.test("data: --data rows.csv and rows.json run each file per row; --repeat; html", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "signup.http":
      `POST ${httpbin.origin}/anything?user={{user}}\n\n?? body args.user == {{user}}\n?? body args.user != bob\n`,
    "rows.csv": "user,plan\nann,free\nbob,pro\n",
    "rows.json": JSON.stringify([{ user: "cy" }]),
  });
  const csv = await dial([
    ...["test", `${dir}/signup.http`, "--data", `${dir}/rows.csv`],
    ...["--reporter", "json"],
  ]);
  assert.equal(csv.code, 11, csv.stderr);
  const cases = (JSON.parse(csv.stdout) as {
    cases: { name: string; outcome: string; iteration: number; row: Record<string, string> }[];
  }).cases;
  assert.deepEqual(cases.map((c) => [c.iteration, c.row.user, c.name, c.outcome]), [
    [1, "ann", "body args.user == {{user}}", "passed"],
    [1, "ann", "body args.user != bob", "passed"],
    [2, "bob", "body args.user == {{user}}", "passed"],
    [2, "bob", "body args.user != bob", "failed"],
  ]);
  assert.deepEqual(cases[0]!.row, { user: "ann", plan: "free" });
  // Each request's phases ride on its first case.
  const timings = (JSON.parse(csv.stdout) as {
    cases: { timings?: { firstByteMs: number; downloadMs: number; totalMs: number } }[];
  }).cases.map((c) => c.timings);
  assert.ok(timings[0] && timings[0].firstByteMs <= timings[0].totalMs, JSON.stringify(timings));
  assert.equal(timings[1], undefined);
  const json = await dial([
    ...["test", `${dir}/signup.http`, "--data", `${dir}/rows.json`, "--repeat", "2"],
    ...["--reporter", "html", "--report-file", `${dir}/report.html`],
  ]);
  assert.equal(json.code, 0, json.stdout);
  assert.match(json.stdout, /signup\.http \[1\] › .* › body args.user == \{\{user\}\}/);
  assert.match(json.stdout, /signup\.http \[2\] › /);
  assert.match(json.stdout, /^4 passed, 0 failed, 0 errors/m);
  const page = await Deno.readTextFile(`${dir}/report.html`);
  assert.match(page, /^<!DOCTYPE html>/);
  assert.match(page, /<h1 class="passed">4 passed, 0 failed, 0 errors<\/h1>/);
  assert.match(page, /\{&quot;user&quot;:&quot;cy&quot;\}/);
  // Self-contained: no script, no link, no external source.
  assert.doesNotMatch(page, /<script|<link|src=|href=/);
  const missing = await dial(["test", `${dir}/signup.http`, "--data", `${dir}/none.csv`]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Cannot read data file .*none\.csv: no such file/);
});
