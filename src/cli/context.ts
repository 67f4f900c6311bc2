/**
 * What every command shares: the Ctrl-C signal.
 * @module
 */

/** Shared state of one CLI run. */
export interface CliContext {
  /** Aborted with an InterruptedError when the user presses Ctrl-C. */
  signal: AbortSignal;
}
