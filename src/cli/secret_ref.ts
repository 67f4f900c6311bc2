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
