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
  assert.match(byName.get("unknown thing == 1")!.message!, /Unknown assertion subject "unknown"/);
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
