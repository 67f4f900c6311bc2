/**
 * The viewer's worker (`dist/json_worker.js`, its own bundle): pretty-prints a large JSON body
 * off the page's thread with the CLI's streaming printer, as its parts arrive, and posts the
 * formatted text back in pieces of 32 Ki characters, the first screen first, so the page only
 * appends text and never holds the whole body in one task (the page makes the first screen
 * itself with {@link firstScreen}, the same text, without waiting for the worker). Messages: in `{id, part, last, truncated}` for each part of
 * the body, in order (a new `id` starts another body); out `{id, chunk}`…, then
 * `{id, chunk, done: true}`, or `{id, failed: true}` when the text is not JSON (the page then
 * shows it as it is).
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

/** What the worker answers, in order. */
export type FormatAnswer =
  | { id: number; chunk: string; done?: boolean }
  | { id: number; failed: true };

/**
 * Formatted characters per message after the first (at least; a part is formatted in slices of
 * half as many characters of the body): the page splits each piece into lines and appends it to
 * the editor in one task, which stays a few milliseconds long on a busy machine.
 */
const PIECE = 32 * 1024;
/** Characters of the body formatted for the first message: a screen or more, appended at once. */
const FIRST_SCREEN = 4 * 1024;
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

/** One body being formatted: its printer and what is not posted yet. */
class Formatting {
  readonly #printer = new JsonPrettyPrinter({ color: false });
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  /** A high surrogate that ended the last part: its pair starts the next. */
  #held = "";
  #pieces: string[] = [];
  #size = 0;
  #first = true;
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
        if (!closing && (this.#first || this.#size >= PIECE)) this.#send(false);
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
  }

  #format(text: string): void {
    this.#add(this.#decoder.decode(this.#printer.push(this.#encoder.encode(text)), STREAM));
  }

  #add(text: string): void {
    this.#pieces.push(text);
    this.#size += text.length;
  }

  #send(done: boolean): void {
    this.#post({ id: this.id, chunk: this.#pieces.join(""), ...(done ? { done: true } : {}) });
    this.#pieces = [];
    this.#size = 0;
    this.#first = false;
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
 * @param post where the pieces go
 * @returns what formats each part the page sends, starting a new body at a new id
 */
export function formatter(post: (answer: FormatAnswer) => void): (request: FormatRequest) => void {
  let current: Formatting | undefined;
  return (request) => {
    if (current?.id !== request.id) current = new Formatting(request.id, post);
    current.push(request);
    if (request.last) current = undefined;
  };
}

// In the worker (not when the page imports the types): answer each request.
const scope = globalThis as unknown as {
  document?: unknown;
  onmessage: ((event: MessageEvent<FormatRequest>) => void) | null;
  postMessage?: (answer: FormatAnswer) => void;
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
