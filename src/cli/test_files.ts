/**
 * The `dial test` implementation: run every request of the files, collect the tests of
 * their handlers, print a line per test and a summary, write the report.
 * @module
 */
import { DialError, ErrorCode, ExitCode, UsageError } from "../errors/mod.ts";
import {
  casesOf,
  jsonReport,
  junitReport,
  prettyLine,
  prettySummary,
  tapReport,
  type TestCase,
  type TestReport,
} from "../files/reporters.ts";
import { runHttpFile } from "../files/run_http_file.ts";
import { checkFilePaths } from "../files/trust_rule.ts";
import { CookieJar } from "../http/cookies.ts";
import { paint, shown, Style } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import { dirOf, fileOAuth2Hooks, prepareFileRun, readHttpFile } from "./file_setup.ts";
import type { TestFlagValues } from "./file_test.ts";

/**
 * Runs `dial test`.
 *
 * @param paths files and directories
 * @param flags the flag values
 * @param context the Ctrl-C signal
 * @returns 0 when every test passed, 11 when one failed, an error's code when a request failed
 */
export async function testFiles(
  paths: string[],
  flags: TestFlagValues,
  context: CliContext,
): Promise<number> {
  if (!paths.length) {
    throw new UsageError("Missing request files", {
      hint: "dial test api.http or dial test tests/",
    });
  }
  let filter: RegExp | undefined;
  if (flags.filter !== undefined) {
    try {
      filter = new RegExp(flags.filter);
    } catch (error) {
      throw new UsageError(`Invalid --filter "${flags.filter}": ${(error as Error).message}`);
    }
  }
  const files = await collectFiles(paths);
  const setup = await prepareFileRun(flags, context, false);
  const out = context.stdout;
  const err = context.stderr;
  const live = flags.reporter === "pretty" || flags.reportFile !== undefined;
  const report: TestReport = { cases: [], durationMs: 0 };
  const globals = new Map<string, string>();
  const cookies = new CookieJar();
  const started = performance.now();
  let firstError: DialError | undefined;
  let stop = false;
  // Every file, its environment and the paths it names are checked before anything is sent:
  // what they may reach is the directory given (or the file's folder) and --allow-path.
  const prepared = [];
  for (const { path, root } of files) {
    const file = await readHttpFile(path, context);
    const confinement = await setup.confinementFor(root);
    const environment = await setup.environmentFor(dirOf(path), confinement);
    await checkFilePaths(file, confinement);
    prepared.push({ path, file, confinement, environment });
  }
  for (const { path, file, confinement, environment } of prepared) {
    if (stop) break;
    await runHttpFile(file, {
      ...(environment ? { environment } : {}),
      confinement,
      overrides: setup.overrides,
      oauth2: fileOAuth2Hooks(context),
      env: context.env,
      globals,
      cookies,
      keepGoing: true,
      ...(flags.failFast ? { failFast: true } : {}),
      ...(filter ? { filter } : {}),
      ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
      send: { transport: setup.transport, signal: context.signal },
      onLog: (text) => err.write(`${shown(err, text)}\n`),
      onResult: async (result) => {
        const cases = casesOf(path, [result]);
        report.cases.push(...cases);
        if (result.error) {
          if (result.error.code === ErrorCode.Interrupted) throw result.error;
          firstError ??= result.error;
        }
        if (flags.failFast && cases.some((c) => c.outcome !== "passed")) stop = true;
        if (live) { for (const c of cases) await out.write(line(c, out)); }
      },
    });
    if (context.signal.aborted) return ExitCode.Interrupted;
  }
  report.durationMs = performance.now() - started;
  const rendered = flags.reporter === "tap"
    ? tapReport(report)
    : flags.reporter === "junit"
    ? junitReport(report)
    : flags.reporter === "json"
    ? jsonReport(report)
    : undefined;
  if (flags.reportFile !== undefined) {
    await Deno.writeTextFile(flags.reportFile, rendered ?? stripPretty(report)).catch((error) => {
      throw new DialError(
        `Cannot write the report to ${flags.reportFile}: ${(error as Error).message}`,
        ErrorCode.Output,
        { cause: error },
      );
    });
  }
  if (live) await out.write(paint(prettySummary(report), Style.bold, out.color) + "\n");
  else if (rendered) await out.write(rendered);
  if (firstError) return firstError.exitCode;
  return report.cases.some((c) => c.outcome !== "passed") ? ExitCode.TestFailed : ExitCode.OK;
}

function line(c: TestCase, sink: { color: boolean; isTerminal: boolean }): string {
  const text = shown(sink, prettyLine(c));
  const style = c.outcome === "passed" ? Style.green : Style.red;
  return paint(text.slice(0, 1), style, sink.color) + text.slice(1) + "\n";
}

function stripPretty(report: TestReport): string {
  return report.cases.map((c) => prettyLine(c) + "\n").join("") + prettySummary(report) + "\n";
}

/**
 * Files, and the .http/.rest files below directories in name order, each with its run's root:
 * the directory given, or a file's own folder.
 */
async function collectFiles(paths: string[]): Promise<{ path: string; root: string }[]> {
  const files: { path: string; root: string }[] = [];
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch {
      throw new UsageError(`Cannot read ${path}: no such file or directory`);
    }
    if (!info.isDirectory) {
      files.push({ path, root: dirOf(path) });
      continue;
    }
    const found: string[] = [];
    const walk = async (dir: string) => {
      const entries: Deno.DirEntry[] = [];
      for await (const entry of Deno.readDir(dir)) entries.push(entry);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const child = `${dir.replace(/\/$/, "")}/${entry.name}`;
        if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
          await walk(child);
        } else if (entry.isFile && /\.(http|rest)$/.test(entry.name)) found.push(child);
      }
    };
    await walk(path);
    if (!found.length) throw new UsageError(`No .http or .rest files in ${path}`);
    files.push(...found.map((file) => ({ path: file, root: path })));
  }
  return files;
}
