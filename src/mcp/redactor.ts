/**
 * The values an MCP client must never see, and their removal from everything sent to it. A
 * secret is learned where dial meets it: the private environment file and references
 * (`@env:`, `@file`, `@exec:`) as the environment loads, `{{$env.NAME}}` reads, OAuth 2.0 tokens,
 * and the values of the credential headers dial sends. Each is removed as written and in the
 * forms a server echoes it back in (percent-encoded, form-encoded, JSON-escaped, base64).
 * @module
 */

import { Secret } from "../secret.ts";

/** What a secret is replaced with. */
export const REDACTED = "(redacted)";

/** Collects secrets and removes them from text. */
export class Redactor {
  readonly #values = new Set<string>();
  #forms: string[] = [];

  /**
   * Learns a secret (and the forms a server may echo it in).
   *
   * @param value the secret's text; empty values are ignored
   */
  add(value: string): void {
    if (!value || this.#values.has(value)) return;
    this.#values.add(value);
    const forms = new Set([value, encodeURIComponent(value), encodeURI(value)]);
    forms.add(encodeURIComponent(value).replaceAll("%20", "+"));
    forms.add(JSON.stringify(value).slice(1, -1));
    const bytes = new TextEncoder().encode(value);
    forms.add(bytes.toBase64());
    forms.add(bytes.toBase64({ alphabet: "base64url", omitPadding: true }));
    for (const form of forms) if (form) this.#forms.push(form);
    // Longest first, so a secret that contains another is removed whole.
    this.#forms.sort((a, b) => b.length - a.length);
  }

  /**
   * Learns the secrets among variables' values. A value not read yet (a reference read lazily,
   * when a request uses it) is skipped: it has not been sent, and is learned once it has.
   *
   * @param values variables' values, secret or plain
   */
  addSecrets(values: Iterable<unknown>): void {
    for (const value of values) {
      if (!(value instanceof Secret)) continue;
      let text: string;
      try {
        text = value.reveal();
      } catch {
        continue;
      }
      this.add(text);
    }
  }

  /** How many secrets are known. */
  get size(): number {
    return this.#values.size;
  }

  /**
   * @param text any text bound for the client
   * @returns the text with every known secret (in every form) replaced by `(redacted)`
   */
  redact(text: string): string {
    let out = text;
    for (const form of this.#forms) {
      if (out.includes(form)) out = out.replaceAll(form, REDACTED);
    }
    return out;
  }

  /**
   * @param text a serialized message
   * @returns whether any known secret is still in it, in any form
   */
  leaks(text: string): boolean {
    return this.#forms.some((form) => text.includes(form));
  }

  /**
   * Redacts every string of a JSON value (object keys too).
   *
   * @param value a message about to be serialized
   * @returns a copy with every string redacted
   */
  redactDeep<T>(value: T): T {
    return this.#deep(value) as T;
  }

  #deep(value: unknown): unknown {
    if (typeof value === "string") return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.#deep(item));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [this.redact(k), this.#deep(v)]),
      );
    }
    return value;
  }
}
