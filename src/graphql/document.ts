/**
 * Parsing GraphQL documents with errors people can act on: line, column and a caret.
 * @module
 */
import { GraphQLError, parse, Source } from "graphql";
import type { DocumentNode, OperationDefinitionNode } from "./graphql_types.ts";

/** A syntax error located in the document text. */
export interface DocumentSyntaxError {
  /** graphql-js's message, e.g. `Syntax Error: Expected Name, found "}".` */
  message: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** The offending line and the one before it, with a caret under the column. */
  excerpt: string;
}

/** The result of {@link parseDocument}. */
export type ParsedDocument =
  | { ok: true; document: DocumentNode }
  | { ok: false; error: DocumentSyntaxError };

/**
 * Parses a GraphQL document.
 *
 * @param text the document
 * @returns the AST, or a located syntax error
 * @example
 * ```ts
 * const r = parseDocument("{ viewer { login }");
 * if (!r.ok) console.log(`${r.error.line}:${r.error.column}\n${r.error.excerpt}`);
 * ```
 */
export function parseDocument(text: string): ParsedDocument {
  try {
    return { ok: true, document: parse(new Source(text)) };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const location = error.locations?.[0] ?? { line: 1, column: 1 };
    return {
      ok: false,
      error: {
        message: error.message,
        line: location.line,
        column: location.column,
        excerpt: caretExcerpt(text, location.line, location.column),
      },
    };
  }
}

/**
 * @param text a document
 * @param line 1-based line
 * @param column 1-based column
 * @returns the line before (if any) and the line itself, numbered, with a caret line
 * @example
 * ```ts
 * caretExcerpt("{\n  viewer {\n}", 3, 2);
 * // "2 |   viewer {\n3 | }\n  |  ^"
 * ```
 */
export function caretExcerpt(text: string, line: number, column: number): string {
  const lines = text.split(/\r\n|\r|\n/);
  const width = String(line).length;
  const numbered = (n: number) => `${String(n).padStart(width)} | ${lines[n - 1] ?? ""}`;
  const out: string[] = [];
  if (line > 1) out.push(numbered(line - 1));
  out.push(numbered(line));
  out.push(`${" ".repeat(width)} | ${" ".repeat(Math.max(0, column - 1))}^`);
  return out.join("\n");
}

/**
 * @param document a parsed document
 * @returns its operations, in order
 */
export function operationsOf(document: DocumentNode): OperationDefinitionNode[] {
  return document.definitions.filter((d): d is OperationDefinitionNode =>
    d.kind === "OperationDefinition"
  );
}
