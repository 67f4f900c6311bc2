/**
 * Error and warning lines for people.
 * @module
 */
import { paint, shown, type Sink, Style } from "./terminal.ts";

/**
 * @param error anything thrown
 * @param sink where it goes: colour, and control characters escaped on a terminal (messages
 * may quote a server, e.g. an OAuth `error_description` or a close reason)
 * @param hint the face's advice, when there is one
 * @returns `error: …` plus a `hint: …` line when there is one
 */
export function formatError(
  error: unknown,
  sink: Pick<Sink, "color" | "isTerminal">,
  hint?: string,
): string {
  const message = shown(sink, error instanceof Error ? error.message : String(error));
  let text = `${paint("error:", Style.red + ";1", sink.color)} ${message}\n`;
  if (hint) {
    text += `${paint("hint:", Style.cyan, sink.color)} ${shown(sink, hint)}\n`;
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
  await sink.write(
    `${paint("warning:", Style.yellow + ";1", sink.color)} ${shown(sink, message)}\n`,
  );
}
