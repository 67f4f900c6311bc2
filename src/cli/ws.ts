/**
 * `dial ws`: placeholder until issue #5 lands.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `ws` command
 */
export function wsCommand(_context: CliContext) {
  return new Command("ws")
    .description("Talk to a WebSocket endpoint")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError('"dial ws" is not available yet');
    });
}
