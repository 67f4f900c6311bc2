/**
 * OAuth 2.0 authorization for requests: a cached token while it is fresh, else a refresh,
 * else a new grant (silently, or with the browser for authorization_code).
 * @module
 */
import { load } from "../../load.ts";
import { ProviderError } from "../../errors/mod.ts";
import { checkOAuth2Settings } from "./required.ts";
import { Secret } from "../../secret.ts";
import type { AuthorizeOptions } from "../auth_header.ts";
import type { OAuth2Options, ResolvedOAuth2Options } from "./parse_value.ts";
import { resolveEndpoints } from "./endpoints.ts";
import {
  fileTokenStore,
  memoryTokenStore,
  type TokenEntry,
  tokenKey,
  type TokenStore,
} from "./token_cache.ts";
import { type TokenState, tokenState } from "./token_state.ts";
import { bindEntry, entryMatches } from "./binding.ts";

/** An access token and where it came from. */
export interface OAuth2Token {
  /** The access token. */
  accessToken: Secret;
  /** `cache` when a cached token was reused, `new` when it was just obtained or refreshed. */
  source: "cache" | "new";
  /** Timestamps of the token, without the token itself. */
  state: TokenState;
  /** The token's type as the provider named it (`Bearer`, or `DPoP` with `--oauth2-dpop`). */
  tokenType: string;
}

/**
 * Gets an access token for the options: reuses a cached one until shortly before it expires
 * (30 s, or a tenth of its lifetime when that is shorter), then refreshes it when there is a
 * refresh token (a refused refresh falls back to a new grant), else runs the grant again.
 *
 * @param options the parsed `--oauth2` value and flags
 * @param authorize fetch, signal, and `forceRefresh` to drop the cached access token
 * @returns the token, its source and its state
 * @throws {AuthError} when the provider refuses or cannot be reached
 */
export async function oauth2Token(
  given: OAuth2Options,
  authorize: AuthorizeOptions = {},
): Promise<OAuth2Token> {
  const request = {
    ...(authorize.fetch ? { fetch: authorize.fetch } : {}),
    ...(authorize.signal ? { signal: authorize.signal } : {}),
    ...(authorize.onNote ? { onNote: authorize.onNote } : {}),
  };
  const options = await resolveEndpoints(given, request);
  const store = tokenStore(options);
  const key = tokenKey(options);
  // An entry obtained with another client secret (or password) is treated as absent.
  const lookup = async () => {
    const entry = await store.read(key);
    return entry && await entryMatches(entry, options) ? entry : undefined;
  };
  const cached = await lookup();
  if (cached && !authorize.forceRefresh && isFresh(cached, Date.now())) {
    return result(cached, "cache");
  }
  const onWait = () =>
    options.notify?.({
      kind: "lock_wait",
      message:
        `Waiting for another dial process to finish getting a token for client "${options.clientId}" at ${options.tokenUrl.host} (a browser login may be in progress)`,
    });
  return await store.locked(key, async () => {
    // Loaded only when a token must be fetched: a cached token never pays for the OAuth library.
    const { refreshGrant } = await load.tokenRequest();
    // Another process may have refreshed while this one waited for the lock.
    const entry = await lookup();
    const changed = entry?.accessToken !== cached?.accessToken;
    if (entry && (changed || !authorize.forceRefresh) && isFresh(entry, Date.now())) {
      return result(entry, changed ? "new" : "cache");
    }
    if (entry?.refreshToken) {
      try {
        const refreshed = await bindEntry(await refreshGrant(options, entry, request), options);
        await save(store, refreshed, options, entry);
        return result(refreshed, "new");
      } catch (error) {
        if (!(error instanceof ProviderError) || error.oauthError !== "invalid_grant") throw error;
        await store.remove(key).catch((failure) => report(options, failure));
      }
    }
    const fresh = await bindEntry(
      await newGrant(await withPassword(options, given), authorize),
      options,
    );
    await save(store, fresh, options);
    return result(fresh, "new");
  }, { ...(authorize.signal ? { signal: authorize.signal } : {}), onWait });
}

/**
 * Computes `Bearer <access token>` for a request (what `authorizationHeader` calls), or
 * `DPoP <access token>` for a DPoP-bound one.
 *
 * @param options the parsed `--oauth2` value and flags
 * @param authorize fetch, signal, forceRefresh, and a callback told the token's source
 * @returns `Bearer <access token>`
 */
export async function oauth2Authorization(
  options: OAuth2Options,
  authorize: AuthorizeOptions = {},
): Promise<Secret> {
  const token = await oauth2Token(options, authorize);
  authorize.onOAuth2Token?.(token.source);
  // A DPoP-bound token goes with its scheme; dpop.ts adds each request's proof.
  const scheme = options.dpop && /^dpop$/i.test(token.tokenType) ? "DPoP" : "Bearer";
  return new Secret(`${scheme} ${token.accessToken.reveal()}`);
}

/**
 * Tells whether a cached access token may still be sent.
 *
 * @param entry a cached entry
 * @param now the time in milliseconds
 * @returns whether the access token may still be used: until 30 s before it expires, or a
 * tenth of its lifetime when that is shorter; tokens without an expiry stay fresh
 */
export function isFresh(entry: TokenEntry, now: number): boolean {
  if (entry.expiresAt === undefined) return true;
  const lifetime = entry.expiresAt - (entry.refreshedAt ?? entry.obtainedAt);
  const margin = Math.min(30_000, Math.max(0, lifetime) / 10);
  return now < entry.expiresAt - margin;
}

/**
 * @param options the OAuth 2.0 options
 * @returns the file store, or the in-memory store with `noCache` or `dpop`
 */
export function tokenStore(options: OAuth2Options): TokenStore {
  // A DPoP-bound token is no use without the process's key: it is never written.
  return options.noCache || options.dpop ? memoryTokenStore() : fileTokenStore(options.cacheDir);
}

async function newGrant(
  options: ResolvedOAuth2Options,
  authorize: AuthorizeOptions,
): Promise<TokenEntry> {
  checkOAuth2Settings(options);
  const request = {
    ...(authorize.fetch ? { fetch: authorize.fetch } : {}),
    ...(authorize.signal ? { signal: authorize.signal } : {}),
    ...(authorize.onNote ? { onNote: authorize.onNote } : {}),
  };
  if (options.flow === "device_code") {
    const { deviceCodeGrant } = await load.device();
    return await deviceCodeGrant(options, request);
  }
  if (options.flow !== "authorization_code") {
    const { silentGrant } = await load.tokenRequest();
    return await silentGrant(options, request);
  }
  const { authorizationCodeGrant } = await load.login();
  return await authorizationCodeGrant(options, request);
}

/**
 * The options with the password asked for, when the password flow needs it now. It is asked
 * once per run: it is kept in the caller's options too, so a retry reuses it.
 */
async function withPassword(
  options: ResolvedOAuth2Options,
  given: OAuth2Options,
): Promise<ResolvedOAuth2Options> {
  if (options.flow !== "password" || options.password || !options.askPassword) return options;
  const password = await options.askPassword();
  given.password = password;
  options.password = password;
  return options;
}

/**
 * Saves an entry. A cache that cannot be written does not fail the request (the token is
 * good), but it is reported: the caller exits non-zero afterwards. When a refresh rotated the
 * refresh token, the old entry holds a spent one: it is removed, or the report says so.
 */
async function save(
  store: TokenStore,
  entry: TokenEntry,
  options: OAuth2Options,
  previous?: TokenEntry,
): Promise<void> {
  try {
    await store.write(entry);
  } catch (error) {
    const rotated = previous?.refreshToken !== undefined &&
      previous.refreshToken !== entry.refreshToken;
    let spent = "";
    if (rotated) {
      const removed = await store.remove(entry).then(() => true, () => false);
      spent = removed
        ? "; the spent refresh token was removed from the cache, the next run logs in again"
        : `; the cache still holds the spent refresh token: remove ${await store.where(
          entry,
        )}`;
    }
    report(options, error, spent);
  }
}

function report(options: OAuth2Options, error: unknown, suffix = ""): void {
  const message = error instanceof Error ? error.message : String(error);
  options.notify?.({ kind: "cache_write", message: `${message}${suffix}` });
}

function result(entry: TokenEntry, source: "cache" | "new"): OAuth2Token {
  return {
    accessToken: new Secret(entry.accessToken),
    source,
    state: tokenState(entry),
    tokenType: entry.tokenType,
  };
}
