/**
 * The variables JSON of an operation: validation against the operation's variable
 * definitions, and a template with a starting value for each variable.
 * @module
 */
import {
  getNamedType,
  getVariableValues,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isRequiredInputField,
  parseConstValue,
  parseType,
  typeFromAST,
  valueFromASTUntyped,
} from "graphql";

import type { GraphQLSchema, OperationDefinitionNode } from "./graphql_types.ts";
import { jsonErrorOffset, lineColumn } from "./json_position.ts";
import type { VariableSpec } from "./query_builder.ts";

/** One problem with the variables JSON. */
export interface VariableProblem {
  /** The variable concerned, when there is one. */
  variable?: string;
  /** What is wrong, naming the variable, e.g. `Variable "$owner" of required type "String!" was not provided.` */
  message: string;
  /** A warning (servers ignore it), not an error. */
  severity?: "warning";
  /** For JSON syntax errors: 1-based line and column. */
  line?: number;
  /** 1-based column. */
  column?: number;
}

/**
 * Parses variables JSON text: it must be one JSON object.
 *
 * @param text the JSON text; blank text means `{}`
 * @returns the object, or the problem with a line and column when the JSON is invalid
 */
export function parseVariablesJson(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; problem: VariableProblem } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The engine's own position words differ between browsers: drop them, compute ours.
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/ (in JSON )?at position \d+.*$/s, "")
      .replace(/ \(line \d+ column \d+\)$/, "");
    return {
      ok: false,
      problem: { message: `Invalid JSON: ${message}`, ...jsonPosition(text) },
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return { ok: false, problem: { message: `Variables must be a JSON object, not ${kind}` } };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * Checks variable values against an operation's variable definitions: missing required
 * variables, wrong scalar types, unknown enum values, input object fields. Each message
 * names the variable.
 *
 * @param schema the schema
 * @param operation the operation whose variables are checked
 * @param values the variables object
 * @returns the problems; empty when the values are valid
 * @see https://spec.graphql.org/October2021/#sec-Coercing-Variable-Values
 */
export function validateVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  values: Record<string, unknown>,
): VariableProblem[] {
  const definitions = operation.variableDefinitions ?? [];
  const problems: VariableProblem[] = [];
  const result = getVariableValues(schema, definitions, values, { maxErrors: 50 });
  for (const error of result.errors ?? []) {
    const name = /Variable "\$([_A-Za-z][_0-9A-Za-z]*)"/.exec(error.message)?.[1];
    problems.push({ ...(name ? { variable: name } : {}), message: error.message });
  }
  const declared = new Set(definitions.map((d) => d.variable.name.value));
  for (const name of Object.keys(values)) {
    if (!declared.has(name)) {
      problems.push({
        variable: name,
        severity: "warning",
        message: `Variable "$${name}" is not used by the operation (servers ignore it)`,
      });
    }
  }
  return problems;
}

/**
 * Builds the variables object for a set of variable definitions: values already given are
 * kept; a new variable starts from the schema's default of its argument when there is one
 * (`followRenames: true`), a page size of 10 for an `Int` named like one (`first`, `last`,
 * `limit`…: 0 would return nothing), the first value of an enum (as GraphiQL's explorer and
 * Altair do), an object with the required fields of an input object, else `null`. A value
 * only the user knows (`"number"` of an issue, an `owner`) is never made up: a required one
 * left `null` is what the variables check reports, naming it, where a made-up `0` or `""`
 * would be sent and answered for an issue nobody asked for. Values of variables no longer
 * defined are dropped.
 *
 * @param schema the schema
 * @param variables the variable definitions
 * @param current the values the user has so far
 * @returns the new variables object, in definition order
 */
export function variablesTemplate(
  schema: GraphQLSchema,
  variables: readonly VariableSpec[],
  current: Record<string, unknown> = {},
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const v of variables) {
    if (Object.hasOwn(current, v.name)) {
      result[v.name] = current[v.name];
      continue;
    }
    let type: GraphQLInputType | undefined;
    try {
      const found = typeFromAST(schema, parseType(v.type));
      type = found && isInputType(found) ? found : undefined;
    } catch {
      type = undefined;
    }
    result[v.name] = startValue(v, type);
  }
  return result;
}

const PAGE_SIZE =
  /^(first|last|limit|take|top|size|count|perPage|per_page|pageSize|page_size)\d*$/i;

function startValue(v: VariableSpec, type: GraphQLInputType | undefined): unknown {
  if (v.argumentDefault !== undefined) {
    try {
      // Through JSON: graphql-js builds objects without a prototype.
      return JSON.parse(JSON.stringify(valueFromASTUntyped(parseConstValue(v.argumentDefault))));
    } catch {
      // fall through to a placeholder
    }
  }
  if (!type) return null;
  if (
    getNamedType(type).name === "Int" && !isListType(unwrapNonNull(type)) && PAGE_SIZE.test(v.name)
  ) {
    return 10;
  }
  return isNonNullType(type) ? placeholder(type, new Set()) : null;
}

function unwrapNonNull(type: GraphQLInputType): GraphQLInputType {
  return isNonNullType(type) ? type.ofType : type;
}

function placeholder(type: GraphQLInputType, seen: Set<string>): unknown {
  if (isNonNullType(type)) return placeholder(type.ofType, seen);
  if (isListType(type)) return null;
  const named = getNamedType(type);
  if (isEnumType(named)) return named.getValues()[0]?.name ?? null;
  if (!isInputObjectType(named) || seen.has(named.name)) return null;
  const inner = new Set(seen).add(named.name);
  const object: Record<string, unknown> = {};
  for (const field of Object.values(named.getFields())) {
    if (isRequiredInputField(field)) object[field.name] = placeholder(field.type, inner);
  }
  return object;
}

/** Finds the line and column of a JSON.parse error message's position. */
function jsonPosition(text: string): { line?: number; column?: number } {
  const offset = jsonErrorOffset(text);
  return offset === undefined ? {} : lineColumn(text, offset);
}
