/**
 * `dial sse`: placeholder until issue #5 lands.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `sse` command
 */
export function sseCommand(_context: CliContext) {
  return new Command("sse")
    .description("Follow a server-sent event stream")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError('"dial sse" is not available yet');
    });
}
