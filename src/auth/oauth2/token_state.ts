/**
 * Token state without the tokens: for `dial auth status` and the desktop UI's auth panel.
 * @module
 */
import { entryMatches } from "./binding.ts";
import { resolveEndpoints, type ResolveOptions } from "./endpoints.ts";
import type { OAuth2Flow, OAuth2Options } from "./parse_value.ts";
import { defaultCacheDir } from "../../cache.ts";
import {
  fileTokenStore,
  listTokenEntries,
  memoryTokenStore,
  removeTokenFiles,
  type TokenEntry,
  type TokenKey,
  tokenKey,
} from "./token_cache.ts";

/** What is known about a cached token, without revealing it. */
export interface TokenState {
  /** The grant. */
  flow: OAuth2Flow;
  /** The token endpoint. */
  tokenUrl: string;
  /** The client id. */
  clientId: string;
  /** The scopes asked for (sorted), "" for none. */
  scope: string;
  /** The resource owner (password flow), "" otherwise. */
  username: string;
  /** When the token was first obtained by a grant. */
  obtainedAt: Date;
  /** When the current access token expires, if the provider said. */
  expiresAt?: Date;
  /** When the access token was last refreshed, if it was. */
  refreshedAt?: Date;
  /** Whether a refresh token is held. */
  hasRefreshToken: boolean;
}

/**
 * @param entry a cache entry
 * @returns its state, without tokens
 */
export function tokenState(entry: TokenEntry): TokenState {
  return {
    flow: entry.flow,
    tokenUrl: entry.tokenUrl,
    clientId: entry.clientId,
    scope: entry.scope,
    username: entry.username,
    obtainedAt: new Date(entry.obtainedAt),
    ...(entry.expiresAt !== undefined ? { expiresAt: new Date(entry.expiresAt) } : {}),
    ...(entry.refreshedAt !== undefined ? { refreshedAt: new Date(entry.refreshedAt) } : {}),
    hasRefreshToken: entry.refreshToken !== undefined,
  };
}

/**
 * Reads the cached token state for these options, without starting any grant.
 *
 * @param given the OAuth 2.0 options
 * @param request fetch and signal, when the issuer's metadata must be fetched
 * @returns the state, or undefined when nothing is cached
 */
export async function oauth2TokenState(
  given: OAuth2Options,
  request: ResolveOptions = {},
): Promise<TokenState | undefined> {
  const options = await resolveEndpoints(given, request);
  const store = options.noCache ? memoryTokenStore() : fileTokenStore(options.cacheDir);
  const entry = await store.read(tokenKey(options));
  // An entry of another client secret (or password) is not this client's token.
  return entry && await entryMatches(entry, options) ? tokenState(entry) : undefined;
}

/**
 * Lists every cached token's state.
 *
 * @param cacheDir dial's cache directory (default: the user cache directory)
 * @returns the states, oldest first
 */
export async function listOAuth2Tokens(cacheDir?: string): Promise<TokenState[]> {
  return (await listTokenEntries(cacheDir ?? defaultCacheDir())).map(tokenState);
}

/** Which cached tokens {@link removeOAuth2Tokens} removes; absent fields match anything. */
export type TokenFilter = Partial<Omit<TokenKey, "scope">> & { scope?: string };

/**
 * Removes cached tokens (`dial auth logout`).
 *
 * @param filter which tokens; `{}` removes all
 * @param cacheDir dial's cache directory (default: the user cache directory)
 * @returns the states of the removed tokens
 */
export async function removeOAuth2Tokens(
  filter: TokenFilter,
  cacheDir?: string,
): Promise<TokenState[]> {
  const dir = cacheDir ?? defaultCacheDir();
  const fields = ["flow", "tokenUrl", "clientId", "scope", "username"] as const;
  const matching = (await listTokenEntries(dir)).filter((entry) =>
    fields.every((name) => filter[name] === undefined || filter[name] === entry[name])
  );
  await removeTokenFiles(matching, dir);
  return matching.map(tokenState);
}
