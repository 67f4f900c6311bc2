/**
 * httpyac's `??` assertions (fixtures/http/assertions.http: each operator on each subject),
 * run by dial and by httpyac (npm) on the same file against the same python3-httpbin: every
 * assertion has the same outcome, except dial's JSONPath lines, which httpyac does not read.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { httpyacOutcomes, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";

const FIXTURE = new URL("./fixtures/http/assertions.http", import.meta.url).pathname;

Deno.test("assertions: every ?? line has httpyac's outcome on the same server", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    ...["test", FIXTURE, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(result.code, 11, result.stderr);
  const cases = reportCases(result.stdout);
  const lines = (await Deno.readTextFile(FIXTURE)).split("\n").filter((l) => l.startsWith("??"));
  // One test per line, named by it.
  assert.deepEqual(cases.map((c) => `?? ${c.name}`), lines);
  const byName = new Map(cases.map((c) => [c.name, c]));
  assert.equal(byName.get("status == 404")?.message, "status (200) == 404");
  assert.equal(byName.get("body json.count <= 1")?.message, "json.count (2) <= 1");
  assert.match(byName.get("js nothing.here == 1")!.message!, /ReferenceError: .*nothing/);
  // A subject httpyac gives no value is false there: a warning, and the value false.
  assert.match(result.stderr, /Unknown assertion subject "unknown"/);
  assert.equal(byName.get("unknown thing == 1")!.message, "thing (false) == true");
  // dial's JSONPath form, RFC 9535 over the JSON body.
  const jsonPath = cases.filter((c) => c.name.startsWith("$"));
  assert.deepEqual(jsonPath.map((c) => c.outcome), ["passed", "passed", "failed", "passed"]);

  const theirs = await httpyacOutcomes(FIXTURE, httpbin.origin);
  const ours = cases.filter((c) => !c.name.startsWith("$"));
  const theirsWithout = theirs.filter((_, i) => !cases[i]!.name.startsWith("$"));
  assert.equal(theirs.length, cases.length);
  assert.deepEqual(
    ours.map((c) => `${c.request} › ${c.name}: ${c.outcome === "passed"}`),
    theirsWithout.map((t, i) => `${t.request} › ${ours[i]!.name}: ${t.passed}`),
  );
});

const EDGES = new URL("./fixtures/http/assertions_edges.http", import.meta.url).pathname;

Deno.test("assertions: httpyac's edges (letter case, greedy values, empty and trailing expected text, unknown subjects, phases, response fields) have httpyac's outcomes", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    ...["test", EDGES, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(result.code, 11, result.stderr);
  // Lines httpyac reads no test from are skipped, each with a warning naming its line.
  for (
    const [line, why] of [
      [15, 'operator "EQUALS"'],
      [17, 'operator "Exists"'],
      [72, 'operator "Exists"'],
      [81, 'operator "Exists"'],
      [115, "skipped: expected"],
    ] as const
  ) {
    assert.match(
      result.stderr,
      new RegExp(`assertions_edges\\.http:${line}:1: The assertion .*${why}`),
    );
  }
  assert.match(result.stderr, /:16:1: Unknown assertion subject "Status".*its value is false/);
  const cases = reportCases(result.stdout);
  const theirs = await httpyacOutcomes(EDGES, httpbin.origin);
  assert.equal(cases.length, theirs.length);
  // Request by request, test by test: the same outcome, but for two documented differences.
  const differ = cases.filter((c, i) =>
    c.request !== theirs[i]!.request || (c.outcome === "passed") !== theirs[i]!.passed
  );
  assert.deepEqual(differ.map((c) => `${c.name}: ${c.outcome}`), [
    // got's raw body Buffer: dial's sandbox has none.
    "js response.rawBody exists: failed",
    // An undefined variable is an error in dial, as everywhere in a file; httpyac compares "{{missing}}".
    "body json.message != {{missing}}: failed",
  ]);
  assert.match(differ[1]!.message!, /Undefined variable "missing" in the assertion/);
  const byName = new Map(cases.map((c) => [c.name, c]));
  // The expected text keeps its trailing spaces, as httpyac's pattern does (the name does not).
  assert.deepEqual(
    cases.filter((c) => c.name === "header content-type == application/json").map((c) => c.outcome),
    ["failed", "passed"],
  );
  assert.equal(byName.get("unknown isFalse")?.outcome, "passed");
  assert.equal(byName.get("body ==")?.outcome, "passed");
});
