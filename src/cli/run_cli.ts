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

/**
 * @param args the command-line arguments, without the program name
 * @returns the exit code
 */
export async function run(args: string[]): Promise<number> {
  const controller = new AbortController();
  const context: CliContext = { signal: controller.signal };
  const onInterrupt = () => {
    if (controller.signal.aborted) Deno.exit(ExitCode.Interrupted);
    controller.abort(new InterruptedError());
    // Give streams a moment to close cleanly, then leave regardless.
    Deno.unrefTimer(setTimeout(() => Deno.exit(ExitCode.Interrupted), 2000));
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const invocation = parseArgv(ROOT, args);
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
        if (controller.signal.aborted) return ExitCode.Interrupted;
        // A token that could not be saved was reported on stderr; scripts must notice it too.
        return code === ExitCode.OK && oauth2CacheFailed() ? ExitCode.Failure : code;
      }
    }
  } catch (error) {
    const err = stderr();
    if (controller.signal.aborted) return ExitCode.Interrupted;
    await err.write(formatError(error, err));
    if (error instanceof DialError) return error.exitCode;
    if (Deno.env.get("DIAL_DEBUG") && error instanceof Error) await err.write(`${error.stack}\n`);
    return ExitCode.Failure;
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}
