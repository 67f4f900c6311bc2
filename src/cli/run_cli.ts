/**
 * Runs the CLI: argv in, exit code out. The only place errors become text and codes.
 * @module
 */
import { DialError, ExitCode, InterruptedError } from "../errors.ts";
import { formatError } from "../output/report.ts";
import { stderr, writeSync } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import { oauth2CacheFailed } from "./oauth2_notice.ts";
import { parseArgv } from "./parse.ts";
import { ROOT, VERSION } from "./program.ts";
import { defaultConfigDir, joinPath } from "../cache.ts";

/** @returns the config file's path when it exists */
function existingConfig(): string | undefined {
  const path = joinPath(defaultConfigDir(), "config.json");
  try {
    return Deno.statSync(path).isFile ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The exit code after SIGTERM: 128 + 15, as a shell reports a process that SIGTERM ended. */
const TERMINATED = 143;
/** The exit code after SIGHUP (the terminal went away): 128 + 1, as a shell reports it. */
const HUNG_UP = 129;

/**
 * @param args the command-line arguments, without the program name
 * @returns the exit code
 */
export async function run(args: string[]): Promise<number> {
  const controller = new AbortController();
  const context: CliContext = { signal: controller.signal };
  const signals = listenForSignals(controller);
  const interrupted = signals.code;
  try {
    let invocation = parseArgv(ROOT, args);
    // The config file is read only when it exists (one stat otherwise).
    const configFile = invocation.kind === "run" && invocation.path.length === 1
      ? existingConfig()
      : undefined;
    if (configFile && invocation.kind === "run") {
      const { configure, loadConfig } = await import("./config.ts");
      const config = await loadConfig(configFile);
      if (config) invocation = await configure(ROOT, args, invocation, config);
    }
    switch (invocation.kind) {
      case "version":
        writeSync("stdout", `${VERSION}\n`);
        return ExitCode.OK;
      case "help": {
        const { helpText } = await import("./help.ts");
        writeSync(invocation.error ? "stderr" : "stdout", helpText(invocation.path));
        return invocation.error ? ExitCode.Usage : ExitCode.OK;
      }
      case "run": {
        const code = await invocation.run(invocation.values, context);
        if (controller.signal.aborted) return interrupted();
        // A token that could not be saved was reported on stderr; scripts must notice it too.
        return code === ExitCode.OK && oauth2CacheFailed() ? ExitCode.Failure : code;
      }
    }
  } catch (error) {
    const err = stderr();
    if (controller.signal.aborted) return interrupted();
    // The remedies' words load only when there is an error to word.
    const hint = error instanceof DialError
      ? (await import("./cli_remedies.ts")).cliHint(error)
      : undefined;
    await err.write(formatError(error, err, hint));
    if (error instanceof DialError) return error.exitCode;
    if (Deno.env.get("DIAL_DEBUG") && error instanceof Error) await err.write(`${error.stack}\n`);
    return ExitCode.Failure;
  } finally {
    signals.stop();
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
  return {
    code: () => code,
    stop() {
      Deno.removeSignalListener("SIGINT", onInterrupt);
      if (terminable) Deno.removeSignalListener("SIGTERM", onTerminate);
      if (terminable) Deno.removeSignalListener("SIGHUP", onHangUp);
    },
  };
}
