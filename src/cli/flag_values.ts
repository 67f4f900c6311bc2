/**
 * Parsing of the CLI's own flag values (`-H`, `-K`, seconds, counts) into spec parts, worded
 * with the flags. Face-neutral parsers (URLs, methods, ports) are in `src/http/values.ts`.
 * Every failure is a UsageError: nothing is sent.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { HeaderField } from "../http/request_spec.ts";
import type { QueryKey } from "../auth/auth_spec.ts";
import { hasScheme, parseHeader, parseMethod, parseUrl } from "../http/values.ts";
import { closest } from "./parse.ts";
import { Secret } from "../secret.ts";

/**
 * @param text a `-H` value, `Name: value`
 * @returns the header; values of credential-looking names are wrapped as secrets
 */
export function parseHeaderFlag(text: string): HeaderField {
  const field = parseHeader(text, { label: "-H header" });
  // curl: `Name:` removes the header (dial's default too); `Name;` sends it empty.
  const removes = field.value === "" && /:\s*$/.test(text);
  return removes ? { ...field, remove: true } : field;
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
 * Whether a lone argument is a URL (not a method given without one): it has a scheme, a dot,
 * a colon or a slash, or it is `localhost`.
 *
 * @param text a positional argument
 * @returns whether it reads as a URL
 */
export function looksLikeUrl(text: string): boolean {
  return hasScheme(text) || /[.:/]/.test(text) || /^localhost$/i.test(text);
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

/** Commands that a lowercase first word may have been meant as. */
export const SUBCOMMANDS = [
  "graphql",
  "grpc",
  "ws",
  "sse",
  "run",
  "test",
  "ui",
  "mcp",
  "auth",
  "completions",
  "curl",
  "import",
  "export",
];

/**
 * Works out method and URL from the positional arguments: `dial <url>` means GET, or POST
 * when a body is given.
 *
 * @param first the first positional argument
 * @param second the second positional argument
 * @param hasBody whether a body flag was given
 * @returns the method and the URL
 */
export function methodAndUrl(
  first: string | undefined,
  second: string | undefined,
  hasBody: boolean,
): { method: string; url: URL } {
  if (first === undefined) throw new UsageError("Missing URL", { hint: "dial GET https://…" });
  if (second === undefined) {
    if (!looksLikeUrl(first)) {
      const suggestion = suggestCommand(first);
      throw new UsageError(`Missing URL after "${first}"`, {
        hint: suggestion ? `did you mean "dial ${suggestion}"?` : "dial <METHOD> <url>",
      });
    }
    return { method: hasBody ? "POST" : "GET", url: parseUrl(first, undefined, true) };
  }
  const suggestion = suggestCommand(first);
  if (suggestion) {
    throw new UsageError(`Unknown command "${first}"`, {
      hint: `did you mean "dial ${suggestion}"? Methods are sent as written, e.g. GET`,
    });
  }
  return { method: parseMethod(first), url: parseUrl(second, undefined, true) };
}

function suggestCommand(word: string): string | undefined {
  if (word !== word.toLowerCase() || SUBCOMMANDS.includes(word)) return undefined;
  return closest(word, SUBCOMMANDS);
}
