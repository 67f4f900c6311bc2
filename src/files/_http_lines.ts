/**
 * Lines of a request file and the pieces of the parser that work on them: spans, scripts
 * between `{%` and `%}`, the trimming of bodies.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { BodyPart, ParseWarning, Script, Span } from "./http_file_types.ts";

/** One line of the source. */
export interface Line {
  /** Text without its line break. */
  text: string;
  start: number;
  /** Offset after the line break. */
  end: number;
  /** Offset of the line break (= end of text). */
  textEnd: number;
  number: number;
}

/** Reports a syntax error at a line and column (1-based); never returns. */
export type Fail = (line: Line, column: number, message: string) => never;

// Blank lines at the start and end of a body (made once: a literal is an object per use).
const BLANK_FIRST_LINE = /^[ \t\f]*(?:\n|$)/;
const BLANK_FIRST_LINES = /^(?:[ \t\f]*\n)+/;
const NONBLANK = /\S/;
const BLANK_LAST_LINE = /(?:^|\n)[ \t\f]*$/;
const BLANK_LAST_LINES = /(?:\n[ \t\f]*)+$/;

/** Blank lines around the whole body are not sent (spec 4.2.2); blank lines inside are. */
export function trimBody(body: BodyPart[], lines: Line[]): void {
  const first = body[0];
  // Only a part that starts or ends with a blank line changes (most bodies do not).
  if (first?.kind === "text" && BLANK_FIRST_LINE.test(first.text)) {
    const kept = first.text.replace(BLANK_FIRST_LINES, "");
    const dropped = first.text.length - kept.length;
    const skipped = first.text.slice(0, dropped).split("\n").length - 1;
    const line = lines[first.span.line - lines[0]!.number + skipped];
    if (kept.trim() === "") body.shift();
    else if (line) {
      body[0] = {
        ...first,
        text: kept,
        span: { ...first.span, start: line.start, line: line.number },
      };
    }
  }
  // Blank lines after `??` lines are a text part of their own: the body ends before them.
  for (
    let end = body.at(-1);
    body.length > 1 && end?.kind === "text" && !NONBLANK.test(end.text);
  ) {
    body.pop();
    end = body.at(-1);
  }
  const last = body.at(-1);
  if (last?.kind === "text" && BLANK_LAST_LINE.test(last.text.slice(-64))) {
    const kept = last.text.replace(BLANK_LAST_LINES, "");
    const removed = last.text.slice(kept.length).split("\n").length - 1;
    const line = lines[last.span.endLine - lines[0]!.number - removed];
    if (kept.trim() === "") body.pop();
    else if (line) {
      body[body.length - 1] = {
        ...last,
        text: kept,
        span: { ...last.span, end: line.end, endLine: line.number },
      };
    }
  }
}

/** Reads `< {% … %}`, `> {% … %}` or `< path` / `> path` starting at line `i`. */
export function readScript(
  lines: Line[],
  i: number,
  to: number,
  markLength: number,
  fail: Fail,
): [Script, number] {
  const line = lines[i]!;
  const after = line.text.slice(markLength);
  const open = after.indexOf("{%");
  if (open < 0 || after.slice(0, open).trim() !== "") {
    return [{ kind: "file", path: after.trim(), span: spanOf(line) }, i + 1];
  }
  const codeColumn = markLength + open + 3;
  const firstText = after.slice(open + 2);
  for (let j = i; j < to; j++) {
    const text = j === i ? firstText : lines[j]!.text;
    const close = text.indexOf("%}");
    if (close < 0) continue;
    const parts = [j === i ? firstText.slice(0, close) : firstText];
    if (j > i) {
      for (let k = i + 1; k < j; k++) parts.push(lines[k]!.text);
      parts.push(text.slice(0, close));
    }
    if (text.slice(close + 2).trim() !== "") {
      fail(lines[j]!, close + 3, 'Unexpected text after "%}"');
    }
    return [{
      kind: "inline",
      code: parts.join("\n"),
      codeLine: line.number,
      codeColumn,
      span: spanBetween(line, lines[j]!),
    }, j + 1];
  }
  return fail(line, markLength + open + 1, 'Unterminated script: "{%" without "%}"');
}

/** Reads a source line by line (LF, CR or CRLF), so that lines die young. */
export class LineReader {
  #source: string;
  #start = 0;
  #number = 1;
  /** The next CR, found once per CR (a file without one is scanned once). */
  #cr: number;

  /** @param source the text */
  constructor(source: string) {
    this.#source = source;
    // A byte order mark (editors on Windows write one) is not part of the first line.
    if (source.charCodeAt(0) === 0xfeff) this.#start = 1;
    this.#cr = source.indexOf("\r");
  }

  /** @returns the next line, or undefined at the end */
  next(): Line | undefined {
    const source = this.#source;
    const start = this.#start;
    if (start >= source.length) return undefined;
    let at = source.indexOf("\n", start);
    if (this.#cr >= 0 && this.#cr < start) this.#cr = source.indexOf("\r", start);
    let breakLength = 1;
    if (this.#cr >= 0 && (at < 0 || this.#cr < at)) {
      breakLength = source.charCodeAt(this.#cr + 1) === 10 ? 2 : 1;
      at = this.#cr;
    }
    if (at < 0) {
      this.#start = source.length;
      const end = source.length;
      return { text: source.slice(start), start, textEnd: end, end, number: this.#number };
    }
    this.#start = at + breakLength;
    return {
      text: source.slice(start, at),
      start,
      textEnd: at,
      end: at + breakLength,
      number: this.#number++,
    };
  }
}

export function spanOf(line: Line): Span {
  return { start: line.start, end: line.end, line: line.number, endLine: line.number };
}

export function spanBetween(first: Line, last: Line): Span {
  return { start: first.start, end: last.end, line: first.number, endLine: last.number };
}

export function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** Directives dial acts on. */
export const KNOWN_DIRECTIVES: ReadonlySet<string> = new Set([
  "name",
  "postman",
  "no-redirect",
  "no-cookie-jar",
  "timeout",
  "connection-timeout",
  "no-log",
  // httpyac: run the named request first when it has not run in this run (`forceRef`: always).
  "ref",
  "forceRef",
  // REST Client / JetBrains: ask for a variable's value before sending.
  "prompt",
  // dial: the file's OpenAPI description (a local path), every exchange checked against it.
  "openapi",
  // httpyac: `< file` includes of the request are substituted, as `<@ file` is.
  "injectVariables",
  // httpyac: another file's named requests (`# @ref`, `{{name.…}}`) and variables (an import).
  "import",
  // httpyac: the request once per pass (`for N`, `for ITEM of LIST`, `while EXPRESSION`).
  "loop",
  // httpyac: the request is sent once its question is confirmed on a terminal.
  "note",
  // httpyac: the request is skipped (`# @disabled`, or when `# @disabled EXPRESSION` is truthy).
  "disabled",
  // httpyac: wait so many milliseconds before sending (bounded; Ctrl-C ends the wait).
  "sleep",
]);

/** Directives of other runners that dial reads and ignores, saying so. */
const IGNORED_DIRECTIVES = new Set([
  "no-auto-encoding",
  "use-os-credentials",
  "title",
  "description",
  // httpyac's: rate limits, streams kept open, how its editor shows a response.
  "ratelimit",
  "keepStreaming",
  "openWith",
  "extension",
  "save",
  "no-response-view",
  "verbose",
  "debug",
]);

/** httpyac's directives that would let a file choose what the command line chooses. */
const COMMAND_LINE_DIRECTIVES: Record<string, string> = {
  proxy: "a proxy is chosen",
  "no-proxy": "a proxy is chosen",
  "no-reject-unauthorized": "TLS verification is turned off",
  noRejectUnauthorized: "TLS verification is turned off",
  "no-client-cert": "a client certificate is chosen",
};

/** Records a warning for a directive dial does not act on. */
export function warnDirective(name: string, line: Line, warnings: ParseWarning[]): void {
  if (KNOWN_DIRECTIVES.has(name)) return;
  const column = line.text.indexOf("@") + 1;
  const chosen = Object.hasOwn(COMMAND_LINE_DIRECTIVES, name)
    ? COMMAND_LINE_DIRECTIVES[name]
    : undefined;
  const message = chosen
    ? `Directive "@${name}" is ignored: ${chosen} on the command line, not by a file`
    : IGNORED_DIRECTIVES.has(name)
    ? `Directive "@${name}" is not supported by dial and is ignored`
    : `Unknown directive "@${name}" is ignored`;
  warnings.push({ message, line: line.number, column });
}

/** A request file that cannot be parsed; the message starts with `file:line:column`. */
export class HttpFileSyntaxError extends UsageError {
  /** The file as given to the parser. */
  readonly path: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;

  /**
   * Creates the error.
   *
   * @param path the file
   * @param line 1-based line
   * @param column 1-based column
   * @param message what is wrong
   */
  constructor(path: string, line: number, column: number, message: string) {
    super(`${path}:${line}:${column}: ${message}`, {
      remedy: { check: "file_format" },
    });
    this.name = "HttpFileSyntaxError";
    this.path = path;
    this.line = line;
    this.column = column;
  }
}
