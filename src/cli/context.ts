/**
 * What every command shares: the exit code it chose and the Ctrl-C signal.
 * @module
 */

/** Shared state of one CLI run. */
export interface CliContext {
  /** The exit code a command chose without throwing (e.g. `--check-status`). */
  exitCode: number;
  /** Aborted with an InterruptedError when the user presses Ctrl-C. */
  signal: AbortSignal;
}
