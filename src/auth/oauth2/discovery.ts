/**
 * Authorization server discovery from an issuer (`--oauth2-issuer`): OpenID Connect Discovery
 * (`<issuer>/.well-known/openid-configuration`), then RFC 8414
 * (`/.well-known/oauth-authorization-server<issuer path>`), through oauth4webapi, which checks
 * that the metadata names the same issuer. The metadata is cached beside the tokens for a day.
 * @module
 */
import { load } from "../../load.ts";
import { joinPath, writePrivateFile } from "../../cache.ts";
import { AuthError, DialError, networkError } from "../../errors/mod.ts";
import { redactUrl } from "../../redact_url.ts";
import { readRegularFile } from "./cache_io.ts";
import { tokenDir } from "./token_cache.ts";

/** The endpoints dial uses from an authorization server's metadata. */
export interface ServerMetadata {
  /** The issuer identifier, as the metadata states it (equal to the one asked for). */
  issuer: string;
  /** The token endpoint. */
  tokenEndpoint: string;
  /** The authorization endpoint, when the server has one. */
  authorizationEndpoint?: string;
  /** The device authorization endpoint (RFC 8628), when the server has one. */
  deviceAuthorizationEndpoint?: string;
}

/** How {@link discover} fetches and caches. */
export interface DiscoveryOptions {
  /** The fetch to use. */
  fetch?: typeof fetch;
  /** Aborts the requests. */
  signal?: AbortSignal;
  /** dial's cache directory; the metadata goes to `<dir>/oauth2/discovery-<hash>.json`. */
  cacheDir?: string;
  /** Keep the metadata in memory only. */
  noCache?: boolean;
  /** Told which document was read (shown under `-v`). */
  onNote?: (text: string) => void;
}

/** How long fetched metadata is reused: one day. */
export const DISCOVERY_TTL = 24 * 60 * 60 * 1000;

const memory = new Map<string, { fetchedAt: number; metadata: ServerMetadata }>();

/**
 * Gets an issuer's metadata: from the cache while it is younger than {@link DISCOVERY_TTL},
 * else from the OpenID Connect Discovery document, else from the RFC 8414 one.
 *
 * @param issuer the issuer identifier
 * @param options fetch, signal and cache
 * @returns the endpoints
 * @throws {AuthError} when neither document can be read, or one names another issuer
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3
 */
export async function discover(
  issuer: URL,
  options: DiscoveryOptions = {},
): Promise<ServerMetadata> {
  const cached = await readCached(issuer, options);
  if (cached) return cached;
  // Loaded only when the metadata must be fetched: a cached run never loads oauth4webapi.
  const { describe, fetchMetadata } = await load.discoveryFetch();
  const failures: string[] = [];
  for (const algorithm of ["oidc", "oauth2"] as const) {
    try {
      const metadata = await fetchMetadata(issuer, algorithm, options);
      options.onNote?.(
        `Discovered the endpoints of ${redactUrl(issuer)} (${
          algorithm === "oidc" ? "openid-configuration" : "oauth-authorization-server"
        }): token endpoint ${metadata.tokenEndpoint}`,
      );
      await writeCached(issuer, metadata, options);
      return metadata;
    } catch (error) {
      if (error instanceof DialError) throw error;
      if (options.signal?.aborted) throw networkError(error, issuer, options.signal);
      failures.push(describe(error));
    }
  }
  throw new AuthError(
    `OAuth 2.0 discovery for issuer ${redactUrl(issuer)} failed: ${failures.join("; ")}`,
    { remedy: { check: "issuer" } },
  );
}

async function cachePath(issuer: URL, cacheDir: string | undefined): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(issuer.href)),
  );
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return joinPath(tokenDir(cacheDir), `discovery-${hex}.json`);
}

async function readCached(
  issuer: URL,
  options: DiscoveryOptions,
): Promise<ServerMetadata | undefined> {
  const now = Date.now();
  const fresh = (fetchedAt: number) => fetchedAt <= now && now - fetchedAt < DISCOVERY_TTL;
  const inMemory = memory.get(issuer.href);
  if (inMemory && fresh(inMemory.fetchedAt)) return inMemory.metadata;
  if (options.noCache) return undefined;
  let text: string | undefined;
  try {
    text = await readRegularFile(await cachePath(issuer, options.cacheDir), 1 << 16);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    const entry = parseCached(value);
    if (!entry || !sameIssuer(entry.metadata.issuer, issuer) || !fresh(entry.fetchedAt)) {
      return undefined;
    }
    memory.set(issuer.href, entry);
    return entry.metadata;
  } catch {
    return undefined;
  }
}

function sameIssuer(text: string, issuer: URL): boolean {
  try {
    return new URL(text).href === issuer.href;
  } catch {
    return false;
  }
}

function parseCached(value: unknown): { fetchedAt: number; metadata: ServerMetadata } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v: Record<string, unknown> = { ...value };
  const m: Record<string, unknown> = typeof v.metadata === "object" && v.metadata !== null
    ? { ...v.metadata }
    : {};
  const str = (x: unknown) => typeof x === "string" ? x : undefined;
  const issuer = str(m.issuer), tokenEndpoint = str(m.tokenEndpoint);
  if (v.version !== 1 || typeof v.fetchedAt !== "number" || !issuer || !tokenEndpoint) {
    return undefined;
  }
  const authorizationEndpoint = str(m.authorizationEndpoint);
  const deviceAuthorizationEndpoint = str(m.deviceAuthorizationEndpoint);
  return {
    fetchedAt: v.fetchedAt,
    metadata: {
      issuer,
      tokenEndpoint,
      ...(authorizationEndpoint ? { authorizationEndpoint } : {}),
      ...(deviceAuthorizationEndpoint ? { deviceAuthorizationEndpoint } : {}),
    },
  };
}

async function writeCached(
  issuer: URL,
  metadata: ServerMetadata,
  options: DiscoveryOptions,
): Promise<void> {
  const fetchedAt = Date.now();
  memory.set(issuer.href, { fetchedAt, metadata });
  if (options.noCache) return;
  const text = JSON.stringify({ version: 1, fetchedAt, metadata }, null, 2) + "\n";
  // A metadata file that cannot be written only costs a fetch next time.
  await writePrivateFile(await cachePath(issuer, options.cacheDir), text).catch(() => {});
}
