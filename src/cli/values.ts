/**
 * Parsing of flag values into spec parts. Every failure is a UsageError: nothing is sent.
 * @module
 */
import { UsageError } from "../errors.ts";
import { isCredentialName } from "../credential_name.ts";
import { utf8ByteString } from "../http/build_request.ts";
import { checkSendable } from "../http/wire.ts";
import type { HeaderField } from "../http/spec.ts";
import type { QueryKey } from "../auth/spec.ts";
import { hasHeaderControls } from "../http/build_request.ts";
import { redactUrlText } from "../redact_url.ts";
import { Secret } from "../secret.ts";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * @param text a `-H` value, `Name: value`
 * @returns the header; values of credential-looking names are wrapped as secrets
 */
export function parseHeader(text: string): HeaderField {
  // A header may hold a credential: messages name the header, never its value.
  const colon = text.indexOf(":");
  if (colon < 0) {
    throw new UsageError(`Cannot parse -H header: missing ":" between name and value`, {
      hint: `write -H "Name: value"`,
    });
  }
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (!TOKEN.test(name)) {
    const shown = /^[\x21-\x7e]{1,64}$/.test(name) ? ` "${name}"` : "";
    throw new UsageError(`Cannot parse -H header: invalid header name${shown}`, {
      hint: `write -H "Name: value"; a name has no spaces or separators`,
    });
  }
  checkSendable(name);
  try {
    if (hasHeaderControls(value)) throw new TypeError("control character");
    new Headers([[name, utf8ByteString(value)]]);
  } catch {
    throw new UsageError(
      `Cannot parse -H header "${name}": the value holds a line break or control character`,
    );
  }
  return { name, value: isCredentialName(name) ? new Secret(value) : value };
}

/**
 * @param text a `-K` value, `name=value`
 * @returns the query key, its value a secret
 */
export function parseQueryKey(text: string): QueryKey {
  const eq = text.indexOf("=");
  if (eq <= 0) {
    throw new UsageError(`Cannot parse -K API key: expected <name>=<value>`, {
      hint: `write -K api_key=VALUE`,
    });
  }
  return { name: text.slice(0, eq), value: new Secret(text.slice(eq + 1)) };
}

/**
 * A URL given on the command line. A target URL (`assumeScheme`) without a scheme takes the
 * first allowed one, as curl and HTTPie do: `localhost:8080/x` is `http://localhost:8080/x`;
 * `:8080/x` and `:/x` name localhost (`http://localhost:8080/x`, `http://localhost/x`), as in
 * HTTPie. Other URLs (token and authorization endpoints) need their scheme.
 *
 * @param text a URL given on the command line
 * @param protocols the schemes allowed
 * @param assumeScheme whether a missing scheme means the first allowed one
 * @returns the URL
 */
export function parseUrl(
  text: string,
  protocols: string[] = ["http:", "https:"],
  assumeScheme = false,
): URL {
  // The URL may carry user:password@ or keys: messages show it redacted.
  const shown = redactUrlText(text);
  let url: URL;
  try {
    url = new URL(assumeScheme ? withDefaultScheme(text, protocols[0]!) : text);
  } catch {
    throw new UsageError(`Invalid URL "${shown}": not an absolute URL`, {
      hint: `write the scheme too, e.g. ${protocols[0]}//${shown.replace(/^\/+/, "")}`,
    });
  }
  if (!protocols.includes(url.protocol)) {
    throw new UsageError(`Invalid URL "${shown}": scheme must be ${protocols.join(" or ")}`);
  }
  if (url.hostname === "") throw new UsageError(`Invalid URL "${shown}": missing host`);
  return url;
}

/** Matches a URL that starts with a scheme, e.g. `https://` or `ws://`. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * @param text a URL as typed
 * @param protocol the scheme to assume, e.g. `http:`
 * @returns the URL with a scheme
 */
function withDefaultScheme(text: string, protocol: string): string {
  if (SCHEME.test(text)) return text;
  if (/^:(\d|\/|$)/.test(text)) return `${protocol}//localhost${text.replace(/^:(?!\d)/, "")}`;
  return `${protocol}//${text}`;
}

/**
 * Whether a lone argument is a URL (not a method given without one): it has a scheme, a dot,
 * a colon or a slash, or it is `localhost`.
 *
 * @param text a positional argument
 * @returns whether it reads as a URL
 */
export function looksLikeUrl(text: string): boolean {
  return SCHEME.test(text) || /[.:/]/.test(text) || /^localhost$/i.test(text);
}

/** The methods sent upper-case whatever case they are typed in (RFC 9110, RFC 5789). */
const STANDARD_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"];

/**
 * @param text an HTTP method
 * @returns it upper-cased when it is a standard method in any case, otherwise as written
 */
export function parseMethod(text: string): string {
  if (!TOKEN.test(text)) {
    throw new UsageError(`Invalid method "${text}": not an HTTP token`);
  }
  const upper = text.toUpperCase();
  return STANDARD_METHODS.includes(upper) ? upper : text;
}

/**
 * @param text seconds, decimal allowed
 * @param flag the flag name, for the message
 * @returns milliseconds
 */
export function parseSeconds(text: string, flag: string): number {
  const seconds = Number(text);
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`Invalid ${flag} "${text}": expected a positive number of seconds`);
  }
  // Timers fire at once beyond 2^31 - 1 ms (about 24.8 days).
  if (seconds * 1000 > MAX_TIMER_MS) {
    throw new UsageError(`Invalid ${flag} "${text}": too large (at most 24 days)`);
  }
  return seconds * 1000;
}

/** The longest delay a timer can wait: 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * @param text a count
 * @param flag the flag name, for the message
 * @param min the least value allowed
 * @returns the integer
 */
export function parseCount(text: string, flag: string, min = 0): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min) {
    throw new UsageError(`Invalid ${flag} "${text}": expected a whole number of at least ${min}`);
  }
  return n;
}

/**
 * @param text a port
 * @param flag the flag name, for the message
 * @returns the port number
 */
export function parsePort(text: string, flag: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 65535) {
    throw new UsageError(`Invalid ${flag} "${text}": expected a port from 1 to 65535`);
  }
  return n;
}
