/**
 * Small assertion helpers over node:assert (JSR's @std/assert is not reachable).
 * @module
 */
import assert from "node:assert/strict";

/** Asserts deep equality. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  assert.deepStrictEqual(actual, expected, message);
}

/** Asserts that `text` contains `part`. */
export function assertStringIncludes(text: string, part: string, message?: string): void {
  if (!text.includes(part)) {
    throw new assert.AssertionError({
      message: message ?? `Expected text to include ${JSON.stringify(part)}:\n${text}`,
      actual: text,
      expected: part,
      operator: "includes",
    });
  }
}

/** Asserts that `text` does not contain `part`. */
export function assertNotIncludes(text: string, part: string, message?: string): void {
  if (text.includes(part)) {
    throw new assert.AssertionError({
      message: message ?? `Expected text not to include ${JSON.stringify(part)}:\n${text}`,
      actual: text,
      expected: part,
      operator: "not includes",
    });
  }
}

/** Asserts that `fn` throws an instance of `type` whose message includes `includes`. */
export function assertThrows(
  fn: () => unknown,
  // deno-lint-ignore no-explicit-any
  type?: new (...args: any[]) => Error,
  includes?: string,
): Error {
  try {
    fn();
  } catch (error) {
    checkError(error, type, includes);
    return error as Error;
  }
  throw new assert.AssertionError({ message: "Expected function to throw" });
}

/** Asserts that `fn` rejects with an instance of `type` whose message includes `includes`. */
export async function assertRejects(
  fn: () => Promise<unknown>,
  // deno-lint-ignore no-explicit-any
  type?: new (...args: any[]) => Error,
  includes?: string,
): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    checkError(error, type, includes);
    return error as Error;
  }
  throw new assert.AssertionError({ message: "Expected promise to reject" });
}

function checkError(
  error: unknown,
  // deno-lint-ignore no-explicit-any
  type?: new (...args: any[]) => Error,
  includes?: string,
) {
  if (type && !(error instanceof type)) {
    throw new assert.AssertionError({
      message: `Expected ${type.name}, got ${
        error instanceof Error ? error.name : typeof error
      }: ${error}`,
    });
  }
  if (includes !== undefined && !(error instanceof Error && error.message.includes(includes))) {
    throw new assert.AssertionError({
      message: `Expected message to include ${JSON.stringify(includes)}, got ${
        JSON.stringify((error as Error)?.message)
      }`,
    });
  }
}

export { assert };

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
