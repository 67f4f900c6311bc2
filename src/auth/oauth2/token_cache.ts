/**
 * The OAuth 2.0 token cache: one JSON file per (flow, token URL, client id, scope, username)
 * in a 0700 directory, each file 0600 and written atomically (temp file + rename), with a
 * per-entry lock so concurrent `dial` processes do not both refresh. Client secrets and
 * passwords are never stored, only salted hashes that bind an entry to them (`binding.ts`).
 * Only regular files up to 1 MiB are read: a link, FIFO or device in their place is refused.
 * @module
 */
import {
  defaultCacheDir,
  ensurePrivateDir,
  joinPath as join,
  writePrivateFile,
} from "../../cache.ts";
import { DialError } from "../../errors/mod.ts";
import {
  cacheFileError,
  type LockOptions,
  readRegularFile,
  refuseSpecial,
  waitForLock,
} from "./cache_io.ts";
import { OAUTH2_FLOWS, type OAuth2Flow, type ResolvedOAuth2Options } from "./parse_value.ts";

/** What identifies a cached token; none of it is secret. */
export interface TokenKey {
  /** The grant. */
  flow: OAuth2Flow;
  /** The token endpoint, as a normalised href. */
  tokenUrl: string;
  /** The client id. */
  clientId: string;
  /** Scopes, sorted and single-spaced; "" when none were asked for. */
  scope: string;
  /** The resource owner (password flow); "" otherwise. */
  username: string;
  /** `--oauth2-param` pairs as a query string in the order given; absent when none. */
  params?: string;
}

/** A cached token. Times are milliseconds since the epoch. */
export interface TokenEntry extends TokenKey {
  /** The access token. */
  accessToken: string;
  /** The token type, lowercase (`bearer`). */
  tokenType: string;
  /** The refresh token, when the provider issued one. */
  refreshToken?: string;
  /** The scope the provider granted, when it said. */
  grantedScope?: string;
  /** When the first token of this entry was obtained by a grant. */
  obtainedAt: number;
  /** When the current access token expires; absent when the provider did not say. */
  expiresAt?: number;
  /** When the current access token was obtained with the refresh token, if it was. */
  refreshedAt?: number;
  /** Salted hash of the client secret that obtained the token; absent for public clients. */
  clientBinding?: string;
  /** Salted hash of the user name and password (password flow). */
  ownerBinding?: string;
}

/** The largest cache entry dial reads: 1 MiB. */
export const MAX_ENTRY_BYTES = 1 << 20;

export type { LockOptions };

/**
 * @param options the OAuth 2.0 options
 * @returns the cache key of their token
 */
export function tokenKey(options: ResolvedOAuth2Options): TokenKey {
  const params = paramsKey(options);
  return {
    flow: options.flow,
    tokenUrl: options.tokenUrl.href,
    clientId: options.clientId,
    scope: normalizeScope(options.scope),
    username: options.flow === "password" ? options.username ?? "" : "",
    ...(params ? { params } : {}),
  };
}

/**
 * The extra parameters as one cache key field: those for every request as before (so existing
 * cache files keep their names), then those for one kind of request, marked.
 */
function paramsKey(options: ResolvedOAuth2Options): string {
  const all = new URLSearchParams(options.params ?? []).toString();
  const only = (mark: string, params: Array<[string, string]> | undefined) =>
    params?.length ? `${mark}${new URLSearchParams(params)}` : "";
  return `${all}${only(" auth:", options.authParams)}${only(" token:", options.tokenParams)}`;
}

/**
 * @param scope a space-separated scope list
 * @returns the scopes sorted, deduplicated and single-spaced
 */
export function normalizeScope(scope: string | undefined): string {
  return [...new Set((scope ?? "").split(/\s+/).filter((s) => s !== ""))].sort().join(" ");
}

/**
 * @param cacheDir dial's cache directory
 * @returns the directory holding token files
 */
export function tokenDir(cacheDir: string = defaultCacheDir()): string {
  return join(cacheDir, "oauth2");
}

/** Reads, writes and locks token entries. */
export interface TokenStore {
  /** @returns the entry, or undefined when there is none (or it is unreadable) */
  read(key: TokenKey): Promise<TokenEntry | undefined>;
  /** Stores the entry. */
  write(entry: TokenEntry): Promise<void>;
  /** Removes the entry. */
  remove(key: TokenKey): Promise<void>;
  /** Runs `fn` while holding the entry's lock (other processes wait). */
  locked<T>(
    key: TokenKey,
    fn: () => Promise<T>,
    options?: LockOptions,
  ): Promise<T>;
  /** Where the entry is kept, for messages. */
  where(key: TokenKey): Promise<string>;
}

const memory = new Map<string, TokenEntry>();

/** @returns a store that keeps tokens in this process only (`--oauth2-no-cache`) */
export function memoryTokenStore(): TokenStore {
  return {
    read: (key) => Promise.resolve(memory.get(JSON.stringify(keyOf(key)))),
    write: (entry) => {
      memory.set(JSON.stringify(keyOf(entry)), entry);
      return Promise.resolve();
    },
    remove: (key) => {
      memory.delete(JSON.stringify(keyOf(key)));
      return Promise.resolve();
    },
    locked: (_key, fn) => fn(),
    where: () => Promise.resolve("memory"),
  };
}

/**
 * @param cacheDir dial's cache directory
 * @returns a store of token files under `<cacheDir>/oauth2/`
 */
export function fileTokenStore(cacheDir: string = defaultCacheDir()): TokenStore {
  const dir = tokenDir(cacheDir);
  const path = async (key: TokenKey, ext: string) => join(dir, `${await fileName(key)}.${ext}`);
  return {
    async read(key) {
      const file = await path(key, "json");
      const entry = await readEntryFile(file, true);
      return entry && sameKey(entry, key) ? entry : undefined;
    },
    async write(entry) {
      const file = await path(entry, "json");
      const text = JSON.stringify({ version: 1, ...entry }, null, 2) + "\n";
      try {
        await writePrivateFile(file, text);
      } catch (error) {
        throw cacheFileError("Cannot write the token cache file", file, error);
      }
    },
    async remove(key) {
      const file = await path(key, "json");
      await Deno.remove(file).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) {
          throw cacheFileError("Cannot remove the token cache file", file, error);
        }
      });
    },
    async locked(key, fn, options = {}) {
      const lockPath = await path(key, "lock");
      let file: Deno.FsFile;
      try {
        await ensurePrivateDir(dir);
        await refuseSpecial(lockPath);
        file = await Deno.open(lockPath, { write: true, create: true, mode: 0o600 });
      } catch (error) {
        if (error instanceof DialError) throw error;
        // An unwritable cache directory must not stop the request; there is nothing to guard.
        return await fn();
      }
      try {
        await waitForLock(file, options);
      } catch (error) {
        file.close();
        throw error;
      }
      try {
        return await fn();
      } finally {
        file.close();
      }
    },
    where: (key) => path(key, "json"),
  };
}

/**
 * Lists every readable entry in the cache directory.
 *
 * @param cacheDir dial's cache directory
 * @returns the entries, oldest first
 */
export async function listTokenEntries(
  cacheDir: string = defaultCacheDir(),
): Promise<TokenEntry[]> {
  const dir = tokenDir(cacheDir);
  const entries: TokenEntry[] = [];
  try {
    for await (const item of Deno.readDir(dir)) {
      if (!item.isFile || !/^[0-9a-f]{64}\.json$/.test(item.name)) continue;
      const entry = await readEntryFile(join(dir, item.name), false);
      if (entry) entries.push(entry);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return entries.sort((a, b) => a.obtainedAt - b.obtainedAt);
}

/**
 * Removes the files of the given entries, and their lock files.
 *
 * @param keys the entries to remove
 * @param cacheDir dial's cache directory
 */
export async function removeTokenFiles(
  keys: TokenKey[],
  cacheDir: string = defaultCacheDir(),
): Promise<void> {
  const dir = tokenDir(cacheDir);
  for (const key of keys) {
    const base = join(dir, await fileName(key));
    for (const path of [`${base}.json`, `${base}.lock`]) {
      await Deno.remove(path).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    }
  }
}

function keyOf(key: TokenKey): TokenKey {
  return {
    flow: key.flow,
    tokenUrl: key.tokenUrl,
    clientId: key.clientId,
    scope: key.scope,
    username: key.username,
    // Absent for keys without parameters, so their file names stay what they were.
    ...(key.params ? { params: key.params } : {}),
  };
}

function sameKey(a: TokenKey, b: TokenKey): boolean {
  return JSON.stringify(keyOf(a)) === JSON.stringify(keyOf(b));
}

async function fileName(key: TokenKey): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(keyOf(key)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function readEntryFile(path: string, strict: boolean): Promise<TokenEntry | undefined> {
  let text: string | undefined;
  try {
    text = await readRegularFile(path, MAX_ENTRY_BYTES);
  } catch (error) {
    if (strict) throw error;
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    return parseEntry(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * Validates a token entry read from disk.
 *
 * @param value parsed JSON
 * @returns the entry, or undefined when it is not a version-1 entry
 */
export function parseEntry(value: unknown): TokenEntry | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v: Record<string, unknown> = { ...value };
  const str = (name: string) => typeof v[name] === "string" ? v[name] : undefined;
  const num = (name: string) =>
    typeof v[name] === "number" && Number.isFinite(v[name]) ? v[name] : undefined;
  const flow = OAUTH2_FLOWS.find((f) => f === v.flow);
  const tokenUrl = str("tokenUrl"), clientId = str("clientId"), scope = str("scope");
  const username = str("username"), accessToken = str("accessToken");
  const tokenType = str("tokenType"), obtainedAt = num("obtainedAt");
  if (
    v.version !== 1 || flow === undefined || tokenUrl === undefined ||
    clientId === undefined || scope === undefined || username === undefined ||
    accessToken === undefined || tokenType === undefined || obtainedAt === undefined
  ) {
    return undefined;
  }
  const refreshToken = str("refreshToken"), grantedScope = str("grantedScope");
  const expiresAt = num("expiresAt"), refreshedAt = num("refreshedAt");
  const clientBinding = str("clientBinding"), ownerBinding = str("ownerBinding");
  const params = str("params");
  return {
    flow,
    tokenUrl,
    clientId,
    scope,
    username,
    ...(params ? { params } : {}),
    accessToken,
    tokenType,
    obtainedAt,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(grantedScope !== undefined ? { grantedScope } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(refreshedAt !== undefined ? { refreshedAt } : {}),
    ...(clientBinding !== undefined ? { clientBinding } : {}),
    ...(ownerBinding !== undefined ? { ownerBinding } : {}),
  };
}
