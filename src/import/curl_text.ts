/**
 * curl commands pasted as text (from documentation, a browser's "Copy as cURL", a shell
 * history): split into logical lines here (`\` continuations joined, bash's `$'…'` quoting
 * decoded, newlines outside quotes ending a command), then into words by `shlex` (a port of
 * Python's POSIX shell lexer). `$NAME` stays as written (nothing is expanded), unless asked:
 * `dial import` reads `$NAME` and `${NAME}` outside single quotes as the request files'
 * `{{$processEnv NAME}}`, the same variable read when the request is sent.
 * @module
 */
import { split } from "shlex";
import { UsageError } from "../errors/mod.ts";

/**
 * Splits text holding one or more curl commands into each command's words (after `curl`).
 * Commands are separated by unquoted newlines, `;`, `&&` or `||`; what a command pipes into or
 * redirects to is not part of the request and is dropped.
 *
 * @param text the pasted text
 * @param options `shellVariables`: `$NAME`/`${NAME}` outside single quotes become
 *   `{{$processEnv NAME}}`
 * @returns each curl command's arguments, `curl` itself left out
 * @throws {UsageError} when the text holds no curl command or a quote is not closed
 * @example
 * ```ts
 * splitCurlCommands("curl -H 'A: b' \\\n  https://api.test/x");
 * // [["-H", "A: b", "https://api.test/x"]]
 * ```
 */
export function splitCurlCommands(
  text: string,
  options: { shellVariables?: boolean } = {},
): string[][] {
  const commands: string[][] = [];
  for (const line of logicalLines(text, options.shellVariables === true)) {
    let current: string[] | undefined;
    let piped = false;
    let words: string[];
    try {
      words = split(line).map((w) => w.replaceAll(SPACE, " "));
    } catch (error) {
      throw new UsageError(`Cannot split the curl command: ${(error as Error).message}`);
    }
    for (const word of words) {
      if (word.startsWith("#") && line.includes(` ${word}`)) break; // a comment
      if (word === ";" || word === "&&" || word === "||") {
        current = undefined;
        piped = false;
      } else if (word === "|" || word === ">" || word === ">>" || /^\d?>/.test(word)) {
        piped = true;
      } else if (piped) continue;
      else if (current === undefined) {
        if (word !== "curl" && !word.endsWith("/curl")) break;
        current = [];
        commands.push(current);
      } else current.push(word);
    }
  }
  if (commands.length === 0) throw new UsageError("No curl command found in the text");
  return commands;
}

/**
 * Joins `\`-continued lines, rewrites `$'…'` into single quotes, and splits the text at
 * newlines outside quotes.
 */
function logicalLines(text: string, shellVariables: boolean): string[] {
  const lines: string[] = [];
  let out = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      out += c;
      if (c === "'") quote = undefined;
    } else if (shellVariables && c === "$" && variableAt(text, i)) {
      const { name, end } = variableAt(text, i)!;
      out += `{{$processEnv${SPACE}${name}}}`;
      i = end - 1;
    } else if (quote === '"') {
      if (c === "\\" && (text[i + 1] === "\n" || text.startsWith("\r\n", i + 1))) {
        i += text[i + 1] === "\r" ? 2 : 1;
      } else if (c === "\\" && i + 1 < text.length) out += c + text[++i];
      else {
        out += c;
        if (c === '"') quote = undefined;
      }
    } else if (c === "\\" && (text[i + 1] === "\n" || text.startsWith("\r\n", i + 1))) {
      i += text[i + 1] === "\r" ? 2 : 1;
    } else if (c === "\\" && i + 1 < text.length) out += c + text[++i];
    else if (c === "$" && text[i + 1] === "'") {
      const { value, end } = ansiC(text, i + 2);
      out += `'${value.replaceAll("'", `'\\''`)}'`;
      i = end;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === "\n" || c === "\r") {
      if (out.trim()) lines.push(out);
      out = "";
    } else out += c;
  }
  if (quote) throw new UsageError(`Unclosed ${quote} quote in the curl command`);
  if (out.trim()) lines.push(out);
  return lines;
}

/** Stands for a space inside `{{$processEnv NAME}}` until the words are split. */
const SPACE = "\u0001";

/** A shell variable `$NAME` or `${NAME}` at `i`: its name and where it ends. */
function variableAt(text: string, i: number): { name: string; end: number } | undefined {
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(
    text.slice(i, i + 260),
  );
  return m ? { name: (m[1] ?? m[2])!, end: i + m[0].length } : undefined;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Reads bash's `$'…'` body from `start`; returns the decoded text and the closing quote. */
function ansiC(text: string, start: number): { value: string; end: number } {
  let value = "";
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") return { value, end: i };
    if (c !== "\\" || i + 1 >= text.length) {
      value += c;
      continue;
    }
    const e = text[++i]!;
    const hex = (max: number) => {
      const m = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(text.slice(i + 1));
      if (!m) return e;
      i += m[0].length;
      return String.fromCodePoint(parseInt(m[0], 16));
    };
    if (e in SIMPLE_ESCAPES) value += SIMPLE_ESCAPES[e];
    else if (e === "x") value += hex(2);
    else if (e === "u") value += hex(4);
    else if (e === "U") value += hex(8);
    else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{0,2}/.exec(text.slice(i + 1))![0];
      i += m.length;
      value += String.fromCharCode(parseInt(e + m, 8));
    } else value += `\\${e}`;
  }
  throw new UsageError("Unclosed $' quote in the curl command");
}
