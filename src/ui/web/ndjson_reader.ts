/**
 * The page's reader of the server's NDJSON answers (api/ndjson.ts): a line per event, and after
 * a line with `chars` (a long body's part) that many characters as they are. It has no DOM
 * dependency, so the server's tests read answers with it as the page does.
 * @module
 */
import { isRecord } from "../protocol.ts";

/**
 * Reads newline-delimited JSON from a streamed response. A line with `chars` (a long body's part,
 * `emitText` of the server's ndjson.ts) is followed by that many characters as they are, then a
 * newline: the event is given with them as its `text`.
 *
 * @param response the response
 * @yields each parsed line
 */
export async function* ndjson(response: Response): AsyncGenerator<unknown> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  // A long line arrives in many chunks: they are kept apart and joined once, and only each new
  // chunk is searched for the line's end.
  let pending: string[] = [];
  /** An event whose text follows its line: the characters still to come, and those come. */
  let text: { event: Record<string, unknown>; left: number; parts: string[] } | undefined;
  let slice = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    while (chunk) {
      let event: unknown;
      if (text) {
        const part = chunk.slice(0, text.left);
        text.parts.push(part);
        text.left -= part.length;
        chunk = chunk.slice(part.length);
        if (text.left > 0) break;
        event = { ...text.event, text: text.parts.join("") };
        text = undefined;
      } else {
        const newline = chunk.indexOf("\n");
        if (newline < 0) {
          pending.push(chunk);
          break;
        }
        pending.push(chunk.slice(0, newline));
        const line = pending.join("").trim();
        pending = [];
        chunk = chunk.slice(newline + 1);
        if (!line) continue;
        event = JSON.parse(line);
        if (isRecord(event) && typeof event.chars === "number") {
          const { chars, ...rest } = event;
          text = { event: rest, left: chars, parts: [] };
          if (chars > 0) continue;
          event = { ...rest, text: "" };
          text = undefined;
        }
      }
      yield event;
      // Many lines already here (a long body's parts) are read in slices: the page paints and
      // answers input between them.
      if (performance.now() - slice > READ_SLICE_MS) {
        await nextTask();
        slice = performance.now();
      }
    }
  }
  const rest = pending.join("").trim();
  if (rest) yield JSON.parse(rest);
}

/** The longest stretch of reading an answer (ms) before the page gets its thread back. */
const READ_SLICE_MS = 4;

/**
 * Resolves in a later task of the page, behind the tasks already waiting: a long body's pieces
 * (the viewer worker's messages) are shown while the rest of the answer is read. (Not
 * `scheduler.yield`: its continuation goes ahead of them, and the whole answer was read first.)
 *
 * @returns a promise resolved in a later task
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
