/**
 * The flags `dial run` and `dial test` share: environments, variables and the connection
 * flags that apply to every request of the run.
 * @module
 */
import { flags } from "./declare.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";

/** `--env`, `--env-file`, `--var`. */
export const ENVIRONMENT_FLAGS = flags([
  {
    long: "env",
    value: "name",
    help: "use this environment of http-client.env.json (and the private file beside it)",
  },
  {
    long: "env-file",
    value: "path",
    file: true,
    repeatable: true,
    help: "also read this environment file (repeatable; later files win)",
  },
  {
    long: "var",
    value: "name=value",
    repeatable: true,
    help: "set a variable above every other (repeatable; the value may be @env:NAME or @file)",
  },
]);

/** `--allow-path`: what the person lets shared files reach beyond the run's folder. */
export const ALLOW_PATH_FLAG = flags([
  {
    long: "allow-path",
    value: "dir",
    file: true,
    repeatable: true,
    help:
      "let the files read and write in this folder too (repeatable; default: the run's folder only)",
  },
]);

/** `--openapi`, `--openapi-base`: the contract checks of `dial test`, `dial run` and requests. */
export const OPENAPI_FLAGS = flags([
  {
    long: "openapi",
    value: "spec",
    help:
      "check each exchange against this OpenAPI description (path or URL, JSON or YAML; wins over a file's # @openapi)",
  },
  {
    long: "openapi-base",
    value: "url",
    help: "match request paths under this URL's path instead of the description's first server",
  },
]);

/** Every flag shared by `dial run` and `dial test`. */
export const FILE_FLAGS = flags([
  ...ENVIRONMENT_FLAGS,
  ...ALLOW_PATH_FLAG,
  {
    long: "script-origin",
    value: "origin",
    repeatable: true,
    help:
      "let # @postman scripts' pm.sendRequest reach this origin too (repeatable; default: the origins of the run's requests)",
  },
  {
    long: "timeout",
    value: "seconds",
    kind: "seconds",
    help: "limit each exchange (a request's # @timeout wins)",
  },
  ...TRANSPORT_FLAGS,
]);

/**
 * The arguments of a command that takes a request file and the names of some of its requests
 * (`dial run`, `dial export`).
 *
 * @param file the file argument's help line
 * @param names the names argument's help line
 * @returns the two declarations, their literal types kept
 */
export function fileAndNames(file: string, names: string) {
  return [
    { name: "file", required: true, help: file },
    { name: "names", variadic: true, help: names },
  ] as const;
}
