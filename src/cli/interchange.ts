/**
 * The commands that carry requests between dial and other tools: `dial curl …` (a pasted curl
 * command), `dial import` (curl, Postman, Insomnia, OpenAPI, HAR into request files) and
 * `dial export` (request files as curl, .http, Postman, HAR or code). Declarations only, in one
 * module (each costs a module on every run's start-up); the implementations load when they run.
 * @module
 */
import { command, flag, flags, type FlagValues } from "./declare.ts";
import { ENVIRONMENT_FLAGS, fileAndNames } from "./file_flags.ts";
import { lazy } from "./lazy.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import type { ExportTarget } from "../export/code_writers.ts";

/** `dial curl [curl arguments…]`. */
export const curlCommand = command({
  name: "curl",
  summary: "Send a request written as a curl command (paste it after dial)",
  usage: "<url> [curl flags]",
  passthrough: true,
  args: [{ name: "words", variadic: true, help: "the curl command's arguments" }],
  epilog: `
Every word after "dial curl" is read as curl reads it, and the request is sent by dial
(printed as dial prints it). An unsupported curl flag is a usage error naming it.

Understood: -X -H -d --data --data-ascii --data-raw --data-binary --data-urlencode --json
-F --form-string -G -u --oauth2-bearer -b -c -A -e -k -L --max-redirs --compressed -m
--connect-timeout -x --noproxy --cacert --cert --key -T -I -i -v -f -o --url (-s -S -g
and progress flags are accepted and have no effect).

Examples:
  dial curl https://api.example.com/users -H 'Accept: application/json'
  dial curl -X POST https://api.example.com/users -d name=ann -u ann:s3cret`,
  run: async ({ args }, context) => (await lazy.curlRun()).runCurl(args.words, context),
});

/** The flags of `dial import`. */
export const IMPORT_FLAGS = flags([
  flag.value(
    "out",
    "dir",
    "write the .http and environment files here (default: the current directory)",
    { file: true },
  ),
  { long: "force", help: "replace files that exist" },
  { long: "dry-run", help: "print the files that would be written, write nothing" },
  flag.value(
    "report-file",
    "path",
    "write the migration report (what was carried, what was not and why) as JSON",
    { file: true },
  ),
  flag.seconds("timeout", "a URL source: limit each download (decimal seconds)", {
    short: "m",
    aliases: ["max-time"],
    default: "30",
  }),
  ...TRANSPORT_FLAGS,
]);

/** The flag values of `dial import`. */
export type ImportFlagValues = FlagValues<typeof IMPORT_FLAGS>;

/** `dial import`. */
export const importCommand = command({
  name: "import",
  summary: "Turn curl, Postman, Insomnia, Bruno, Hoppscotch, Yaak, OpenAPI or HAR into .http files",
  usage: "<source> [environment…] [flags]",
  args: [
    {
      name: "sources",
      required: true,
      variadic: true,
      help:
        "a file, - for stdin, or an http(s) URL; Postman environment files may follow a collection",
    },
  ],
  flags: IMPORT_FLAGS,
  epilog: `
The format is recognised from the content: curl command lines (with \\ continuations and
$'…' quoting), Postman collections v2.0/v2.1, environments and globals, Insomnia v4 (JSON) and
v5 (YAML) exports, Bruno collections (a folder of .bru or OpenCollection YAML files, or Bruno's
JSON export), Hoppscotch collections and environments, Yaak exports, OpenAPI 3.0/3.1 and
Swagger 2.0 (JSON or YAML), HAR 1.2. The .http files keep the collection's folders and order
(numbered names, so dial test runs them in that order), with http-client.env.json and, for
every secret, http-client.private.env.json (0600; keep it out of git). Whatever could not be
carried (scripts, unsupported auth) is listed on stderr, at the top of each file and, with
--report-file, in a JSON migration report.

A URL source is downloaded through dial's transport (--cacert, -k, --proxy … apply), at most
50 MiB in --timeout seconds. An OpenAPI description's $refs to other documents are followed
when they stay in the description's folder (a file) or on its origin (a URL); others are
reported, not read.

Examples:
  dial import collection.postman.json staging.postman_environment.json --out api/
  dial import ./bruno-collection --out api/ --report-file migration.json
  pbpaste | dial import - --out requests/
  dial import openapi.yaml --out petstore/
  dial import https://api.example.com/openapi.json --out api/ --cacert corp-ca.pem`,
  run: async ({ args, flags }, context) =>
    (await lazy.importRun()).runImport(args.sources, flags, context),
});

/** The formats `dial export --to` and `dial … --export` write. */
export const EXPORT_FORMATS: readonly ExportTarget[] = [
  "curl",
  "http",
  "postman",
  "har",
  "fetch",
  "python",
  "httpie",
];

/** `--with-secrets`, of `dial export` and of `dial … --export` and `--curl`. */
export const WITH_SECRETS_FLAG = {
  long: "with-secrets",
  help: "write secret values as they are (default: environment lookups such as $API_TOKEN)",
} as const;

/** The flags of `dial export`. */
export const EXPORT_FLAGS = flags([
  flag.value("to", EXPORT_FORMATS.join("|"), "what to write", { choices: EXPORT_FORMATS }),
  ...ENVIRONMENT_FLAGS,
  WITH_SECRETS_FLAG,
  { long: "out", value: "file", file: true, help: "write to this file (default: stdout)" },
]);

/** The flag values of `dial export`. */
export type ExportFlagValues = FlagValues<typeof EXPORT_FLAGS>;

/** `dial export`. */
export const exportCommand = command({
  name: "export",
  summary: "Write requests of a .http file as curl, .http, Postman, HAR, fetch, Python or HTTPie",
  usage: "<file.http> [name…] --to <format> [flags]",
  args: fileAndNames("the request file", "the requests to export (default: all)"),
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
  run: async ({ args, flags }, context) =>
    (await lazy.exportRun()).runExport(args.file, args.names, flags, context),
});
