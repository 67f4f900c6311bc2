/**
 * Pretty-printing JSON text without re-serialising it, so numbers keep their exact digits.
 * @module
 */
import { paint, Style } from "./terminal.ts";

/**
 * Re-indents valid JSON text with two spaces, colouring it when asked. The text must already
 * be known to be valid (for example by `JSON.parse`).
 *
 * @param text valid JSON
 * @param color whether to add ANSI colours
 * @returns the formatted text, without a trailing newline
 */
export function prettyJson(text: string, color: boolean): string {
  const parts: string[] = [];
  let depth = 0;
  const newline = () => "\n" + "  ".repeat(depth);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === " " || c === "\n" || c === "\r" || c === "\t") {
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const str = text.slice(i, j + 1);
      i = j + 1;
      let k = i;
      while (k < n && /\s/.test(text[k]!)) k++;
      parts.push(paint(str, text[k] === ":" ? Style.key : Style.green, color));
    } else if (c === "{" || c === "[") {
      let k = i + 1;
      while (k < n && /\s/.test(text[k]!)) k++;
      const close = c === "{" ? "}" : "]";
      if (text[k] === close) {
        parts.push(c + close);
        i = k + 1;
      } else {
        depth++;
        parts.push(c + newline());
        i++;
      }
    } else if (c === "}" || c === "]") {
      depth--;
      parts.push(newline() + c);
      i++;
    } else if (c === ",") {
      parts.push("," + newline());
      i++;
    } else if (c === ":") {
      parts.push(": ");
      i++;
    } else {
      let j = i;
      while (j < n && !/[\s,\]}:]/.test(text[j]!)) j++;
      const literal = text.slice(i, j);
      const style = literal === "null"
        ? Style.gray
        : literal === "true" || literal === "false"
        ? Style.yellow
        : Style.cyan;
      parts.push(paint(literal, style, color));
      i = j;
    }
  }
  return parts.join("");
}
