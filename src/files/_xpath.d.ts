// The part of the `xpath` package (0.0.34) that xpath_value.ts uses. Its own xpath.d.ts starts
// with `/// <reference lib="dom" />`, which would give every module of dial the browser's global
// types (WebSocket, TextDecoderStream …) instead of Deno's.

/** Evaluates an XPath 1.0 expression: nodes, or a number, string or boolean. */
export function select(expression: string, node: unknown): unknown;

/** `select` with namespace prefixes bound. */
export function useNamespaces(
  namespaces: Record<string, string>,
): (expression: string, node: unknown) => unknown;
