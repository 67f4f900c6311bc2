/**
 * `dial graphql`: placeholder until issue #4 lands.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import type { CliContext } from "./context.ts";

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `graphql` command
 */
export function graphqlCommand(_context: CliContext) {
  return new Command("graphql")
    .description("Send GraphQL operations, print schemas, follow subscriptions")
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError('"dial graphql" is not available yet');
    });
}
