/**
 * The one rule that decides which header and query-parameter names carry credentials. It is
 * used for redaction (`-v`, `--offline`, error messages), for stripping headers on a
 * cross-origin redirect, for the GraphQL schema cache key and for the UI's stored drafts.
 * Imported by the browser bundle too, so it depends on nothing.
 * @module
 */

/** Word parts that mark a credential wherever they appear in a name (`X-Api-Key`, `apikey`). */
const ANYWHERE =
  /auth|token|key|secret|session|cookie|passw|passphrase|pwd|credential|signature|jwt|csrf|xsrf|bearer|private/i;

/** Short parts that mark a credential only as a whole part (`sig=` in Azure SAS URLs). */
const WHOLE_PART = /(^|[^a-z0-9])(sig|pw|pass)([^a-z0-9]|$)/i;

/**
 * Whether a header or query-parameter name looks like it carries a credential. Matching is
 * case-insensitive and on word parts, so it errs on the side of hiding: `X-Author` counts.
 *
 * @param name a header or parameter name
 * @returns true when values under this name are treated as secrets
 * @example
 * ```ts
 * isCredentialName("X-Amz-Signature"); // true
 * isCredentialName("Accept"); // false
 * ```
 */
export function isCredentialName(name: string): boolean {
  return ANYWHERE.test(name) || WHOLE_PART.test(name);
}
