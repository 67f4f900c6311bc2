/**
 * Running the CLI in this process, as HTTPie's and Restish's tests do: `run()` with a context
 * of its own (output buffers, stdin, environment) instead of the process's. Tests that need a
 * real process (signals, pseudo-terminals, the built CLI, a working directory) spawn main.ts
 * with `dial()` in `_helpers.ts`.
 * @module
 */
import { run } from "../src/cli/run_cli.ts";
import type { CliContext } from "../src/cli/context.ts";
import { colorWanted, type Sink } from "../src/output/terminal.ts";
import { dialEnv, type DialResult } from "./_helpers.ts";

const encoder = new TextEncoder();

/** An output that keeps what is written. */
export class BufferSink implements Sink {
  readonly isTerminal: boolean;
  readonly color: boolean;
  #chunks: Uint8Array[] = [];

  /**
   * @param isTerminal whether it stands for a terminal
   * @param color whether to colour
   */
  constructor(isTerminal = false, color = false) {
    this.isTerminal = isTerminal;
    this.color = color;
  }

  /** @param data text or bytes */
  write(data: string | Uint8Array): Promise<void> {
    this.#chunks.push(typeof data === "string" ? encoder.encode(data) : data.slice());
    return Promise.resolve();
  }

  /** @returns everything written */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.#chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const chunk of this.#chunks) out.set(chunk, (at += chunk.length) - chunk.length);
    return out;
  }

  /** @returns everything written, as text */
  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

/** Options for {@link runCli}. */
export interface RunCliOptions {
  /** Extra environment variables, over the clean one of `dialEnv()`. */
  env?: Record<string, string>;
  /** Bytes or text on stdin (else an empty stdin, as `stdin: "null"` gives a child). */
  stdin?: string | Uint8Array;
  /** Which of stdin, stdout and stderr stand for a terminal (none by default). */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** Aborting it stands for Ctrl-C. */
  signal?: AbortSignal;
}

/**
 * @param options environment, stdin, terminals
 * @returns a context for one in-process run, and its output buffers
 */
export function testContext(
  options: RunCliOptions = {},
): CliContext & { stdout: BufferSink; stderr: BufferSink } {
  const vars = dialEnv(options.env);
  const env = (name: string) => vars[name];
  const tty = options.tty ?? {};
  const bytes = typeof options.stdin === "string"
    ? encoder.encode(options.stdin)
    : options.stdin ?? new Uint8Array();
  let stdin: ReadableStream<Uint8Array> | undefined;
  return {
    signal: options.signal ?? new AbortController().signal,
    stdout: new BufferSink(!!tty.stdout, colorWanted(!!tty.stdout, env)),
    stderr: new BufferSink(!!tty.stderr, colorWanted(!!tty.stderr, env)),
    stdin: {
      // Made when first read, so a run that never reads stdin leaves no stream open.
      get readable() {
        return stdin ??= ReadableStream.from([bytes]);
      },
      isTerminal: !!tty.stdin,
    },
    env,
    notices: [],
  };
}

/**
 * Runs `dial …args` in this process.
 *
 * @param args the arguments after `dial`
 * @param options environment, stdin, terminals
 * @returns exit code and output, as `dial()` returns them
 */
export async function runCli(args: string[], options: RunCliOptions = {}): Promise<DialResult> {
  const context = testContext(options);
  const code = await run(args, context);
  const stdoutBytes = context.stdout.bytes();
  return {
    code,
    stdout: new TextDecoder().decode(stdoutBytes),
    stderr: context.stderr.text(),
    stdoutBytes,
  };
}
