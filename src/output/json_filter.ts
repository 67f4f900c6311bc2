/**
 * `--filter 'JSONPATH'`: the response body's JSON, queried with an RFC 9535 JSONPath (the
 * library `??` assertions use), printed one selected value per line as compact JSON (`jq -c`
 * style), so a shell reads one value per line. Selecting nothing is an error (exit 1), as `grep`
 * finding nothing is.
 * @module
 */
import { readBounded } from "../bytes.ts";
import { query } from "jsonpath-rfc9535";
import { DialError, ErrorCode, UsageError } from "../errors/mod.ts";
import { shown, type Sink } from "./terminal.ts";

/** The most of a body read to filter it. */
export const FILTER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Checks an expression before anything is sent.
 *
 * @param expression the JSONPath
 * @throws {UsageError} when it is not an RFC 9535 query
 */
export function checkJsonPath(expression: string): void {
  try {
    query({}, expression);
  } catch (error) {
    throw new UsageError(`Invalid JSONPath "${expression}": ${(error as Error).message}`);
  }
}

/**
 * Selects from a JSON text.
 *
 * @param text the JSON
 * @param expression an RFC 9535 JSONPath
 * @returns the selected values, in document order
 * @throws {DialError} when the text is not JSON
 */
export function selectJson(text: string, expression: string): unknown[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new DialError(
      `The response body is not JSON, so "${expression}" cannot select from it`,
      ErrorCode.Filter,
    );
  }
  return query(document as Parameters<typeof query>[0], expression);
}

/**
 * Prints what a JSONPath selects from a response body.
 *
 * @param response the response; its body is consumed
 * @param expression an RFC 9535 JSONPath, already checked
 * @param out where the values go, one per line
 * @returns how many values were printed
 * @throws {DialError} when the body is not JSON, too large, or nothing is selected
 */
export async function printFiltered(
  response: Response,
  expression: string,
  out: Sink,
): Promise<number> {
  const text = await boundedText(response);
  const values = selectJson(text, expression);
  if (!values.length) {
    throw new DialError(
      `The JSONPath "${expression}" selects nothing in the response body`,
      ErrorCode.Filter,
    );
  }
  // Server text: on a terminal its control characters are escaped (JSON escapes them anyway).
  await out.write(shown(out, values.map((v) => JSON.stringify(v)).join("\n") + "\n"));
  return values.length;
}

async function boundedText(response: Response): Promise<string> {
  const bytes = await readBounded(response.body, FILTER_MAX_BYTES, () =>
    new DialError(
      `The response body is over ${FILTER_MAX_BYTES / 1024 / 1024} MiB: too large to filter`,
      ErrorCode.Filter,
    ));
  return new TextDecoder().decode(bytes);
}
