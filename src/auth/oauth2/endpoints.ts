/**
 * The endpoints of a run: as given, or discovered from `--oauth2-issuer` (metadata cached).
 * @module
 */
import { load } from "../../load.ts";
import { UsageError } from "../../errors/mod.ts";
import type { OAuth2Options, ResolvedOAuth2Options } from "./parse_value.ts";

/** fetch, signal and the note callback for discovery. */
export interface ResolveOptions {
  /** The fetch to use. */
  fetch?: typeof fetch;
  /** Aborts discovery. */
  signal?: AbortSignal;
  /** Told which metadata document was read (`-v`). */
  onNote?: (text: string) => void;
}

/**
 * Fills the endpoints not given from the issuer's metadata. Without an issuer the options
 * are returned as they are (they must then have a token URL).
 *
 * @param options the OAuth 2.0 options
 * @param request fetch, signal and notes for discovery
 * @returns the options with a token URL (and the authorization and device endpoints the
 * metadata names, when not given)
 * @throws {UsageError} without a token URL or an issuer
 * @throws {AuthError} when discovery fails or names another issuer
 */
export async function resolveEndpoints(
  options: OAuth2Options,
  request: ResolveOptions = {},
): Promise<ResolvedOAuth2Options> {
  const tokenUrl = options.tokenUrl;
  if (!options.issuer) {
    if (!tokenUrl) {
      throw new UsageError("Missing token URL for OAuth 2.0", {
        remedy: { give: "token_url" },
      });
    }
    return { ...options, tokenUrl };
  }
  const { discover } = await load.discovery();
  const metadata = await discover(options.issuer, {
    ...request,
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(options.noCache ? { noCache: true } : {}),
  });
  const authUrl = options.authUrl ??
    (metadata.authorizationEndpoint ? new URL(metadata.authorizationEndpoint) : undefined);
  const deviceUrl = options.deviceUrl ??
    (metadata.deviceAuthorizationEndpoint
      ? new URL(metadata.deviceAuthorizationEndpoint)
      : undefined);
  return {
    ...options,
    tokenUrl: tokenUrl ?? new URL(metadata.tokenEndpoint),
    discoveredIssuer: metadata.issuer,
    ...(authUrl ? { authUrl } : {}),
    ...(deviceUrl ? { deviceUrl } : {}),
  };
}
