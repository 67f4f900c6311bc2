/**
 * `dial test FILE|DIR…`: the declaration; the implementation (`test_files.ts`) is loaded
 * when the command runs.
 * @module
 */
import { command, flag, flags, type FlagValues } from "./declare.ts";
import { FILE_FLAGS, OPENAPI_FLAGS } from "./file_flags.ts";
import { lazy } from "./lazy.ts";

/**
 * @param paths `dial test`'s arguments
 * @param flags its flags
 * @returns whether Newman's form is used: a collection file (`.json`), `-e`, `-g`, `-n`, `--folder`
 */
function isCollectionRun(paths: readonly string[], flags: TestFlagValues): boolean {
  return flags.environment !== undefined || flags.globals !== undefined ||
    flags.iterationCount !== undefined || flags.folder.length > 0 ||
    paths.some((p) => /\.json$/i.test(p));
}

const EPILOG = `
Runs every request of the files (directories: every .http and .rest file below them, in
name order), evaluates each client.test and client.assert of the response handlers, prints
one line per test and a summary.

Examples:
  dial test api.http --env dev
  dial test tests/ --reporter junit --report-file report.xml
  dial test api.http --name '^users' --fail-fast
  dial test api/ --openapi openapi.yaml --env dev
  dial test tests/ --jobs 4 --reporter html --report-file report.html
  dial test signup.http --data users.csv --repeat 2
  dial test collection.json -e staging.postman_environment.json --folder Users   # as newman run

A request's ?? lines and client.test calls are its tests; a request without any fails at a 5xx
status (--check-status: 4xx too) or when it cannot be sent. A file that does not parse, a
missing include or a failing script is an error case: the other files still run, and the
summary and the report are written.

Exit codes: 0 every test passed, 11 a test or assertion failed, 1 a script failed, 2 usage
(also a bad file or an undefined variable), 7 network, 8 timeout, 9 auth, 130 interrupted.`;

/** The flags of `dial test`. */
export const TEST_FLAGS = flags([
  ...FILE_FLAGS,
  flag.value(
    "reporter",
    "name",
    "how to report: pretty, tap, junit, json or html (one self-contained page)",
    { choices: ["pretty", "tap", "junit", "json", "html"], default: "pretty" },
  ),
  flag.value(
    "report-file",
    "path",
    "write the report to this file (a pretty summary still goes to stdout)",
    { file: true },
  ),
  flag.on("fail-fast", "stop at the first failed test or request", { aliases: ["bail"] }),
  flag.on(
    "check-status",
    "a request without tests fails at 4xx too (by default at 5xx and network errors)",
  ),
  flag.value("name", "regex", "run only requests whose name matches this regular expression"),
  ...OPENAPI_FLAGS,
  flag.value(
    "data",
    "file",
    "run the files once per row of this CSV or JSON file, its columns as variables",
    { short: "d", aliases: ["iteration-data"], file: true },
  ),
  flag.count("repeat", "run everything n times", { min: 1 }),
  // Newman's: see test_collection.ts.
  flag.value(
    "environment",
    "file",
    "a Postman environment file, as Newman's -e (its values become the run's environment)",
    { short: "e", file: true },
  ),
  flag.value("globals", "file", "a Postman globals file, as Newman's -g", {
    short: "g",
    file: true,
  }),
  flag.count(
    "iteration-count",
    "run n iterations, as Newman's -n (with -d: row i, the last row past the end)",
    { short: "n", min: 1 },
  ),
  flag.value(
    "folder",
    "name",
    "run only this folder of the collection (repeatable), as Newman's --folder",
    { repeatable: true },
  ),
  flag.count("jobs", "run n files at once (output and reports stay in file order)", { min: 1 }),
]);

/** The flag values of `dial test`. */
export type TestFlagValues = FlagValues<typeof TEST_FLAGS>;

/** `dial test FILE|DIR…`. */
export const testCommand = command({
  name: "test",
  summary: "Run .http files as tests (client.test, client.assert) with CI reports",
  usage: "<file|dir>… [flags]",
  args: [{ name: "paths", variadic: true, help: ".http/.rest files or directories" }],
  flags: TEST_FLAGS,
  epilog: EPILOG,
  run: async ({ args, flags }, context) => {
    const { testFiles } = await lazy.testFiles();
    if (!isCollectionRun(args.paths, flags)) return await testFiles(args.paths, flags, context);
    // A collection file and Newman's flags (`dial test c.json -e e.json`).
    const { collectionRun } = await lazy.testCollection();
    await using run = await collectionRun(args.paths, flags);
    return await testFiles(run.paths, run.flags, context, run.fileName);
  },
});
