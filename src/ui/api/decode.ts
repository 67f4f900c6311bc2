/**
 * Small validators for JSON that arrives from the browser: `unknown` in, a typed value or a
 * {@link UsageError} naming the field out.
 * @module
 */
import { readBounded } from "../../bytes.ts";
import { UsageError } from "../../errors/mod.ts";
import { MAX_API_BODY, type Row as ProtocolRow } from "../protocol.ts";
import { TooLargeError } from "../../errors/mod.ts";

/** A JSON object whose members are still unchecked. */
export type JsonObject = { readonly [key: string]: unknown };

/**
 * @param value anything
 * @returns whether it is a plain JSON object
 */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * @param value anything
 * @param field the field's name, for the message
 * @returns the object
 */
export function object(value: unknown, field: string): JsonObject {
  if (!isObject(value)) throw new UsageError(`Invalid ${field}: expected an object`);
  return value;
}

/**
 * @param value anything
 * @param field the field's name, for the message
 * @returns the string
 */
export function string(value: unknown, field: string): string {
  if (typeof value !== "string") throw new UsageError(`Invalid ${field}: expected a string`);
  return value;
}

/**
 * @param value anything
 * @param field the field's name, for the message
 * @returns the string, or undefined for undefined, null and ""
 */
export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return string(value, field);
}

/**
 * @param value anything
 * @param field the field's name, for the message
 * @returns the array
 */
export function array(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new UsageError(`Invalid ${field}: expected a list`);
  return value;
}

/**
 * @param value anything
 * @param field the field's name, for the message
 * @returns the boolean (undefined is false)
 */
export function boolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new UsageError(`Invalid ${field}: expected true or false`);
  return value;
}

/**
 * @param value anything
 * @param field the field's name, for the message
 * @param choices the allowed values
 * @returns the value, typed as one of the choices
 */
export function oneOf<T extends string>(value: unknown, field: string, choices: readonly T[]): T {
  const found = choices.find((choice) => choice === value);
  if (found === undefined) {
    throw new UsageError(`Invalid ${field}: expected one of ${choices.join(", ")}`);
  }
  return found;
}

/** An enabled name/value row from a table in the UI. */
export type Row = Omit<ProtocolRow, "enabled">;

/**
 * @param value a list of `{name, value, enabled?}`
 * @param field the table's name, for the message
 * @returns the enabled rows with a non-empty name
 */
export function rows(value: unknown, field: string): Row[] {
  const result: Row[] = [];
  for (const [i, item] of array(value, field).entries()) {
    const row = object(item, `${field}[${i}]`);
    if (row.enabled === false) continue;
    const name = string(row.name ?? "", `${field}[${i}].name`).trim();
    const text = string(row.value ?? "", `${field}[${i}].value`);
    if (name !== "") result.push({ name, value: text });
  }
  return result;
}

/**
 * Reads a JSON body of at most `limit` bytes: a larger declared length is refused before
 * reading, a larger chunked body as soon as it passes the limit.
 *
 * @param request the incoming request
 * @param limit the most bytes read: {@link MAX_API_BODY}, or less before a session is proven
 * @returns its body parsed as JSON
 * @throws {TooLargeError} beyond the limit (answered 413)
 */
export async function readJson(request: Request, limit = MAX_API_BODY): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new UsageError("Expected a JSON request body");
  }
  const tooLarge = () =>
    new TooLargeError(
      `Request body larger than ${
        limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit} bytes`
      }`,
    );
  if (Number(request.headers.get("content-length") ?? 0) > limit) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const bytes = await readBounded(request.body, limit, tooLarge);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new UsageError(`Invalid JSON request body: ${(error as Error).message}`);
  }
}
