/**
 * `dial import`'s reader: sniffs each source's format (curl text, Postman collection or
 * environment, Insomnia v4/v5, Bruno (a collection folder, a `.bru` file or Bruno's JSON
 * export), Hoppscotch collections and environments, Yaak, OpenAPI/Swagger, HAR; JSON or YAML)
 * and reads them into one
 * import. Environments given beside a collection join it. Last, every credential left in the
 * shareable parts moves to the private environment (`import_secrets.ts`).
 * @module
 */
import { parse as parseYaml } from "yaml";
import { UsageError } from "../errors/mod.ts";
import { PUBLIC_ENV_FILE } from "../files/environment.ts";
import { isBrunoExport, isBrunoFolder, readBrunoExport, readBrunoFolder } from "./bruno.ts";
import { isCurlText, readCurlCommands } from "./curl_import.ts";
import { isHar, readHar } from "./har.ts";
import {
  isHoppscotch,
  isHoppscotchEnvironment,
  readHoppscotch,
  readHoppscotchEnvironments,
} from "./hoppscotch.ts";
import { isInsomnia, readInsomnia } from "./insomnia.ts";
import { emptyImport, type ImportResult } from "./import_model.ts";
import { safeVariableNames } from "./import_names.ts";
import { keepSecretsPrivate } from "./import_secrets.ts";
import { isOpenApi, readOpenApi } from "./openapi.ts";
import type { DocumentLoader } from "./openapi_refs.ts";
import { isYaak, readYaak } from "./yaak.ts";
import {
  isPostmanCollection,
  isPostmanEnvironment,
  readPostmanCollection,
  readPostmanEnvironment,
} from "./postman.ts";

/** One source to import. */
export interface ImportSource {
  /** Its name, for messages (a path, `-` or a URL). */
  name: string;
  /** Its text. */
  text: string;
  /** Where it was read from (`file:` or `http(s):`): an OpenAPI description's references resolve against it. */
  url?: URL;
  /** A folder's files by relative path (a Bruno collection folder); `text` is then unused. */
  files?: ReadonlyMap<string, string>;
}

/** Options of {@link readImport}. */
export interface ReadImportOptions {
  /**
   * Reads a document an OpenAPI description refers to (in its folder or on its origin, see
   * `openapi_refs.ts`); without it such references are reported, not read.
   */
  load?: DocumentLoader;
  /** A last check of a referenced file before it is read (real paths, symbolic links). */
  allowFile?: (url: URL, base: URL) => Promise<boolean>;
}

/**
 * Reads the sources into one import.
 *
 * @param sources a collection, description, HAR or curl text, and any Postman environments
 * @param options format options
 * @returns the import
 * @throws {UsageError} when a source's format is not recognised, or two sources both hold
 *   requests
 */
export async function readImport(
  sources: readonly ImportSource[],
  options: ReadImportOptions = {},
): Promise<ImportResult> {
  const result = await readSources(sources, options);
  // Readers that count what their source held set it; the others held what they carried.
  result.counts.requests = Math.max(result.counts.requests, result.requests.length);
  safeVariableNames(result);
  multiLineVariables(result);
  keepSecretsPrivate(result);
  return result;
}

async function readSources(
  sources: readonly ImportSource[],
  options: ReadImportOptions,
): Promise<ImportResult> {
  const environments: Array<Record<string, unknown>> = [];
  const hoppscotchEnvironments: unknown[] = [];
  const collections: Array<{ source: ImportSource; value: unknown }> = [];
  for (const source of sources) {
    const files = source.files ??
      (/\.bru$/i.test(source.name) ? new Map([[baseName(source.name), source.text]]) : undefined);
    if (files) {
      if (!isBrunoFolder(files)) {
        throw new UsageError(`Cannot tell the format of "${source.name}": not a Bruno collection`);
      }
      collections.push({ source, value: { bruno: files } });
      continue;
    }
    const value = isCurlText(source.text) ? source.text : unwrapped(parseDocument(source));
    if (isPostmanEnvironment(value)) environments.push(value as Record<string, unknown>);
    else if (isHoppscotchEnvironment(value)) hoppscotchEnvironments.push(value);
    else collections.push({ source, value });
  }
  if (collections.length > 1) {
    throw new UsageError(
      `Give one collection at a time: "${collections[1]!.source.name}" holds requests too`,
    );
  }
  // Environments first, so that the secrets a collection moves out land in each of them.
  const result = emptyImport("postman", "collection");
  for (const env of environments) readPostmanEnvironment(env, result);
  for (const env of hoppscotchEnvironments) readHoppscotchEnvironments(env, result);
  const only = collections[0];
  if (!only) {
    if (environments.length + hoppscotchEnvironments.length === 0) {
      throw new UsageError("Nothing to import");
    }
    return result;
  }
  const { source, value } = only;
  if (typeof value === "string") return withEnvironments(readCurlCommands(value), result);
  const document = (value ?? {}) as Record<string, unknown>;
  if (document.bruno instanceof Map) {
    return withEnvironments(readBrunoFolder(document.bruno as Map<string, string>), result);
  }
  if (isPostmanCollection(value)) return readPostmanCollection(document, result);
  if (isBrunoExport(value)) return withEnvironments(readBrunoExport(document), result);
  if (isHoppscotch(value)) return withEnvironments(readHoppscotch(value), result);
  if (isYaak(value)) return withEnvironments(readYaak(document), result);
  if (isInsomnia(value)) return withEnvironments(readInsomnia(document), result);
  if (isOpenApi(value)) {
    const refs = {
      ...(source.url ? { base: source.url } : {}),
      ...(options.load ? { load: options.load } : {}),
      ...(options.allowFile ? { allowFile: options.allowFile } : {}),
    };
    return withEnvironments(await readOpenApi(document, refs), result);
  }
  if (isHar(value)) {
    return withEnvironments(readHar(document), result);
  }
  throw new UsageError(
    `Cannot tell the format of "${source.name}": not curl commands, a Postman collection or environment, an Insomnia export, a Bruno, Hoppscotch or Yaak export, an OpenAPI/Swagger description or a HAR`,
  );
}

/**
 * A `.http` file variable is one line: a collection variable over several lines (a note, a
 * script library kept in a variable) goes to the `$shared` environment, which JSON holds.
 */
function multiLineVariables(result: ImportResult): void {
  for (const [name, value] of Object.entries(result.variables)) {
    if (!/[\r\n]/.test(value)) continue;
    delete result.variables[name];
    (result.environments.$shared ??= {})[name] ??= value;
    result.losses.push({
      where: "variables",
      what: `"${name}" holds line breaks: it is in the $shared environment of ${PUBLIC_ENV_FILE}`,
    });
  }
}

/** Adds environments read from other sources to an import. */
function withEnvironments(result: ImportResult, from: ImportResult): ImportResult {
  const given = Object.keys(from.environments);
  const placeholder = result.environments.imported;
  if (given.length && placeholder && Object.keys(placeholder).length === 0) {
    // The reader had no environment yet and kept its secrets in `imported`: they belong in
    // each environment given beside it (which keeps its own value of a name).
    const secrets = result.privateEnvironments.imported ?? {};
    for (const env of given) {
      const own = from.privateEnvironments[env] ??= {};
      for (const [k, v] of Object.entries(secrets)) {
        if (from.environments[env]?.[k] === undefined) own[k] ??= v;
      }
    }
    delete result.environments.imported;
    delete result.privateEnvironments.imported;
  }
  Object.assign(result.environments, from.environments);
  Object.assign(result.privateEnvironments, from.privateEnvironments);
  return result;
}

/**
 * The Postman API's shapes, `{"collection": {…}}` and `{"environment": {…}}` (what
 * `GET /collections/:id` answers and what some repositories commit), read as the file inside.
 */
function unwrapped(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (isPostmanCollection(record.collection)) return record.collection;
  if (isPostmanEnvironment(record.environment)) return record.environment;
  return value;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

function parseDocument(source: ImportSource): unknown {
  const text = source.text.replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch {
    try {
      return parseYaml(text);
    } catch (error) {
      throw new UsageError(
        `Cannot read "${source.name}" as JSON or YAML: ${(error as Error).message.split("\n")[0]}`,
      );
    }
  }
}
