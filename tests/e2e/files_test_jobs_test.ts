/**
 * `dial test --jobs`, `--data`, `--repeat` and `--reporter html`: files run at once (a server
 * answers only when N requests are open at the same time), output and reports in file order
 * and identical to a serial run apart from timings; data rows as variables; iterations named.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { project, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";
import { dialOutcomes, newman, type Outcome } from "./_newman.ts";

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
  const cases = reportCases(csv.stdout);
  assert.deepEqual(cases.map((c) => [c.iteration, c.row?.user, c.name, c.outcome]), [
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

Deno.test("data: # @postman scripts read the row as pm.iterationData, as Newman's -d gives it", async () => {
  await using httpbin = await startHttpbin();
  const tests = [
    "const row = pm.iterationData;",
    "pm.test('row ' + row.get('user') + ' at ' + pm.info.iteration + ' of ' + pm.info.iterationCount, function () {",
    "  pm.expect(pm.response.json().args.u).to.eql(row.get('user'));",
    "});",
    "pm.test('plan ' + pm.variables.get('plan') + ' as data ' + data.plan, function () {",
    "  pm.expect(row.toObject()).to.have.property('plan', 'pro');",
    "});",
  ];
  const dir = await project({
    "rows.csv": "user,plan\nann,free\nbob,pro\n",
    "rows.http": `### Row\n# @postman\nGET ${httpbin.origin}/get?u={{user}}\n\n> {%\n${
      tests.join("\n")
    }\n%}\n`,
    "rows.postman.json": JSON.stringify({
      info: {
        name: "Rows",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      item: [{
        name: "Row",
        event: [{ listen: "test", script: { exec: tests } }],
        request: { method: "GET", url: `${httpbin.origin}/get?u={{user}}` },
      }],
    }),
  });
  const newman = await new Deno.Command(Deno.execPath(), {
    args: [
      ...["run", "-A", "--no-config", "--no-lock", "--quiet", "npm:newman@6.2.2", "run"],
      ...[`${dir}/rows.postman.json`, "-d", `${dir}/rows.csv`, "--reporters", "json"],
      ...["--reporter-json-export", `${dir}/newman.json`],
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(newman.code === 0 || newman.code === 1, new TextDecoder().decode(newman.stderr));
  const run = JSON.parse(await Deno.readTextFile(`${dir}/newman.json`)).run as {
    executions: { assertions?: { assertion: string; error?: unknown }[] }[];
  };
  const byNewman = run.executions.flatMap((e) =>
    (e.assertions ?? []).map((a) => `${a.assertion}: ${a.error ? "failed" : "passed"}`)
  );
  assert.deepEqual(byNewman, [
    "row ann at 0 of 2: passed",
    "plan free as data free: failed",
    "row bob at 1 of 2: passed",
    "plan pro as data pro: passed",
  ]);
  const result = await dial([
    ...["test", `${dir}/rows.http`, "--data", `${dir}/rows.csv`, "--reporter", "json"],
  ]);
  assert.equal(result.code, 11, result.stderr);
  const cases = reportCases(result.stdout);
  assert.deepEqual(cases.map((c) => `${c.name}: ${c.outcome}`), byNewman);
});

Deno.test("data: JSON values keep their types and unquoted CSV numbers are numbers, as Newman's -d gives them", async () => {
  await using httpbin = await startHttpbin();
  const names = ["n", "f", "b", "o", "a", "z", "s", "zip", "q"];
  const tests = [
    `for (const k of ${JSON.stringify(names)}) {`,
    "  if (!pm.iterationData.has(k)) continue;",
    "  const v = pm.iterationData.get(k);",
    "  pm.test(k + ' ' + typeof v + ' ' + JSON.stringify(v) + ' ' + typeof pm.variables.get(k) + ' ' + typeof data[k], function () {});",
    "}",
    "pm.test('sent ' + pm.response.json().data, function () {});",
  ];
  // Objects and arrays in {{}}: Newman writes [object Object] and 1,two; dial writes JSON.
  const body = "n={{n}} f={{f}} b={{b}} z={{z}} s={{s}} zip={{zip}} q={{q}}";
  const dir = await project({
    "rows.json": JSON.stringify([
      { n: 2, f: 1.5, b: true, o: { x: 1 }, a: [1, "two"], z: null, s: "text" },
    ]),
    "rows.csv": 'n,f,b,s,zip,q\n2,1.50,true,x,007,"12"\n',
    // z in the environment too: a row's null shadows it (Newman sends {{z}}); CSV has no z.
    "http-client.env.json": JSON.stringify({ e: { z: "env" } }),
    "e.postman_environment.json": JSON.stringify({
      name: "e",
      values: [{ key: "z", value: "env", enabled: true }],
    }),
    "types.http": `### Types\n# @postman\nPOST ${httpbin.origin}/anything\n\n${body}\n\n> {%\n${
      tests.join("\n")
    }\n%}\n`,
    "types.postman.json": JSON.stringify({
      info: {
        name: "Types",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      item: [{
        name: "Types",
        event: [{ listen: "test", script: { exec: tests } }],
        request: {
          method: "POST",
          url: `${httpbin.origin}/anything`,
          body: { mode: "raw", raw: body },
        },
      }],
    }),
  });
  // Newman's outcomes of the last rows file (rows.csv).
  let lastOutcomes: Outcome[] = [];
  for (const rows of ["rows.json", "rows.csv"]) {
    const { outcomes } = await newman(
      ["types.postman.json", "-d", rows, "-e", "e.postman_environment.json"],
      {
        cwd: dir,
        report: true,
      },
    );
    lastOutcomes = outcomes;
    const theirs = outcomes.map((o) => o.test);
    const result = await dial([
      ...["test", `${dir}/types.http`, "--data", `${dir}/${rows}`, "--env", "e"],
      ...["--reporter", "json"],
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(dialOutcomes(result.stdout).map((o) => o.test), theirs, rows);
    // The oracle itself: typed values (a mistake on both sides would pass otherwise).
    assert.ok(theirs.includes("n number 2 number number"), theirs.join("\n"));
    if (rows === "rows.json") {
      assert.ok(theirs.some((t) => t.startsWith("sent n=2 f=1.5 b=true z={{z}} s=text")), rows);
    }
  }
  assert.ok(
    lastOutcomes.some((o) => o.test === "sent n=2 f=1.5 b=true z=env s=x zip=7 q=12"),
  );
  // In a JetBrains request (no # @postman) the row's null is an undefined variable too.
  await Deno.writeTextFile(`${dir}/plain.http`, `POST ${httpbin.origin}/anything\n\nz={{z}}\n`);
  const plain = await dial([
    ...["test", `${dir}/plain.http`, "--data", `${dir}/rows.json`, "--env", "e"],
  ]);
  assert.equal(plain.code, 2, plain.stdout + plain.stderr);
  assert.match(plain.stdout + plain.stderr, /Undefined variable "z" in the body/);
  // --var is above the row: its value is sent.
  const given = await dial([
    ...["test", `${dir}/plain.http`, "--data", `${dir}/rows.json`, "--env", "e", "--var", "z=cli"],
  ]);
  assert.equal(given.code, 0, given.stdout + given.stderr);
  // dial's one difference: an object or array in {{}} is its JSON.
  const object = await project({
    "o.http":
      `POST ${httpbin.origin}/anything\n\n{"o": {{o}}, "a": {{a}}}\n\n?? body json.o.x == 1\n`,
    "rows.json": JSON.stringify([{ o: { x: 1 }, a: [1, "two"] }]),
  });
  const sent = await dial(["test", `${object}/o.http`, "--data", `${object}/rows.json`]);
  assert.equal(sent.code, 0, sent.stdout + sent.stderr);
});

Deno.test("repeat: a file's iterations share its script sandbox as Newman's do; other files and --jobs units do not", async () => {
  await using server = serve(() => new Response("ok"));
  const tests = [
    "var g = (function () { return this; })();",
    "pm.test(['iteration', pm.info.iteration, typeof g.leak, typeof leak2, typeof Object.prototype.leakFn, typeof g.viaVar].join(' '), function () {});",
    "g.leak = 1; leak2 = 2; Object.prototype.leakFn = function () {};",
    "var viaVar = 1;",
  ];
  const http = `### A\n# @postman\nGET ${server.origin}/a\n\n> {%\n${tests.join("\n")}\n%}\n`;
  const dir = await project({
    "a.http": http,
    "b.http": http,
    "a.postman.json": JSON.stringify({
      info: {
        name: "A",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      item: [{
        name: "A",
        event: [{ listen: "test", script: { exec: tests } }],
        request: { method: "GET", url: `${server.origin}/a` },
      }],
    }),
  });
  const { outcomes } = await newman(["a.postman.json", "-n", "2"], { cwd: dir, report: true });
  const theirs = outcomes.map((o) => o.test);
  assert.deepEqual(theirs, [
    "iteration 0 undefined undefined undefined undefined",
    "iteration 1 number number function undefined",
  ]);
  const names = async (args: string[]) => {
    const result = await dial(["test", ...args, "--repeat", "2", "--reporter", "json"]);
    assert.equal(result.code, 0, result.stderr);
    return dialOutcomes(result.stdout).map((o) => o.test);
  };
  assert.deepEqual(await names([`${dir}/a.http`]), theirs);
  // b.http's scripts never see a.http's (iteration 1 runs a, b; iteration 2 runs a, b).
  assert.deepEqual(await names([`${dir}/a.http`, `${dir}/b.http`]), [
    theirs[0],
    theirs[0],
    theirs[1],
    theirs[1],
  ]);
  // In parallel each unit has a sandbox of its own: no outcome depends on which ran first.
  assert.deepEqual(await names([`${dir}/a.http`, "--jobs", "2"]), [
    theirs[0],
    "iteration 1 undefined undefined undefined undefined",
  ]);
});
