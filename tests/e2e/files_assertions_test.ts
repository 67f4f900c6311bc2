/**
 * httpyac's `??` assertions (fixtures/http/assertions.http: each operator on each subject),
 * run by dial and by httpyac (npm) on the same file against the same python3-httpbin: every
 * assertion has the same outcome, except dial's JSONPath lines, which httpyac does not read.
 * XPath with namespace prefixes (fixtures/http/xpath/) runs against Python's http.server.
 */
import assert from "node:assert/strict";
import { dial, dialEnv } from "../_helpers.ts";
import { startHttpbin } from "./_httpbin.ts";
import { childServer } from "../_process.ts";

const FIXTURE = new URL("./fixtures/http/assertions.http", import.meta.url).pathname;

interface Outcome {
  request: string;
  passed: boolean;
}

async function httpyacOutcomes(base: string, fixture = FIXTURE): Promise<Outcome[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      ...["run", "-A", "--quiet", "--no-config", "--no-lock", "npm:httpyac@6.16.7", "send"],
      ...[fixture, "--all", "-o", "none", "--json", "--var", `base=${base}`],
    ],
    clearEnv: true,
    env: dialEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    requests: { name: string; testResults: { status: string }[] }[];
  };
  return report.requests.flatMap((r) =>
    r.testResults.map((t) => ({ request: r.name, passed: t.status === "SUCCESS" }))
  );
}

Deno.test("assertions: every ?? line has httpyac's outcome on the same server", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    ...["test", FIXTURE, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(result.code, 11, result.stderr);
  const cases = (JSON.parse(result.stdout) as {
    cases: { request: string; name: string; outcome: string; message?: string }[];
  }).cases;
  const lines = (await Deno.readTextFile(FIXTURE)).split("\n").filter((l) => l.startsWith("??"));
  // One test per line, named by it.
  assert.deepEqual(cases.map((c) => `?? ${c.name}`), lines);
  const byName = new Map(cases.map((c) => [c.name, c]));
  assert.equal(byName.get("status == 404")?.message, "status (200) == 404");
  assert.equal(byName.get("body json.count <= 1")?.message, "json.count (2) <= 1");
  assert.match(byName.get("js nothing.here == 1")!.message!, /ReferenceError: .*nothing/);
  assert.match(byName.get("unknown thing == 1")!.message!, /Unknown assertion subject "unknown"/);
  // dial's JSONPath form, RFC 9535 over the JSON body.
  const jsonPath = cases.filter((c) => c.name.startsWith("$"));
  assert.deepEqual(jsonPath.map((c) => c.outcome), ["passed", "passed", "failed", "passed"]);

  const theirs = await httpyacOutcomes(httpbin.origin);
  const ours = cases.filter((c) => !c.name.startsWith("$"));
  const theirsWithout = theirs.filter((_, i) => !cases[i]!.name.startsWith("$"));
  assert.equal(theirs.length, cases.length);
  assert.deepEqual(
    ours.map((c) => `${c.request} › ${c.name}: ${c.outcome === "passed"}`),
    theirsWithout.map((t, i) => `${t.request} › ${ours[i]!.name}: ${t.passed}`),
  );
});

Deno.test("assertions: ?? xpath with # @xpath_ns prefixes has httpyac's outcomes (Python's http.server)", async () => {
  const folder = new URL("./fixtures/http/xpath/", import.meta.url).pathname;
  await using server = await childServer(
    "python3",
    ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder],
    { ready: /port \d+/ },
  );
  const base = `http://127.0.0.1:${/port (\d+)/.exec(server.line)![1]}`;
  const fixture = `${folder}namespaces.http`;
  const result = await dial(["test", fixture, "--reporter", "json", "--var", `base=${base}`]);
  const cases = (JSON.parse(result.stdout) as {
    cases: { request: string; name: string; outcome: string; message?: string }[];
  }).cases;
  assert.deepEqual(cases.map((c) => `${c.request} › ${c.name}: ${c.outcome}`), [
    'with prefixes › xpath //x:a == ["1","2"]: passed',
    "with prefixes › xpath count(//x:a) == 2: passed",
    "with prefixes › xpath //x:a[2] == 2: passed",
    "with prefixes › xpath //d:b == 3: passed",
    // A name without a prefix is in no namespace (XPath 1.0), so the default one is not matched.
    "with prefixes › xpath //b exists: failed",
    // The lines apply to every request of the file, as in httpyac.
    "another request › xpath count(//x:a) == 2: passed",
    "another request › xpath count(//y:a) == 2: failed",
    "another request › xpath count(/*) == 1: passed",
  ]);
  // An undeclared prefix is an error, said as such.
  assert.match(cases[6]!.message!, /Invalid XPath "count\(\/\/y:a\)"/);
  const theirs = await httpyacOutcomes(base, fixture);
  assert.deepEqual(
    theirs.map((t, i) => `${t.request} › ${cases[i]!.name}: ${t.passed}`),
    cases.map((c) => `${c.request} › ${c.name}: ${c.outcome === "passed"}`),
  );
});
