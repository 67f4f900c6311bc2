/**
 * The `dial test` implementation: plan the units (`test_plan.ts`), run them (`--jobs` at a
 * time), print each unit's lines in plan order as soon as the units before it are done (a unit
 * that runs ahead waits in its lane), then the summary and the report.
 * @module
 */
import { DialError, ErrorCode, ExitCode, UsageError } from "../errors/mod.ts";
import {
  casesOf,
  fileErrorCase,
  htmlReport,
  jsonReport,
  junitReport,
  prettyLine,
  prettySummary,
  tapReport,
  type TestCase,
  type TestReport,
} from "../files/reporters.ts";
import { dataText } from "../files/data_rows.ts";
import type { Environment } from "../files/environment.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import { HttpFileSyntaxError } from "../files/parse_http_file.ts";
import { hasRequestNamed, runHttpFile, ScriptSessions } from "../files/run_http_file.ts";
import type { VariableValue } from "../files/substitute.ts";
import { checkFilePaths, type Confinement } from "../files/trust_rule.ts";
import { CookieJar } from "../http/cookies.ts";
import { paint, shown, type Sink, Style } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import {
  dirOf,
  fileOAuth2Hooks,
  filePrompt,
  type FileRunSetup,
  prepareFileRun,
  readHttpFile,
} from "./file_setup.ts";
import type { TestFlagValues } from "./file_test.ts";
import { lazy } from "./lazy.ts";
import { chooseDescription } from "./openapi_choice.ts";
import { type TestPlan, testPlan, type TestUnit } from "./test_plan.ts";

/** A file's contract checker (`--openapi`, `# @openapi`, an environment's `openapi`). */
type Checker = import("../openapi/contract_check.ts").ContractChecker;

/** How many times `postman.setNextRequest` may go back to an earlier file in one run. */
const MAX_JUMPS_BACK = 10_000;

/** What the units of a serial run share: `client.global`, cookies, each file's sandbox. */
interface UnitState {
  globals: Map<string, string>;
  cookies: CookieJar;
  /** The files' script sandboxes, kept from one iteration to the next. */
  scripts?: ScriptSessions;
}

/** What one unit did. */
interface UnitOutcome {
  cases: TestCase[];
  /** The first request or file that could not run. */
  error?: DialError;
  /** Whether a case did not pass. */
  failed: boolean;
}

/**
 * Runs `dial test`.
 *
 * @param paths files and directories
 * @param flags the flag values
 * @param context the Ctrl-C signal
 * @param fileName how the reports name a file (a collection run's, see TestPlan)
 * @returns 0 when every test passed, 11 when one failed, an error's code when a request failed
 */
export async function testFiles(
  paths: string[],
  flags: TestFlagValues,
  context: CliContext,
  fileName?: (path: string) => string,
): Promise<number> {
  const plan = await testPlan(paths, flags);
  if (fileName) plan.fileName = fileName;
  const setup = await prepareFileRun(flags, context, false);
  // The reports that show each request's phases time the name lookup apart from the connect.
  if (flags.reporter === "json" || flags.reporter === "junit" || flags.reporter === "html") {
    setup.transport = { ...setup.transport, measureLookup: true };
  }
  const started = performance.now();
  // Descriptions are read with the files, before anything is sent: a bad one stops the run.
  const openapi = { flags, setup, checks: undefined as OpenapiChecks | undefined };
  if (flags.openapi !== undefined) {
    // The command line's description first, even when no file parses.
    openapi.checks = await runChecks(flags, setup, context);
    await openapi.checks.checker({ spec: flags.openapi, namedBy: "--openapi" });
  }
  const files = await prepareFiles(plan, setup, context, openapi);
  const outcomes = await runUnits(plan, flags, setup, files, context);
  if (context.signal.aborted) return ExitCode.Interrupted;
  const report: TestReport = {
    cases: outcomes.flatMap((o) => o.cases),
    durationMs: performance.now() - started,
  };
  const coverage = await openapi.checks?.coverage();
  if (coverage) report.openapi = coverage;
  await printReport(report, flags, context.stdout);
  const error = outcomes.find((o) => o.error)?.error;
  if (error) return error.exitCode;
  return outcomes.some((o) => o.failed) ? ExitCode.TestFailed : ExitCode.OK;
}

/** The run's contract checks (the validator loads here, when a description applies). */
async function runChecks(
  flags: TestFlagValues,
  setup: FileRunSetup,
  context: CliContext,
): Promise<OpenapiChecks> {
  const { OpenapiChecks } = await lazy.openapiChecks();
  return new OpenapiChecks({
    transport: setup.transport,
    ...(flags.openapiBase !== undefined ? { base: flags.openapiBase } : {}),
  }, context);
}

/** A file ready to run, or why it cannot run (it is then one error case). */
type PreparedFile =
  | {
    file: HttpFile;
    confinement: Confinement;
    environment: Environment | undefined;
    checker?: Checker;
  }
  | { error: DialError };

/** The contract checks of a run, made when the first file names a description. */
type OpenapiChecks = import("./openapi_checks.ts").OpenapiChecks;

/**
 * Reads every file of the plan, its environment and the folders it may reach before anything is
 * sent: a path outside those folders or a refused environment value refuses the whole run
 * (nothing is sent); a file that does not parse is kept as an error, and the others run.
 */
async function prepareFiles(
  plan: TestPlan,
  setup: FileRunSetup,
  context: CliContext,
  openapi: { flags: TestFlagValues; setup: FileRunSetup; checks: OpenapiChecks | undefined },
): Promise<Map<string, PreparedFile>> {
  const prepared = new Map<string, PreparedFile>();
  for (const { path, root } of plan.units) {
    if (prepared.has(path)) continue;
    let file: HttpFile;
    try {
      file = await readHttpFile(path, context);
    } catch (error) {
      if (!(error instanceof HttpFileSyntaxError)) throw error;
      prepared.set(path, { error });
      continue;
    }
    // What a shared file may not do (reach outside, run a command) refuses the whole run.
    const confinement = await setup.confinementFor(root);
    const environment = await setup.environmentFor(dirOf(path), confinement);
    await checkFilePaths(file, confinement);
    const choice = await chooseDescription(file, environment, confinement, openapi.flags.openapi);
    let checker: Checker | undefined;
    if (choice) {
      openapi.checks ??= await runChecks(openapi.flags, setup, context);
      checker = await openapi.checks.checker(choice);
    }
    prepared.set(path, { file, confinement, environment, ...(checker ? { checker } : {}) });
  }
  return prepared;
}

/**
 * Runs the plan's units, `jobs` at a time, printing each unit's lines in plan order. With
 * `--fail-fast` no unit starts after one failed, and the units after the first failed one (in
 * plan order) are left out, as a serial run would have left them.
 */
async function runUnits(
  plan: TestPlan,
  flags: TestFlagValues,
  setup: FileRunSetup,
  files: Map<string, PreparedFile>,
  context: CliContext,
): Promise<UnitOutcome[]> {
  const units = [...plan.units];
  const lanes = units.map(() => new Lane());
  const outcomes: UnitOutcome[] = [];
  // Serially, files share client.global values and cookies, as they always did, and a file's
  // iterations its script sandbox (as Newman's do); in parallel each unit has its own, so that no
  // result depends on which file ran first.
  const shared: UnitState | undefined = plan.jobs > 1 ? undefined : {
    globals: new Map(),
    cookies: new CookieJar(),
    ...(plan.iterations > 1 ? { scripts: new ScriptSessions() } : {}),
  };
  let next = 0;
  let bail = false;
  const { ended, jumps, has, jump } = postmanFlow(plan, files, units, lanes);
  const worker = async () => {
    while (next < units.length) {
      const i = next++;
      if (bail || context.signal.aborted) {
        lanes[i]!.finish();
        continue;
      }
      const unit = units[i]!;
      const iteration = unit.iteration ?? 1;
      const target = jumps.get(iteration);
      if (target !== undefined && has(unit, target)) jumps.delete(iteration);
      if (ended.has(iteration) || (target !== undefined && !has(unit, target))) {
        outcomes[i] = { cases: [], failed: false };
        lanes[i]!.finish();
        continue;
      }
      const state = shared ?? { globals: new Map(), cookies: new CookieJar() };
      try {
        const prepared = files.get(unit.path)!;
        outcomes[i] = await runUnit(
          unit,
          prepared,
          plan,
          flags,
          setup,
          context,
          lanes[i]!,
          state,
          {
            endRun: () => ended.add(iteration),
            onJump: jump(i, iteration),
            ...(target !== undefined ? { startAt: target } : {}),
          },
        );
      } finally {
        lanes[i]!.finish();
      }
      if (flags.failFast && outcomes[i]!.failed) bail = true;
    }
  };
  const printer = async () => {
    for (let i = 0; i < lanes.length; i++) {
      await lanes[i]!.goLive();
      await lanes[i]!.done;
      if (flags.failFast && outcomes[i]?.failed) break;
    }
  };
  const workers = Array.from({ length: Math.min(plan.jobs, plan.units.length) }, worker);
  try {
    await Promise.all([...workers, printer()]);
  } finally {
    shared?.scripts?.dispose();
  }
  const kept: UnitOutcome[] = [];
  for (const outcome of outcomes) {
    if (!outcome) break;
    kept.push(outcome);
    if (flags.failFast && outcome.failed) break;
  }
  return kept;
}

/**
 * Postman's control flow across a run's files. Iterations a Postman script ended
 * (`postman.setNextRequest(null)`) run no later files; a jump to a request of a later file
 * (`setNextRequest(name)`) leaves out the files between; a jump back to an earlier file goes on
 * there as the collection's order has it: the iteration's files still to come are replaced by
 * that file and the ones after it (a serial run only).
 *
 * @param units the run's units, in the order they run (a jump back adds to them)
 * @param lanes their output lanes (kept alongside)
 */
function postmanFlow(
  plan: TestPlan,
  files: Map<string, PreparedFile>,
  units: TestUnit[],
  lanes: Lane[],
) {
  const ended = new Set<number>();
  const jumps = new Map<number, string>();
  const has = (u: TestUnit, name: string) => {
    const prepared = files.get(u.path);
    return prepared !== undefined && !("error" in prepared) && hasRequestNamed(prepared.file, name);
  };
  let backs = 0;
  const jump = (i: number, iteration: number) => (name: string) => {
    const here = plan.units.indexOf(units[i]!);
    // Newman goes to the collection's first request of that name.
    const target = plan.units.findIndex((u) => (u.iteration ?? 1) === iteration && has(u, name));
    // A name no file has ends the iteration, as an unknown name ends Newman's run.
    if (target < 0) ended.add(iteration);
    else if (target > here) jumps.set(iteration, name);
    else {
      if (plan.jobs > 1) {
        throw new UsageError(
          `postman.setNextRequest("${name}") goes back to an earlier file, which --jobs ${plan.jobs} cannot do (run with --jobs 1)`,
        );
      }
      // Newman has no bound; a script that always jumps back would run forever.
      if (++backs > MAX_JUMPS_BACK) {
        throw new UsageError(
          `postman.setNextRequest jumped back to an earlier file more than ${MAX_JUMPS_BACK} times`,
        );
      }
      const of = (u: TestUnit | undefined) => u && (u.iteration ?? 1);
      let last = target;
      while (of(plan.units[last + 1]) === iteration) last++;
      let coming = 0;
      while (of(units[i + 1 + coming]) === iteration) coming++;
      const again = plan.units.slice(target, last + 1);
      units.splice(i + 1, coming, ...again);
      lanes.splice(i + 1, coming, ...again.map(() => new Lane()));
      jumps.set(iteration, name);
    }
    return true;
  };
  return { ended, jumps, has, jump };
}

/** One file, once: its cases, printed into its lane as they come. */
async function runUnit(
  unit: TestUnit,
  prepared: PreparedFile,
  plan: TestPlan,
  flags: TestFlagValues,
  setup: FileRunSetup,
  context: CliContext,
  lane: Lane,
  state: UnitState,
  postman: { endRun: () => void; onJump: (name: string) => boolean; startAt?: string },
): Promise<UnitOutcome> {
  const out = context.stdout;
  const err = context.stderr;
  const live = flags.reporter === "pretty" || flags.reportFile !== undefined;
  const outcome: UnitOutcome = { cases: [], failed: false };
  const record = async (cases: TestCase[], error?: DialError) => {
    for (const c of cases) {
      if (plan.fileName) {
        const name = plan.fileName(c.file);
        if (c.message !== undefined) c.message = c.message.replaceAll(c.file, name);
        c.file = name;
      }
      if (unit.iteration !== undefined) c.iteration = unit.iteration;
      if (unit.row) c.row = unit.row;
      if (c.outcome !== "passed") outcome.failed = true;
      outcome.cases.push(c);
      if (live) await lane.write(out, line(c, out));
    }
    if (error) outcome.error ??= error;
  };
  // The row's values as variables (below --var NAME=VALUE, see runHttpFile's iteration).
  const rowVariables = new Map<string, VariableValue>();
  for (const [name, value] of Object.entries(unit.row ?? {})) {
    const text = dataText(value);
    if (text !== undefined) rowVariables.set(name, text);
  }
  try {
    if ("error" in prepared) throw prepared.error;
    const { file, confinement, environment, checker } = prepared;
    const violations = checker && (await lazy.openapiChecks()).violationTests;
    await runHttpFile(file, {
      ...(environment ? { environment } : {}),
      confinement,
      overrides: setup.overrides,
      oauth2: fileOAuth2Hooks(context),
      prompt: filePrompt(context),
      env: context.env,
      scriptOrigins: setup.scriptOrigins,
      onEndRun: postman.endRun,
      onJump: postman.onJump,
      ...(postman.startAt !== undefined ? { startAt: postman.startAt } : {}),
      globals: state.globals,
      cookies: state.cookies,
      ...(state.scripts ? { scriptSessions: state.scripts } : {}),
      iteration: {
        index: (unit.iteration ?? 1) - 1,
        count: plan.iterations,
        ...(unit.row ? { data: unit.row, variables: rowVariables } : {}),
      },
      keepGoing: true,
      ...(flags.failFast ? { failFast: true, stop: () => outcome.failed } : {}),
      ...(plan.filter ? { filter: plan.filter } : {}),
      ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
      send: { transport: setup.transport, signal: context.signal },
      ...(checker && violations
        ? { checkExchange: (exchange) => violations(checker, exchange) }
        : {}),
      onLog: (text) => lane.write(err, `${shown(err, text)}\n`),
      onNotice: (text) => lane.write(err, `warning: ${shown(err, text)}\n`),
      onResult: async (result) => {
        if (result.error?.code === ErrorCode.Interrupted) throw result.error;
        await record(casesOf([result], plan.failStatus), result.error);
      },
    });
  } catch (error) {
    // A file that cannot run is one error case; the others still run.
    if (!(error instanceof DialError) || error.code === ErrorCode.Interrupted) throw error;
    await record([fileErrorCase(unit.path, error.message)], error);
  }
  return outcome;
}

async function printReport(report: TestReport, flags: TestFlagValues, out: Sink): Promise<void> {
  const rendered = flags.reporter === "tap"
    ? tapReport(report)
    : flags.reporter === "junit"
    ? junitReport(report)
    : flags.reporter === "json"
    ? jsonReport(report)
    : flags.reporter === "html"
    ? htmlReport(report)
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
  const live = flags.reporter === "pretty" || flags.reportFile !== undefined;
  if (live) await out.write(paint(prettySummary(report), Style.bold, out.color) + "\n");
  // A report holds what servers sent: on a terminal, their control characters are escaped.
  else if (rendered) await out.write(shown(out, rendered));
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
 * The output of one unit: written through while it is the unit being shown, held until then.
 */
class Lane {
  #held: [Sink, string | Uint8Array][] = [];
  #live = false;
  #finished!: () => void;
  /** Settles when the unit is done (or was skipped). */
  readonly done: Promise<void> = new Promise((resolve) => (this.#finished = resolve));

  /** Writes now when live, else holds. */
  async write(sink: Sink, data: string | Uint8Array): Promise<void> {
    if (this.#live) await sink.write(data);
    else this.#held.push([sink, data]);
  }

  /** Writes what was held, then writes through. */
  async goLive(): Promise<void> {
    while (this.#held.length) {
      const [sink, data] = this.#held.shift()!;
      await sink.write(data);
    }
    this.#live = true;
  }

  finish(): void {
    this.#finished();
  }
}
