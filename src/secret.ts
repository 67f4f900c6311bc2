/**
 * A wrapper for credentials that prints as `(redacted)` everywhere by construction.
 * @module
 */

const REDACTED = "(redacted)";

/**
 * A secret string: passwords, tokens, API keys. `String(secret)`, `JSON.stringify` and
 * `Deno.inspect` all show `(redacted)`; only {@link Secret.reveal} returns the value.
 *
 * @example
 * ```ts
 * const s = new Secret("hunter2");
 * `${s}`; // "(redacted)"
 * s.reveal(); // "hunter2"
 * ```
 */
export class Secret {
  readonly #value: string;

  /**
   * Wraps a secret value.
   *
   * @param value the secret text
   */
  constructor(value: string) {
    this.#value = value;
  }

  /**
   * The secret itself, for the one place that sends it.
   *
   * @returns the secret text itself; call only where the value must leave the process
   */
  reveal(): string {
    return this.#value;
  }

  /**
   * `(redacted)`, so string conversion never shows the secret.
   *
   * @returns `(redacted)`
   */
  toString(): string {
    return REDACTED;
  }

  /**
   * `(redacted)`, so JSON never shows the secret.
   *
   * @returns `(redacted)`
   */
  toJSON(): string {
    return REDACTED;
  }

  /**
   * `(redacted)`, so `Deno.inspect` and `console.log` never show the secret.
   *
   * @returns `Secret((redacted))` for `Deno.inspect` and `console.log`
   */
  [Symbol.for("Deno.customInspect")](): string {
    return `Secret(${REDACTED})`;
  }
}

/** A value that may or may not be secret. */
export type MaybeSecret = string | Secret;

/**
 * @param value a plain or secret string
 * @returns the real text, for sending
 */
export function reveal(value: MaybeSecret): string {
  return typeof value === "string" ? value : value.reveal();
}
