/**
 * The provider's OAuth 2.0 error (`error`, `error_description`) as one {@link ProviderError},
 * with the remedy for the codes dial knows.
 * @module
 */
import { ProviderError, type Remedy } from "../../errors/mod.ts";

/** What to do about the provider's error codes that have a remedy. */
const REMEDIES: Readonly<Record<string, Remedy>> = {
  invalid_client: { check: "client" },
  incorrect_client_credentials: { check: "client_id" },
  invalid_grant: { check: "grant" },
  unauthorized_client: { check: "flow" },
  invalid_scope: { check: "scope" },
};

/**
 * @param where what failed, e.g. `OAuth 2.0 token request to … failed`
 * @param code the provider's `error`
 * @param description the provider's `error_description`
 * @param status the HTTP status it came with
 * @param cause the underlying error
 * @returns the error, with a remedy for the codes dial knows
 */
export function providerError(
  where: string,
  code: string,
  description: string | undefined,
  status: number,
  cause: unknown,
): ProviderError {
  const detail = description ? ` (${description})` : "";
  const remedy = REMEDIES[code];
  return new ProviderError(`${where}: ${code}${detail} (HTTP ${status})`, code, {
    details: { status },
    cause,
    ...(remedy ? { remedy } : {}),
  });
}

/**
 * The same error with another remedy.
 *
 * @param error a provider error
 * @param remedy the new remedy
 * @returns a copy of the error with the remedy
 */
export function withRemedy(error: ProviderError, remedy: Remedy): ProviderError {
  return new ProviderError(error.message, error.oauthError, {
    details: error.details,
    remedy,
    cause: error.cause,
  });
}
