/**
 * Reading a secret from the terminal without echo.
 * @module
 */
import { InterruptedError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import type { CliContext } from "./context.ts";

/**
 * Asks for a secret on the terminal without echoing it.
 *
 * @param question printed to stderr, e.g. `Password for "ann": `
 * @param context the run: a terminal's stdin, and stderr
 * @returns the typed text
 * @throws {InterruptedError} on Ctrl-C
 */
export async function promptSecret(question: string, context: CliContext): Promise<Secret> {
  return new Secret(await promptLine(question, context, false));
}

/**
 * Asks for a line on the terminal.
 *
 * @param question printed to stderr
 * @param context the run: a terminal's stdin, and stderr
 * @param echo whether the typed text shows (not for secrets)
 * @returns the typed text
 * @throws {InterruptedError} on Ctrl-C
 */
export async function promptLine(
  question: string,
  context: CliContext,
  echo: boolean,
): Promise<string> {
  const { readRaw, setRaw } = context.stdin;
  if (!readRaw || !setRaw) throw new Error("promptLine needs a terminal");
  // Raw (no echo) before the question shows: a user may type as soon as it appears.
  setRaw(true);
  await context.stderr.write(question);
  const bytes: number[] = [];
  const buffer = new Uint8Array(64);
  try {
    read: for (;;) {
      const n = await readRaw(buffer);
      if (n === null) break;
      for (const byte of buffer.subarray(0, n)) {
        if (byte === 3) throw new InterruptedError();
        if (byte === 13 || byte === 10 || byte === 4) break read;
        if (byte === 127 || byte === 8) {
          if (bytes.pop() !== undefined && echo) await context.stderr.write("\b \b");
        } else {
          bytes.push(byte);
          if (echo && byte >= 32) await context.stderr.write(new Uint8Array([byte]));
        }
      }
    }
  } finally {
    setRaw(false);
    await context.stderr.write("\n");
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
