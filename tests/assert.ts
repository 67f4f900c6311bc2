/**
 * Assertion helpers that node:assert lacks. Tests use `assert` from "node:assert/strict" and
 * these plain functions beside it.
 * @module
 */
import assert from "node:assert/strict";

/** Asserts that `text` contains `part`; the failure message shows the text. */
export function includes(text: string, part: string, message?: string): void {
  if (text.includes(part)) return;
  throw new assert.AssertionError({
    message: message ?? `Expected text to include ${JSON.stringify(part)}:\n${text}`,
    actual: text,
    expected: part,
    operator: "includes",
  });
}

/** Asserts that `text` does not contain `part`; the failure message shows the text. */
export function excludes(text: string, part: string, message?: string): void {
  if (!text.includes(part)) return;
  throw new assert.AssertionError({
    message: message ?? `Expected text not to include ${JSON.stringify(part)}:\n${text}`,
    actual: text,
    expected: part,
    operator: "excludes",
  });
}

/**
 * Asserts two byte arrays are equal, naming the first difference. Never builds a diff: a
 * diff of two large arrays takes gigabytes.
 */
export function assertBytesEqual(actual: Uint8Array, expected: Uint8Array, message = ""): void {
  const length = Math.min(actual.length, expected.length);
  let i = 0;
  while (i < length && actual[i] === expected[i]) i++;
  if (i === length && actual.length === expected.length) return;
  throw new assert.AssertionError({
    message: `${message ? message + ": " : ""}bytes differ at offset ${i} ` +
      `(actual ${actual.length} bytes, expected ${expected.length})`,
  });
}
