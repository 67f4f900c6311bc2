/**
 * Pure steps from a {@link RequestSpec} to what fetch receives, and the redirect rules.
 * @module
 */
import type { QueryKey } from "../auth/auth_spec.ts";
import { isCredentialName } from "../credential_name.ts";
import { UsageError } from "../errors/mod.ts";
import { redactUrl } from "../redact_url.ts";
import { type MaybeSecret, reveal, Secret } from "../secret.ts";
import { bodyContentType } from "./body.ts";
import { checkRedirectScheme } from "./redirect_scheme.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The User-Agent dial sends unless `-H "User-Agent: …"` is given. */
export const USER_AGENT = `dial/${denoJson.version}`;
import type { HeaderField, PreparedRequest, RequestSpec } from "./request_spec.ts";

/**
 * Resolves a spec into a prepared request: the Authorization header (when given) goes first,
 * then `-H` headers.
 *
 * @param spec the request as data
 * @param authorization the resolved `Authorization` value, if the spec has one
 * @returns the prepared request
 */
export function buildRequest(spec: RequestSpec, authorization?: Secret): PreparedRequest {
  const headers: HeaderField[] = [];
  if (authorization) headers.push({ name: "Authorization", value: authorization });
  headers.push(...spec.headers);
  if (!headers.some((h) => h.name.toLowerCase() === "user-agent")) {
    headers.push({ name: "User-Agent", value: USER_AGENT });
  }
  const contentType = spec.body && bodyContentType(spec.body);
  if (contentType && !headers.some((h) => h.name.toLowerCase() === "content-type")) {
    headers.push({ name: "Content-Type", value: contentType });
  }
  return {
    method: spec.method,
    url: new URL(spec.url),
    queryKeys: spec.auth.queryKeys,
    headers,
    ...(spec.body ? { body: spec.body } : {}),
    ...(spec.target ? { target: spec.target } : {}),
  };
}

/**
 * Appends API keys to a URL, percent-encoded, keeping its query; a key the URL already
 * carries with the same value is not added twice.
 *
 * @param url the base URL
 * @param keys the keys
 * @returns a new URL
 */
export function withQueryKeys(url: URL, keys: QueryKey[]): URL {
  const result = new URL(url);
  for (const key of keys) {
    const value = key.value.reveal();
    if (result.searchParams.getAll(key.name).includes(value)) continue;
    const pair = `${encodeQueryComponent(key.name)}=${encodeQueryComponent(value)}`;
    result.search = result.search.length > 1 ? `${result.search}&${pair}` : `?${pair}`;
  }
  return result;
}

/** Percent-encodes everything but RFC 3986 unreserved characters. */
function encodeQueryComponent(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The URL a prepared request goes to, API keys included: the request's own URL when it has no
 * API keys in the query (read it, do not change it), else a new one.
 *
 * @param request a prepared request
 * @returns the URL as sent, with API keys
 */
export function requestUrl(request: PreparedRequest): URL {
  return request.queryKeys.length === 0
    ? request.url
    : withQueryKeys(request.url, request.queryKeys);
}

/**
 * @param request a prepared request
 * @returns the URL for display: no userinfo, API key and credential-named values `(redacted)`
 */
export function displayUrl(request: PreparedRequest): string {
  return redactUrl(request.url, request.queryKeys);
}

/**
 * The request's own headers as given: order and name case kept, each line its own (curl sends
 * a repeated `-H` twice), but the values of a repeated `Cookie` joined with `; ` into one
 * (RFC 9110 §5.3 forbids folding Cookie with commas). Removals are left out.
 *
 * @param request a prepared request
 * @returns its header lines, secret values still wrapped
 */
export function ownHeaders(request: PreparedRequest): Array<[string, MaybeSecret]> {
  const out: Array<[string, MaybeSecret]> = [];
  let cookie: [string, MaybeSecret] | undefined;
  // By index: until V8 optimises it, a `for…of` makes an iterator and a result per line.
  for (let i = 0; i < request.headers.length; i++) {
    const { name, value, remove } = request.headers[i]!;
    if (remove) continue;
    if (name.toLowerCase() !== "cookie") {
      out.push([name, value]);
      continue;
    }
    if (!cookie) {
      out.push(cookie = [name, value]);
      continue;
    }
    const joined = `${reveal(cookie[1])}; ${reveal(value)}`;
    cookie[1] = typeof cookie[1] === "string" && typeof value === "string"
      ? joined
      : new Secret(joined);
  }
  return out;
}

/**
 * @param request a prepared request
 * @returns its own header lines ({@link ownHeaders}) as sent: secrets revealed, values as
 *   UTF-8 byte strings (as curl and HTTPie send them; fetch would send a code point below 256
 *   as one Latin-1 byte)
 * @throws {UsageError} when a name or value cannot be sent as a header (nothing was sent)
 */
export function requestHeaders(request: PreparedRequest): Array<[string, string]> {
  return ownHeaders(request).map((line) => {
    const name = line[0];
    const text = reveal(line[1]);
    // Checked here, not by the runtime's Headers (whose message would quote a credential, and
    // whose code costs start-up time): a token name, no control character in the value.
    if (!HEADER_NAME.test(name) || hasHeaderControls(text)) {
      throw new UsageError(
        `Invalid value for header "${name}": it holds a line break or control character`,
        { remedy: { check: "stray_newline" } },
      );
    }
    return [name, utf8ByteString(text)];
  });
}

/** An HTTP token (RFC 9110 §5.6.2): what a header name is made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Bytes no HTTP header value may carry (RFC 9110 5.5; tab is allowed). */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const HEADER_VALUE_CONTROLS = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * @param text a header value as typed
 * @returns its UTF-8 bytes as a byte string, the form fetch and node:http put on the wire
 */
export function utf8ByteString(text: string): string {
  // ASCII is its own UTF-8 (nearly every header value): nothing to encode.
  // deno-lint-ignore no-control-regex -- the ASCII range, controls included
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = "";
  for (const byte of UTF8.encode(text)) out += String.fromCharCode(byte);
  return out;
}

const UTF8 = new TextEncoder();

/**
 * Tells whether a header value holds a byte that cannot be sent (a line break or other
 * control character); fetch would refuse it with a message quoting the value.
 *
 * @param value a header value
 * @returns true when it cannot be sent
 */
export function hasHeaderControls(value: string): boolean {
  return HEADER_VALUE_CONTROLS.test(value);
}

/** Redirect statuses dial follows. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Computes the next hop of a redirect. A hop to another origin (scheme, host or port) drops
 * every credential: Authorization, Proxy-Authorization, Cookie, credential-looking headers,
 * headers an auth option added, `-K` keys and per-request credentials (Digest, SigV4). 303 (and 301/302 after POST) becomes GET without a body; 307 and 308 keep
 * method and body.
 *
 * @param request the request that was answered
 * @param status the response status
 * @param location the Location header
 * @returns the next request, or undefined when the response is not a followable redirect
 * @throws {DialError} `redirect_scheme` for a hop to anything but http: or https:
 * @see https://fetch.spec.whatwg.org/#http-redirect-fetch
 */
export function redirectRequest(
  request: PreparedRequest,
  status: number,
  location: string | null,
): PreparedRequest | undefined {
  if (!REDIRECTS.has(status) || location === null) return undefined;
  const from = requestUrl(request);
  const url = new URL(location, from);
  checkRedirectScheme(url, from);
  url.hash = "";
  const sameOrigin = url.origin === from.origin;
  let { method, body } = request;
  let headers = request.headers;
  const toGet = status === 303 ? method !== "HEAD" : (status === 301 || status === 302) &&
    method === "POST";
  if (toGet) {
    method = "GET";
    body = undefined;
    headers = headers.filter((h) => !/^content-(type|length)$/i.test(h.name));
  }
  if (!sameOrigin) {
    // A Host given with -H names the first server, not another one (curl drops it too).
    headers = headers.filter((h) =>
      !h.credential && !isCredentialName(h.name) && h.name.toLowerCase() !== "host"
    );
  }
  return {
    method,
    url,
    queryKeys: sameOrigin ? request.queryKeys : [],
    headers,
    ...(body ? { body } : {}),
    ...(sameOrigin && request.signer ? { signer: request.signer } : {}),
  };
}
