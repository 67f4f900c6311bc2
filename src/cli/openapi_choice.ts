/**
 * Which OpenAPI description a request file's exchanges are checked against: `--openapi` on the
 * command line (a path or an http(s) URL), else the file's `# @openapi PATH`, else its
 * environment's `openapi` entry. A description a file names is data under the trust rule: a
 * local path, inside the run's folders after symbolic links (`--allow-path` widens them), never
 * a URL (a URL is read only when the command line gives it). Cheap: nothing is read or loaded
 * here but the path's real location; the checker loads only when a description applies.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { Environment } from "../files/environment.ts";
import type { HttpFile } from "../files/http_file_types.ts";
import type { Confinement } from "../files/trust_rule.ts";
import type { CheckedExchange } from "../openapi/contract_check.ts";
import type { TestOutcome } from "../files/script_api.ts";
import type { CliContext } from "./context.ts";
import { dirOf, type FileRunSetup } from "./file_setup.ts";
import { lazy } from "./lazy.ts";

/** A description to check against. */
export interface DescriptionChoice {
  /** A path (real, when a file named it) or, from the command line only, a URL. */
  spec: string;
  /** Where it was named, for messages: `--openapi`, `api.http:3`, `http-client.env.json`. */
  namedBy: string;
}

/**
 * Chooses the description of a file's run.
 *
 * @param file the request file
 * @param environment its environment, if any
 * @param confinement the folders the file may read
 * @param commandLine `--openapi`'s value, which wins over the file and the environment
 * @returns the description, or none
 * @throws {UsageError} for two different `# @openapi` lines, an empty one, a URL named by a
 *   file, or a path outside the run's folders: before anything is sent
 */
export async function chooseDescription(
  file: HttpFile,
  environment: Environment | undefined,
  confinement: Confinement,
  commandLine: string | undefined,
): Promise<DescriptionChoice | undefined> {
  if (commandLine !== undefined) return { spec: commandLine, namedBy: "--openapi" };
  const named = file.requests.flatMap((request) =>
    request.directives.filter((d) => d.name === "openapi")
  );
  const first = named[0];
  if (first) {
    const other = named.find((d) => d.value !== first.value);
    if (other) {
      throw new UsageError(
        `Cannot run ${file.path}: it names two OpenAPI descriptions ("${first.value}" at line ${first.span.line}, "${other.value}" at line ${other.span.line}); a file has one`,
      );
    }
    const where = `${file.path}:${first.span.line}`;
    return await localDescription(first.value, dirOf(file.path), where, confinement);
  }
  const entry = environment?.openapi;
  if (entry) {
    const where = `${entry.file} ("openapi" of environment "${environment?.name ?? ""}")`;
    return await localDescription(entry.written, entry.dir, where, confinement);
  }
  return undefined;
}

/** A description a file names: a local path inside the run's folders. */
async function localDescription(
  written: string,
  dir: string,
  where: string,
  confinement: Confinement,
): Promise<DescriptionChoice> {
  if (written === "") {
    throw new UsageError(`Cannot read the OpenAPI description named by ${where}: no path given`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(written) && !/^[a-z]:[\\/]/i.test(written)) {
    throw new UsageError(
      `Refused the OpenAPI description named by ${where}: "${written}" is not a local path (a file names a path; a URL is read only from the command line: --openapi URL)`,
      { details: { path: written } },
    );
  }
  const path = written.startsWith("/") ? written : `${dir}/${written}`;
  const real = await confinement.reading(path, {
    what: `the OpenAPI description named by ${where}`,
    written,
  });
  return { spec: real, namedBy: where };
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
