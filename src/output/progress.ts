/**
 * A download progress bar for stderr on a terminal: bytes, percentage, rate and ETA. It is
 * drawn on one line with carriage returns, at most ten times a second, and never when stderr
 * is not a terminal.
 * @module
 */
import type { Sink } from "./terminal.ts";

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

/**
 * @param bytes a byte count
 * @returns e.g. `512 B`, `1.5 KiB`, `12.3 MiB`
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * @param seconds a duration
 * @returns `m:ss`, or `h:mm:ss` from an hour on
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** What one progress line shows. */
export interface ProgressState {
  /** Bytes received so far. */
  bytes: number;
  /** The expected size (Content-Length), when known. */
  total?: number;
  /** Time since the body started, in milliseconds. */
  elapsedMs: number;
  /** Terminal columns available. */
  columns: number;
}

/**
 * Renders one progress line, fitted to the terminal width.
 *
 * @param state bytes, total, elapsed time and width
 * @returns e.g. `[=====>    ]  52%  5.2 MiB / 10.0 MiB  2.6 MiB/s  ETA 0:02`
 */
export function formatProgress(state: ProgressState): string {
  const { bytes, total, elapsedMs, columns } = state;
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? bytes / seconds : 0;
  const rateText = `${formatBytes(Math.round(rate))}/s`;
  if (total === undefined || total <= 0) {
    return fit(`${formatBytes(bytes)}  ${rateText}  ${formatDuration(seconds)}`, columns);
  }
  const fraction = Math.min(1, bytes / total);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const eta = rate > 0 && bytes < total
    ? `ETA ${formatDuration((total - bytes) / rate)}`
    : bytes >= total
    ? `in ${formatDuration(seconds)}`
    : "ETA --:--";
  const text = `${percent}  ${formatBytes(bytes)} / ${formatBytes(total)}  ${rateText}  ${eta}`;
  const barWidth = Math.min(30, columns - text.length - 4);
  if (barWidth < 5) return fit(text, columns);
  const filled = Math.floor(fraction * barWidth);
  const head = filled < barWidth ? ">" : "";
  const bar = "=".repeat(filled) + head + " ".repeat(Math.max(0, barWidth - filled - head.length));
  return `[${bar}] ${text}`;
}

function fit(text: string, columns: number): string {
  return text.length < columns ? text : text.slice(0, Math.max(0, columns - 1));
}

/** Options for {@link ProgressBar}. */
export interface ProgressBarOptions {
  /** The expected size, when known. */
  total?: number;
  /** The clock, in milliseconds; tests may pass their own. */
  now?: () => number;
  /** Terminal width; defaults to the width of stderr, or 80. */
  columns?: number;
  /** The least time between redraws. Default 100 ms. */
  intervalMs?: number;
}

/** A progress bar drawn on a terminal sink; does nothing on any other sink. */
export class ProgressBar {
  #sink: Sink;
  #total?: number;
  #now: () => number;
  #columns: number;
  #interval: number;
  #start: number;
  #lastDraw = -Infinity;
  #bytes = 0;
  #drawn = false;
  #writing: Promise<void> = Promise.resolve();

  /**
   * @param sink usually stderr; the bar is drawn only when it is a terminal
   * @param options total, clock, width and redraw interval
   */
  constructor(sink: Sink, options: ProgressBarOptions = {}) {
    this.#sink = sink;
    if (options.total !== undefined) this.#total = options.total;
    this.#now = options.now ?? (() => performance.now());
    this.#columns = options.columns ?? terminalColumns();
    this.#interval = options.intervalMs ?? 100;
    this.#start = this.#now();
  }

  /** Whether anything will be drawn. */
  get visible(): boolean {
    return this.#sink.isTerminal;
  }

  /**
   * Counts received bytes and redraws when the interval has passed.
   *
   * @param size bytes just received
   */
  add(size: number): void {
    this.#bytes += size;
    if (!this.visible) return;
    const now = this.#now();
    if (now - this.#lastDraw < this.#interval) return;
    this.#lastDraw = now;
    this.#draw(now);
  }

  /**
   * Draws the final state and ends the line.
   *
   * @returns when everything is written
   */
  async finish(): Promise<void> {
    if (this.visible) {
      this.#draw(this.#now());
      this.#write("\n");
    }
    await this.#writing;
  }

  /**
   * Erases the bar (before an error message).
   *
   * @returns when everything is written
   */
  async clear(): Promise<void> {
    if (this.#drawn) this.#write("\r\x1b[K");
    await this.#writing;
  }

  #draw(now: number): void {
    const line = formatProgress({
      bytes: this.#bytes,
      ...(this.#total !== undefined ? { total: this.#total } : {}),
      elapsedMs: now - this.#start,
      columns: this.#columns,
    });
    this.#drawn = true;
    this.#write(`\r${line}\x1b[K`);
  }

  #write(text: string): void {
    this.#writing = this.#writing.then(() => this.#sink.write(text)).catch(() => {});
  }
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}
