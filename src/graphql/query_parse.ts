/**
 * Document text → builder state, so editing the query text keeps the checkboxes in sync.
 * @module
 */
import {
  type DefinitionNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  getNamedType,
  type GraphQLNamedType,
  type InlineFragmentNode,
  isInterfaceType,
  isObjectType,
  Kind,
  print,
  type SelectionSetNode,
} from "graphql";
import { type DocumentSyntaxError, operationsOf, parseDocument } from "./document.ts";
import { findOperation } from "./operation.ts";
import { argumentPath } from "./paths.ts";
import type { BuilderState, VariableSpec } from "./query_builder.ts";
import type { SchemaModel } from "./schema_model.ts";

/** The result of {@link parseQuery}. */
export interface ParsedQuery {
  /** The new state, or the last good state when the text does not parse. */
  state: BuilderState;
  /** The syntax error, when the text does not parse (or holds no operation). */
  error?: DocumentSyntaxError;
  /** Parts of the document the builder cannot show as checkboxes (aliases, directives, unknown fields…). */
  warnings: string[];
}

/** Options for {@link parseQuery}. */
export interface ParseQueryOptions {
  /** Which operation to show when the document holds several (default: the first). */
  operationName?: string;
  /** The state to keep when the text does not parse. */
  previous?: BuilderState;
}

/**
 * Reads document text into selection state. Fields in fragment spreads are shown in place;
 * aliases and directives are reported as warnings. Text that does not parse leaves the previous
 * state and reports the error.
 *
 * @param model the schema model
 * @param text the document text
 * @param options operation name and the last good state
 * @returns the state, an error when the text does not parse, and warnings
 */
export function parseQuery(
  model: SchemaModel,
  text: string,
  options: ParseQueryOptions = {},
): ParsedQuery {
  const previous = options.previous ?? { operation: "query", fields: [], args: {}, variables: [] };
  const parsed = parseDocument(text);
  if (!parsed.ok) return { state: previous, error: parsed.error, warnings: [] };
  const warnings: string[] = [];
  const operations = operationsOf(parsed.document);
  const operation = findOperation(parsed.document, options.operationName);
  if (!operation) {
    const message = options.operationName === undefined
      ? "The document holds no operation"
      : `The document holds no operation named "${options.operationName}"`;
    return { state: previous, error: { message, line: 1, column: 1, excerpt: "" }, warnings };
  }
  if (operations.length > 1) {
    warnings.push(
      `The document holds ${operations.length} operations; showing ${
        operation.name ? `"${operation.name.value}"` : "the first"
      }`,
    );
  }
  const rootName = model.rootOf(operation.operation);
  const rootType = rootName ? model.schema.getType(rootName) : undefined;
  if (!rootName || !rootType) {
    warnings.push(`The schema has no ${operation.operation} type`);
    return { state: previous, warnings };
  }
  const walker = new SelectionWalker(model, parsed.document.definitions, warnings);
  walker.walk(operation.selectionSet, rootName, rootType, []);
  const { fields, args } = walker;
  const variables: VariableSpec[] = (operation.variableDefinitions ?? []).map((v) => ({
    name: v.variable.name.value,
    type: print(v.type),
    ...(v.defaultValue ? { defaultValue: print(v.defaultValue) } : {}),
  }));
  const state: BuilderState = {
    operation: operation.operation,
    ...(operation.name ? { name: operation.name.value } : {}),
    fields,
    args,
    variables,
  };
  return { state, warnings };
}

/** Walks an operation's selections into builder paths, noting what the builder cannot show. */
class SelectionWalker {
  /** Selected field paths, in document order. */
  readonly fields: string[] = [];
  /** Argument values (GraphQL text) by argument path. */
  readonly args: Record<string, string> = {};
  readonly #model: SchemaModel;
  readonly #fragments = new Map<string, FragmentDefinitionNode>();
  readonly #warnings: string[];

  constructor(model: SchemaModel, definitions: readonly DefinitionNode[], warnings: string[]) {
    this.#model = model;
    this.#warnings = warnings;
    for (const d of definitions) {
      if (d.kind === Kind.FRAGMENT_DEFINITION) this.#fragments.set(d.name.value, d);
    }
  }

  /** Reads a selection set at `path` (of `type`); `spreading` holds the fragments entered. */
  walk(set: SelectionSetNode, path: string, type: GraphQLNamedType, spreading: string[]): void {
    for (const selection of set.selections) {
      if (selection.directives?.length) {
        this.#warnings.push(
          `Directives are not shown in the builder: ${print(selection.directives[0]!)}`,
        );
      }
      if (selection.kind === Kind.FIELD) this.#field(selection, path, type, spreading);
      else this.#fragment(selection, path, type, spreading);
    }
  }

  #add(path: string): void {
    if (!this.fields.includes(path)) this.fields.push(path);
  }

  #field(selection: FieldNode, path: string, type: GraphQLNamedType, spreading: string[]): void {
    const name = selection.name.value;
    if (selection.alias) {
      this.#warnings.push(
        `Alias "${selection.alias.value}" of "${name}" is shown under the field name`,
      );
    }
    if (name === "__typename") {
      this.#add(`${path}.__typename`);
      return;
    }
    const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
    if (!field) {
      this.#warnings.push(`Unknown field "${name}" on type "${type.name}"`);
      return;
    }
    const fieldPath = `${path}.${name}`;
    this.#add(fieldPath);
    for (const arg of selection.arguments ?? []) {
      if (!field.args.some((a) => a.name === arg.name.value)) {
        this.#warnings.push(`Unknown argument "${arg.name.value}" on field "${type.name}.${name}"`);
        continue;
      }
      this.args[argumentPath(fieldPath, arg.name.value)] = print(arg.value);
    }
    if (selection.selectionSet) {
      this.walk(selection.selectionSet, fieldPath, getNamedType(field.type), spreading);
    }
  }

  /** An inline fragment or a fragment spread: shown in place, under its type condition. */
  #fragment(
    selection: InlineFragmentNode | FragmentSpreadNode,
    path: string,
    type: GraphQLNamedType,
    spreading: string[],
  ): void {
    let condition: string | undefined;
    let body: SelectionSetNode;
    let chain = spreading;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      condition = selection.typeCondition?.name.value;
      body = selection.selectionSet;
    } else {
      const name = selection.name.value;
      const fragment = this.#fragments.get(name);
      if (!fragment) {
        this.#warnings.push(`Unknown fragment "${name}"`);
        return;
      }
      if (spreading.includes(name)) {
        this.#warnings.push(`Fragment "${name}" spreads itself`);
        return;
      }
      this.#warnings.push(`Fragment "${name}" is shown inline in the builder`);
      condition = fragment.typeCondition.name.value;
      body = fragment.selectionSet;
      chain = [...spreading, name];
    }
    if (condition === undefined || condition === type.name) {
      this.walk(body, path, type, chain);
      return;
    }
    const onPath = `${path}.on ${condition}`;
    const resolved = this.#model.resolve(onPath);
    if (resolved?.kind !== "on") {
      this.#warnings.push(`Type condition "on ${condition}" inside "${type.name}" is not shown`);
      return;
    }
    this.#add(onPath);
    this.walk(body, onPath, resolved.type, chain);
  }
}
