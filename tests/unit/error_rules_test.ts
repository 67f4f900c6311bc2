import assert from "node:assert/strict";
import { codeOf, sourceFiles } from "../_sources.ts";
import * as errors from "../../src/errors/mod.ts";
import { CLI_REMEDIES } from "../../src/cli/cli_remedies.ts";
import { UI_REMEDIES } from "../../src/ui/api/ui_remedies.ts";

const { DialError, ERRORS, ErrorCode, ExitCode, exitCodeFor } = errors;

/**
 * Source files of src/ (the browser frontend excluded: it reports no DialError; and
 * src/files/library_*.ts, third-party files held as text: lodash, moment).
 */
const sources = async () =>
  (await sourceFiles("src", ["src/ui/web"])).filter((path) => !/^src\/files\/library_/.test(path));

/** The core: everything under src/ but the two faces (src/cli, src/ui). */
const isCore = (path: string) => !path.startsWith("src/cli/") && !path.startsWith("src/ui/");

Deno.test("error rules: every code has one exit code in the one table", () => {
  assert.deepEqual(Object.keys(ERRORS).sort(), Object.values(ErrorCode).sort());
  const exits = new Set<number>(Object.values(ExitCode));
  for (const [code, kind] of Object.entries(ERRORS)) assert.ok(exits.has(kind.exit), code);
  // A status decides only where the table says so.
  assert.equal(exitCodeFor("http_status", { status: 404 }), ExitCode.ClientError);
  assert.equal(exitCodeFor("introspection", { status: 200 }), ExitCode.Failure);
  assert.equal(exitCodeFor("auth", { status: 401 }), ExitCode.Auth);
});

Deno.test("error rules: every error class is a DialError whose exit follows from its code", () => {
  const samples: InstanceType<typeof DialError>[] = [
    new errors.UsageError("x"),
    new errors.TransportError("x"),
    new errors.TlsError("x", "expired"),
    new errors.TimeoutError("x"),
    new errors.InterruptedError(),
    new errors.AuthError("x"),
    new errors.ProviderError("x", "invalid_grant", { details: { status: 400 } }),
    new errors.StatusError("x", 503),
    new errors.NotGraphQLError("x", { details: { status: 401 } }),
    new errors.TooLargeError("x"),
  ];
  for (const error of samples) {
    assert.ok(error instanceof DialError);
    assert.equal(error.exitCode, exitCodeFor(error.code, error.details), error.name);
  }
  assert.equal(samples[7]!.exitCode, ExitCode.ServerError);
  assert.equal(samples[8]!.exitCode, ExitCode.ClientError);
});

Deno.test("error rules: no class outside src/errors/ extends Error, and none sets an exit code", async () => {
  const wrong: string[] = [];
  for (const path of await sources()) {
    if (path.startsWith("src/errors/")) continue;
    const text = await codeOf(path);
    // Internal sentinels (a stop signal, a socket's write failure) never reach a person.
    if (/export class \w+ extends (Error|TypeError|RangeError)\b/.test(text)) {
      wrong.push(`${path}: class`);
    }
    if (/\.exitCode\s*=(?!=)|exitCode:\s*ExitCode\./.test(text)) wrong.push(`${path}: exitCode`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("error rules: the core words no hint; it names a remedy that each face words", async () => {
  const worded: string[] = [];
  for (const path of (await sources()).filter(isCore)) {
    if (/(?<!["'`])\bhint\s*:/.test(await codeOf(path)) && !path.startsWith("src/errors/")) {
      worded.push(path);
    }
  }
  assert.deepEqual(worded, []);
  // Each face words the same closed set of remedies (the types enforce it; this reads them).
  assert.deepEqual(
    Object.entries(CLI_REMEDIES).map(([verb, words]) => [verb, Object.keys(words).sort()]),
    Object.entries(UI_REMEDIES).map(([verb, words]) => [verb, Object.keys(words).sort()]),
  );
});

/** Core modules whose strings name command-line flags on purpose: they write or read another tool's command line. */
const WRITES_COMMAND_LINES = new Set([
  "src/auth/digest.ts", // curlArgs: the curl command of a Digest request
  "src/auth/sigv4.ts", // curlArgs: the curl command of a signed request
  "src/export/code_writers.ts", // the HTTPie command of an export
  "src/import/curl_args.ts", // curl's own flags, read
  "src/output/curl.ts", // "Copy as curl"
]);

/**
 * Core modules that still word a dial flag in a message (not yet a remedy or a fact that each
 * face words): this list only shrinks. `--proxy` as a proxy's source and `--resolve`,
 * `--connect-to`, `--unix-socket` as an address override are named in transport messages and
 * `-v` lines; `--cacert` as a trust source; the retry notes (the CLI is their only face); two
 * loss notes of `dial import`.
 */
const FLAGS_IN_MESSAGES = new Set([
  "src/http/plan.ts",
  "src/http/proxy.ts",
  "src/http/retry.ts",
  "src/http/trust.ts",
  "src/import/curl_import.ts",
]);

Deno.test("error rules: core messages name no command-line flag; the remedy names it, worded by each face", async () => {
  const flagged = new Set<string>();
  for (const path of (await sources()).filter(isCore)) {
    // A string literal that holds a long flag (`--timeout`), outside comments.
    const literal =
      /(["'`])(?:(?!\1)[^\\\n]|\\.)*?(?<![\w-])--[a-z][a-z0-9-]+(?:(?!\1)[^\\\n]|\\.)*?\1/;
    if (literal.test(await codeOf(path))) flagged.add(path);
  }
  const wrong = [...flagged].filter((p) =>
    !WRITES_COMMAND_LINES.has(p) && !FLAGS_IN_MESSAGES.has(p)
  );
  assert.deepEqual(wrong, [], "a core message names a flag: name a remedy instead");
  const unused = [...WRITES_COMMAND_LINES].filter((p) => !flagged.has(p));
  assert.deepEqual(unused, [], "writes no command line any more: take it off WRITES_COMMAND_LINES");
  const fixed = [...FLAGS_IN_MESSAGES].filter((p) => !flagged.has(p));
  assert.deepEqual(fixed, [], "no flag is named there any more: take it off FLAGS_IN_MESSAGES");
});
