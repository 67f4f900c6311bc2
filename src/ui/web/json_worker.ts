/**
 * The viewer's worker (`dist/json_worker.js`, its own bundle): pretty-prints a large JSON body
 * off the page's thread with the CLI's streaming printer, as its parts arrive, and keeps the
 * formatted text: the page's viewer holds a window of its lines, not the whole document.
 *
 * Messages in: `{id, part, last, truncated}` for each part of the body, in order (a new `id`
 * starts another body); then, for the latest body, queries `{id, seq, lines: [from, to]}` (a
 * window of lines), `{id, seq, whole: true}` (the whole formatted text: Copy) and
 * `{id, seq, find}` (the next or previous match of a search, over the whole text).
 *
 * Messages out: `{id, chunk, lines}`… while the page's window fills (the first screen first,
 * then pieces of 32 Ki characters; the page makes the first screen itself with
 * {@link firstScreen}, the same text, without waiting), then `{id, lines}` (how many lines
 * there are so far, once per part) and at the end `{…, done: true}`; or `{id, failed: true}`
 * when the text is not JSON (the page then shows it as it is). A query's answer carries its
 * `seq`.
 * @module
 */
import { JsonPrettyPrinter } from "../../output/json_stream.ts";

/** What the page sends: the next part of a body to format. */
export interface FormatRequest {
  id: number;
  /** The next characters of the body (a part may end inside a surrogate pair). */
  part: string;
  /** Whether this is the body's last part. */
  last: boolean;
  /** Only the start of the body: the printer's end is not asked for. */
  truncated: boolean;
}

/** A search over the whole formatted text, as the viewer's search panel asks it. */
export interface FindSpec {
  /** The search text (a pattern when `regexp`). */
  search: string;
  regexp: boolean;
  /** `\n`, `\r`, `\t` and `\\` in a text search are taken as they are. */
  literal: boolean;
  caseSensitive: boolean;
  wholeWord: boolean;
  /** Where the search starts: a line (0-based) and a column in it. */
  line: number;
  column: number;
  /** The previous match (ending at or before the start), not the next. */
  backwards: boolean;
}

/** What the page asks about the latest body formatted. */
export type Query =
  | { id: number; seq: number; lines: [number, number] }
  | { id: number; seq: number; whole: true }
  | { id: number; seq: number; find: FindSpec };

/** A position in the formatted text: a line (0-based) and a column. */
export type Position = [line: number, column: number];

/** The answer to a {@link Query} (`text` for lines and whole, `found` for find). */
export interface QueryAnswer {
  id: number;
  seq: number;
  /** The lines asked for (joined by "\n"), or the whole text. */
  text?: string;
  /** The match found (from, to), or null when there is none. */
  found?: [Position, Position] | null;
}

/** What the worker answers while it formats, in order. */
export type FormatAnswer =
  | { id: number; chunk?: string; lines: number; done?: boolean }
  | { id: number; failed: true };

/**
 * Lines the page's viewer holds at a time: the worker posts the formatted text while the page
 * holds fewer (the first window), then only the count of lines; the page asks for other
 * windows as it scrolls.
 */
export const WINDOW_LINES = 3_000;

/**
 * Formatted characters per message after the first (at least; a part is formatted in slices of
 * half as many characters of the body): the page splits each piece into lines and appends it to
 * the editor in one task, which stays a few milliseconds long on a busy machine.
 */
const PIECE = 32 * 1024;
/** Characters of the body formatted for the first message: a screen or more, appended at once. */
const FIRST_SCREEN = 2 * 1024;
const STREAM = { stream: true };

/**
 * @param text a string
 * @param at an index in it
 * @returns `at`, or one less when a surrogate pair would be cut there
 */
function cutAt(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * A formatted body as it grows: its text in the pieces it came in, and where each line starts,
 * so a window of lines, the whole text and a search's match are found without splitting it.
 */
export class FormattedText {
  #chunks: string[] = [];
  #chunkStarts: number[] = [];
  #length = 0;
  #lineStarts = new Uint32Array(1024);
  #lines = 1;

  /** How many lines (the last one may still be growing). */
  get lines(): number {
    return this.#lines;
  }

  /** @param text the next formatted characters */
  append(text: string): void {
    if (text === "") return;
    this.#chunks.push(text);
    this.#chunkStarts.push(this.#length);
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
      if (this.#lines === this.#lineStarts.length) {
        const grown = new Uint32Array(this.#lineStarts.length * 2);
        grown.set(this.#lineStarts);
        this.#lineStarts = grown;
      }
      this.#lineStarts[this.#lines++] = this.#length + i + 1;
    }
    this.#length += text.length;
  }

  /**
   * @param from the first line (0-based)
   * @param to the line after the last
   * @returns those lines, joined by "\n"
   */
  lineText(from: number, to: number): string {
    const a = Math.max(0, Math.min(from, this.#lines));
    const b = Math.max(a, Math.min(to, this.#lines));
    if (a === b) return "";
    return this.#slice(
      this.#lineStarts[a]!,
      b < this.#lines ? this.#lineStarts[b]! - 1 : this.#length,
    );
  }

  /** @returns the whole text (joined once, then kept as one piece) */
  text(): string {
    if (this.#chunks.length > 1) {
      this.#chunks = [this.#chunks.join("")];
      this.#chunkStarts = [0];
    }
    return this.#chunks[0] ?? "";
  }

  /**
   * @param spec the search and where it starts
   * @returns the next match after the start (or the previous one before it), wrapping around
   *   the text's end, or null when there is none
   */
  find(spec: FindSpec): [Position, Position] | null {
    let pattern: RegExp;
    try {
      const source = spec.regexp ? spec.search : escape(unquote(spec.search, spec.literal));
      pattern = new RegExp(source, spec.caseSensitive ? "gmu" : "gimu");
    } catch {
      return null;
    }
    const text = this.text();
    const at = Math.min(this.#length, this.#offset(spec.line, spec.column));
    const matches = (
      from: number,
      until: number,
      each: (start: number, end: number) => boolean,
    ) => {
      pattern.lastIndex = from;
      for (let m = pattern.exec(text); m && m.index < until; m = pattern.exec(text)) {
        const end = m.index + m[0].length;
        if (end === m.index) pattern.lastIndex++;
        else if (!spec.wholeWord || wordBounded(text, m.index, end)) {
          if (!each(m.index, end)) return;
        }
      }
    };
    let found: [number, number] | undefined;
    if (!spec.backwards) {
      matches(at, Infinity, (start, end) => (found = [start, end], false));
      if (!found) matches(0, at, (start, end) => (found = [start, end], false));
    } else {
      matches(0, at, (start, end) => (end <= at && (found = [start, end]), true));
      if (!found) matches(at, Infinity, (start, end) => (found = [start, end], true));
    }
    return found ? [this.#position(found[0]), this.#position(found[1])] : null;
  }

  #offset(line: number, column: number): number {
    const l = Math.max(0, Math.min(line, this.#lines - 1));
    return this.#lineStarts[l]! + column;
  }

  #position(offset: number): Position {
    // The last line starting at or before the offset.
    let low = 0;
    let high = this.#lines - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return [low, offset - this.#lineStarts[low]!];
  }

  #slice(from: number, to: number): string {
    // The piece holding `from`: the last one starting at or before it.
    let i = 0;
    let high = this.#chunks.length - 1;
    while (i < high) {
      const mid = (i + high + 1) >> 1;
      if (this.#chunkStarts[mid]! <= from) i = mid;
      else high = mid - 1;
    }
    const out: string[] = [];
    for (let at = from; at < to && i < this.#chunks.length; i++) {
      const start = this.#chunkStarts[i]!;
      const chunk = this.#chunks[i]!;
      out.push(chunk.slice(at - start, to - start));
      at = start + chunk.length;
    }
    return out.join("");
  }
}

/**
 * @param text a search text
 * @param literal whether it is taken as it is
 * @returns it with `\n`, `\r`, `\t` and `\\` read as CodeMirror's search reads them
 */
function unquote(text: string, literal: boolean): string {
  if (literal) return text;
  const escapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", "\\": "\\" };
  return text.replace(/\\([nrt\\])/g, (_, ch: string) => escapes[ch]!);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** @returns whether a match starts and ends at a word's edge (CodeMirror's whole-word test) */
function wordBounded(text: string, start: number, end: number): boolean {
  const word = (i: number) => i >= 0 && i < text.length && WORD.test(text[i]!);
  return !(word(start - 1) && word(start)) && !(word(end - 1) && word(end));
}

/** One body being formatted: its printer, its text so far, and what is not posted yet. */
class Formatting {
  readonly #printer = new JsonPrettyPrinter({ color: false });
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  /** The formatted text so far (the page asks for windows of it). */
  readonly text = new FormattedText();
  /** A high surrogate that ended the last part: its pair starts the next. */
  #held = "";
  #pieces: string[] = [];
  #size = 0;
  #first = true;
  /** Whether the page's window is still filling: pieces are posted as text, not counted. */
  #posting = true;
  #failed = false;
  readonly #post: (answer: FormatAnswer) => void;

  /**
   * @param id the body's id
   * @param post where each piece goes
   */
  constructor(readonly id: number, post: (answer: FormatAnswer) => void) {
    this.#post = post;
  }

  /** @param request the body's next part */
  push(request: FormatRequest): void {
    if (this.#failed) return;
    let text = this.#held + request.part;
    const whole = request.last ? text.length : cutAt(text, text.length);
    this.#held = text.slice(whole);
    text = text.slice(0, whole);
    try {
      // The first screen goes alone: the page shows it before it appends the rest.
      for (let at = 0; at < text.length;) {
        const end = Math.min(text.length, at + (this.#first ? FIRST_SCREEN : PIECE / 2));
        const cut = end === text.length ? end : cutAt(text, end);
        this.#format(text.slice(at, cut));
        at = cut;
        // (The body's last slice goes with its end, below.)
        const closing = request.last && at === text.length;
        if (!closing && (this.#first || (this.#posting && this.#size >= PIECE))) {
          this.#send(false);
        }
      }
      if (request.last) {
        if (!request.truncated) this.#add(this.#decoder.decode(this.#printer.end(), STREAM));
        this.#add(this.#decoder.decode());
      }
    } catch {
      this.#failed = true;
      this.#post({ id: this.id, failed: true });
      return;
    }
    if (request.last) this.#send(true);
    // Once the window is full, the count of lines goes once per part (each is a task of the
    // page's), not per piece.
    else if (!this.#posting && this.#size > 0) this.#send(false);
  }

  #format(text: string): void {
    this.#add(this.#decoder.decode(this.#printer.push(this.#encoder.encode(text)), STREAM));
  }

  #add(text: string): void {
    this.text.append(text);
    if (this.#posting) this.#pieces.push(text);
    this.#size += text.length;
  }

  #send(done: boolean): void {
    const lines = this.text.lines;
    const answer: FormatAnswer = this.#posting
      ? { id: this.id, chunk: this.#pieces.join(""), lines }
      : { id: this.id, lines };
    this.#post(done ? { ...answer, done: true } : answer);
    this.#pieces = [];
    this.#size = 0;
    this.#first = false;
    if (lines >= WINDOW_LINES) this.#posting = false;
  }
}

/**
 * The worker's first message for a body (its first screen), made on the caller's thread: the page
 * shows it in the task the body's first part arrives in, without waiting for the worker.
 *
 * @param part the body's first part
 * @returns the formatted first screen, or undefined when the part is not longer than a screen
 *   (the worker's first message is then all of it) or does not start as JSON
 */
export function firstScreen(part: string): string | undefined {
  if (part.length <= FIRST_SCREEN) return undefined;
  let screen: string | undefined;
  const format = formatter((answer) => screen ??= "chunk" in answer ? answer.chunk : undefined);
  format({ id: 0, part: part.slice(0, cutAt(part, FIRST_SCREEN)), last: false, truncated: false });
  return screen;
}

/**
 * @param post where the answers go
 * @returns what formats each part the page sends (a new id starts a new body) and answers the
 *   page's queries about the latest body
 */
export function formatter(
  post: (answer: FormatAnswer | QueryAnswer) => void,
): (message: FormatRequest | Query) => void {
  let current: Formatting | undefined;
  return (message) => {
    if ("part" in message) {
      if (current?.id !== message.id) current = new Formatting(message.id, post);
      current.push(message);
      return;
    }
    const text = current?.id === message.id ? current.text : new FormattedText();
    const { id, seq } = message;
    if ("lines" in message) post({ id, seq, text: text.lineText(...message.lines) });
    else if ("whole" in message) post({ id, seq, text: text.text() });
    else post({ id, seq, found: text.find(message.find) });
  };
}

// In the worker (not when the page imports the types): answer each message.
const scope = globalThis as unknown as {
  document?: unknown;
  onmessage: ((event: MessageEvent<FormatRequest | Query>) => void) | null;
  postMessage?: (answer: FormatAnswer | QueryAnswer) => void;
};
if (scope.document === undefined && typeof scope.postMessage === "function") {
  const format = formatter(scope.postMessage.bind(scope));
  scope.onmessage = (event) => format(event.data);
  // Warmed up as it starts (a body's first screen is then formatted by compiled code): a small
  // document of every kind of value, its output dropped.
  const sample = JSON.stringify(
    Array.from(
      { length: 64 },
      (_, i) => ({ i, s: `t\u00e9\"${i}`, ok: i % 2 === 0, n: null, a: [i / 3] }),
    ),
  );
  formatter(() => {})({ id: 0, part: sample, last: true, truncated: false });
}
