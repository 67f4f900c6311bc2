/**
 * A stdin body streamed as it is read, with a copy of up to 8 MiB kept for a 307/308 hop.
 * @module
 */

/** The largest stdin body kept for sending again. */
export const REPLAY_LIMIT = 8 * 1024 * 1024;

/** Reads a stream once, hands the bytes on and keeps a copy while it stays under a limit. */
export class ReplayCopy {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #chunks: Uint8Array[] = [];
  #size = 0;
  #ended = false;
  #pending: Promise<unknown> = Promise.resolve();
  #limit: number;

  /**
   * @param source the stream to read (stdin)
   * @param limit the most bytes to keep
   */
  constructor(source: ReadableStream<Uint8Array>, limit = REPLAY_LIMIT) {
    this.#reader = source.getReader();
    this.#limit = limit;
  }

  /**
   * @returns a stream of the source's bytes; cancelling it leaves the source open so the
   *   rest can still be read by {@link ReplayCopy.rest}
   */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const chunk = await this.#read();
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    });
  }

  /**
   * Reads what the first send left unread.
   *
   * @returns the whole body, or undefined when it is larger than the limit
   */
  async rest(): Promise<Uint8Array<ArrayBuffer> | undefined> {
    await this.#pending.catch(() => {});
    while (!this.#ended && this.#size <= this.#limit) await this.#read();
    if (this.#size > this.#limit) return undefined;
    const bytes = new Uint8Array(this.#size);
    let offset = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }

  #read(): Promise<Uint8Array | undefined> {
    const next = this.#reader.read().then(({ done, value }) => {
      if (done) {
        this.#ended = true;
        return undefined;
      }
      this.#size += value.byteLength;
      if (this.#size <= this.#limit) this.#chunks.push(value.slice());
      else this.#chunks = [];
      return value;
    });
    this.#pending = next;
    return next;
  }
}
