/**
 * The operation of a GraphQL document that runs, for both faces (`dial graphql` and the GraphQL
 * tab): which one is picked (by name, or the only one), whether it matches a schema and its
 * variables, and whether its response streams (a subscription, or `@defer` / `@stream` in what
 * it selects). Problems are data (a {@link OperationProblemCode} and what it concerns); each face
 * words them and its own hint.
 * @module
 */
import {
  BREAK,
  type FragmentDefinitionNode,
  Kind,
  type SelectionSetNode,
  validate,
  visit,
} from "graphql";
import { operationsOf } from "./document.ts";
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from "./graphql_types.ts";
import type { OperationKind } from "./query_builder.ts";
import { validateVariables, type VariableProblem } from "./variables.ts";

/** The codes of {@link OperationProblem}s, stable strings faces and tests match on. */
export const OperationProblemCode = {
  /** The document holds fragments only. */
  NoOperation: "no_operation",
  /** No operation has the name asked for. */
  UnknownOperation: "unknown_operation",
  /** The document holds several operations and none was named. */
  OperationNameNeeded: "operation_name_needed",
  /** The document does not validate against the schema. */
  SchemaMismatch: "schema_mismatch",
  /** The variable values do not fit the operation's variable definitions. */
  InvalidVariables: "invalid_variables",
} as const;

/** A message with where it points in the document, when it does. */
export interface LocatedMessage {
  /** What is wrong. */
  message: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
}

/** Why no operation can run: a code and what it concerns, no wording of any face. */
export type OperationProblem =
  | { code: typeof OperationProblemCode.NoOperation }
  | {
    code: typeof OperationProblemCode.UnknownOperation;
    /** The name asked for. */
    name: string;
    /** The operations' names (`(anonymous)` for one without). */
    names: string[];
  }
  | {
    code: typeof OperationProblemCode.OperationNameNeeded;
    /** The operations' names (`(anonymous)` for one without). */
    names: string[];
  }
  | {
    code: typeof OperationProblemCode.SchemaMismatch;
    /** graphql-js's validation errors, in document order. */
    errors: LocatedMessage[];
  }
  | {
    code: typeof OperationProblemCode.InvalidVariables;
    /** The errors (never warnings), each naming its variable. */
    problems: VariableProblem[];
  };

/** The operation that runs. */
export interface SelectedOperation {
  /** Its definition in the document. */
  definition: OperationDefinitionNode;
  /** `query`, `mutation` or `subscription`. */
  kind: OperationKind;
  /** Its name, when it has one. */
  name?: string;
  /**
   * Whether the response is a stream of results: a subscription, or an operation whose
   * selection (fragments included) uses `@defer` or `@stream`.
   */
  streams: boolean;
  /** With variables checked against a schema: what servers ignore (unused variables). */
  warnings: VariableProblem[];
}

/** The result of {@link selectOperation}. */
export type OperationSelection =
  | { ok: true; operation: SelectedOperation }
  | { ok: false; problem: OperationProblem };

/** Options for {@link selectOperation}. */
export interface SelectOperationOptions {
  /** The operation to run; needed when the document holds several. */
  operationName?: string;
  /** Validate the document (and the variables) against this schema. */
  schema?: GraphQLSchema;
  /** Variable values, checked when a schema is given. */
  variables?: Record<string, unknown>;
}

/** How an operation without a name is listed in {@link OperationProblem}s. */
export const ANONYMOUS = "(anonymous)";

/**
 * Picks the operation that runs and checks it.
 *
 * @param document a parsed document (`parseDocument`)
 * @param options the operation name, and a schema to check against with the variables
 * @returns the operation, its kind and whether it streams; or the problem
 * @example
 * ```ts
 * import { parseDocument } from "./document.ts";
 * const parsed = parseDocument("query A { a } query B { b @stream }");
 * if (parsed.ok) {
 *   const picked = selectOperation(parsed.document, { operationName: "B" });
 *   if (picked.ok) console.log(picked.operation.kind, picked.operation.streams); // query true
 *   else console.log(picked.problem.code);
 * }
 * ```
 */
export function selectOperation(
  document: DocumentNode,
  options: SelectOperationOptions = {},
): OperationSelection {
  const operations = operationsOf(document);
  const names = operations.map((o) => o.name?.value ?? ANONYMOUS);
  const { operationName, schema } = options;
  if (operations.length === 0) return fail({ code: OperationProblemCode.NoOperation });
  if (operationName === undefined && operations.length > 1) {
    return fail({ code: OperationProblemCode.OperationNameNeeded, names });
  }
  const definition = findOperation(document, operationName);
  if (!definition) {
    return fail({ code: OperationProblemCode.UnknownOperation, name: operationName!, names });
  }
  let warnings: VariableProblem[] = [];
  if (schema) {
    const errors = validate(schema, document);
    if (errors.length > 0) {
      return fail({
        code: OperationProblemCode.SchemaMismatch,
        errors: errors.map((e) => {
          const at = e.locations?.[0];
          return { message: e.message, ...(at ? { line: at.line, column: at.column } : {}) };
        }),
      });
    }
    const problems = validateVariables(schema, definition, options.variables ?? {});
    const invalid = problems.filter((p) => p.severity !== "warning");
    if (invalid.length > 0) {
      return fail({ code: OperationProblemCode.InvalidVariables, problems: invalid });
    }
    warnings = problems.filter((p) => p.severity === "warning");
  }
  return {
    ok: true,
    operation: {
      definition,
      kind: definition.operation as OperationKind,
      ...(definition.name ? { name: definition.name.value } : {}),
      streams: definition.operation === "subscription" || defersOrStreams(document, definition),
      warnings,
    },
  };
}

/**
 * Words a problem the same way for every face, naming no flag or control: a face adds its own
 * hint (`--operation-name` in the CLI, the Operation picker in the UI).
 *
 * @param problem from {@link selectOperation}
 * @returns the message, sentence case, details after a colon
 * @example
 * ```ts
 * operationProblemMessage({ code: "operation_name_needed", names: ["A", "B"] });
 * // 'The query holds 2 operations: "A", "B"'
 * ```
 */
export function operationProblemMessage(problem: OperationProblem): string {
  const quoted = (names: string[]) => names.map((n) => `"${n}"`).join(", ");
  switch (problem.code) {
    case OperationProblemCode.NoOperation:
      return "The query holds no operation, only fragments";
    case OperationProblemCode.UnknownOperation:
      return `No operation named "${problem.name}" in the query: it holds ${quoted(problem.names)}`;
    case OperationProblemCode.OperationNameNeeded:
      return `The query holds ${problem.names.length} operations: ${quoted(problem.names)}`;
    case OperationProblemCode.SchemaMismatch:
      return `The query does not match the schema: ${
        problem.errors.slice(0, 5).map((e) =>
          e.line === undefined ? e.message : `${e.message} (line ${e.line}, column ${e.column})`
        ).join("; ")
      }`;
    case OperationProblemCode.InvalidVariables:
      return `Invalid variables: ${problem.problems.map((p) => p.message).join("; ")}`;
  }
}

/**
 * The operation a name stands for, without checking anything else: what the schema tree and
 * the variables editor show while the document is being written.
 *
 * @param document a parsed document
 * @param name an operation name; without one, the first operation
 * @returns the operation, or undefined when there is none (of that name)
 */
export function findOperation(
  document: DocumentNode,
  name?: string,
): OperationDefinitionNode | undefined {
  const operations = operationsOf(document);
  return name === undefined ? operations[0] : operations.find((o) => o.name?.value === name);
}

/**
 * @param document the document
 * @param operation one of its operations
 * @returns whether `@defer` or `@stream` appears in what the operation selects, following
 * fragment spreads (comments and strings do not count: only the AST's directives)
 */
function defersOrStreams(document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  }
  const queued = new Set<string>();
  const sets: SelectionSetNode[] = [operation.selectionSet];
  let found = false;
  for (let set = sets.pop(); set && !found; set = sets.pop()) {
    visit(set, {
      Directive(node) {
        if (node.name.value !== "defer" && node.name.value !== "stream") return;
        found = true;
        return BREAK;
      },
      FragmentSpread(node) {
        const fragment = fragments.get(node.name.value);
        if (!fragment || queued.has(node.name.value)) return;
        queued.add(node.name.value);
        sets.push(fragment.selectionSet);
      },
    });
  }
  return found;
}

function fail(problem: OperationProblem): OperationSelection {
  return { ok: false, problem };
}
