/**
 * Credential references, so that no secret needs to be written on the command line:
 * `@PATH` (a file), `@-` (standard input), `@env:NAME` (an environment variable),
 * `@exec:COMMAND` (a credential helper's output, see credential_helper.ts) and `@@…` (a literal
 * value starting with `@`). Also the one-reader rule for standard input.
 * @module
 */
import { lazy } from "./lazy.ts";
import { UsageError } from "../errors/mod.ts";
import type { CliContext } from "./context.ts";

/**
 * Claims standard input for one flag or body; a second claim in the same run is exit 2.
 *
 * @param context the run, which remembers the claim
 * @param who the flag, e.g. `-B @-` or `-d @-`
 * @throws {UsageError} when another flag already reads standard input
 */
export function claimStdin(context: CliContext, who: string): void {
  const reader = context.stdinClaimedBy;
  if (reader !== undefined && reader !== who) {
    throw new UsageError(`Both ${reader} and ${who} read standard input`, {
      hint: "only one flag or body per run may read stdin; give the other from a file or @env:NAME",
    });
  }
  context.stdinClaimedBy = who;
}

/**
 * @param value a flag value
 * @returns whether it is a reference (`@PATH`, `@-`, `@env:NAME`, `@exec:COMMAND`) rather than
 * a literal
 */
export function isReference(value: string): boolean {
  return value.startsWith("@") && !value.startsWith("@@") && value.length > 1;
}

/**
 * Resolves a value that may be a reference. A file's contents and standard input lose one
 * trailing `\n` or `\r\n`, and so does a helper's output; an environment variable is taken as
 * it is. Messages name the reference, never the value.
 *
 * @param value the flag value as written
 * @param flag the flag, for messages, e.g. `-B`
 * @param context the run: its stdin and environment
 * @returns the secret text
 * @throws {UsageError} for a missing or unreadable file, an unset variable, or a second reader
 * of standard input
 */
export async function resolveReference(
  value: string,
  flag: string,
  context: CliContext,
): Promise<string> {
  if (value.startsWith("@@")) return value.slice(1);
  if (!isReference(value)) return value;
  const where = /[=:]$/.test(flag) ? `${flag}${value}` : `${flag} ${value}`;
  if (value === "@-") {
    claimStdin(context, where);
    return chomp(await new Response(context.stdin.readable).text());
  }
  if (value.startsWith("@exec:")) {
    const { runCredentialHelper } = await lazy.credentialHelper();
    return await runCredentialHelper(value.slice(6), where, context);
  }
  if (value.startsWith("@env:")) {
    const name = value.slice(5);
    const text = name === "" ? undefined : context.env(name);
    if (text === undefined) {
      throw new UsageError(`Cannot read ${where}: the environment variable ${name} is not set`, {
        hint: `export ${name || "NAME"} before running dial`,
      });
    }
    return text;
  }
  return chomp(await readReferenceFile(value.slice(1), where));
}

/**
 * Reads a file named by a reference (also `-H @PATH`).
 *
 * @param path the file
 * @param where the flag and reference, for messages
 * @returns its text
 * @throws {UsageError} naming the reference and the reason
 */
export async function readReferenceFile(path: string, where: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a directory"
      : "cannot read it";
    throw new UsageError(`Cannot read ${where}: ${reason}`, {
      hint: "give a readable file, @env:NAME or @- (stdin); write @@ for a value starting with @",
    });
  }
}

function chomp(text: string): string {
  return text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text;
}

/** A flag value that may be a reference, and the flag that gave it. */
export interface FlagReference {
  /** The flag as messages name it: `-B`, `-u USER:`, `-K name=`, `-H`. */
  flag: string;
  /** The value as written. */
  value: string;
  /**
   * A `-H @PATH`, `-H @-` or `-H @exec:…` file of header lines: read as it is (no trailing
   * newline dropped, unlike the other references).
   */
  headerLines?: boolean;
}

/**
 * The references of one command line, each read once ({@link readFlagReferences}) before the
 * flags are parsed; the parsers then take their values' texts from here instead of each
 * reading its own.
 */
export class FlagReferences {
  readonly #texts: ReadonlyMap<string, string>;

  /** @param texts the text read for each flag and value */
  constructor(texts: ReadonlyMap<string, string> = new Map()) {
    this.#texts = texts;
  }

  /**
   * @param value the flag value as written
   * @param flag the flag, as in the {@link FlagReference} that listed it
   * @returns a reference's text as read in the pass; a literal as written (`@@…` as `@…`)
   */
  text(value: string, flag: string): string {
    if (value.startsWith("@@")) return value.slice(1);
    if (!isReference(value)) return value;
    const text = this.#texts.get(referenceKey(flag, value));
    if (text === undefined) {
      throw new Error(`${flag} ${value} was not read with the command line's references`);
    }
    return text;
  }
}

/**
 * Reads every reference of a command line in one pass, in the order given: files, standard
 * input (one reader per run), environment variables and credential helpers. Literal values
 * are skipped; a value listed twice is read once.
 *
 * @param references the flag values that may be references
 * @param context the run: its stdin and environment
 * @returns what was read
 * @throws {UsageError} as {@link resolveReference} does, naming the reference, never the value
 */
export async function readFlagReferences(
  references: readonly FlagReference[],
  context: CliContext,
): Promise<FlagReferences> {
  const texts = new Map<string, string>();
  for (const { flag, value, headerLines } of references) {
    const key = referenceKey(flag, value);
    if (!isReference(value) || texts.has(key)) continue;
    texts.set(
      key,
      headerLines
        ? await readHeaderLines(value, context)
        : await resolveReference(value, flag, context),
    );
  }
  return new FlagReferences(texts);
}

function referenceKey(flag: string, value: string): string {
  return `${flag}\0${value}`;
}

/** A `-H @…` file of header lines, read as it is. */
async function readHeaderLines(value: string, context: CliContext): Promise<string> {
  const where = `-H ${value}`;
  if (value === "@-") {
    claimStdin(context, where);
    return await new Response(context.stdin.readable).text();
  }
  if (value.startsWith("@exec:")) return await resolveReference(value, "-H", context);
  return await readReferenceFile(value.slice(1), where);
}
