/**
 * The provider's OAuth 2.0 error (`error`, `error_description`) as one {@link AuthError}.
 * @module
 */
import { AuthError } from "../../errors.ts";

/** An {@link AuthError} carrying the provider's OAuth 2.0 error code. */
export class ProviderError extends AuthError {
  /** The provider's `error` value, e.g. `invalid_grant`. */
  readonly oauthError: string;

  /**
   * @param message the full line
   * @param oauthError the provider's error code
   * @param options hint and cause
   */
  constructor(message: string, oauthError: string, options: { hint?: string; cause?: unknown }) {
    super(message, options);
    this.name = "ProviderError";
    this.oauthError = oauthError;
  }
}

const HINTS: Record<string, string> = {
  invalid_client: "check the client id and secret in --oauth2, and --oauth2-client-auth",
  incorrect_client_credentials: "check the client id and secret in --oauth2",
  invalid_grant: "the credentials, code or refresh token were refused",
  unauthorized_client: "the client is not allowed to use this flow",
  invalid_scope: "check --oauth2-scope",
};

/**
 * @param where what failed, e.g. `OAuth 2.0 token request to … failed`
 * @param code the provider's `error`
 * @param description the provider's `error_description`
 * @param status the HTTP status it came with
 * @param cause the underlying error
 * @returns the error, with a hint for the codes dial knows
 */
export function providerError(
  where: string,
  code: string,
  description: string | undefined,
  status: number,
  cause: unknown,
): ProviderError {
  const detail = description ? ` (${description})` : "";
  return new ProviderError(`${where}: ${code}${detail} (HTTP ${status})`, code, {
    cause,
    ...(HINTS[code] ? { hint: HINTS[code] } : {}),
  });
}

/**
 * The same error with another hint.
 *
 * @param error a provider error
 * @param hint the new hint
 * @returns a copy of the error with the hint
 */
export function withHint(error: ProviderError, hint: string): ProviderError {
  return new ProviderError(error.message, error.oauthError, { hint, cause: error.cause });
}
