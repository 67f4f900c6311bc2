/**
 * The I/O edge of the CLI: the process's stdout, stderr, stdin and environment as a
 * {@link CliContext}. Nothing else in `src/cli/` touches them (an architecture test checks);
 * tests build their own context instead (`runCli` in tests/_helpers.ts).
 * @module
 */
import { processEnv } from "../env.ts";
import { colorWanted, type Sink, writeAll } from "../output/terminal.ts";
import type { CliContext, CliStdin } from "./context.ts";

function fileSink(file: typeof Deno.stdout | typeof Deno.stderr, stdout: boolean): Sink {
  const isTerminal = file.isTerminal();
  const sink = { write: (data: string | Uint8Array) => writeAll(file, data), isTerminal };
  const color = colorWanted(isTerminal, processEnv);
  // Only stdout carries response bodies; its stream is created when first used.
  return stdout
    ? {
      ...sink,
      color,
      get writable() {
        return Deno.stdout.writable;
      },
    }
    : { ...sink, color };
}

function processStdin(): CliStdin {
  const isTerminal = Deno.stdin.isTerminal();
  return {
    get readable() {
      return Deno.stdin.readable;
    },
    isTerminal,
    ...(isTerminal
      ? {
        readRaw: (buffer: Uint8Array) => Deno.stdin.read(buffer),
        setRaw: (raw: boolean) => Deno.stdin.setRaw(raw),
      }
      : {}),
  };
}

/**
 * @param signal aborted on Ctrl-C
 * @returns the context of a run in this process: its standard streams and environment
 */
export function processContext(signal: AbortSignal): CliContext {
  return {
    signal,
    stdout: fileSink(Deno.stdout, true),
    stderr: fileSink(Deno.stderr, false),
    stdin: processStdin(),
    env: processEnv,
    notices: [],
  };
}
