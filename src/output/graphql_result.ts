/**
 * Printing GraphQL results: one envelope pretty and coloured for people, one JSON document
 * per line for programs, and a readable summary of envelope errors.
 * @module
 */
import type { GraphQLErrorEntry, GraphQLResult } from "../graphql/envelope.ts";
import { describeError } from "../graphql/envelope.ts";
import { prettyJson } from "./json.ts";
import { paint, Style } from "./terminal.ts";

/**
 * @param result a validated result
 * @param pretty indent (on a terminal) or keep one line (piped, JSON lines)
 * @param color whether to colour
 * @returns the text to print, ending in a newline
 */
export function formatResult(result: GraphQLResult, pretty: boolean, color: boolean): string {
  if (pretty) return prettyJson(result.text, color) + "\n";
  // One line per result: compact the text only when it spans several lines.
  return (result.text.includes("\n") ? JSON.stringify(result.value) : result.text) + "\n";
}

/**
 * @param errors the errors of an envelope
 * @param color whether to colour
 * @returns one `graphql error: …` line per error (at most 10, then a count)
 */
export function formatGraphQLErrors(errors: GraphQLErrorEntry[], color: boolean): string {
  const label = paint("graphql error:", Style.red + ";1", color);
  const lines = errors.slice(0, 10).map((e) => `${label} ${describeError(e)}`);
  if (errors.length > 10) lines.push(`${label} … and ${errors.length - 10} more`);
  return lines.join("\n") + "\n";
}
