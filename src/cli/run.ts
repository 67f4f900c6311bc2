/**
 * Runs the CLI: argv in, exit code out. The only place errors become text and codes.
 * @module
 */
import { CommanderError } from "@commander-js/extra-typings";
import { DialError, ExitCode, InterruptedError } from "../errors.ts";
import { formatError } from "../output/report.ts";
import { stderr } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import { buildProgram } from "./program.ts";

/**
 * @param args the command-line arguments, without the program name
 * @returns the exit code
 */
export async function run(args: string[]): Promise<number> {
  const controller = new AbortController();
  const context: CliContext = { exitCode: ExitCode.OK, signal: controller.signal };
  const onInterrupt = () => {
    if (controller.signal.aborted) Deno.exit(ExitCode.Interrupted);
    controller.abort(new InterruptedError());
    // Give streams a moment to close cleanly, then leave regardless.
    Deno.unrefTimer(setTimeout(() => Deno.exit(ExitCode.Interrupted), 2000));
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    await buildProgram(context).parseAsync(args, { from: "user" });
    return controller.signal.aborted ? ExitCode.Interrupted : context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.Usage;
    }
    const err = stderr();
    if (controller.signal.aborted) return ExitCode.Interrupted;
    await err.write(formatError(error, err.color));
    if (error instanceof DialError) return error.exitCode;
    if (Deno.env.get("DIAL_DEBUG") && error instanceof Error) await err.write(`${error.stack}\n`);
    return ExitCode.Failure;
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}
