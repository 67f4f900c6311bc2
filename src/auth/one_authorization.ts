/**
 * The single-Authorization rule: one request has at most one source of its `Authorization`
 * header (Basic, Bearer, OAuth 2.0 or a header given as such). Every face checks it before
 * anything is sent, naming the sources in its own words.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { HeaderField } from "../http/request_spec.ts";

/**
 * @param headers headers as given
 * @returns whether one of them is an `Authorization` header
 */
export function hasAuthorizationHeader(headers: readonly HeaderField[]): boolean {
  return headers.some((header) => header.name.toLowerCase() === "authorization");
}

/**
 * @param sources what sets the header, as the face names them, e.g. `["-u", "-B"]`
 * @param kind what the face calls them, e.g. `flags`; none when the names say it
 * @throws {UsageError} when more than one source sets the header
 */
export function checkOneAuthorization(sources: readonly string[], kind?: string): void {
  if (sources.length < 2) return;
  const named = `${kind ? `${kind} ` : ""}${sources.join(" and ")}`;
  throw new UsageError(`Conflicting ${named}: both set the Authorization header`, {
    remedy: { use: "one_authorization" },
  });
}
