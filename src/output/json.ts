/**
 * Pretty-printing JSON text without re-serialising it, so numbers keep their exact digits.
 * @module
 */
import { JsonPrettyPrinter } from "./json_stream.ts";

/**
 * Re-indents JSON text with two spaces, colouring it when asked.
 *
 * @param text JSON text
 * @param color whether to add ANSI colours
 * @returns the formatted text, without a trailing newline
 * @throws {import("./json_stream.ts").JsonSyntaxError} when the text is not valid JSON
 */
export function prettyJson(text: string, color: boolean): string {
  const printer = new JsonPrettyPrinter({ color });
  const decoder = new TextDecoder();
  return decoder.decode(printer.push(new TextEncoder().encode(text)), { stream: true }) +
    decoder.decode(printer.end());
}
