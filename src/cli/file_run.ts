/**
 * `dial run FILE [NAME…]`: the declaration; the implementation (`run_files.ts`) is loaded
 * when the command runs.
 * @module
 */
import { command, flag, flags, type FlagValues } from "./declare.ts";
import { FILE_FLAGS, fileAndNames, OPENAPI_FLAGS } from "./file_flags.ts";
import { lazy } from "./lazy.ts";
import { VERBOSE_FLAG } from "./request.ts";

const EPILOG = `
Runs the requests of a .http file (JetBrains HTTP Client and VS Code REST Client format) in
file order, or the named ones (by # @name, ### title or number), and prints each response as
dial prints one: status line and headers on a terminal, the body only when piped. Named
requests that another one refers to run first. Response handlers (> {% … %}) run sandboxed.

Examples:
  dial run api.http                              every request, in order
  dial run api.http login me --env dev           two requests, environment "dev"
  dial run api.http --var host=localhost:8080 -v
  dial run api.http --openapi openapi.yaml       check each exchange against the description

Exit codes: 0 ok, 1 a script failed, 2 usage (also a bad file or an undefined variable),
3/4/5 HTTP 3xx/4xx/5xx with --check-status, 7 network, 8 timeout, 9 auth, 11 an exchange
broke its OpenAPI description (--openapi, # @openapi), 130 interrupted.`;

/** The flags of `dial run`. */
export const RUN_FLAGS = flags([
  ...FILE_FLAGS,
  { long: "check-status", help: "stop with 3, 4 or 5 at a 3xx, 4xx or 5xx response" },
  ...OPENAPI_FLAGS,
  { long: "include", short: "i", help: "print status line and headers even when piped" },
  VERBOSE_FLAG,
  flag.value(
    "output",
    "file",
    "write the body of each response to this file (the last one stays)",
    {
      short: "o",
      file: true,
    },
  ),
  { long: "silent", short: "s", help: "print only the bodies" },
  flag.value(
    "filter",
    "jsonpath",
    "print what this RFC 9535 JSONPath selects from each JSON body, one value per line",
  ),
]);

/** The flag values of `dial run`. */
export type RunFlagValues = FlagValues<typeof RUN_FLAGS>;

/** `dial run FILE [NAME…]`. */
export const runCommand = command({
  name: "run",
  summary: "Run the requests of a .http file, chaining captured values",
  usage: "<file> [name…] [flags]",
  args: fileAndNames("a .http or .rest file", "requests to run, by name or number (default all)"),
  flags: RUN_FLAGS,
  epilog: EPILOG,
  run: async ({ args, flags }, context) =>
    (await lazy.runFiles()).runFiles(args.file, args.names, flags, context),
});
