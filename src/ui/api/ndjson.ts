/**
 * Answers as newline-delimited JSON. Every long call of the UI API answers this way: the
 * server learns at once when the page cancels, navigates away or closes (the browser drops
 * the connection and the stream is cancelled), and aborts the upstream request with it.
 * @module
 */
import { TimeoutError } from "../../errors/mod.ts";
import { DEFAULT_TIMEOUT_MS, type ErrorJson, MAX_TIMEOUT_MS } from "../protocol.ts";
import { UsageError } from "../../errors/mod.ts";
import { errorJson } from "./error_json.ts";
import type { Workspace } from "../workspace_path.ts";

/** What a streamed call gets: where to write and when to stop. */
export interface NdjsonCall<T> {
  /** Writes one line; after the page went away it does nothing. */
  emit(event: T): void;
  /**
   * Writes an event whose `text` is long (a body's part): its line says how many characters
   * the text has (`chars`, UTF-16 code units) and the text follows it as it is, then a newline
   * (not escaped as JSON: nothing to unescape on the page, ~16 % fewer bytes for a JSON body).
   * The page's reader (`ndjson()` in web/api.ts) gives it back as `text`. A text that is not
   * well-formed UTF-16 (a lone surrogate would not survive UTF-8) goes in the line as JSON.
   */
  emitText(event: T & { text: string }): void;
  /** Aborted when the page cancels or goes away, the timeout passes or the server stops. */
  signal: AbortSignal;
}

/**
 * @param value the `timeoutMs` member of a request
 * @returns milliseconds, {@link DEFAULT_TIMEOUT_MS} when absent, 0 for none
 * @throws {UsageError} when it is not whole milliseconds within a day
 */
export function timeoutOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_MS;
  if (
    typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_TIMEOUT_MS
  ) {
    throw new UsageError(
      `Invalid timeoutMs: expected whole milliseconds from 0 to ${MAX_TIMEOUT_MS}`,
      {
        hint: "set Timeout in seconds, e.g. 30; 0 waits without limit",
      },
    );
  }
  return value;
}

/**
 * Streams a call's events. A thrown error becomes `{type: "error", error}`, unless the page
 * cancelled (nobody is listening).
 *
 * @param run the call; resolves when it has emitted everything
 * @param options the server's signal, the timeout in ms (0: none), and the workspace whose files
 *   an error names relative to it
 * @returns the NDJSON response
 */
export function ndjsonResponse<T>(
  run: (call: NdjsonCall<T>) => Promise<void>,
  options: { signal: AbortSignal; timeoutMs?: number; workspace?: Workspace | undefined },
): Response {
  const controller = new AbortController();
  const signal = AbortSignal.any([options.signal, controller.signal]);
  const encoder = new TextEncoder();
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(out) {
      const write = (text: string) => {
        if (cancelled) return;
        try {
          out.enqueue(encoder.encode(text));
        } catch {
          // the page went away
        }
      };
      const emit = (event: T | { type: "error"; error: ErrorJson }) =>
        write(`${JSON.stringify(event)}\n`);
      const emitText = (event: T & { text: string }) => {
        const { text, ...line } = event;
        if (!text.isWellFormed()) return emit(event);
        write(`${JSON.stringify({ ...line, chars: text.length })}\n${text}\n`);
      };
      if (options.timeoutMs) {
        const seconds = options.timeoutMs / 1000;
        timer = setTimeout(() =>
          controller.abort(
            new TimeoutError(`Timed out after ${seconds} s`, {
              hint: "raise Timeout in the tab (0 waits without limit)",
            }),
          ), options.timeoutMs);
      }
      (async () => {
        try {
          await run({ emit, emitText, signal });
        } catch (error) {
          const reason = controller.signal.aborted ? controller.signal.reason : undefined;
          if (!cancelled) {
            emit({ type: "error", error: errorJson(reason ?? error, options.workspace) });
          }
        } finally {
          clearTimeout(timer);
          try {
            if (!cancelled) out.close();
          } catch {
            // already closed
          }
        }
      })();
    },
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      controller.abort(new DOMException("The page cancelled the request", "AbortError"));
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "application/x-ndjson; charset=utf-8" },
  });
}
