// The test cases of dial test's reports, made from request results: which case carries a
// request's time, timings and log lines.
import assert from "node:assert/strict";
import { casesOf, timingsLine } from "../../../src/files/reporters.ts";
import { parseHttpFile } from "../../../src/files/parse_http_file.ts";
import type { RequestResult } from "../../../src/files/run_http_file.ts";

const request = parseHttpFile("### one\nGET http://x/\n", "t.http").requests[0]!;

function result(over: Partial<RequestResult>): RequestResult {
  return {
    request,
    file: "t.http",
    label: "one",
    status: 200,
    durationMs: 100,
    tests: [],
    ...over,
  };
}

Deno.test("reports: a request's cases add up to its time, each test keeping its own", () => {
  const cases = casesOf([result({
    tests: [
      { name: "a", passed: true, durationMs: 30 },
      { name: "b", passed: false, message: "no", durationMs: 20 },
    ],
    logs: ["hello"],
    timings: {
      firstByteMs: 8,
      totalMs: 10,
      phases: { blockedMs: 0, connectMs: 1, tlsMs: 2, waitMs: 4, reused: false },
    },
  })]);
  assert.deepEqual(cases.map((c) => [c.name, c.outcome, c.durationMs]), [
    ["a", "passed", 80],
    ["b", "failed", 20],
  ]);
  // Timings and log lines ride on the first case only.
  assert.deepEqual(cases[0]!.logs, ["hello"]);
  assert.equal(cases[1]!.logs, undefined);
  assert.deepEqual(cases[0]!.timings, {
    blockedMs: 0,
    connectMs: 1,
    tlsMs: 2,
    waitMs: 4,
    firstByteMs: 8,
    downloadMs: 2,
    totalMs: 10,
    reused: false,
  });
  assert.equal(cases[1]!.timings, undefined);
  assert.equal(
    timingsLine(cases[0]!.timings!),
    "connect 1 ms, TLS 2 ms, wait 4 ms, first byte 8 ms, download 2 ms, total 10 ms",
  );
});

Deno.test("reports: without tests a request is one case with its time; phases only when measured", () => {
  const [only] = casesOf([result({ status: 503, timings: { firstByteMs: 3, totalMs: 5 } })]);
  assert.deepEqual([only!.name, only!.outcome, only!.durationMs], ["HTTP 503", "failed", 100]);
  assert.equal(timingsLine(only!.timings!), "first byte 3 ms, download 2 ms, total 5 ms");
  const reused = { firstByteMs: 1, downloadMs: 0, totalMs: 1, connectMs: 0, tlsMs: 0, waitMs: 1 };
  assert.match(timingsLine({ ...reused, reused: true }), / \(kept-alive\)$/);
});
