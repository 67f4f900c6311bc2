/**
 * The response filter's logic, apart from its view: what an RFC 9535 JSONPath selects from a
 * JSON body (with `query` of the library `dial --filter` and `??` assertions use), and the `??`
 * line that checks it, read back with the request files' own parser.
 * @module
 */
import { query } from "jsonpath-rfc9535";
import { parseHttpFile } from "../../files/parse_http_file.ts";

/** What a filter found: the selected values, or why it cannot select. */
export type Filtered = { values: unknown[] } | { error: string };

/**
 * @param text the response body
 * @param expression an RFC 9535 JSONPath
 * @returns the values it selects, in document order, or why it cannot
 */
export function filterJson(text: string, expression: string): Filtered {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { error: `The response body is not JSON, so "${expression}" cannot select from it` };
  }
  try {
    return { values: query(document as Parameters<typeof query>[0], expression) };
  } catch (error) {
    return { error: `Invalid JSONPath "${expression}": ${(error as Error).message}` };
  }
}

/**
 * The `??` line that checks what the expression selects now, as the runner reads it: one value
 * is the value, several a list (RFC 9535 over the body, `docs/request-files.md`). A text the
 * line cannot hold as it is (empty, spanning lines, with `{{` or spaces at its ends) is checked
 * with `isString`; a line the runner would read otherwise (an operator between spaces in the
 * path or the value) checks only that the path selects something (`exists`).
 *
 * @param expression the JSONPath
 * @param values what it selects (at least one value)
 * @returns the assertion line, without the leading `??` (none: no line reads back as this path)
 */
export function assertionFor(expression: string, values: unknown[]): string | undefined {
  const value = values.length === 1 ? values[0] : values;
  const expected = typeof value !== "string"
    ? JSON.stringify(value)
    : value === "" || value !== value.trim() || /[\r\n]|\{\{/.test(value)
    ? undefined
    : value;
  const line = expected === undefined ? `${expression} isString` : `${expression} == ${expected}`;
  // Read back as the runner reads it: an expression or value holding an operator between
  // spaces would split elsewhere; then only whether the path selects something is checked.
  if (readsAs(line, expression, expected)) return line;
  return readsAs(`${expression} exists`, expression, undefined)
    ? `${expression} exists`
    : undefined;
}

function readsAs(line: string, expression: string, expected: string | undefined): boolean {
  try {
    const [assertion] = parseHttpFile(`GET http://x\n?? ${line}\n`).requests[0]?.assertions ?? [];
    return !!assertion &&
      [assertion.subject, assertion.argument].filter((p) => p !== undefined).join(" ") ===
        expression &&
      assertion.expected === expected;
  } catch {
    return false;
  }
}
