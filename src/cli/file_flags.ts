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

/** Every flag shared by `dial run` and `dial test`. */
export const FILE_FLAGS = flags([
  ...ENVIRONMENT_FLAGS,
  {
    long: "timeout",
    value: "seconds",
    kind: "seconds",
    help: "limit each exchange (a request's # @timeout wins)",
  },
  ...TRANSPORT_FLAGS,
]);
