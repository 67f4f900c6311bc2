/**
 * `dial ui`: placeholder until issue #6 lands.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `ui` command
 */
export function uiCommand(_context: CliContext) {
  return new Command("ui")
    .description("Open the desktop app")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError('"dial ui" is not available yet');
    });
}
