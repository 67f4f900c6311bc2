/**
 * The message log's data: a capped list of entries and the positions matching a filter,
 * kept apart from rendering so 10,000 appends cost one array push and one re-render, and the
 * appends of one animation frame one re-render (frames of a burst arrive faster than frames
 * are drawn).
 * @module
 */
import { signal } from "@preact/signals";

/** The most entries a log keeps; older ones are dropped first. */
export const MAX_ENTRIES = 100_000;

/** One row of a stream log. */
export interface LogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  /** `in`/`out` messages, SSE `event`s, connection `info`, `error`s. */
  kind: "in" | "out" | "event" | "info" | "error";
  /** The SSE event type, or a short label for info rows. */
  label: string;
  /** The SSE event id. */
  id?: string;
  /** The payload: text, or base64 for binary messages. */
  text: string;
  /** Whether {@link text} is base64 of a binary message. */
  binary?: boolean;
  /** Bytes on the wire. */
  size?: number;
  /** A keep-alive message sent by the session. */
  keepAlive?: boolean;
}

/** Decides whether an entry is shown. */
export type LogFilter = (entry: LogEntry) => boolean;

/** Calls back once before the next paint: `requestAnimationFrame` in the page. */
export type FrameScheduler = (callback: () => void) => unknown;

/** Options of a {@link LogStore}. */
export interface LogStoreOptions {
  /** The most entries kept (default {@link MAX_ENTRIES}). */
  max?: number;
  /**
   * When given, the appends until the next frame bump {@link LogStore.version} once, at that
   * frame; without it every append bumps it at once.
   */
  frame?: FrameScheduler;
}

/**
 * A capped, filterable log. {@link version} changes after every change (after the appends of a
 * frame, with a frame scheduler), so a component that reads it re-renders once per batch.
 * Entries are held as they arrive: {@link count}, {@link at} and {@link shown} see them before
 * the version says so.
 */
export class LogStore {
  /** Bumped after each change. */
  readonly version = signal(0);
  #entries: LogEntry[] = [];
  #matches: number[] | undefined;
  #filter: LogFilter | undefined;
  #dropped = 0;
  readonly #max: number;
  readonly #frame: FrameScheduler | undefined;
  /** A bump waits for the next frame. */
  #bumpPending = false;

  /** @param options the cap and the frame scheduler */
  constructor(options: LogStoreOptions = {}) {
    this.#max = options.max ?? MAX_ENTRIES;
    this.#frame = options.frame;
  }

  /** @returns how many entries are shown (after the filter) */
  get count(): number {
    return this.#matches?.length ?? this.#entries.length;
  }

  /** @returns how many entries are kept, filter or not */
  get total(): number {
    return this.#entries.length;
  }

  /** @returns how many old entries were dropped to stay under the cap */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * @param index a shown position
   * @returns the entry shown there
   */
  at(index: number): LogEntry | undefined {
    const i = this.#matches ? this.#matches[index] : index;
    return i === undefined ? undefined : this.#entries[i];
  }

  /**
   * @param entry an entry
   * @returns its shown position, or -1 when it is filtered out or gone
   */
  indexOf(entry: LogEntry): number {
    const i = this.#entries.lastIndexOf(entry);
    if (i < 0 || !this.#matches) return i;
    return this.#matches.lastIndexOf(i);
  }

  /** @returns the shown entries, oldest first */
  shown(): LogEntry[] {
    const matches = this.#matches;
    return matches ? matches.map((i) => this.#entries[i]!) : [...this.#entries];
  }

  /**
   * Adds entries at the end; the oldest go when the cap is passed.
   *
   * @param batch the new entries, oldest first
   */
  append(batch: readonly LogEntry[]): void {
    if (batch.length === 0) return;
    const start = this.#entries.length;
    for (const entry of batch) this.#entries.push(entry);
    const excess = this.#entries.length - this.#max;
    if (excess > 0) {
      this.#entries = this.#entries.slice(excess);
      this.#dropped += excess;
      this.#refilter();
    } else if (this.#matches && this.#filter) {
      for (let i = start; i < this.#entries.length; i++) {
        if (this.#filter(this.#entries[i]!)) this.#matches.push(i);
      }
    }
    this.#bumpAtFrame();
  }

  /** One bump for the appends until the next frame (at once without a scheduler). */
  #bumpAtFrame(): void {
    if (!this.#frame) {
      this.version.value++;
      return;
    }
    if (this.#bumpPending) return;
    this.#bumpPending = true;
    const frame = this.#frame; // called alone: `requestAnimationFrame` is not a method of the store
    frame(() => {
      this.#bumpPending = false;
      this.version.value++;
    });
  }

  /**
   * Shows only matching entries.
   *
   * @param filter the test, or undefined to show all
   */
  setFilter(filter: LogFilter | undefined): void {
    this.#filter = filter;
    this.#refilter();
    this.version.value++;
  }

  /** Removes every entry. */
  clear(): void {
    this.#entries = [];
    this.#dropped = 0;
    this.#refilter();
    this.version.value++;
  }

  #refilter(): void {
    const filter = this.#filter;
    if (!filter) {
      this.#matches = undefined;
      return;
    }
    const matches: number[] = [];
    this.#entries.forEach((entry, i) => {
      if (filter(entry)) matches.push(i);
    });
    this.#matches = matches;
  }
}

/**
 * A case-insensitive text filter over the payload and label, optionally limited to one
 * label (an SSE event type).
 *
 * @param text the words to find ("" for any)
 * @param label the exact label to keep, or "" for any
 * @returns the filter, or undefined when it would keep everything
 */
export function textFilter(text: string, label = ""): LogFilter | undefined {
  const needle = text.trim().toLowerCase();
  if (needle === "" && label === "") return undefined;
  return (entry) =>
    (label === "" || entry.label === label) &&
    (needle === "" || entry.text.toLowerCase().includes(needle) ||
      entry.label.toLowerCase().includes(needle) ||
      (entry.id?.toLowerCase().includes(needle) ?? false));
}
