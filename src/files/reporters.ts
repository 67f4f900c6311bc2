/**
 * Test reports of `dial test`: one model ({@link TestReport}) and four renderings (pretty,
 * TAP 14, JUnit XML, JSON). Pure: they return text; the CLI writes it.
 * @module
 */
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
}

/** Everything one `dial test` run found. */
export interface TestReport {
  /** The cases, in the order they ran. */
  cases: TestCase[];
  /** Wall time of the whole run. */
  durationMs: number;
}

/**
 * Turns one file's request results into test cases.
 *
 * @param file the file's path
 * @param results its requests' results
 * @returns the cases
 */
export function casesOf(file: string, results: readonly RequestResult[]): TestCase[] {
  const cases: TestCase[] = [];
  for (const result of results) {
    let first = true;
    const time = () => {
      const ms = first ? result.durationMs : 0;
      first = false;
      return ms;
    };
    for (const test of result.tests) {
      cases.push({
        file,
        request: result.label,
        name: test.name,
        outcome: test.passed ? "passed" : test.error ? "error" : "failed",
        ...(test.message !== undefined ? { message: test.message } : {}),
        durationMs: time() + test.durationMs,
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
      cases.push({
        file,
        request: result.label,
        name: result.skipped
          ? "skipped"
          : result.status === undefined
          ? "sent"
          : `HTTP ${result.status}`,
        outcome: "passed",
        durationMs: time(),
      });
    }
  }
  return cases;
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
  return `${mark} ${c.file} › ${c.request} › ${c.name}${why} (${ms(c.durationMs)})`;
}

/**
 * Renders the summary line.
 *
 * @param report a report
 * @returns the pretty summary line: `3 passed, 1 failed, 0 errors (120 ms)`
 */
export function prettySummary(report: TestReport): string {
  const s = summarize(report);
  return `${s.passed} passed, ${s.failed} failed, ${s.errors} errors (${ms(report.durationMs)})`;
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
    const title = `${c.file} › ${c.request} › ${c.name}`.replace(/#/g, "\\#").replace(/\n/g, " ");
    lines.push(`${c.outcome === "passed" ? "ok" : "not ok"} ${i + 1} - ${title}`);
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
      }" errors="${count("error")}" skipped="0" time="${seconds(time)}">`,
    );
    for (const c of cases) {
      const open = `    <testcase classname="${xml(file)}" name="${
        xml(`${c.request} › ${c.name}`)
      }" time="${seconds(c.durationMs)}"`;
      if (c.outcome === "passed") {
        out.push(`${open}/>`);
        continue;
      }
      const tag = c.outcome === "failed" ? "failure" : "error";
      const message = c.message ?? "failed";
      out.push(
        `${open}>`,
        `      <${tag} message="${xml(message)}">${xml(message)}</${tag}>`,
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
    { summary: summarize(report), durationMs: report.durationMs, cases: report.cases },
    null,
    2,
  ) + "\n";
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
