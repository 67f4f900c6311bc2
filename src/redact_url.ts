/**
 * The one way a URL reaches a message, a log or the UI: without userinfo, with the values of
 * `-K` keys and of credential-named query parameters shown as `(redacted)`. Imported by the
 * browser bundle too, so it depends only on the credential-name rule.
 * @module
 */
import { isCredentialName } from "./credential_name.ts";

const REDACTED = "(redacted)";

/** A query key whose value must never be shown (`-K name=value`); only the name is read. */
export interface NamedKey {
  /** The parameter name. */
  name: string;
}

/**
 * Renders a URL for people: no `user:password@`, credential-named query values and the
 * given keys' values as `(redacted)`, keys not yet in the query appended as `name=(redacted)`.
 * Everything else keeps its encoding.
 *
 * @param url the URL
 * @param keys `-K` keys (appended when sending, or already in the query)
 * @returns the text to show
 * @example
 * ```ts
 * redactUrl(new URL("https://u:pw@api.test/x?token=t&page=2"), [{ name: "k" }]);
 * // "https://api.test/x?token=(redacted)&page=2&k=(redacted)"
 * ```
 */
export function redactUrl(url: URL, keys: readonly NamedKey[] = []): string {
  const copy = new URL(url);
  copy.username = "";
  copy.password = "";
  const secretNames = new Set(keys.map((k) => k.name));
  const parts = copy.search.length > 1 ? copy.search.slice(1).split("&") : [];
  const shown = parts.map((part) => {
    const eq = part.indexOf("=");
    const name = decodeLoosely(eq < 0 ? part : part.slice(0, eq));
    if (!secretNames.has(name) && !isCredentialName(name)) return part;
    secretNames.delete(name);
    return `${eq < 0 ? part : part.slice(0, eq)}=${REDACTED}`;
  });
  for (const name of secretNames) shown.push(`${encodeURIComponent(name)}=${REDACTED}`);
  copy.search = "";
  const hash = copy.hash;
  copy.hash = "";
  return `${copy.href}${shown.length ? `?${shown.join("&")}` : ""}${hash}`;
}

/** Deno's "error sending request [from A] for [url] (URL) [(B)]: ", which embeds the URL. */
const PREAMBLE =
  /error sending request(?: from \S+)? for (?:url )?\(?[a-z][a-z0-9+.-]*:\/\/[^\s)]*\)?(?: \([^)]*\))?:?\s*/gi;

/**
 * Rewrites every URL inside a runtime's message (e.g. Deno's "error sending request for url
 * (…)") with {@link redactUrl}, and drops the "error sending request … for …" preamble.
 *
 * @param text a message that may embed URLs
 * @param keys `-K` keys whose values must not appear
 * @returns the text without userinfo or credential values
 */
export function redactUrlsInText(text: string, keys: readonly NamedKey[] = []): string {
  return text
    .replace(PREAMBLE, "")
    .replace(/client error \(\w+\):\s*/gi, "")
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'()<>]+/gi, (match) => {
      try {
        return redactUrl(new URL(match), keys);
      } catch {
        return match.replace(/\/\/[^/@]*@/, "//").replace(/\?.*$/, "?(redacted)");
      }
    });
}

/**
 * Renders text the user gave as a URL, for a usage error: the same redaction as
 * {@link redactUrl} when it parses, else everything up to an `@` and the query hidden.
 *
 * @param text what was given
 * @returns the text to show
 */
export function redactUrlText(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch { /* shown by hand below */ }
  // "user:pw@host" parses as an opaque URL with scheme "user:": hide it by hand too.
  if (url?.host) return redactUrl(url);
  const end = text.search(/[?#]/);
  const head = (end < 0 ? text : text.slice(0, end))
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/]*@/i, "$1");
  const tail = end < 0 ? "" : text.slice(end);
  return head + (tail.startsWith("?") ? `?${REDACTED}` : tail);
}

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}
