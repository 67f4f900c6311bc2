/**
 * Reading a `text/event-stream` body into events, with `eventsource-parser`.
 * @module
 */
import { createParser, type ParseError } from "eventsource-parser";
import { DialError, ErrorCode } from "../errors/mod.ts";

/** One dispatched server-sent event. */
export interface ServerSentEvent {
  /** The event type; `message` when the block had no `event:` field. */
  event: string;
  /** The `id:` of this block, when it had one. */
  id?: string;
  /** The data lines joined with `\n`. */
  data: string;
}

/** Callbacks of {@link readEventStream}. */
export interface EventStreamHandlers {
  /** A complete event (a block ending in a blank line, with data). */
  onEvent(event: ServerSentEvent): void;
  /** A block set the last event ID (with or without data), before its onEvent. */
  onId?(id: string): void;
  /** The server set the reconnection time, in milliseconds. */
  onRetry?(ms: number): void;
  /** A comment line (`: …`), without the colon. */
  onComment?(text: string): void;
  /**
   * Asked after each chunk: while the promise it returns is pending, the body is not read,
   * so TCP slows the server down instead of memory filling up.
   */
  ready?(): Promise<void> | undefined;
}

/** The most characters one pending event may buffer before the stream is rejected. */
export const MAX_EVENT_SIZE = 16 * 1024 * 1024;

/**
 * Reads an event stream to its end, per the HTML living standard: UTF-8 (one leading BOM
 * ignored, split code points joined across chunks), LF, CR or CRLF line ends, multi-line
 * data, comments, `event:`, `id:`, `retry:`. A block that is not ended by a blank line when
 * the stream ends is discarded, as the standard requires.
 *
 * @param body the response body
 * @param handlers called as events complete
 * @returns when the stream ends
 * @throws {DialError} when one event grows past {@link MAX_EVENT_SIZE}; what reading throws
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  handlers: EventStreamHandlers,
): Promise<void> {
  let overflow: ParseError | undefined;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_SIZE,
    onEvent: (message) =>
      handlers.onEvent({
        event: message.event || "message",
        ...(message.id !== undefined ? { id: message.id } : {}),
        data: message.data,
      }),
    onId: (id) => handlers.onId?.(id),
    onRetry: (ms) => handlers.onRetry?.(ms),
    onComment: (text) => handlers.onComment?.(text.startsWith(" ") ? text.slice(1) : text),
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") overflow = error;
    },
  });
  // ignoreBOM keeps a leading BOM for the parser, which strips exactly one.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (overflow) {
        throw new DialError(
          `Server-sent event larger than ${MAX_EVENT_SIZE} characters`,
          ErrorCode.EventTooLarge,
          { cause: overflow },
        );
      }
      const pause = handlers.ready?.();
      if (pause) await pause;
    }
    parser.feed(decoder.decode());
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
  // What is left is an unterminated block: the standard discards it.
  parser.reset();
}
