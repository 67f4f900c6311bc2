/**
 * `dial export FILE.http [NAME…] --to …`: requests of a file as curl, `.http`, Postman, HAR or
 * code (declaration; the implementation, `export_run.ts`, is loaded when it runs).
 * @module
 */
import { command, flags, type FlagValues } from "./declare.ts";
import { lazy } from "./lazy.ts";
import { ENVIRONMENT_FLAGS } from "./file_flags.ts";

/** The flags of `dial export`. */
export const EXPORT_FLAGS = flags([
  {
    long: "to",
    value: "curl|http|postman|har|fetch|python|httpie",
    choices: ["curl", "http", "postman", "har", "fetch", "python", "httpie"],
    help: "what to write",
  },
  ...ENVIRONMENT_FLAGS,
  {
    long: "with-secrets",
    help: "write secret values as they are (default: environment lookups such as $API_TOKEN)",
  },
  { long: "out", value: "file", file: true, help: "write to this file (default: stdout)" },
]);

/** The flag values of `dial export`. */
export type ExportFlagValues = FlagValues<typeof EXPORT_FLAGS>;

/** `dial export`. */
export const exportCommand = command({
  name: "export",
  summary: "Write requests of a .http file as curl, .http, Postman, HAR, fetch, Python or HTTPie",
  usage: "export <file.http> [name…] --to <format> [flags]",
  args: [
    { name: "file", required: true, help: "the request file" },
    { name: "names", variadic: true, help: "the requests to export (default: all)" },
  ],
  flags: EXPORT_FLAGS,
  epilog: `
Variables are substituted as dial run would (--env, --env-file, --var). Values from the
private environment file or references are secrets: they are written as environment
lookups ($API_TOKEN in shell, os.environ["API_TOKEN"] in Python, process.env.API_TOKEN in
JavaScript, {{API_TOKEN}} in HAR), never as values, unless --with-secrets is given.
postman writes a collection and, with --out, its environments beside it.

Examples:
  dial export api.http login --to curl --env dev
  dial export api.http --to postman --out api.postman_collection.json
  dial export api.http --to python > client.py`,
  run: async ({ args, flags }, context) => {
    const { runExport } = await lazy.exportRun();
    return await runExport(args.file, args.names, flags, context);
  },
});
