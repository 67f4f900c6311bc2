/**
 * The output of a stream command (`dial ws`, `dial sse`): received messages through a
 * {@link BoundedWriter} (while it is full the session stops reading), notes on stderr in order
 * with them, and a reader that went away (`| head -3`) reported once instead of failing.
 * @module
 */
import { BoundedWriter, type BoundedWriterOptions } from "./bounded_writer.ts";
import { isBrokenPipe, type Sink } from "./terminal.ts";

/** Options for {@link OrderedPrinter}. */
export interface OrderedPrinterOptions extends BoundedWriterOptions {
  /** Called when the reader of the output went away: the command ends as if it had enough. */
  onReaderGone(): void;
}

/**
 * Messages and notes of a stream session, written in the order they happened.
 *
 * @example
 * ```ts
 * const printer = new OrderedPrinter(stdout, { onReaderGone: () => session.close() });
 * printer.writer.push("message\n");
 * await printer.print(() => stderr.write("* note\n"));
 * await printer.finish();
 * ```
 */
export class OrderedPrinter {
  /** The bounded queue received messages go through. */
  readonly writer: BoundedWriter;
  readonly #onReaderGone: () => void;
  #printing: Promise<void> = Promise.resolve();

  /**
   * @param sink where messages go (stdout, or a file)
   * @param options the queue's options and what to do when the reader goes away
   */
  constructor(sink: Sink, options: OrderedPrinterOptions) {
    const { onReaderGone, ...writerOptions } = options;
    this.writer = new BoundedWriter(sink, writerOptions);
    this.#onReaderGone = onReaderGone;
  }

  /**
   * Runs `write` once everything queued before it is written.
   *
   * @param write a write to another sink (a note on stderr)
   * @returns when it is done; a failure other than a gone reader surfaces in {@link finish}
   */
  print(write: () => Promise<void>): Promise<void> {
    this.#printing = this.#printing.then(() => this.writer.flush()).then(write).catch((error) => {
      if (!isBrokenPipe(error)) throw error;
      this.#onReaderGone();
    });
    // Awaited in finish(); until then a failed write must not count as unhandled.
    this.#printing.catch(() => {});
    return this.#printing;
  }

  /** Whether the queue failed; a gone reader is reported through `onReaderGone`. */
  checkFailure(): unknown {
    const failure = this.writer.failure;
    if (failure === undefined) return undefined;
    if (isBrokenPipe(failure)) {
      this.#onReaderGone();
      return undefined;
    }
    return failure;
  }

  /** Waits until every note and message is written; a reader that went away is no error. */
  async finish(): Promise<void> {
    await this.#printing;
    await this.writer.flush().catch((error) => {
      if (!isBrokenPipe(error)) throw error;
    });
  }
}
