/**
 * The bodies of a request file's `GRAPHQL` and `WEBSOCKET` requests, read and written by one
 * module: a GraphQL body is the query, then optionally a blank line and the variables as a
 * JSON object (as JetBrains writes them); a WebSocket body is its messages separated by
 * `===` lines, `=== wait-for-server` waiting for a server message. `dial run` reads them with
 * {@link splitGraphqlBody} and {@link websocketMessages}; the UI writes them back with
 * {@link graphqlBodyText} and {@link websocketBodyText}. Pure: no I/O.
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** A GRAPHQL request's body, split. */
export interface GraphqlBody {
  /** The document, trimmed. */
  query: string;
  /** The variables object's JSON text, when the body ends with one. */
  variablesText?: string;
  /** The variables, parsed. */
  variables?: Record<string, unknown>;
}

/**
 * Splits a GRAPHQL body into the query and its variables (a JSON object after a blank line).
 *
 * @param text the body, `{{variables}}` substituted or not
 * @returns the query, and the variables when the body ends with a JSON object
 */
export function splitGraphqlBody(text: string): GraphqlBody {
  const split = /\n[ \t]*\n(\s*\{[\s\S]*\})\s*$/.exec(text);
  if (split) {
    try {
      const variables = JSON.parse(split[1]!) as unknown;
      if (variables && typeof variables === "object" && !Array.isArray(variables)) {
        return {
          query: text.slice(0, split.index).trim(),
          variablesText: split[1]!.trim(),
          variables: variables as Record<string, unknown>,
        };
      }
    } catch {
      // Not JSON yet: `{"n": {{n}}}` before substitution is the variables all the same.
      const unsubstituted = split[1]!.replace(/\{\{[^{}]*\}\}/g, "0");
      if (unsubstituted !== split[1] && isJsonObject(unsubstituted)) {
        return { query: text.slice(0, split.index).trim(), variablesText: split[1]!.trim() };
      }
    }
  }
  return { query: text.trim() };
}

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * Writes a GRAPHQL body: the query, and the variables after a blank line unless empty.
 *
 * @param query the document
 * @param variablesText the variables' JSON text ("" or `{}` for none)
 * @returns the body text
 */
export function graphqlBodyText(query: string, variablesText: string): string {
  const variables = variablesText.trim();
  const none = variables === "" || /^\{\s*\}$/.test(variables);
  return none ? query.trim() : `${query.trim()}\n\n${variables}`;
}

/**
 * JetBrains WebSocket bodies: messages separated by `===`, `=== wait-for-server` waits.
 *
 * @param text the body
 * @returns the messages in order, `null` for each `=== wait-for-server`
 */
export function websocketMessages(text: string): (string | null)[] {
  const messages: (string | null)[] = [];
  let current: string[] = [];
  const flush = () => {
    const message = current.join("\n").trim();
    if (message !== "") messages.push(message);
    current = [];
  };
  for (const line of text.split("\n")) {
    const mark = /^===\s*(wait-for-server)?\s*$/.exec(line);
    if (mark) {
      flush();
      if (mark[1]) messages.push(null);
    } else current.push(line);
  }
  flush();
  return messages;
}

/**
 * Writes a WEBSOCKET body that {@link websocketMessages} reads back to the same messages.
 *
 * @param messages the messages, `null` for `=== wait-for-server`
 * @returns the body text
 * @throws {UsageError} when a message holds a line that reads as a separator, or is blank
 */
export function websocketBodyText(messages: readonly (string | null)[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message === null) {
      parts.push("=== wait-for-server");
      continue;
    }
    if (message.trim() === "") throw new UsageError("Cannot write an empty WebSocket message");
    if (message.split("\n").some((line) => /^===/.test(line))) {
      throw new UsageError(
        `Cannot write the WebSocket message "${message.slice(0, 40)}": a line starts with "==="`,
      );
    }
    if (parts.length > 0 && parts.at(-1) !== "=== wait-for-server") parts.push("===");
    parts.push(message.trim());
  }
  return parts.join("\n");
}
