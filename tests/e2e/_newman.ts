/**
 * Newman (Postman's CLI, npm:newman@6.2.2) as the oracle of the import tests, and what both sides
 * are compared by: a collection is run by Newman and, imported, by `dial test` against the same
 * recording server; the requests (less each client's own headers) and the assertions' outcomes
 * must agree.
 * @module
 */
import assert from "node:assert/strict";
import { dialEnv } from "../_helpers.ts";
import { finish, type ProgramResult } from "../_process.ts";
import { headerValues, type RawRequest, requestPath } from "./_raw_server.ts";

/** The Postman collection format v2.1's schema URL. */
export const POSTMAN_SCHEMA =
  "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/**
 * @param name the collection's name
 * @param body its items, variables, auth and events
 * @returns a Postman v2.1 collection
 */
export function postmanCollection(
  name: string,
  body: Record<string, unknown>,
): Record<string, unknown> {
  return { info: { name, schema: POSTMAN_SCHEMA }, ...body };
}

/**
 * @param name the environment's name
 * @param values its variables
 * @returns a Postman environment export
 */
export function postmanEnvironment(name: string, values: unknown[]): Record<string, unknown> {
  return { name, _postman_variable_scope: "environment", values };
}

/** Headers an HTTP client adds of its own accord (dial, Bruno, Hoppscotch, Yaak). */
export const CLIENT_HEADERS: readonly string[] = [
  "host",
  "user-agent",
  "accept",
  "accept-encoding",
  "accept-language",
  "connection",
  "content-length",
];

/** Headers dial and Newman add of their own accord. */
export const NEWMAN_HEADERS: ReadonlySet<string> = new Set([
  ...CLIENT_HEADERS,
  "postman-token",
  "cache-control",
]);

/**
 * @param headers a request's headers
 * @param own lower-case names to leave out (the clients' own)
 * @returns the other headers as sorted `name: value` lines with lower-case names
 */
export function otherHeaders(
  headers: ReadonlyArray<readonly [string, string]>,
  own: ReadonlySet<string>,
): string[] {
  return headers.filter(([n]) => !own.has(n.toLowerCase()))
    .map(([n, v]) => `${n.toLowerCase()}: ${v}`).sort();
}

/**
 * @param r a request the raw server received
 * @returns its request line, its headers but dial's and Newman's own, and its body: what
 * Newman and dial must agree on
 */
export function seenRequest(r: RawRequest): { line: string; headers: string[]; body: string } {
  return {
    line: r.line,
    headers: otherHeaders(r.headers, NEWMAN_HEADERS),
    body: new TextDecoder().decode(r.body),
  };
}

/**
 * What a test compares of a request: its method and target, the named headers, its body.
 *
 * @param names a key for each header to compare, and the header's name
 * @returns a function from a recorded request to `{ line, …each key: the header's values joined, body }`
 */
export function seenHeaders(
  names: Record<string, string>,
): (r: RawRequest) => Record<string, string> & { line: string } {
  return (r) => ({
    line: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    ...Object.fromEntries(
      Object.entries(names).map(([key, name]) => [key, headerValues(r, name).join()]),
    ),
    body: new TextDecoder().decode(r.body),
  });
}

/** Where and how {@link newman} runs. */
export interface NewmanOptions {
  /** Working directory. */
  cwd?: string;
  /** Run with dial's test environment (a clean HOME) instead of this process's. */
  clean?: boolean;
  /**
   * Read the assertions' outcomes from Newman's JSON report (written to a temporary file)
   * instead of printing its CLI report.
   */
  report?: boolean;
  /** Fail the test unless Newman exits 0 (all its assertions passed). */
  pass?: boolean;
}

/** What {@link newman} gives: its exit code and output, and the outcomes of its report. */
export interface NewmanResult extends ProgramResult {
  /** Each assertion's outcome in the order Newman ran them (with `report`; else empty). */
  outcomes: Outcome[];
}

/**
 * Runs `newman run …args` (--no-config and --no-lock: Newman is a peer the test runs, not a
 * dependency of dial's).
 *
 * @param args the arguments after `newman run`: the collection, `-e`, `--env-var`, …
 * @param options working directory, environment, JSON report, whether it must pass
 * @returns Newman's exit code and output, and with `report` its assertions' outcomes
 */
export async function newman(args: string[], options: NewmanOptions = {}): Promise<NewmanResult> {
  const report = options.report
    ? await Deno.makeTempFile({ prefix: "dial-newman-", suffix: ".json" })
    : undefined;
  // Reporters the arguments name (-r junit …) are theirs; else Newman's CLI report, or JSON.
  const named = args.includes("-r") || args.includes("--reporters");
  const reporters = named
    ? []
    : report === undefined
    ? ["--reporters", "cli"]
    : ["--reporters", "json", "--reporter-json-export", report];
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      "--unsafe-proto",
      "--quiet",
      "npm:newman@6.2.2",
      "run",
      ...args,
      ...reporters,
    ],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.clean ? { clearEnv: true, env: dialEnv() } : {}),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const result = await finish(child, undefined);
  if (options.pass) assert.equal(result.code, 0, result.stdout + result.stderr);
  if (report === undefined) return { ...result, outcomes: [] };
  try {
    return { ...result, outcomes: await newmanOutcomes(report) };
  } finally {
    await Deno.remove(report);
  }
}

/** One assertion's outcome, as Newman's JSON report and dial's JSON report give it. */
export interface Outcome {
  request: string;
  test: string;
  /** `passed` or `failed` (dial's reports also say `skipped` and `error`) */
  outcome: string;
}

/**
 * @param path a JSON report Newman wrote
 * @returns the outcome of each assertion, in the order Newman ran them
 */
async function newmanOutcomes(path: string): Promise<Outcome[]> {
  type Execution = {
    cursor: { ref: string };
    item: { name: string };
    assertions?: Array<{ assertion: string; error?: unknown }>;
  };
  const run = JSON.parse(await Deno.readTextFile(path)).run;
  // The report lists an item's run again for each request its scripts send (pm.sendRequest).
  const executions = new Map<string, Execution>();
  for (const e of run.executions as Execution[]) executions.set(e.cursor.ref, e);
  return [...executions.values()].flatMap((e) =>
    (e.assertions ?? []).map((a) => ({
      request: e.item.name,
      test: a.assertion,
      outcome: a.error ? "failed" : "passed",
    }))
  );
}

/**
 * @param report the text of dial's JSON report (`dial test --reporter json`)
 * @returns the outcome of each case, in the order dial ran them
 */
export function dialOutcomes(report: string): Outcome[] {
  return JSON.parse(report).cases.map((c: { request: string; name: string; outcome: string }) => ({
    request: c.request,
    test: c.name,
    outcome: c.outcome,
  }));
}

/**
 * @param outcomes outcomes of either side
 * @returns each as `request › test: outcome`, sorted: two runs that agree give equal lists
 */
export function outcomeLines(outcomes: Outcome[]): string[] {
  return outcomes.map((o) => `${o.request} › ${o.test}: ${o.outcome}`).sort();
}
