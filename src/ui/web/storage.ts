/**
 * Signals remembered across reloads in localStorage. Only non-secret values go here: the
 * auth panel keeps its values in memory, and credential-looking header values are dropped.
 * @module
 */
import { effect, type Signal, signal } from "@preact/signals";
import { isCredentialName } from "../../credential_name.ts";

/**
 * A signal loaded from and saved to localStorage.
 *
 * @param key the storage key (prefixed with `dial.`)
 * @param initial the value when nothing is stored
 * @param check validates what was stored (it may be old or edited)
 * @param save what to store, e.g. without secrets; default the value itself
 * @returns the signal
 */
export function persisted<T>(
  key: string,
  initial: T,
  check: (value: unknown) => value is T,
  save: (value: T) => T = (value) => value,
): Signal<T> {
  let start = initial;
  try {
    const text = localStorage.getItem(`dial.${key}`);
    if (text !== null) {
      const value: unknown = JSON.parse(text);
      if (check(value)) start = value;
    }
  } catch {
    // storage unavailable or corrupt: start fresh
  }
  const state = signal(start);
  effect(() => {
    try {
      localStorage.setItem(`dial.${key}`, JSON.stringify(save(state.value)));
    } catch {
      // quota or privacy mode: nothing to do
    }
  });
  return state;
}

/** A name/value row of a table (headers, query parameters, form fields). */
export interface Row {
  name: string;
  value: string;
  enabled: boolean;
}

/**
 * @param value anything
 * @returns whether it is a list of rows
 */
export function isRows(value: unknown): value is Row[] {
  return Array.isArray(value) &&
    value.every((row) =>
      typeof row === "object" && row !== null && typeof row.name === "string" &&
      typeof row.value === "string" && typeof row.enabled === "boolean"
    );
}

/**
 * @param value anything
 * @returns whether it is a string
 */
export function isString(value: unknown): value is string {
  return typeof value === "string";
}

/**
 * @param rows header rows
 * @returns the rows with credential-looking values blanked, for storage
 */
export function withoutSecrets(rows: Row[]): Row[] {
  return rows.map((row) => isCredentialName(row.name) ? { ...row, value: "" } : row);
}
