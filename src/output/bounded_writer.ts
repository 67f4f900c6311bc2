/**
 * A byte-bounded queue between a stream session and a slow output. Lines are encoded at once
 * into 64 KiB blocks, so a queue of a million small messages costs their bytes, not a million
 * JavaScript strings.
 * @module
 */
import { outputError } from "../errors/mod.ts";
import type { Sink } from "./terminal.ts";

/** How much output may wait for a slow reader: 8 MiB. */
export const DEFAULT_QUEUE_BYTES = 8 * 1024 * 1024;

const BLOCK_BYTES = 64 * 1024;
const encoder = new TextEncoder();

interface Block {
  bytes: Uint8Array;
  used: number;
}

/** Options for {@link BoundedWriter}. */
export interface BoundedWriterOptions {
  /** The most bytes queued. Default {@link DEFAULT_QUEUE_BYTES}. */
  limitBytes?: number;
  /** Called around each write, e.g. to clear and redraw a prompt on stderr. */
  around?: { before(): Promise<void>; after(): Promise<void> };
}

/**
 * Writes messages to a sink through a bounded queue.
 *
 * @example
 * ```ts
 * const writer = new BoundedWriter(stdout());
 * writer.push("line\n");
 * await writer.ready(); // pauses the producer while 8 MiB wait
 * await writer.flush();
 * ```
 */
export class BoundedWriter {
  readonly #sink: Sink;
  readonly #limit: number;
  readonly #options: BoundedWriterOptions;
  // When the queue is full the producer awaits ready(); nothing is ever dropped.
  readonly #blocks: Block[] = [];
  #queued = 0;
  #writing: Promise<void> | undefined;
  /** The block being written: never appended to. */
  #current: Block | undefined;
  #failure?: unknown;
  #waiters: Array<() => void> = [];

  /**
   * @param sink where the bytes go
   * @param options the bound and what to do when it is reached
   */
  constructor(sink: Sink, options: BoundedWriterOptions = {}) {
    this.#sink = sink;
    this.#limit = options.limitBytes ?? DEFAULT_QUEUE_BYTES;
    this.#options = options;
  }

  /** @returns the bytes waiting to be written */
  get queuedBytes(): number {
    return this.#queued;
  }

  /** @returns what writing threw, once it failed (nothing more is written then) */
  get failure(): unknown {
    return this.#failure;
  }

  /** @returns whether the queue holds its limit or more */
  get full(): boolean {
    return this.#queued >= this.#limit;
  }

  /**
   * Queues one message (a complete line or block of text).
   *
   * @param text the text, already formatted
   */
  push(text: string): void {
    if (this.#failure !== undefined) return;
    let tail = this.#blocks.at(-1);
    // Worst case three UTF-8 bytes per UTF-16 unit; the block being written is never grown.
    const worst = text.length * 3;
    let written: number;
    if (worst > BLOCK_BYTES) {
      // A large message gets a block of its own, of its exact size.
      const bytes = encoder.encode(text);
      this.#blocks.push({ bytes, used: bytes.length });
      written = bytes.length;
    } else {
      if (!tail || tail === this.#current || tail.bytes.length - tail.used < worst) {
        tail = { bytes: new Uint8Array(BLOCK_BYTES), used: 0 };
        this.#blocks.push(tail);
      }
      written = encoder.encodeInto(text, tail.bytes.subarray(tail.used)).written;
      tail.used += written;
    }
    this.#queued += written;
    this.#writing ??= this.#drain();
  }

  /**
   * @returns nothing to wait for while the queue has room (so a hot loop stays synchronous),
   * else a promise that resolves once it has room again
   */
  ready(): Promise<void> | undefined {
    if (!this.full || this.#failure !== undefined) return undefined;
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * @returns when everything queued is written
   * @throws what writing threw (e.g. a closed pipe)
   */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#blocks.length > 0) {
        const block = this.#current = this.#blocks[0]!;
        await this.#options.around?.before();
        await this.#sink.write(block.bytes.subarray(0, block.used));
        await this.#options.around?.after();
        this.#blocks.shift();
        this.#current = undefined;
        this.#queued -= block.used;
        this.#wake();
      }
    } catch (error) {
      this.#failure = outputError(error) ?? error;
      this.#blocks.length = 0;
      this.#queued = 0;
      this.#wake();
    } finally {
      this.#current = undefined;
      this.#writing = undefined;
    }
  }

  #wake(): void {
    if (this.full && this.#failure === undefined) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
