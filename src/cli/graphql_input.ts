/**
 * The inputs of `dial graphql`: the document (`-q`), the variables and the operation name,
 * checked before anything is sent. Every failure is a UsageError.
 * @module
 */
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from "graphql";
import { validate } from "graphql";
import { UsageError } from "../errors.ts";
import { claimStdin } from "./secret_ref.ts";
import { operationsOf, parseDocument } from "../graphql/document.ts";
import { parseVariablesJson, validateVariables } from "../graphql/variables.ts";

/** A checked operation, ready to send. */
export interface CheckedOperation {
  /** The document text, as given. */
  query: string;
  /** The parsed document. */
  document: DocumentNode;
  /** The operation that runs. */
  operation: OperationDefinitionNode;
  /** The operation name to send, when the document names several. */
  operationName?: string;
  /** Variable values. */
  variables?: Record<string, unknown>;
  /** Whether the result is a stream: a subscription, or `@defer` / `@stream`. */
  streamed: boolean;
}

/**
 * @param value `-q` value: text, `@file` or `@-`
 * @returns the document text
 */
export async function readQuery(value: string): Promise<string> {
  if (value === "@-") {
    claimStdin("-q @-");
    return await new Response(Deno.stdin.readable).text();
  }
  if (value.startsWith("@")) return await readFile(value.slice(1), "--query");
  return value;
}

/**
 * @param value `--variables` value: JSON text or `@file`
 * @returns the variables object
 */
export async function readVariables(value: string): Promise<Record<string, unknown>> {
  const source = value.startsWith("@") ? `file "${value.slice(1)}"` : "";
  const text = value.startsWith("@") ? await readFile(value.slice(1), "--variables") : value;
  const parsed = parseVariablesJson(text);
  if (!parsed.ok) {
    const where = parsed.problem.line === undefined
      ? ""
      : ` (line ${parsed.problem.line}, column ${parsed.problem.column})`;
    throw new UsageError(
      `Invalid --variables${source ? ` ${source}` : ""}: ${parsed.problem.message}${where}`,
      { hint: `give a JSON object, e.g. --variables '{"owner": "denoland"}'` },
    );
  }
  return parsed.value;
}

/**
 * Parses the document and picks the operation; validates against the schema when one is at
 * hand.
 *
 * @param query the document text
 * @param options operation name, variables and an optional schema
 * @returns the checked operation
 * @throws {UsageError} on a syntax error (line, column and caret), a missing or unknown
 * operation name, or (with a schema) a validation error or bad variables
 */
export function checkOperation(
  query: string,
  options: {
    operationName?: string;
    variables?: Record<string, unknown>;
    schema?: GraphQLSchema;
  },
): CheckedOperation {
  const parsed = parseDocument(query);
  if (!parsed.ok) {
    const { message, line, column, excerpt } = parsed.error;
    throw new UsageError(
      `Cannot parse the query at line ${line}, column ${column}: ${
        message.replace(/^Syntax Error: /, "").replace(/\.$/, "")
      }\n${excerpt}`,
    );
  }
  const operations = operationsOf(parsed.document);
  const names = operations.map((o) => o.name?.value ?? "(anonymous)");
  let operation: OperationDefinitionNode | undefined;
  if (operations.length === 0) {
    throw new UsageError("The query holds no operation, only fragments");
  }
  if (options.operationName !== undefined) {
    operation = operations.find((o) => o.name?.value === options.operationName);
    if (!operation) {
      throw new UsageError(
        `No operation named "${options.operationName}" in the query: it holds ${
          names.map((n) => `"${n}"`).join(", ")
        }`,
      );
    }
  } else if (operations.length > 1) {
    throw new UsageError(
      `The query holds ${operations.length} operations: ${names.map((n) => `"${n}"`).join(", ")}`,
      { hint: `choose one with --operation-name ${names.find((n) => n !== "(anonymous)") ?? ""}` },
    );
  } else {
    operation = operations[0]!;
  }
  if (options.schema) {
    const errors = validate(options.schema, parsed.document);
    if (errors.length > 0) {
      const lines = errors.slice(0, 5).map((e) => {
        const at = e.locations?.[0];
        return at ? `${e.message} (line ${at.line}, column ${at.column})` : e.message;
      });
      throw new UsageError(`The query does not match the schema: ${lines.join("; ")}`, {
        hint:
          "refresh the cached schema with --schema --refresh-schema, or skip with --no-validate",
      });
    }
    const problems = validateVariables(options.schema, operation, options.variables ?? {});
    if (problems.length > 0) {
      throw new UsageError(`Invalid --variables: ${problems.map((p) => p.message).join("; ")}`);
    }
  }
  const streamed = operation.operation === "subscription" || /@(defer|stream)\b/.test(query);
  return {
    query,
    document: parsed.document,
    operation,
    ...(options.operationName !== undefined ? { operationName: options.operationName } : {}),
    ...(options.variables ? { variables: options.variables } : {}),
    streamed,
  };
}

async function readFile(path: string, flag: string): Promise<string> {
  if (path === "") throw new UsageError(`Missing file name after "@" in ${flag}`);
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new UsageError(`Cannot read file "${path}" for ${flag}: ${why}`);
  }
}
