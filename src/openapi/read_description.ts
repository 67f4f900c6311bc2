/**
 * A local OpenAPI description read as a contract, for the faces that read only files a request
 * file or environment names (the UI; the CLI's `--openapi` also reads URLs, through its import
 * reader): JSON or YAML, its `$ref`s followed to files inside its folder, symbolic links
 * included.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { insideFolder } from "../import/openapi_refs.ts";
import { type Contract, readContract } from "./openapi_contract.ts";
import { ContractChecker } from "./contract_check.ts";

// The UI's OpenAPI side matches the URL as the tab has it, once this module is loaded.
export { matchWritten } from "./openapi_contract.ts";

/** The largest description (or referenced document) read: 50 MiB, as `dial import` reads. */
const MAX_BYTES = 50 * 1024 * 1024;

/**
 * @param path the description's path (real, as the trust rule resolved it)
 * @param name how messages name it (`api.http:1`)
 * @returns the contract
 * @throws {UsageError} for a file that cannot be read, is too large or is not a description
 */
export async function readDescriptionFile(path: string, name: string): Promise<Contract> {
  const url = new URL(`file://${encodeURI(path).replaceAll("#", "%23")}`);
  const text = await readFile(path, `Cannot read the OpenAPI description ${name}`);
  return await readContract(text, {
    url,
    name,
    load: (ref) => readFile(decodeURIComponent(ref.pathname), `Cannot read "${ref.pathname}"`),
    allowFile: insideFolder,
  });
}

/**
 * @param path the description's path (real, as the trust rule resolved it)
 * @param name how messages name it
 * @returns the checker of its exchanges
 * @throws {UsageError} as {@link readDescriptionFile}
 */
export async function descriptionChecker(path: string, name: string): Promise<ContractChecker> {
  return new ContractChecker(await readDescriptionFile(path, name));
}

async function readFile(path: string, failed: string): Promise<string> {
  try {
    const info = await Deno.stat(path);
    if (info.isFile && info.size > MAX_BYTES) {
      throw new UsageError(`${failed}: larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    }
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const why = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a directory"
      : (error as Error).message;
    throw new UsageError(`${failed}: ${why}`);
  }
}
