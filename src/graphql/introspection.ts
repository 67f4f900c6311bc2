/**
 * Schema introspection with the configured auth, cached per endpoint and credential
 * identity (a hash of the credentials, never the credentials themselves).
 * @module
 */
import type { EnvLookup } from "../env.ts";
import { defaultCacheDir, joinPath, writePrivateFile } from "../cache.ts";
import { getIntrospectionQuery } from "graphql";
import { DialError, ErrorCode, NotGraphQLError, type Remedy } from "../errors/mod.ts";
import { isCredentialName } from "../credential_name.ts";
import { redactUrl } from "../redact_url.ts";
import { send, type SendOptions } from "../http/send.ts";
import { reveal, Secret } from "../secret.ts";
import type { Authorization } from "../auth/auth_spec.ts";
import { describeError } from "./envelope.ts";
import { type GraphQLEndpoint, graphqlRequestSpec, readResults } from "./http_client.ts";

/** Options for {@link introspect}. */
export interface IntrospectOptions
  extends Pick<SendOptions, "signal" | "fetch" | "onRequest" | "onResponse" | "follow"> {
  /** Ignore the cache and introspect again (`--refresh-schema`); the cache is updated. */
  refresh?: boolean;
  /** The cache directory. Default: `$XDG_CACHE_HOME/dial/graphql` (else `~/.cache/dial/graphql`). */
  cacheDir?: string;
}

/** The outcome of {@link introspect}. */
export interface Introspection {
  /** The `data` of the introspection response: `{ __schema: … }`. */
  data: Record<string, unknown>;
  /** Whether it came from the cache. */
  cached: boolean;
  /** When it was fetched (ISO 8601). */
  fetchedAt: string;
}

/**
 * The largest introspection response read: GitHub's schema, among the largest public ones, is
 * a few MiB; a server that sends more is not describing a schema.
 */
export const MAX_INTROSPECTION_BYTES = 64 * 1024 * 1024;

/** @returns the response, its body failing once it passes {@link MAX_INTROSPECTION_BYTES} */
function capped(response: Response, host: string): Response {
  if (!response.body) return response;
  let size = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.length;
        if (size <= MAX_INTROSPECTION_BYTES) return controller.enqueue(chunk);
        controller.error(
          new DialError(
            `Introspection failed at ${host}: the response is larger than ${
              MAX_INTROSPECTION_BYTES / 1024 / 1024
            } MiB`,
            ErrorCode.Introspection,
          ),
        );
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Returns the introspection result of an endpoint: from the cache when one exists for the
 * endpoint and credential identity, else by sending the introspection query (through
 * `send()`, so OAuth 2.0 tokens are fetched and refreshed as for any operation).
 *
 * @param endpoint URL, auth and headers
 * @param options refresh, cache directory, signal, fetch and observers
 * @returns the introspection data
 * @throws {DialError} when the server refuses or answers something else than a schema
 */
export async function introspect(
  endpoint: GraphQLEndpoint,
  options: IntrospectOptions = {},
): Promise<Introspection> {
  const file = `${options.cacheDir ?? introspectionCacheDir()}/${await cacheKey(endpoint)}.json`;
  if (!options.refresh) {
    const cached = await readCache(file);
    if (cached) return cached;
  }
  const spec = graphqlRequestSpec(endpoint, { query: getIntrospectionQuery() });
  const response = capped((await send(spec, options)).response, endpoint.url.host);
  const credentialsRemedy: Remedy | undefined = response.status === 401 || response.status === 403
    ? { check: "credentials" }
    : undefined;
  // A refusal always names its status.
  const refused = response.ok ? "" : `HTTP ${response.status} ${response.statusText}`.trimEnd();
  const where = `Introspection failed at ${endpoint.url.host}${refused ? `: ${refused}` : ""}`;
  let data: unknown;
  try {
    for await (const result of readResults(response)) {
      if (result.errors.length > 0 && !isSchema(result.value.data)) {
        throw new DialError(
          `${where}: ${result.errors.map(describeError).join("; ")}`,
          ErrorCode.Introspection,
          {
            details: { status: response.status },
            remedy: credentialsRemedy ?? { check: "introspection" },
          },
        );
      }
      data = result.value.data;
      break;
    }
  } catch (error) {
    await response.body?.cancel().catch(() => {});
    if (error instanceof NotGraphQLError) {
      throw new DialError(
        // The message may name the status already ("HTTP 401 with text/html: …").
        error.message.startsWith("HTTP ")
          ? `Introspection failed at ${endpoint.url.host}: ${error.message}`
          : `${where}: ${error.message}`,
        ErrorCode.Introspection,
        {
          details: { status: response.status },
          ...(credentialsRemedy ? { remedy: credentialsRemedy } : {}),
        },
      );
    }
    throw error;
  }
  if (!isSchema(data)) {
    throw new DialError(
      `${where}: the response holds no data.__schema`,
      ErrorCode.Introspection,
    );
  }
  const result = { data, cached: false, fetchedAt: new Date().toISOString() };
  await writeCache(file, endpoint, result);
  return result;
}

/**
 * Reads a cached introspection without any network.
 *
 * @param endpoint URL, auth and headers
 * @param options the cache directory
 * @returns the cached introspection of the endpoint and credentials, if there is one
 */
export async function cachedIntrospection(
  endpoint: GraphQLEndpoint,
  options: { cacheDir?: string } = {},
): Promise<Introspection | undefined> {
  return await readCache(
    `${options.cacheDir ?? introspectionCacheDir()}/${await cacheKey(endpoint)}.json`,
  );
}

/**
 * @param env where to read the cache directory's variables (default: the process's)
 * @returns the cache directory of introspection results
 */
export function introspectionCacheDir(env?: EnvLookup): string {
  return joinPath(defaultCacheDir(env), "graphql");
}

/**
 * The cache key: SHA-256 of the endpoint (without API keys) and of everything that
 * identifies the caller (authorization, `-K` keys, credential-looking `-H` headers). OAuth
 * 2.0 is identified by its client and user, not by the token, which changes.
 *
 * @param endpoint URL, auth and headers
 * @returns 64 hex digits
 */
export async function cacheKey(endpoint: GraphQLEndpoint): Promise<string> {
  const header = endpoint.auth.authorization ? undefined : bearerHeader(endpoint.headers);
  const a = endpoint.auth.authorization ?? header?.authorization;
  const identity = a === undefined
    ? null
    : a.kind === "basic" || a.kind === "digest"
    ? [a.kind, a.username, a.password.reveal()]
    : a.kind === "bearer"
    ? ["bearer", a.token.reveal()]
    : a.kind === "aws-sigv4"
    ? ["aws-sigv4", a.sigv4.accessKeyId, a.sigv4.secretAccessKey.reveal()]
    : [
      "oauth2",
      a.oauth2.flow,
      a.oauth2.tokenUrl?.href ?? "",
      a.oauth2.issuer?.href ?? "",
      a.oauth2.clientId,
      a.oauth2.scope ?? "",
      a.oauth2.username ?? "",
      a.oauth2.params ?? [],
    ];
  const text = JSON.stringify([
    endpoint.url.href,
    identity,
    endpoint.auth.queryKeys.map((k) => [k.name, k.value.reveal()]),
    endpoint.headers.filter((h) =>
      h !== header?.field && (h.credential || isCredentialName(h.name))
    )
      .map((h) => [h.name.toLowerCase(), reveal(h.value)]),
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest).toHex();
}

/**
 * An `Authorization: Bearer …` header is the caller a bearer credential is: a request file's
 * (which `dial run` makes a bearer credential of) and a page's header of the same request
 * (a reloaded GraphQL tab asks for the cached schema without evaluating its file) share a key.
 */
function bearerHeader(
  headers: GraphQLEndpoint["headers"],
): { field: GraphQLEndpoint["headers"][number]; authorization: Authorization } | undefined {
  const field = headers.find((h) => h.name.toLowerCase() === "authorization");
  const token = field && /^Bearer\s+(.+)$/i.exec(reveal(field.value).trim())?.[1];
  return token
    ? { field: field!, authorization: { kind: "bearer", token: new Secret(token) } }
    : undefined;
}

function isSchema(data: unknown): data is Record<string, unknown> {
  return typeof data === "object" && data !== null && "__schema" in data &&
    typeof data.__schema === "object" && data.__schema !== null;
}

async function readCache(file: string): Promise<Introspection | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === "object" && value !== null && "data" in value && isSchema(value.data) &&
      "fetchedAt" in value && typeof value.fetchedAt === "string"
    ) {
      return { data: value.data, cached: true, fetchedAt: value.fetchedAt };
    }
  } catch {
    // A damaged cache file is refetched and overwritten.
  }
  return undefined;
}

async function writeCache(file: string, endpoint: GraphQLEndpoint, result: Introspection) {
  const body = JSON.stringify({
    endpoint: redactUrl(endpoint.url, endpoint.auth.queryKeys),
    fetchedAt: result.fetchedAt,
    data: result.data,
  });
  await writePrivateFile(file, body);
}
