/**
 * `dial test --openapi SPEC`: the description read (a path or an http(s) URL, JSON or YAML, its
 * `$ref`s followed inside its folder as `dial import` follows them) before anything is sent,
 * and the checker every exchange of the run is handed to. Loaded only when the flag is given:
 * Ajv stays out of every other run.
 * @module
 */
import { readContract } from "../openapi/openapi_contract.ts";
import { ContractChecker } from "../openapi/contract_check.ts";
import type { TransportOptions } from "../http/plan.ts";
import type { CliContext } from "./context.ts";
import { importReader, isUrlSource } from "./import_fetch.ts";
import { insideFolder } from "./import_run.ts";

/** How long reading the description may take. */
const READ_TIMEOUT_MS = 30_000;

/**
 * Reads a description and makes its checker.
 *
 * @param spec the path or URL given to `--openapi`
 * @param options the run's transport, and `--openapi-base`
 * @param context the run
 * @returns the checker
 * @throws {UsageError} for an unreadable, unparseable or non-OpenAPI description, or a `$ref`
 *   out of its folder
 */
export async function openapiChecker(
  spec: string,
  options: { transport: TransportOptions; base?: string },
  context: CliContext,
): Promise<ContractChecker> {
  const reader = importReader(context, {
    transport: options.transport,
    timeoutMs: READ_TIMEOUT_MS,
  });
  const { text, url } = await reader.source(spec);
  const contract = await readContract(text, {
    name: isUrlSource(spec) ? spec : `"${spec}"`,
    ...(url ? { url } : {}),
    load: reader.load,
    allowFile: insideFolder,
    ...(options.base !== undefined ? { base: options.base } : {}),
  });
  return new ContractChecker(contract);
}
