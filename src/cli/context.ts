/**
 * What every command shares: the Ctrl-C signal and the run's I/O. Commands write, read and
 * look up the environment only through it, so a test runs the CLI in process with its own
 * output buffers, stdin and environment (`runCli` in tests/_helpers.ts); `io.ts` builds the
 * process's own.
 * @module
 */
import type { EnvLookup } from "../env.ts";
import type { OAuth2Notice } from "../auth/oauth2/parse_value.ts";
import type { Sink } from "../output/terminal.ts";
import type { ConnectionPool } from "../http/pool.ts";

/** The run's standard input. */
export interface CliStdin {
  /** The bytes, read at most once per run. */
  readonly readable: ReadableStream<Uint8Array>;
  /** Whether a person types into it. */
  readonly isTerminal: boolean;
  /**
   * Reads one keystroke-sized chunk with echo off (secret prompts); present on a terminal.
   *
   * @param buffer where to read to
   * @returns the bytes read, or null at the end
   */
  readRaw?: (buffer: Uint8Array) => Promise<number | null>;
  /** Turns raw mode (no echo, no line editing) on or off; present on a terminal. */
  setRaw?: (raw: boolean) => void;
}

/** Shared state of one CLI run. */
export interface CliContext {
  /** Aborted with an InterruptedError when the user presses Ctrl-C. */
  signal: AbortSignal;
  /** Standard output. */
  stdout: Sink;
  /** Standard error. */
  stderr: Sink;
  /** Standard input. */
  stdin: CliStdin;
  /** The environment the run sees. */
  env: EnvLookup;
  /** What the run was told along the way (token-cache notices); a failed cache write fails it. */
  notices: OAuth2Notice[];
  /** Which flag or body reads stdin (only one may). */
  stdinClaimedBy?: string;
  /** The run's kept-alive connections (made with the transport flags, closed when it ends). */
  pool?: ConnectionPool;
}
