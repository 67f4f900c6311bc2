/**
 * `dial import SOURCE… [--out DIR]`: curl, Postman, Insomnia, OpenAPI and HAR into request files
 * (declaration; the implementation, `import_run.ts`, is loaded when it runs).
 * @module
 */
import { command, flags, type FlagValues } from "./declare.ts";
import { lazy } from "./lazy.ts";

/** The flags of `dial import`. */
export const IMPORT_FLAGS = flags([
  {
    long: "out",
    value: "dir",
    file: true,
    help: "write the .http and environment files here (default: the current directory)",
  },
  { long: "force", help: "replace files that exist" },
  { long: "har-cookies", help: "HAR: keep each entry's cookies as a Cookie header" },
  { long: "dry-run", help: "print the files that would be written, write nothing" },
]);

/** The flag values of `dial import`. */
export type ImportFlagValues = FlagValues<typeof IMPORT_FLAGS>;

/** `dial import`. */
export const importCommand = command({
  name: "import",
  summary: "Turn curl commands, Postman, Insomnia, OpenAPI or HAR into .http request files",
  usage: "import <source> [environment…] [flags]",
  args: [
    {
      name: "sources",
      required: true,
      variadic: true,
      help: "a file, - for stdin; Postman environment files may follow a collection",
    },
  ],
  flags: IMPORT_FLAGS,
  epilog: `
The format is recognised from the content: curl command lines (with \\ continuations and
$'…' quoting), Postman collections v2.0/v2.1 and environments, Insomnia v4 (JSON) and v5
(YAML) exports, OpenAPI 3.0/3.1 and Swagger 2.0 (JSON or YAML), HAR 1.2. One .http file is
written per top-level folder or tag, with http-client.env.json and, for secrets,
http-client.private.env.json (0600; keep it out of git). Whatever could not be carried
(scripts, unsupported auth) is listed on stderr and at the top of each file.

Examples:
  dial import collection.postman.json staging.postman_environment.json --out api/
  pbpaste | dial import - --out requests/
  dial import openapi.yaml --out petstore/`,
  run: async ({ args, flags }, context) => {
    const { runImport } = await lazy.importRun();
    return await runImport(args.sources, flags, context);
  },
});
