/**
 * The inputs of `dial graphql`: the document (`-q`), the variables and the operation name,
 * checked before anything is sent. Every failure is a UsageError.
 * @module
 */
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { claimStdin } from "./secret_ref.ts";
import { parseDocument } from "../graphql/document.ts";
import {
  ANONYMOUS,
  type OperationProblem,
  OperationProblemCode,
  operationProblemMessage,
  type SelectedOperation,
  selectOperation,
  type SelectOperationOptions,
} from "../graphql/operation.ts";
import { parseVariablesJson } from "../graphql/variables.ts";

/**
 * @param value `-q` value: text, `@file` or `@-`
 * @param context the run: its stdin
 * @returns the document text
 */
export async function readQuery(value: string, context: CliContext): Promise<string> {
  if (value === "@-") {
    claimStdin(context, "-q @-");
    return await new Response(context.stdin.readable).text();
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
 * hand. The choice and the checks are the core's (`selectOperation`); this words them for the
 * command line.
 *
 * @param query the document text
 * @param options operation name, variables and an optional schema
 * @returns the operation that runs: its kind, whether it streams, warnings about the variables
 * @throws {UsageError} on a syntax error (line, column and caret), a missing or unknown
 * operation name, or (with a schema) a validation error or bad variables
 */
export function checkOperation(query: string, options: SelectOperationOptions): SelectedOperation {
  const parsed = parseDocument(query);
  if (!parsed.ok) {
    const { message, line, column, excerpt } = parsed.error;
    throw new UsageError(
      `Cannot parse the query at line ${line}, column ${column}: ${
        message.replace(/^Syntax Error: /, "").replace(/\.$/, "")
      }\n${excerpt}`,
    );
  }
  const selected = selectOperation(parsed.document, options);
  if (!selected.ok) {
    throw new UsageError(operationProblemMessage(selected.problem), hintFor(selected.problem));
  }
  return selected.operation;
}

/** The command line's hint for a problem: the flags that fix it. */
function hintFor(problem: OperationProblem): { hint?: string } {
  switch (problem.code) {
    case OperationProblemCode.OperationNameNeeded:
      return {
        hint: `choose one with --operation-name ${
          problem.names.find((n) => n !== ANONYMOUS) ?? ""
        }`,
      };
    case OperationProblemCode.SchemaMismatch:
      return {
        hint:
          "refresh the cached schema with --schema --refresh-schema, or skip with --no-validate",
      };
    case OperationProblemCode.InvalidVariables:
      return { hint: "fix the values given with --variables" };
    default:
      return {};
  }
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
