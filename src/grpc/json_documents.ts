/**
 * JSON documents one after another in a stream of text (one per line, or concatenated with
 * or without white space between them), as grpcurl reads `-d @`: each is handed on as soon as
 * its last byte has arrived, so streaming calls send a message per document as it is typed.
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { UsageError } from "../errors/mod.ts";

/**
 * Splits text chunks into JSON documents.
 *
 * @param chunks the text, in chunks of any size
 * @param source where it came from, for messages (e.g. `standard input`)
 * @returns the documents, parsed
 * @throws {UsageError} when a document is not JSON
 */
export async function* jsonDocuments(
  chunks: AsyncIterable<string>,
  source: string,
): AsyncGenerator<JsonValue> {
  let text = "";
  let start = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let count = 0;
  const parse = (doc: string): JsonValue => {
    count++;
    try {
      return JSON.parse(doc) as JsonValue;
    } catch (error) {
      throw new UsageError(
        `Invalid JSON in document ${count} of ${source}: ${(error as Error).message}`,
      );
    }
  };
  for await (const chunk of chunks) {
    let i = text.length;
    text += chunk;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (start < 0) {
        if (/\s/.test(c)) continue;
        if (c !== "{" && c !== "[") {
          throw new UsageError(
            `Invalid JSON in document ${
              count + 1
            } of ${source}: a request is an object, got "${c}"`,
          );
        }
        start = i;
        depth = 0;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === "\\") escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) {
          yield parse(text.slice(start, i + 1));
          text = text.slice(i + 1);
          i = -1;
          start = -1;
        }
      }
    }
  }
  if (start >= 0 && text.slice(start).trim()) parse(text.slice(start));
}
