/**
 * httpyac's `?? xpath EXPR` value: the body read as XML by `@xmldom/xmldom` and the expression
 * evaluated by `xpath`, the two packages (and versions) httpyac 6.16.7 uses, so that an
 * assertion has the value it has there. Loaded only when a request has an XPath assertion.
 * @module
 */
import { DOMParser } from "@xmldom/xmldom";
// @ts-types="./_xpath.d.ts"
import * as xpath from "xpath";

/**
 * Evaluates an XPath 1.0 expression over an XML body as httpyac does: no node is undefined, one
 * node its text content, several a list of their texts; a number, string or boolean (`count()`,
 * `boolean()`) itself.
 *
 * @param expression the XPath expression
 * @param body the response body
 * @param namespaces prefixes the expression uses (`# @xpath_ns prefix=uri`)
 * @returns the value
 * @throws {Error} for a body that is not XML or an expression that does not evaluate
 */
export function xpathValue(
  expression: string,
  body: string,
  namespaces: Record<string, string> = {},
): unknown {
  let document;
  try {
    // httpyac's reading: XML, the parser's warnings and recoverable errors ignored.
    document = new DOMParser({ onError: () => {} }).parseFromString(body, "text/xml");
  } catch (error) {
    throw new Error(
      `The body is not XML, so "${expression}" cannot select from it: ${
        (error as Error).message.split("\n")[0]
      }`,
    );
  }
  const select = Object.keys(namespaces).length ? xpath.useNamespaces(namespaces) : xpath.select;
  let found: unknown;
  try {
    found = select(expression, document);
  } catch (error) {
    throw new Error(`Invalid XPath "${expression}": ${(error as Error).message}`);
  }
  if (Array.isArray(found)) {
    if (found.length === 0) return undefined;
    return found.length === 1 ? text(found[0]) : found.map(text);
  }
  return text(found);
}

/** A node's text content; other values as they are. */
function text(value: unknown): unknown {
  if (typeof value === "object" && value !== null && "nodeType" in value) {
    return "textContent" in value ? value.textContent : undefined;
  }
  return value;
}
