/**
 * `dial auth`: placeholder until issue #3 lands.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `auth` command
 */
export function authCommand(_context: CliContext) {
  return new Command("auth")
    .description("Manage cached OAuth 2.0 tokens")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError('"dial auth" is not available yet');
    });
}
