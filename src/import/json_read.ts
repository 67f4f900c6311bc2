/**
 * Reading the untyped JSON (or YAML) of an export, as every importer does: an object's fields,
 * a value as text, a value as a list, each forgiving what is missing or of another type.
 * @module
 */

/** A JSON object as the importers read it. */
export type Json = Record<string, unknown>;
/** @returns whether the value is a JSON object (not an array, not null) */
export const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
/** @returns the value as text: a string as it is, undefined as "", anything else by String() */
export const text = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined ? "" : String(v);
/** @returns the value if it is an array, else an empty one */
export const list = (v: unknown): unknown[] => Array.isArray(v) ? v : [];
