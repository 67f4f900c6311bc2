/**
 * REST Client request variables: `{{NAME.response.body.$.path}}` (JSONPath, RFC 9535),
 * `{{NAME.response.body.*}}` (the whole body), `{{NAME.response.headers.X-Token}}`, and the
 * same under `request`.
 * @module
 */
import { query } from "jsonpath-rfc9535";
import { UsageError } from "../errors/mod.ts";

/** What a named request left for later requests: its request and response, as text. */
export interface RequestVariableSource {
  /** The request as sent. */
  request: { headers: [string, string][]; body: string };
  /** Its response. */
  response: { headers: [string, string][]; body: string };
}

/** Where a request variable is used, for messages. */
export interface RequestVariablePlace {
  /** e.g. `the URL`. */
  what: string;
  /** The request file; empty for a text that is in no file (a UI tab's field, a message). */
  path: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/**
 * The `file:line:column: ` a message starts with; nothing for a text that is in no file, where
 * a position would point at a line that does not hold it.
 *
 * @param place where a template is
 * @returns the prefix, or `""`
 */
export function placePrefix(place: RequestVariablePlace): string {
  return place.path === "" ? "" : `${place.path}:${place.line}:${place.column}: `;
}

/**
 * Reads one request variable.
 *
 * @param source the named request's exchange
 * @param side `request` or `response`
 * @param part `body` or `headers`
 * @param selector `*`, a JSONPath starting with `$`, or a header name
 * @param place where it is used, for messages
 * @returns the value (a JSON text for objects and arrays)
 * @throws {UsageError} for a path that selects nothing, a body that is not JSON, an XPath
 * @see https://www.rfc-editor.org/rfc/rfc9535
 */
export function requestVariable(
  source: RequestVariableSource,
  side: "request" | "response",
  part: "body" | "headers",
  selector: string,
  place: RequestVariablePlace,
): string {
  // For messages only: made when one is thrown.
  const at = () => placePrefix(place);
  const exchange = source[side];
  if (part === "headers") {
    const wanted = selector.toLowerCase();
    const values = exchange.headers.filter(([name]) => name.toLowerCase() === wanted);
    if (!values.length) {
      throw new UsageError(`${at()}The ${side} has no header "${selector}" (in ${place.what})`);
    }
    return values.map(([, value]) => value).join(", ");
  }
  if (selector === "*") return exchange.body;
  // kulala's `<name>.response.body.<json.path>`: a path without `$` starts at the document.
  if (KULALA_PATH.test(selector)) selector = `$.${selector}`;
  if (!selector.startsWith("$")) {
    throw new UsageError(
      `${at()}Unsupported selector "${selector}" in ${place.what}: dial reads JSONPath ($…) and *`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(exchange.body);
  } catch {
    throw new UsageError(
      `${at()}The ${side} body is not JSON, so "${selector}" cannot select from it`,
    );
  }
  let found: unknown[];
  try {
    found = memberPath(document, selector) ??
      query(document as Parameters<typeof query>[0], selector);
  } catch (error) {
    throw new UsageError(`${at()}Invalid JSONPath "${selector}": ${(error as Error).message}`);
  }
  if (!found.length) {
    throw new UsageError(`${at()}JSONPath "${selector}" selects nothing in the ${side} body`);
  }
  const value = found[0];
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** kulala's path without `$`: member names and list indexes (`json.items[0].id`). */
const KULALA_PATH = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d+\])*$/;

/** `$.a.b…` in RFC 9535's member-name shorthand (§2.5.1.1): no surrogate, no leading digit. */
const MEMBER_PATH =
  /^\$(?:\.[A-Za-z_\u0080-\uD7FF\uE000-\u{10FFFF}][\w\u0080-\uD7FF\uE000-\u{10FFFF}]*)+$/u;

/**
 * The nodes an RFC 9535 query made only of member-name shorthands (`$.a.b`, the form nearly
 * every request variable takes) selects, without the JSONPath library's parser: a name selects
 * the object member of that name, and nothing on any other value (§2.3.1.2). A chain of 1,000
 * requests referring to each other parses one such path per request; the parser's work was the
 * largest allocation of such a run. Any other query is the library's.
 *
 * @param document the parsed JSON
 * @param selector the query
 * @returns the selected nodes (none or one), or undefined for a query of another form
 */
export function memberPath(document: unknown, selector: string): unknown[] | undefined {
  if (!MEMBER_PATH.test(selector)) return undefined;
  let node = document;
  for (const name of selector.slice(2).split(".")) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return [];
    if (!Object.hasOwn(node, name)) return [];
    node = (node as Record<string, unknown>)[name];
  }
  return [node];
}
