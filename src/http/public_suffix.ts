/**
 * The Public Suffix List, through `tldts` (maintained, the list refreshed with each release,
 * the one tough-cookie uses). Loaded only when a response sets a cookie ({@link
 * ../http/cookies.ts}), with a computed specifier, so that no other run resolves the package.
 * @module
 */
import { getPublicSuffix } from "tldts";

/**
 * @param domain a lower-case domain name, no leading dot
 * @returns whether it is a public suffix: `co.uk`, `com`, and the private section's
 *   `github.io` alike
 */
export function isPublicSuffix(domain: string): boolean {
  return getPublicSuffix(domain, { allowPrivateDomains: true }) === domain;
}
