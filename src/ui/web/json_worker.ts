/**
 * The viewer's worker (`dist/json_worker.js`, its own bundle): pretty-prints a large JSON body
 * off the page's thread with the CLI's streaming printer, and posts the formatted text back in
 * pieces, the first screen first, so the page only appends text and never stops for the whole
 * body. Messages: in `{id, text, truncated}`; out `{id, chunk}`…, then `{id, chunk, done: true}`,
 * or `{id, failed: true}` when the text is not JSON (the page then shows it as it is).
 * @module
 */
import { JsonPrettyPrinter } from "../../output/json_stream.ts";

/** What the page asks: format this body. */
export interface FormatRequest {
  id: number;
  text: string;
  /** Only the start of the body: the printer's end is not asked for. */
  truncated: boolean;
}

/** What the worker answers, in order. */
export type FormatAnswer =
  | { id: number; chunk: string; done?: boolean }
  | { id: number; failed: true };

/** Input bytes per step: the first piece is the first screen. */
const STEP = 64 * 1024;
/**
 * Formatted characters per message after the first: the page splits each piece into lines and
 * appends it to the editor in one task, which stays short on a busy machine.
 */
const PIECE = 128 * 1024;

/**
 * @param request the body
 * @param post where each piece goes
 */
export function formatJson(request: FormatRequest, post: (answer: FormatAnswer) => void): void {
  const { id } = request;
  const bytes = new TextEncoder().encode(request.text);
  const printer = new JsonPrettyPrinter({ color: false });
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let size = 0;
  let first = true;
  try {
    for (let at = 0; at < bytes.length; at += STEP) {
      const text = decoder.decode(printer.push(bytes.subarray(at, at + STEP)), { stream: true });
      parts.push(text);
      size += text.length;
      if (first || size >= PIECE) {
        post({ id, chunk: parts.join("") });
        parts = [];
        size = 0;
        first = false;
      }
    }
    if (!request.truncated) parts.push(decoder.decode(printer.end()));
    post({ id, chunk: parts.join(""), done: true });
  } catch {
    post({ id, failed: true });
  }
}

// In the worker (not when the page imports the types): answer each request.
const scope = globalThis as unknown as {
  document?: unknown;
  onmessage: ((event: MessageEvent<FormatRequest>) => void) | null;
  postMessage?: (answer: FormatAnswer) => void;
};
if (scope.document === undefined && typeof scope.postMessage === "function") {
  const post = scope.postMessage.bind(scope);
  scope.onmessage = (event) => formatJson(event.data, post);
}
