/**
 * `dial completions`: placeholder until issue #8 lands.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `completions` command
 */
export function completionsCommand(_context: CliContext) {
  return new Command("completions")
    .description("Print a shell completion script")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError('"dial completions" is not available yet');
    });
}
