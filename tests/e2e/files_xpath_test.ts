/**
 * httpyac's `?? xpath` with `@xpath_ns prefix=uri` lines (fixtures/http/xpath/namespaces.http),
 * run by dial and by httpyac (npm) against Python's http.server serving an XML file
 * (application/xml): every assertion has httpyac's outcome. XPath without prefixes is part of
 * fixtures/http/assertions.http (files_assertions_test.ts).
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { childServer } from "../_process.ts";
import { httpyacOutcomes, reportCases } from "./_files.ts";

const FOLDER = new URL("./fixtures/http/xpath/", import.meta.url).pathname;
const FIXTURE = `${FOLDER}namespaces.http`;

Deno.test("assertions: ?? xpath with @xpath_ns prefixes has httpyac's outcomes (Python's http.server)", async () => {
  await using server = await childServer(
    "python3",
    ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", FOLDER],
    { ready: /port \d+/ },
  );
  const base = `http://127.0.0.1:${/port (\d+)/.exec(server.line)![1]}`;
  const result = await dial(["test", FIXTURE, "--reporter", "json", "--var", `base=${base}`]);
  const cases = reportCases(result.stdout);
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
  const theirs = await httpyacOutcomes(FIXTURE, base);
  assert.deepEqual(
    theirs.map((t, i) => `${t.request} › ${cases[i]!.name}: ${t.passed}`),
    cases.map((c) => `${c.request} › ${c.name}: ${c.outcome === "passed"}`),
  );
});
