/**
 * Test reports of `dial test`: one model ({@link TestReport}) and five renderings (pretty,
 * TAP 14, JUnit XML, JSON, HTML). Pure: they return text; the CLI writes it.
 * @module
 */
import type { DataRow } from "./data_rows.ts";
import type { RequestResult } from "./run_http_file.ts";

/** One test case: a `client.test`, a failed `client.assert`, or a request without tests. */
export interface TestCase {
  /** The request file. */
  file: string;
  /** The request's label. */
  request: string;
  /** The test's name (the request's status line for a request without tests). */
  name: string;
  /** passed, failed (an assertion), or error (the request or a script failed). */
  outcome: "passed" | "failed" | "error";
  /** Why it failed. */
  message?: string;
  /** Milliseconds (the request's time goes to its first case). */
  durationMs: number;
  /** The request's timings (on its first case). */
  timings?: CaseTimings;
  /** What the request's scripts logged (`console.log`, `client.log`), on its first case. */
  logs?: string[];
  /** 1-based iteration of a run with several (`--repeat`, `--data`). */
  iteration?: number;
  /** The data row of the iteration (`--data`). */
  row?: DataRow;
  /**
   * The request was not sent on purpose (`# @disabled`, `$cancel`, `# @note` answered no): a
   * passed case named `skipped`, and JUnit's `<skipped/>`, TAP's `# SKIP`.
   */
  skipped?: true;
}

/**
 * A request's timings in milliseconds. `firstByteMs` and `totalMs` count from sending
 * (redirects included), `downloadMs` is the body after the head; the phases (when dial's client
 * made the exchange) are the final hop's durations, the name lookup (`dnsMs`) apart from the
 * connect.
 */
export interface CaseTimings {
  /** Before the final hop: redirects, a Digest challenge, the credential step. */
  blockedMs?: number;
  /** The host name's lookup (0 for an IP address or a kept-alive connection). */
  dnsMs?: number;
  /** TCP connect (0 on a kept-alive connection); the name lookup too when `dnsMs` is absent. */
  connectMs?: number;
  /** TLS handshake and proxy tunnel (0 without TLS or on a kept-alive connection). */
  tlsMs?: number;
  /** Writing the request until the response's first byte. */
  waitMs?: number;
  /** Sending until the response's head arrived. */
  firstByteMs: number;
  /** Reading the body after the head. */
  downloadMs: number;
  /** Sending until the body's end. */
  totalMs: number;
  /** Whether the final hop reused a kept-alive connection. */
  reused?: boolean;
}

/** Everything one `dial test` run found. */
export interface TestReport {
  /** The cases, in the order they ran. */
  cases: TestCase[];
  /** Wall time of the whole run. */
  durationMs: number;
  /** With `--openapi`: how many of the description's operations the run exercised. */
  openapi?: { exercised: number; total: number; missing: string[] };
}

/**
 * Turns request results into test cases. A request with tests of its own (handlers'
 * `client.test`, `??` lines) is its tests; one without is one case that fails from `failStatus`.
 *
 * @param results requests' results
 * @param failStatus the least status a request without tests fails at (default 500)
 * @returns the cases
 */
export function casesOf(results: readonly RequestResult[], failStatus = 500): TestCase[] {
  const cases: TestCase[] = [];
  for (const result of results) {
    const file = result.file;
    const start = cases.length;
    const timings = caseTimings(result);
    // The request's own time (sending, reading, its scripts) goes to its first case; each test
    // keeps its own, so the cases add up to the request's time (which holds its tests).
    let rest = Math.max(
      0,
      result.durationMs - result.tests.reduce((sum, t) => sum + t.durationMs, 0),
    );
    const time = (own = 0) => {
      const ms = own + rest;
      rest = 0;
      return ms;
    };
    for (const test of result.tests) {
      cases.push({
        file,
        request: result.label,
        name: test.name,
        outcome: test.passed ? "passed" : test.error ? "error" : "failed",
        ...(test.message !== undefined ? { message: test.message } : {}),
        durationMs: time(test.durationMs),
      });
    }
    if (result.error) {
      cases.push({
        file,
        request: result.label,
        name: "request",
        outcome: "error",
        message: result.error.message,
        durationMs: time(),
      });
    } else if (result.tests.length === 0) {
      // A gRPC status other than OK fails as an error status does.
      const failed = !result.skipped &&
        (result.grpc
          ? result.grpc.code !== 0
          : result.status !== undefined && result.status >= failStatus);
      cases.push({
        file,
        request: result.label,
        name: result.skipped
          ? "skipped"
          : result.grpc
          ? `gRPC ${result.grpc.name}`
          : result.status === undefined
          ? result.request.region ? "ran" : "sent"
          : `HTTP ${result.status}`,
        outcome: failed ? "failed" : "passed",
        ...(failed ? { message: "an error status, and the request has no tests" } : {}),
        ...(result.skipped ? { skipped: true as const } : {}),
        durationMs: time(),
      });
    }
    if (timings && cases[start]) cases[start].timings = timings;
    if (result.logs?.length && cases[start]) cases[start].logs = [...result.logs];
  }
  return cases;
}

function caseTimings(result: RequestResult): CaseTimings | undefined {
  const t = result.timings;
  if (!t) return undefined;
  const p = t.phases;
  return {
    ...(p
      ? {
        blockedMs: p.blockedMs,
        ...(p.dnsMs !== undefined ? { dnsMs: p.dnsMs } : {}),
        connectMs: p.connectMs,
        tlsMs: p.tlsMs,
        waitMs: p.waitMs,
      }
      : {}),
    firstByteMs: t.firstByteMs,
    downloadMs: t.totalMs - t.firstByteMs,
    totalMs: t.totalMs,
    ...(p ? { reused: p.reused } : {}),
  };
}

/**
 * Words a case's timings: `connect 1 ms, TLS 0 ms, wait 3 ms, first byte 4 ms, download 0 ms,
 * total 4 ms` (the phases only when they were measured; `(kept-alive)` on a reused connection).
 *
 * @param t the timings
 * @returns one line
 */
export function timingsLine(t: CaseTimings): string {
  const parts: string[] = [];
  if (t.dnsMs !== undefined) parts.push(`DNS ${ms(t.dnsMs)}`);
  if (t.connectMs !== undefined) parts.push(`connect ${ms(t.connectMs)}`);
  if (t.tlsMs !== undefined) parts.push(`TLS ${ms(t.tlsMs)}`);
  if (t.waitMs !== undefined) parts.push(`wait ${ms(t.waitMs)}`);
  parts.push(
    `first byte ${ms(t.firstByteMs)}`,
    `download ${ms(t.downloadMs)}`,
    `total ${ms(t.totalMs)}`,
  );
  return parts.join(", ") + (t.reused ? " (kept-alive)" : "");
}

/** Counts of a report. */
export interface Summary {
  /** All cases. */
  total: number;
  /** Passed. */
  passed: number;
  /** Failed assertions. */
  failed: number;
  /** Errors. */
  errors: number;
}

/**
 * A file that could not run at all (it does not parse, its environment is broken): one error
 * case, so that the run goes on and the reports say so.
 *
 * @param file the file's path
 * @param message why, naming the file and line
 * @returns the case
 */
export function fileErrorCase(file: string, message: string): TestCase {
  return { file, request: "(file)", name: "file", outcome: "error", message, durationMs: 0 };
}

/**
 * Counts a report's outcomes.
 *
 * @param report a report
 * @returns its counts
 */
export function summarize(report: TestReport): Summary {
  const count = (o: TestCase["outcome"]) => report.cases.filter((c) => c.outcome === o).length;
  return {
    total: report.cases.length,
    passed: count("passed"),
    failed: count("failed"),
    errors: count("error"),
  };
}

/**
 * Renders one case for people.
 *
 * @param c a case
 * @returns its line in the pretty report, without colour: `✓ file › request › test (12 ms)`
 */
export function prettyLine(c: TestCase): string {
  const mark = c.outcome === "passed" ? "✓" : "✗";
  const why = c.message !== undefined && c.outcome !== "passed" ? `: ${c.message}` : "";
  return `${mark} ${where(c)} › ${c.request} › ${c.name}${why} (${ms(c.durationMs)})`;
}

/**
 * Renders the summary line.
 *
 * @param report a report
 * @returns the pretty summary line: `3 passed, 1 failed, 0 errors (120 ms)`
 */
export function prettySummary(report: TestReport): string {
  const s = summarize(report);
  const line = `${s.passed} passed, ${s.failed} failed, ${s.errors} errors (${
    ms(report.durationMs)
  })`;
  const o = report.openapi;
  if (!o) return line;
  const missing = o.missing.length ? `\nnever called: ${o.missing.join(", ")}` : "";
  return `${line}\nopenapi: ${o.exercised}/${o.total} operations exercised${missing}`;
}

/**
 * Renders a report for people.
 *
 * @param report a report
 * @returns the pretty report: one line per case and the summary
 */
export function prettyReport(report: TestReport): string {
  return report.cases.map((c) => prettyLine(c) + "\n").join("") + prettySummary(report) + "\n";
}

/**
 * Renders a report as TAP.
 *
 * @param report a report
 * @returns TAP version 14
 * @see https://testanything.org/tap-version-14-specification.html
 */
export function tapReport(report: TestReport): string {
  const lines = ["TAP version 14", `1..${report.cases.length}`];
  report.cases.forEach((c, i) => {
    const title = `${where(c)} › ${c.request} › ${c.name}`.replace(/#/g, "\\#").replace(/\n/g, " ");
    const skip = c.skipped ? " # SKIP" : "";
    lines.push(`${c.outcome === "passed" ? "ok" : "not ok"} ${i + 1} - ${title}${skip}`);
    if (c.outcome !== "passed") {
      lines.push("  ---");
      lines.push(`  message: ${JSON.stringify(c.message ?? "failed")}`);
      lines.push(`  severity: ${c.outcome === "error" ? "error" : "fail"}`);
      lines.push(`  duration_ms: ${Math.round(c.durationMs)}`);
      lines.push("  ...");
    }
  });
  return lines.join("\n") + "\n";
}

/**
 * Renders a report as JUnit XML.
 *
 * @param report a report
 * @returns JUnit XML: one `<testsuite>` per file, one `<testcase>` per case
 */
export function junitReport(report: TestReport): string {
  const s = summarize(report);
  const files = [...new Set(report.cases.map((c) => c.file))];
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dial test" tests="${s.total}" failures="${s.failed}" errors="${s.errors}" time="${
      seconds(report.durationMs)
    }">`,
  ];
  for (const file of files) {
    const cases = report.cases.filter((c) => c.file === file);
    const count = (o: TestCase["outcome"]) => cases.filter((c) => c.outcome === o).length;
    const time = cases.reduce((sum, c) => sum + c.durationMs, 0);
    out.push(
      `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${
        count("failed")
      }" errors="${count("error")}" skipped="${cases.filter((c) => c.skipped).length}" time="${
        seconds(time)
      }">`,
    );
    for (const c of cases) {
      const iteration = c.iteration === undefined ? "" : ` [${c.iteration}]`;
      const open = `    <testcase classname="${xml(file)}" name="${
        xml(`${c.request} › ${c.name}${iteration}`)
      }" time="${seconds(c.durationMs)}"`;
      const said = [
        ...(c.timings ? [timingsLine(c.timings)] : []),
        ...(c.logs ?? []),
      ];
      const timings = said.length ? [`      <system-out>${xml(said.join("\n"))}</system-out>`] : [];
      if (c.outcome === "passed") {
        const inside = [...(c.skipped ? ["      <skipped/>"] : []), ...timings];
        out.push(inside.length ? `${open}>` : `${open}/>`);
        if (inside.length) out.push(...inside, "    </testcase>");
        continue;
      }
      const tag = c.outcome === "failed" ? "failure" : "error";
      const message = c.message ?? "failed";
      out.push(
        `${open}>`,
        `      <${tag} message="${xml(message)}">${xml(message)}</${tag}>`,
        ...timings,
        "    </testcase>",
      );
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return out.join("\n") + "\n";
}

/**
 * Renders a report as JSON.
 *
 * @param report a report
 * @returns the report as JSON: summary and cases
 */
export function jsonReport(report: TestReport): string {
  return JSON.stringify(
    {
      summary: summarize(report),
      durationMs: report.durationMs,
      ...(report.openapi ? { openapi: report.openapi } : {}),
      cases: report.cases,
    },
    null,
    2,
  ) + "\n";
}

/** The file, and the iteration when there are several: `api.http [2]`. */
function where(c: TestCase): string {
  return c.iteration === undefined ? c.file : `${c.file} [${c.iteration}]`;
}

/**
 * Renders a report as one self-contained HTML page (no script, no external file): the summary,
 * then a table per file with each case, its outcome, time and message.
 *
 * @param report a report
 * @returns the page
 */
export function htmlReport(report: TestReport): string {
  const s = summarize(report);
  const files = [...new Set(report.cases.map((c) => c.file))];
  const sections = files.map((file) => {
    const rows = report.cases.filter((c) => c.file === file).map((c) => {
      const row = c.row ? ` <span class="row">${html(JSON.stringify(c.row))}</span>` : "";
      const phases = c.timings ? `<div class="phases">${html(timingsLine(c.timings))}</div>` : "";
      const logs = c.logs?.length
        ? `\n<tr class="logs"><td></td><td></td><td colspan="4"><pre>${
          html(c.logs.join("\n"))
        }</pre></td></tr>`
        : "";
      return `<tr class="${c.outcome}"><td>${c.outcome === "passed" ? "✓" : "✗"}</td><td>${
        c.iteration === undefined ? "" : c.iteration
      }${row}</td><td>${html(c.request)}</td><td>${html(c.name)}</td><td>${
        html(c.message ?? "")
      }${phases}</td><td class="ms">${ms(c.durationMs)}</td></tr>${logs}`;
    });
    return `<section><h2>${
      html(file)
    }</h2><table><thead><tr><th></th><th>#</th><th>request</th><th>test</th><th>message</th><th>time</th></tr></thead><tbody>\n${
      rows.join("\n")
    }\n</tbody></table></section>`;
  });
  const status = s.failed + s.errors === 0 ? "passed" : "failed";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dial test: ${s.passed} passed, ${s.failed} failed, ${s.errors} errors</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1.passed{color:#1a7f37}h1.failed{color:#cf222e}
table{border-collapse:collapse;width:100%;margin-bottom:2em}
th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #ddd;vertical-align:top}
td:nth-child(5){white-space:pre-wrap;word-break:break-word;font-family:ui-monospace,monospace}
tr.passed td:first-child{color:#1a7f37}tr.failed td:first-child,tr.error td:first-child{color:#cf222e}
tr.error{background:#fff5f5}.ms{white-space:nowrap;text-align:right}.row{color:#666;font-size:90%}
.phases{color:#666;font-size:90%;font-family:system-ui,sans-serif}
tr.logs pre{margin:0;font:12px/1.3 ui-monospace,monospace;color:#444;white-space:pre-wrap}
</style></head><body>
<h1 class="${status}">${s.passed} passed, ${s.failed} failed, ${s.errors} errors</h1>
<p>${s.total} cases in ${files.length} files, ${ms(report.durationMs)}</p>
${sections.join("\n")}
</body></html>
`;
}

// deno-lint-ignore no-control-regex -- a page shows server text; its controls become visible
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Escapes text for HTML, control characters shown as escapes. */
function html(text: string): string {
  return text
    .replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

function seconds(value: number): string {
  return (value / 1000).toFixed(3);
}

/** Escapes text for XML 1.0, dropping the characters it cannot hold. */
function xml(text: string): string {
  return text
    // deno-lint-ignore no-control-regex -- XML 1.0 cannot hold these characters
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
