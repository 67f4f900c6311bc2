/**
 * The HTTP tab's URL and its query-parameter table show the same query string: typing in the
 * URL rewrites the table, editing the table rewrites the URL's query. Pure functions, so the
 * rules are tested without a browser.
 *
 * The URL is the source of truth for what is sent (the table's enabled rows are in it); rows
 * switched off stay in the table only. Values are shown decoded and written back encoded,
 * except `{{variables}}`, which stay as typed so a request file's placeholders survive.
 * @module
 */
import type { Row } from "../../protocol.ts";

/** Splits a URL at its query and fragment: `[before "?", query, "#fragment" or ""]`. */
function split(url: string): [string, string | undefined, string] {
  const hash = url.indexOf("#");
  const fragment = hash < 0 ? "" : url.slice(hash);
  const rest = hash < 0 ? url : url.slice(0, hash);
  const mark = rest.indexOf("?");
  return mark < 0
    ? [rest, undefined, fragment]
    : [rest.slice(0, mark), rest.slice(mark + 1), fragment];
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const VARIABLE = /(\{\{[^{}]*\}\})/;

function encode(text: string): string {
  return text.split(VARIABLE).map((part, i) =>
    i % 2 === 1 ? part : encodeURIComponent(part).replace(/%2F/g, "/").replace(/%3A/g, ":")
  ).join("");
}

/**
 * The table after the URL changed: one enabled row per pair of the URL's query (decoded),
 * followed by the rows that were switched off.
 *
 * @param url the URL as typed
 * @param previous the table before
 * @returns the new table
 */
export function paramsFromUrl(url: string, previous: readonly Row[]): Required<Row>[] {
  const [, query] = split(url);
  const parsed: Required<Row>[] = query === undefined || query === "" ? [] : query.split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0
        ? { name: decode(pair), value: "", enabled: true }
        : { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)), enabled: true };
    });
  const off = previous.filter((row) => row.enabled === false)
    .map((row) => ({ name: row.name, value: row.value, enabled: false }));
  return [...parsed, ...off];
}

/**
 * The URL after the table changed: its query replaced by the enabled rows with a name.
 *
 * @param url the URL as typed
 * @param rows the table
 * @returns the new URL
 */
export function urlWithParams(url: string, rows: readonly Row[]): string {
  const [base, , fragment] = split(url);
  const pairs = rows.filter((row) => row.enabled !== false && row.name.trim() !== "")
    .map((row) => row.value === "" ? encode(row.name) : `${encode(row.name)}=${encode(row.value)}`);
  return `${base}${pairs.length > 0 ? `?${pairs.join("&")}` : ""}${fragment}`;
}
