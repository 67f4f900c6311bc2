/**
 * Runs the CLI: argv in, exit code out. The only place errors become text and codes.
 * @module
 */
import { lazy } from "./lazy.ts";
import { DialError, ExitCode, InterruptedError } from "../errors/mod.ts";
import { formatError } from "../output/report.ts";
import type { CliContext } from "./context.ts";
import { processContext } from "./io.ts";
import { parseArgv } from "./parse.ts";
import { ROOT, VERSION } from "./program.ts";
import { defaultConfigDir, joinPath } from "../cache.ts";
import { stopScriptsOnSignals } from "../script_interrupt.ts";

/** @returns the config file's path when it exists */
function existingConfig(env: CliContext["env"]): string | undefined {
  const path = joinPath(defaultConfigDir(env), "config.json");
  try {
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The exit code after SIGTERM: 128 + 15, as a shell reports a process that SIGTERM ended. */
const TERMINATED = ExitCode.Terminated;
/** The exit code after SIGHUP (the terminal went away): 128 + 1, as a shell reports it. */
const HUNG_UP = ExitCode.HungUp;

/** A run's I/O given by its caller (a test), instead of the process's. */
export type CliIo = Omit<CliContext, "signal"> & {
  /** Aborting it stands for Ctrl-C. */
  signal?: AbortSignal;
};

/**
 * @param args the command-line arguments, without the program name
 * @param io the run's streams and environment; default the process's, with Ctrl-C and SIGTERM
 * handled
 * @returns the exit code
 */
export async function run(args: string[], io?: CliIo): Promise<number> {
  if (io) {
    const context = { ...io, signal: io.signal ?? new AbortController().signal };
    return await closingPool(context, () => runCommand(args, context, () => ExitCode.Interrupted));
  }
  const controller = new AbortController();
  const signals = listenForSignals(controller);
  try {
    const context = processContext(controller.signal);
    return await closingPool(context, () => runCommand(args, context, signals.code));
  } finally {
    signals.stop();
  }
}

/** Runs a command; the run's kept-alive connections end with it. */
async function closingPool(context: CliContext, command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } finally {
    context.pool?.close();
  }
}

async function runCommand(
  args: string[],
  context: CliContext,
  interrupted: () => number,
): Promise<number> {
  try {
    let invocation = parseArgv(ROOT, args);
    // The config file is read only when it exists (one stat otherwise).
    const configFile = invocation.kind === "run" && invocation.path.length === 1
      ? existingConfig(context.env)
      : undefined;
    if (configFile && invocation.kind === "run") {
      const { configure, loadConfig } = await lazy.config();
      const config = await loadConfig(configFile);
      if (config) invocation = await configure(ROOT, args, invocation, config, context);
    }
    switch (invocation.kind) {
      case "version":
        await context.stdout.write(`${VERSION}\n`);
        return ExitCode.OK;
      case "help": {
        const { helpText } = await lazy.help();
        const sink = invocation.error ? context.stderr : context.stdout;
        await sink.write(helpText(invocation.path));
        return invocation.error ? ExitCode.Usage : ExitCode.OK;
      }
      case "run": {
        const code = await invocation.run(invocation.values, context);
        if (context.signal.aborted) return interrupted();
        // A token that could not be saved was reported on stderr; scripts must notice it too.
        const cacheFailed = context.notices.some((notice) => notice.kind === "cache_write");
        return code === ExitCode.OK && cacheFailed ? ExitCode.Failure : code;
      }
    }
  } catch (error) {
    const err = context.stderr;
    if (context.signal.aborted) return interrupted();
    // The remedies' words load only when there is an error to word.
    const hint = error instanceof DialError ? (await lazy.cliRemedies()).cliHint(error) : undefined;
    await err.write(formatError(error, err, hint));
    if (error instanceof DialError) return error.exitCode;
    if (context.env("DIAL_DEBUG") && error instanceof Error) await err.write(`${error.stack}\n`);
    return ExitCode.Failure;
  }
}

/**
 * Ctrl-C exits 130; SIGTERM (docker stop, timeout, a cancelled CI job) exits 143, as a shell
 * reports it. Both abort the run the same way, so a download removes its temporary file.
 */
function listenForSignals(controller: AbortController): { code(): number; stop(): void } {
  let code: number = ExitCode.Interrupted;
  const on = (exitCode: number) => () => {
    if (controller.signal.aborted) Deno.exit(code);
    code = exitCode;
    controller.abort(new InterruptedError());
    // Give streams a moment to close cleanly, then leave regardless.
    Deno.unrefTimer(setTimeout(() => Deno.exit(code), 2000));
  };
  const onInterrupt = on(ExitCode.Interrupted);
  const onTerminate = on(TERMINATED);
  const onHangUp = on(HUNG_UP);
  const terminable = Deno.build.os !== "windows";
  Deno.addSignalListener("SIGINT", onInterrupt);
  if (terminable) Deno.addSignalListener("SIGTERM", onTerminate);
  if (terminable) Deno.addSignalListener("SIGHUP", onHangUp);
  // A request file's script keeps the event loop busy while it runs: it is stopped at once.
  const stopWatching = stopScriptsOnSignals(
    terminable ? ["SIGINT", "SIGTERM", "SIGHUP"] : ["SIGINT"],
  );
  return {
    code: () => code,
    stop() {
      stopWatching();
      Deno.removeSignalListener("SIGINT", onInterrupt);
      if (terminable) Deno.removeSignalListener("SIGTERM", onTerminate);
      if (terminable) Deno.removeSignalListener("SIGHUP", onHangUp);
    },
  };
}
