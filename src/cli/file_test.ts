/**
 * `dial test FILE|DIR…`: the declaration; the implementation (`test_files.ts`) is loaded
 * when the command runs.
 * @module
 */
import { command, flags, type FlagValues } from "./declare.ts";
import { FILE_FLAGS } from "./file_flags.ts";
import { lazy } from "./lazy.ts";

const EPILOG = `
Runs every request of the files (directories: every .http and .rest file below them, in
name order), evaluates each client.test and client.assert of the response handlers, prints
one line per test and a summary.

Examples:
  dial test api.http --env dev
  dial test tests/ --reporter junit --report-file report.xml
  dial test api.http --filter '^users' --fail-fast

Exit codes: 0 every test passed, 11 a test or assertion failed, 1 a script failed, 2 usage
(also a bad file or an undefined variable), 7 network, 8 timeout, 9 auth, 130 interrupted.`;

/** The flags of `dial test`. */
export const TEST_FLAGS = flags([
  ...FILE_FLAGS,
  {
    long: "reporter",
    value: "name",
    choices: ["pretty", "tap", "junit", "json"],
    default: "pretty",
    help: "how to report: pretty, tap, junit or json",
  },
  {
    long: "report-file",
    value: "path",
    file: true,
    help: "write the report to this file (a pretty summary still goes to stdout)",
  },
  { long: "fail-fast", help: "stop at the first failed test or request" },
  {
    long: "filter",
    value: "pattern",
    help: "run only requests whose name matches this regular expression",
  },
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
    return await testFiles(args.paths, flags, context);
  },
});
