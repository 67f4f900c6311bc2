/**
 * Text changes for `document_edit.ts`: splices at AST locations, indentation, insertion into a
 * selection set and an operation's variable definitions.
 * @module
 */
import type { ASTNode, OperationDefinitionNode } from "graphql";
import { type Container, isPlaceholderOnly } from "./document_locate.ts";
import type { VariableSpec } from "./query_builder.ts";

/** A text replacement. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * @param text the text
 * @param splices non-overlapping replacements
 * @returns the text with every replacement made
 */
export function applySplices(text: string, splices: readonly Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
  }
  return out;
}

/**
 * @param text the text
 * @param at an offset
 * @returns the whitespace at the start of the offset's line
 */
export function indentAt(text: string, at: number): string {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/**
 * A removal of a node's text: its whole line when the node is alone on it, else the node and
 * the whitespace (and comma) before it.
 *
 * @param text the text
 * @param start the node's start
 * @param end the node's end
 * @returns the splice
 */
export function removal(text: string, start: number, end: number): Splice {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  let lineEnd = text.indexOf("\n", end);
  if (lineEnd < 0) lineEnd = text.length;
  const before = text.slice(lineStart, start);
  const after = text.slice(end, lineEnd);
  if (/^[\s,]*$/.test(before) && /^[\s,]*$/.test(after)) {
    return { start: lineStart, end: Math.min(text.length, lineEnd + 1), text: "" };
  }
  let s = start;
  while (s > 0 && /[\s,]/.test(text[s - 1]!)) s--;
  return { start: s, end, text: "" };
}

/**
 * @param node an AST node with a location
 * @returns its text range
 */
export function rangeOf(node: ASTNode): { start: number; end: number } {
  return { start: node.loc!.start, end: node.loc!.end };
}

/**
 * @param base a wanted name
 * @param taken names in use (the new one is added)
 * @returns the name, numbered when taken
 */
export function freeName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

/**
 * @param printed printed text
 * @param indent the indentation of its first line
 * @returns the text with every further line indented
 */
export function reindent(printed: string, indent: string): string {
  return printed.split("\n").join(`\n${indent}`);
}

/**
 * Inserts printed selection text into a set: on its own line, or inline for `{ a b }`.
 *
 * @param text the document
 * @param container the set
 * @param printed the selection's text
 * @returns the splice
 */
export function insertInto(text: string, container: Container, printed: string): Splice {
  const set = container.set;
  if (isPlaceholderOnly(set)) {
    const only = set.selections[0]!;
    return { ...rangeOf(only), text: reindent(printed, indentAt(text, only.loc!.start)) };
  }
  const close = set.loc!.end - 1;
  const lineStart = text.lastIndexOf("\n", close - 1) + 1;
  if (text.slice(lineStart, close).trim() === "") {
    const firstStart = set.selections[0]?.loc?.start ?? close;
    const ownLine =
      text.slice(text.lastIndexOf("\n", firstStart - 1) + 1, firstStart).trim() === "";
    const indent = ownLine && firstStart !== close
      ? indentAt(text, firstStart)
      : `${indentAt(text, close)}  `;
    return { start: lineStart, end: lineStart, text: `${indent}${reindent(printed, indent)}\n` };
  }
  let end = close;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  return { start: end, end: close, text: ` ${printed.replace(/\s*\n\s*/g, " ")} ` };
}

/**
 * Adds variable definitions to an operation's header.
 *
 * @param text the document
 * @param operation the operation
 * @param variables the new definitions
 * @returns the splice
 */
export function defineVariables(
  text: string,
  operation: OperationDefinitionNode,
  variables: readonly VariableSpec[],
): Splice {
  const defs = variables.map((v) => `$${v.name}: ${v.type}`).join(", ");
  const existing = operation.variableDefinitions ?? [];
  const last = existing[existing.length - 1];
  if (last?.loc) return { start: last.loc.end, end: last.loc.end, text: `, ${defs}` };
  if (operation.name?.loc) {
    return { start: operation.name.loc.end, end: operation.name.loc.end, text: `(${defs})` };
  }
  const start = operation.loc!.start;
  if (text[start] === "{") return { start, end: start, text: `${operation.operation} (${defs}) ` };
  const after = start + operation.operation.length;
  return { start: after, end: after, text: ` (${defs})` };
}
