/**
 * A file's contract checks for `dial run`: the description chosen (`description_choice.ts`:
 * `--openapi`, else the file's `# @openapi`, else its environment's `openapi` entry) and read
 * before anything is sent; the checker loads only when a description applies.
 * @module
 */
import type { Environment } from "../files/environment.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import type { Confinement } from "../files/trust_rule.ts";
import type { CheckedExchange } from "../openapi/contract_check.ts";
import { type DescriptionChoice, fileDescription } from "../openapi/description_choice.ts";
import type { TestOutcome } from "../files/script_api.ts";
import type { CliContext } from "./context.ts";
import type { FileRunSetup } from "./file_setup.ts";
import { lazy } from "./lazy.ts";

/**
 * Chooses the description of a file's run: `--openapi`, else the one the file names.
 *
 * @param file the request file
 * @param environment its environment, if any
 * @param confinement the folders the file may read
 * @param commandLine `--openapi`'s value, which wins over the file and the environment
 * @returns the description, or none
 * @throws {import("../errors/mod.ts").UsageError} for a description the file names that is
 *   refused (before anything is sent)
 */
export async function chooseDescription(
  file: HttpFile,
  environment: Environment | undefined,
  confinement: Confinement,
  commandLine: string | undefined,
): Promise<DescriptionChoice | undefined> {
  if (commandLine !== undefined) return { spec: commandLine, namedBy: "--openapi" };
  return await fileDescription(file, environment, confinement);
}

/** A file's contract checks for `dial run`: each exchange's violations, and whether any. */
export interface FileContract {
  /** The exchange's violations, as failed tests of its request. */
  check(exchange: CheckedExchange): TestOutcome[];
  /** Whether an exchange broke the description. */
  violated(): boolean;
}

/**
 * The description of a file's run (`--openapi`, `# @openapi`, the environment's `openapi`),
 * read before anything is sent; the validator loads only when one applies.
 *
 * @param file the request file
 * @param environment its environment
 * @param confinement the folders it may read
 * @param flags `--openapi` and `--openapi-base`
 * @param setup the run's transport
 * @param context the run
 * @returns the checks, or none when no description applies
 * @throws {UsageError} for a refused or bad description
 */
export async function fileContract(
  file: HttpFile,
  environment: Environment | undefined,
  confinement: Confinement,
  flags: { openapi?: string | undefined; openapiBase?: string | undefined },
  setup: Pick<FileRunSetup, "transport">,
  context: CliContext,
): Promise<FileContract | undefined> {
  const choice = await chooseDescription(file, environment, confinement, flags.openapi);
  if (!choice) return undefined;
  const { OpenapiChecks, violationTests } = await lazy.openapiChecks();
  const checks = new OpenapiChecks({
    transport: setup.transport,
    ...(flags.openapiBase !== undefined ? { base: flags.openapiBase } : {}),
  }, context);
  const checker = await checks.checker(choice);
  let violated = false;
  return {
    check: (exchange) => {
      const tests = violationTests(checker, exchange);
      if (tests.length) violated = true;
      return tests;
    },
    violated: () => violated,
  };
}
