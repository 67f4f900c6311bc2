/**
 * `@exec:COMMAND` references: a credential helper program (pass, 1Password's `op`, the OS
 * keychain's tool) run without a shell, whose standard output is the secret. It gets a time
 * limit, and its standard error is shown when it fails; the secret never is.
 * @module
 */
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors/mod.ts";

/** The default time limit of a helper, in seconds (a password manager may ask to unlock). */
export const DEFAULT_HELPER_TIMEOUT = 60;

/** The most bytes of a helper's output read: secrets are short. */
const MAX_OUTPUT = 1 << 20;

/**
 * Splits a helper command into words as a shell would without expanding anything: blanks
 * separate words, `'…'` keeps everything, `"…"` keeps everything but `\"` and `\\`, and a
 * backslash outside quotes keeps the next character.
 *
 * @param command e.g. `security find-generic-password -s "my api" -w`
 * @returns the words
 * @throws {UsageError} for an unterminated quote
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(`Unterminated ' in @exec:${command}`);
      word = (word ?? "") + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = "";
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && (command[j + 1] === '"' || command[j + 1] === "\\")) j++;
        text += command[j];
      }
      if (j >= command.length) throw new UsageError(`Unterminated " in @exec:${command}`);
      word = (word ?? "") + text;
      i = j;
    } else if (c === "\\" && i + 1 < command.length) {
      word = (word ?? "") + command[++i];
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Runs a helper and returns what it printed, one trailing line break removed.
 *
 * @param command the text after `@exec:`
 * @param where the flag and reference, for messages
 * @param context the run: whether stdin is a terminal (the helper may prompt), the environment
 * @returns the secret
 * @throws {UsageError} when the helper is not found, fails, prints nothing or runs too long
 */
export async function runCredentialHelper(
  command: string,
  where: string,
  context: CliContext,
): Promise<string> {
  const [program, ...args] = splitCommand(command);
  if (!program) throw new UsageError(`Empty command in ${where}`);
  const seconds = helperTimeout(context.env("DIAL_HELPER_TIMEOUT"));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), seconds * 1000);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      // A helper may ask to unlock on the terminal; otherwise it gets no input (stdin may
      // carry a request body).
      stdin: context.stdin.isTerminal ? "inherit" : "null",
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
    }).spawn();
  } catch (error) {
    clearTimeout(timer);
    const reason = error instanceof Deno.errors.NotFound
      ? "no such program"
      : error instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : "cannot start it";
    throw new UsageError(`Cannot run the credential helper "${program}" of ${where}: ${reason}`, {
      hint: "give the helper's full path, or check PATH",
    });
  }
  const [stdout, stderr, status] = await Promise.all([
    readLimited(child.stdout),
    readLimited(child.stderr),
    child.status,
  ]).finally(() => clearTimeout(timer));
  const errorText = new TextDecoder().decode(stderr).trim();
  const shown = errorText === "" ? "" : `:\n${lastLines(errorText, 5)}`;
  if (controller.signal.aborted) {
    throw new UsageError(
      `The credential helper "${program}" of ${where} did not finish within ${seconds} s${shown}`,
      { hint: "raise DIAL_HELPER_TIMEOUT (seconds), or unlock the password manager first" },
    );
  }
  if (!status.success) {
    throw new UsageError(
      `The credential helper "${program}" of ${where} failed (exit ${status.code})${shown}`,
    );
  }
  let text = new TextDecoder().decode(stdout);
  text = text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text;
  if (text === "") {
    throw new UsageError(`The credential helper "${program}" of ${where} printed nothing`);
  }
  return text;
}

function helperTimeout(text: string | undefined): number {
  const value = text === undefined ? NaN : Number(text);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_HELPER_TIMEOUT;
}

async function readLimited(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size < MAX_OUTPUT) chunks.push(chunk.subarray(0, MAX_OUTPUT - size));
    size += chunk.byteLength;
  }
  const bytes = new Uint8Array(Math.min(size, MAX_OUTPUT));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function lastLines(text: string, count: number): string {
  return text.split(/\r?\n/).slice(-count).map((line) => `  ${line}`).join("\n");
}
