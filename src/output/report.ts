/**
 * Error and warning lines for people.
 * @module
 */
import { DialError } from "../errors.ts";
import { paint, type Sink, Style } from "./terminal.ts";

/**
 * @param error anything thrown
 * @param color whether to colour
 * @returns `error: …` plus a `hint: …` line when there is one
 */
export function formatError(error: unknown, color: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  let text = `${paint("error:", Style.red + ";1", color)} ${message}\n`;
  if (error instanceof DialError && error.hint) {
    text += `${paint("hint:", Style.cyan, color)} ${error.hint}\n`;
  }
  return text;
}

/**
 * Writes `warning: …` to a sink.
 *
 * @param sink usually stderr
 * @param message sentence case
 */
export async function warn(sink: Sink, message: string): Promise<void> {
  await sink.write(`${paint("warning:", Style.yellow + ";1", sink.color)} ${message}\n`);
}
