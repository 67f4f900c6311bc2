/**
 * A small typed event channel: listeners and async iteration over the same events, so the
 * CLI can `for await` a session while the UI server subscribes to it.
 * @module
 */

/** A function that receives events. */
export type Listener<E> = (event: E) => void;

/**
 * Delivers events to listeners and to async iterators. Each iterator sees the events emitted
 * after it was created, buffered until read; all iterators finish once {@link end} is called
 * and their buffers are drained.
 *
 * @example
 * ```ts
 * const channel = new EventChannel<string>();
 * const off = channel.subscribe((e) => log.push(e));
 * channel.emit("hello");
 * off();
 * ```
 */
export class EventChannel<E> implements AsyncIterable<E> {
  readonly #listeners = new Set<Listener<E>>();
  #ended = false;
  readonly #endWaiters = new Set<() => void>();

  /**
   * Whether the channel has ended.
   *
   * @returns whether {@link end} was called
   */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Sends an event to every listener; a throwing listener does not stop the others.
   *
   * @param event the event
   */
  emit(event: E): void {
    if (this.#ended) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A faulty observer must not break the session it observes.
      }
    }
  }

  /**
   * Calls a listener for every later event.
   *
   * @param listener called with every later event
   * @returns a function that unsubscribes
   */
  subscribe(listener: Listener<E>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Ends the channel: no more events; iterators finish after their buffers. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const wake of this.#endWaiters) wake();
    this.#endWaiters.clear();
  }

  /**
   * Iterates the events from now until the channel ends.
   *
   * @returns an iterator over the events emitted from now on
   */
  [Symbol.asyncIterator](): AsyncIterator<E> {
    const buffer: E[] = [];
    let wake: (() => void) | undefined;
    const off = this.subscribe((event) => {
      buffer.push(event);
      wake?.();
    });
    const onEnd = () => wake?.();
    this.#endWaiters.add(onEnd);
    const finish = (): IteratorResult<E> => {
      off();
      this.#endWaiters.delete(onEnd);
      return { done: true, value: undefined };
    };
    return {
      next: async (): Promise<IteratorResult<E>> => {
        while (buffer.length === 0) {
          if (this.#ended) return finish();
          await new Promise<void>((resolve) => wake = resolve);
          wake = undefined;
        }
        return { done: false, value: buffer.shift()! };
      },
      return: () => Promise.resolve(finish()),
    };
  }
}

/**
 * Waits, unless the signal aborts first.
 *
 * @param ms milliseconds
 * @param signal aborts the wait
 * @returns true when the time passed, false when aborted
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Waits for a promise, unless the signal aborts first.
 *
 * @param promise what to wait for
 * @param signal ends the wait early
 * @returns when either happened
 */
export function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() =>
    signal.removeEventListener("abort", onAbort)
  );
}
