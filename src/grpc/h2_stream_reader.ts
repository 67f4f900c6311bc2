/**
 * Reading a gRPC response off a `node:http2` client stream without `finished()`: a Deno
 * limitation's workaround (see ARCHITECTURE.md's register).
 *
 * Under Deno, a client stream whose END_STREAM (the trailers) has arrived counts as closed for
 * `finished()` while its data is still unread; Node's async iterator of a stream (which Connect
 * reads responses with) then fails a slow reader with "Premature close" (ERR_STREAM_PREMATURE_CLOSE)
 * although every byte came. A server-streaming call whose replies are written to a busy stdout
 * failed so about one run in three on a loaded machine. Node itself keeps such a stream open
 * until its data is read. This module gives each stream an iterator that reads with `read()`
 * and ends at `end` (or at `close`: a stream cut off is then told by the missing trailers, as
 * Connect does), so the stream's buffered replies are all delivered.
 *
 * Remove when the canary `tests/unit/grpc/h2_premature_close_canary_test.ts` fails.
 * @module
 */
import type { Readable } from "node:stream";
import { Http2SessionManager } from "@connectrpc/connect-node";

/**
 * @param stream a readable `node:http2` stream
 * @returns an iterator of its chunks that does not use `finished()`
 */
export function readChunks(stream: Readable): AsyncIterableIterator<Uint8Array> {
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  stream.on("readable", notify);
  stream.on("end", () => {
    ended = true;
    notify();
  });
  stream.on("close", () => {
    ended = true;
    notify();
  });
  stream.on("error", (error) => {
    failure ??= error;
    notify();
  });
  const iterator: AsyncIterableIterator<Uint8Array> = {
    async next() {
      for (;;) {
        if (failure !== undefined) throw failure;
        const chunk = stream.read() as Uint8Array | null;
        if (chunk !== null) return { done: false, value: chunk };
        if (ended) return { done: true, value: undefined };
        await new Promise<void>((resolve) => wake = resolve);
      }
    },
    return() {
      stream.destroy();
      return Promise.resolve({ done: true, value: undefined });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** Connect's HTTP/2 session manager whose streams are read by {@link readChunks}. */
export class Http2Sessions extends Http2SessionManager {
  /**
   * @param args as {@link Http2SessionManager.request}
   * @returns the stream, its async iterator replaced
   */
  override async request(
    ...args: Parameters<Http2SessionManager["request"]>
  ): ReturnType<Http2SessionManager["request"]> {
    const stream = await super.request(...args);
    Object.defineProperty(stream, Symbol.asyncIterator, { value: () => readChunks(stream) });
    return stream;
  }
}
