/**
 * The GraphQL response envelope, validated off the wire.
 * @module
 */

/** One error of a GraphQL response. */
export interface GraphQLErrorEntry {
  /** The message. */
  message: string;
  /** The response path of the failing field, e.g. `["repository", "issues"]`. */
  path?: Array<string | number>;
  /** Locations in the document. */
  locations?: Array<{ line: number; column: number }>;
}

/** A GraphQL result (a response, or one payload of a stream), as validated JSON. */
export interface GraphQLResult {
  /** The parsed JSON object, everything kept. */
  value: Record<string, unknown>;
  /** The JSON text as received, for printing numbers exactly as sent. */
  text: string;
  /** The errors of the envelope (`errors`, and those of incremental payloads). */
  errors: GraphQLErrorEntry[];
}

/**
 * Parses and checks one envelope: a JSON object holding `data`, `errors`, `incremental`,
 * `hasNext` or `extensions`.
 *
 * @param text the JSON text
 * @returns the result
 * @throws {Error} when the text is not JSON or not a GraphQL envelope
 * @see https://spec.graphql.org/October2021/#sec-Response-Format
 */
export function parseEnvelope(text: string): GraphQLResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("not a GraphQL response: expected a JSON object");
  }
  const object: Record<string, unknown> = { ...value };
  const known = ["data", "errors", "incremental", "hasNext", "extensions", "payload"];
  if (!known.some((key) => key in object)) {
    throw new Error(`not a GraphQL response: expected "data" or "errors"`);
  }
  const errors = errorEntries(object.errors);
  if (Array.isArray(object.incremental)) {
    for (const item of object.incremental) {
      if (typeof item === "object" && item !== null && "errors" in item) {
        errors.push(...errorEntries(item.errors));
      }
    }
  }
  return { value: object, text: text.trim(), errors };
}

function errorEntries(errors: unknown): GraphQLErrorEntry[] {
  if (errors === undefined || errors === null) return [];
  if (!Array.isArray(errors)) return [{ message: `malformed "errors": ${JSON.stringify(errors)}` }];
  return errors.map((e): GraphQLErrorEntry => {
    if (typeof e !== "object" || e === null) return { message: JSON.stringify(e) };
    const message = "message" in e && typeof e.message === "string" ? e.message : JSON.stringify(e);
    const path = "path" in e && Array.isArray(e.path) &&
        e.path.every((p: unknown) => typeof p === "string" || typeof p === "number")
      ? e.path.map((p: unknown) => typeof p === "number" ? p : String(p))
      : undefined;
    const locations = "locations" in e && Array.isArray(e.locations)
      ? e.locations.flatMap((l: unknown) =>
        typeof l === "object" && l !== null && "line" in l && "column" in l &&
          typeof l.line === "number" && typeof l.column === "number"
          ? [{ line: l.line, column: l.column }]
          : []
      )
      : undefined;
    return {
      message,
      ...(path ? { path } : {}),
      ...(locations?.length ? { locations } : {}),
    };
  });
}

/**
 * @param error an error entry
 * @returns one line: the message, then the path and the first location
 */
export function describeError(error: GraphQLErrorEntry): string {
  const where: string[] = [];
  if (error.path?.length) where.push(`at ${error.path.join(".")}`);
  const location = error.locations?.[0];
  if (location) where.push(`line ${location.line}, column ${location.column}`);
  return where.length ? `${error.message} (${where.join("; ")})` : error.message;
}
