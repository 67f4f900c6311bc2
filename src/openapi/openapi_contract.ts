/**
 * An OpenAPI description read as a contract: JSON or YAML, OpenAPI 3.1, 3.0 or Swagger 2.0
 * (upgraded to 3.1 by `@scalar/openapi-upgrader`, as `dial import` reads them), `$ref`s followed
 * across the description's folder (`openapi_refs.ts`; one out of the folder is refused), and its
 * operations with the path templates they match under the server's base path.
 * @see https://spec.openapis.org/oas/v3.1.0
 * @module
 */
import { upgrade } from "@scalar/openapi-upgrader";
import { parseDocument } from "yaml";
import { UsageError } from "../errors/mod.ts";
import type { ImportLoss } from "../import/import_model.ts";
import { isObject, type Json } from "../import/json_read.ts";
import { isOpenApi } from "../import/openapi.ts";
import { type DocumentLoader, resolveRefs } from "../import/openapi_refs.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One operation of the description. */
export interface ContractOperation {
  /** `GET /pets/{id}`: the name of its tests. */
  name: string;
  /** Upper-case method. */
  method: string;
  /** The path template as written. */
  path: string;
  /** Matches a request path below the base path; groups are the path parameters, in order. */
  pattern: RegExp;
  /** The path parameters' names, in the pattern's order. */
  names: string[];
  /** The operation object, `$ref`s resolved. */
  operation: Json;
  /** Its parameters and the path item's (the operation's win), `$ref`s resolved. */
  parameters: Json[];
  /** The JSON pointer of the operation in the description, for schema references. */
  pointer: string;
}

/** A description read as a contract. */
export interface Contract {
  /** Where it was read from, for messages. */
  source: string;
  /** `2.0`, `3.0.x` or `3.1.x` as the description says. */
  version: string;
  /** The description upgraded to 3.1, `$ref`s resolved (a recursive schema keeps its own). */
  document: Json;
  /** Its operations, literal paths before templated ones. */
  operations: ContractOperation[];
  /** The base path requests are matched under (`/v1`), without a trailing slash. */
  basePath: string;
}

/** Options of {@link readContract}. */
export interface ReadContractOptions {
  /** Where the text came from: references resolve against it, and it names the description. */
  url?: URL;
  /** The name given on the command line, for messages. */
  name: string;
  /** Reads a referenced document. */
  load?: DocumentLoader;
  /** Checks that a referenced file stays inside the description's folder (real paths). */
  allowFile?: (url: URL, base: URL) => Promise<boolean>;
  /** `--openapi-base URL`: the base path to match under, instead of the first server's. */
  base?: string;
}

/**
 * Reads a description.
 *
 * @param text its JSON or YAML text
 * @param options where it came from, how to read what it refers to, the base path
 * @returns the contract
 * @throws {UsageError} for text that is not JSON or YAML, a document that is not an OpenAPI
 *   description, or a `$ref` that cannot be followed (out of the folder, to nothing)
 */
export async function readContract(text: string, options: ReadContractOptions): Promise<Contract> {
  const where = `Cannot read the OpenAPI description ${options.name}`;
  // JSON first: the YAML parser takes ~50x as long on a large JSON description (GitHub's 13 MB:
  // 23 s against 0.4 s); YAML, and JSON that does not parse, go to the YAML parser, whose
  // errors name the line and column.
  let value: unknown = /^\uFEFF?\s*[{[]/.test(text) ? parseJson(text) : undefined;
  if (value === undefined) {
    const parsed = parseDocument(text);
    if (parsed.errors.length) {
      const error = parsed.errors[0]!;
      const pos = error.linePos?.[0];
      const message = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
      throw new UsageError(
        `${where}: ${pos ? `line ${pos.line}, column ${pos.col}: ` : ""}${message}`,
      );
    }
    value = parsed.toJS({ maxAliasCount: 100 });
  }
  if (!isOpenApi(value)) {
    throw new UsageError(
      `${where}: not an OpenAPI 3 or Swagger 2.0 description (no "openapi" or "swagger" field and "paths" object)`,
    );
  }
  const raw = value as Json;
  const version = String(raw.openapi ?? raw.swagger);
  let upgraded: unknown;
  try {
    upgraded = upgrade(raw, "3.1");
  } catch (error) {
    throw new UsageError(`${where}: ${(error as Error).message}`);
  }
  const losses: ImportLoss[] = [];
  const document = normalize(
    await resolveRefs(upgraded as Json, {
      ...(options.url ? { base: options.url } : {}),
      ...(options.load ? { load: options.load } : {}),
      ...(options.allowFile ? { allowFile: options.allowFile } : {}),
      losses,
    }),
  ) as Json;
  discriminate(document);
  // A $ref that leads out of the folder, or to a file that cannot be read, is refused; one to
  // nothing inside a document (often an example's) is left to accept anything.
  const refused = losses.find((loss) => !loss.what.startsWith("a $ref to nothing"));
  if (refused) throw new UsageError(`${where}: ${refused.what}`);
  const basePath = options.base !== undefined ? pathOf(options.base) : serverPath(document);
  return {
    source: options.name,
    version,
    document,
    operations: operationsOf(document),
    basePath,
  };
}

/** JSON text as a value, or undefined when it does not parse as JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
}

/** The path of the first server's URL (`/v1`), its variables at their defaults. */
function serverPath(document: Json): string {
  const server = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (!isObject(server) || typeof server.url !== "string") return "";
  let url = server.url;
  const variables = isObject(server.variables) ? server.variables : {};
  for (const [name, v] of Object.entries(variables)) {
    url = url.replaceAll(`{${name}}`, isObject(v) ? String(v.default ?? "") : "");
  }
  return pathOf(url);
}

function pathOf(url: string): string {
  let path: string;
  try {
    path = new URL(url, "http://base.invalid").pathname;
  } catch {
    path = url;
  }
  return decodeURI(path).replace(/\/+$/, "");
}

function operationsOf(document: Json): ContractOperation[] {
  const operations: ContractOperation[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const names: string[] = [];
      const source = path.split(/(\{[^}]+\})/).map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(name);
        return "([^/]+)";
      }).join("");
      const parameters = new Map<string, Json>();
      for (const p of [...list(item.parameters), ...list(operation.parameters)]) {
        if (isObject(p)) parameters.set(`${p.in}:${p.name}`, p);
      }
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${source}/?$`),
        names,
        operation,
        parameters: [...parameters.values()],
        pointer: `/paths/${escapePointer(path)}/${method}`,
      });
    }
  }
  // A literal segment wins over a template (`/pets/mine` before `/pets/{id}`).
  return operations.sort((a, b) => a.names.length - b.names.length);
}

/**
 * Finds the operation of a request.
 *
 * @param contract the contract
 * @param method the request's method
 * @param url the request's URL
 * @returns the operation and its path parameters (decoded), or undefined
 */
export function matchOperation(
  contract: Contract,
  method: string,
  url: URL,
): { operation: ContractOperation; path: Map<string, string> } | undefined {
  const full = url.pathname;
  if (
    contract.basePath && full !== contract.basePath && !full.startsWith(`${contract.basePath}/`)
  ) {
    return undefined;
  }
  const rest = full.slice(contract.basePath.length) || "/";
  for (const operation of contract.operations) {
    if (operation.method !== method.toUpperCase()) continue;
    const match = operation.pattern.exec(rest);
    if (!match) continue;
    const path = new Map<string, string>();
    operation.names.forEach((name, i) => {
      const raw = match[i + 1]!;
      let value = raw;
      try {
        value = decodeURIComponent(raw);
      } catch { /* kept as sent */ }
      path.set(name, value);
    });
    return { operation, path };
  }
  return undefined;
}

/**
 * The operation a URL as written matches. Its `{{variables}}` are not known here: each stands
 * for one path segment, or, starting the URL, for its origin and some of its path (then the
 * longest tail of the path that matches an operation wins).
 *
 * @param contract the description
 * @param method the method
 * @param written the URL as the tab has it
 * @returns the operation, or undefined
 */
export function matchWritten(
  contract: Contract,
  method: string,
  written: string,
): ContractOperation | undefined {
  const unknown = "\uE000";
  let text = written.trim().replace(/\{\{[^}]*\}\}/g, unknown).replace(/[?#].*$/s, "");
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  const base = text.startsWith(unknown);
  if (base) text = text.replace(/^\uE000+/, "");
  const at = (path: string, of: Contract) =>
    matchOperation(of, method, new URL(`http://x${path.startsWith("/") ? "" : "/"}${path}`))
      ?.operation;
  if (!base) return at(text, contract);
  // The origin (and maybe the base path) is a variable: the longest matching tail wins.
  const anyBase = { ...contract, basePath: "" };
  const segments = text.split("/").filter((s, i) => i > 0 || s !== "");
  for (let i = 0; i < segments.length; i++) {
    const found = at(`/${segments.slice(i).join("/")}`, anyBase);
    if (found) return found;
  }
  return undefined;
}

/**
 * 3.0 keywords left in documents the upgrader did not see (referenced files), as 3.1 says;
 * `int32`/`int64` as the ranges they are; the `$ref`s left where a recursive schema closes
 * accept anything.
 */
function normalize(document: unknown): unknown {
  // The resolved description shares the targets of its $refs: each is normalized once, and the
  // result shares them the same way.
  const done = new Map<object, unknown>();
  const walk = (value: unknown): unknown => {
    if (!isObject(value) && !Array.isArray(value)) return value;
    let out = done.get(value);
    if (out === undefined) {
      out = Array.isArray(value) ? value.map(walk) : normalized(value, walk);
      done.set(value, out);
    }
    return out;
  };
  return walk(document);
}

/** One schema object normalized, its members by `walk`. */
function normalized(value: Json, walk: (value: unknown) => unknown): Json {
  // A recursive schema keeps its $ref where it closes: checked no deeper (never a false alarm).
  if (typeof value.$ref === "string") return {};
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) out[key] = walk(v);
  if (out.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (Array.isArray(out.type) && !out.type.includes("null")) {
      out.type = [...out.type, "null"];
    }
    delete out.nullable;
  }
  // OpenAPI's integer formats are ranges (the validator knows no such formats).
  const range = out.format === "int32" ? 2 ** 31 : out.format === "int64" ? 2 ** 63 : undefined;
  if (range !== undefined) {
    out.minimum ??= -range;
    out.maximum ??= range - 1;
  }
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]]) {
    if (typeof out[flag!] === "boolean") {
      if (out[flag!] === true && typeof out[bound!] === "number") {
        out[flag!] = out[bound!];
        delete out[bound!];
      } else delete out[flag!];
    }
  }
  return out;
}

/**
 * A `discriminator` picks the branch: its `oneOf` becomes an `anyOf` (branches that overlap are
 * not an error) and each mapped value must match its own schema (`if`/`then`).
 * @see https://spec.openapis.org/oas/v3.1.0#discriminator-object
 */
function discriminate(document: Json): void {
  const seen = new Set<object>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!isObject(value) || seen.has(value)) return;
    seen.add(value);
    for (const v of Object.values(value)) walk(v);
    const discriminator = value.discriminator;
    if (!isObject(discriminator) || typeof discriminator.propertyName !== "string") return;
    const property = discriminator.propertyName;
    const branches = value.oneOf ?? value.anyOf;
    if (!Array.isArray(branches)) return;
    delete value.oneOf;
    value.anyOf = branches;
    const mapping = isObject(discriminator.mapping) ? discriminator.mapping : {};
    const picks: Json[] = [];
    for (const [name, target] of Object.entries(mapping)) {
      if (typeof target !== "string") continue;
      const pointer = target.startsWith("#") ? target.slice(1) : `/components/schemas/${target}`;
      const schema = at(document, pointer);
      if (!isObject(schema)) continue;
      picks.push({
        if: { properties: { [property]: { const: name } }, required: [property] },
        then: schema,
      });
    }
    if (picks.length) value.allOf = [...(Array.isArray(value.allOf) ? value.allOf : []), ...picks];
  };
  walk(document);
}

/** The value at a JSON pointer of a document. */
function at(document: unknown, pointer: string): unknown {
  let current = document;
  for (const part of pointer.split("/").slice(1)) {
    if (!isObject(current) && !Array.isArray(current)) return undefined;
    const key = decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
