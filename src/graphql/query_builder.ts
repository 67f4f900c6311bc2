/**
 * The checkbox query builder: selection state keyed by path, separate from the tree's
 * expansion state, and the formatted document it stands for. States are plain immutable
 * data (safe to keep in a signal and to serialise); every operation returns a new state.
 * Text → state lives in `query_parse.ts`.
 * @module
 */
import {
  type ArgumentNode,
  astFromValue,
  type DocumentNode,
  type FieldNode,
  type GraphQLArgument,
  type InlineFragmentNode,
  isCompositeType,
  isRequiredArgument,
  Kind,
  type OperationTypeNode,
  parseConstValue,
  parseType,
  parseValue,
  print,
  type SelectionNode,
  type ValueNode,
  type VariableDefinitionNode,
  visit,
} from "graphql";
import { ancestorPaths, argumentPath, isInside, parentPath, splitArgumentPath } from "./paths.ts";
import type { SchemaModel } from "./schema_model.ts";

/** An operation type. */
export type OperationKind = "query" | "mutation" | "subscription";

/** A variable definition of the operation. */
export interface VariableSpec {
  /** The name without `$`. */
  name: string;
  /** The type as written, e.g. `String!`. */
  type: string;
  /** The default value as GraphQL text, if any. */
  defaultValue?: string;
  /**
   * The schema's default of the argument the variable was made for, as GraphQL text: the
   * variables JSON starts from it (it is not written into the document).
   */
  argumentDefault?: string;
}

/** The selection state of one operation. */
export interface BuilderState {
  /** The operation type; paths in `fields` start at its root type. */
  operation: OperationKind;
  /** The operation name, if any. */
  name?: string;
  /** Selected field and `on T` paths, ancestors before descendants, in document order. */
  fields: readonly string[];
  /** Argument path (`Query.repository(owner)`) → value as GraphQL text (`$owner`, `"x"`, `10`). */
  args: Readonly<Record<string, string>>;
  /** Variable definitions, in order. */
  variables: readonly VariableSpec[];
}

/**
 * A builder state with nothing selected.
 *
 * @param operation the operation type
 * @returns a state with nothing selected
 */
export function emptyState(operation: OperationKind = "query"): BuilderState {
  return { operation, fields: [], args: {}, variables: [] };
}

/**
 * Tells whether a field is selected.
 *
 * @param state a state
 * @param path a field or `on T` path
 * @returns whether the path is selected
 */
export function isSelected(state: BuilderState, path: string): boolean {
  return state.fields.includes(path);
}

/**
 * Selects a field (or an `on T` type condition) and every ancestor. Required arguments of
 * each newly selected field become variables (`$owner: String!`). Selecting under another
 * root type starts a new operation of that type.
 *
 * @param model the schema model
 * @param state the current state
 * @param path a field or `on T` path, e.g. `Query.repository.issues.nodes.title`
 * @returns the new state (the same state when the path is not a field or `on T` path)
 */
export function selectField(model: SchemaModel, state: BuilderState, path: string): BuilderState {
  const resolved = model.resolve(path);
  if (resolved?.kind !== "field" && resolved?.kind !== "on") return state;
  const root = path.slice(0, path.indexOf("."));
  const operation = model.operationOf(root)!;
  let base = state;
  if (operation !== state.operation) {
    base = state.fields.length > 0 ? emptyState(operation) : { ...state, operation };
  }
  const fields = [...base.fields];
  const args = { ...base.args };
  const variables = [...base.variables];
  for (const p of [...ancestorPaths(path).slice(1), path]) {
    if (fields.includes(p)) continue;
    fields.push(p);
    const node = model.resolve(p);
    if (node?.kind !== "field") continue;
    for (const arg of node.field.args) {
      const key = argumentPath(p, arg.name);
      if (!isRequiredArgument(arg) || key in args) continue;
      args[key] = `$${addVariable(variables, arg)}`;
    }
  }
  return { ...base, fields, args, variables };
}

/**
 * Unselects a field and prunes its subtree: selected descendants, their arguments, and the
 * variables that only they used.
 *
 * @param state the current state
 * @param path a selected path
 * @returns the new state
 */
export function unselectField(state: BuilderState, path: string): BuilderState {
  const fields = state.fields.filter((p) => p !== path && !isInside(p, path));
  const args = Object.fromEntries(
    Object.entries(state.args).filter(([key]) => !isInside(key, path)),
  );
  return pruneVariables(state, { ...state, fields, args });
}

/**
 * Enables an optional argument (or re-enables a required one) as a new variable of the
 * argument's type, selecting its field.
 *
 * @param model the schema model
 * @param state the current state
 * @param argPath e.g. `Query.repository.issues(first)`
 * @returns the new state (unchanged when the path names no argument or it is already set)
 */
export function enableArgument(
  model: SchemaModel,
  state: BuilderState,
  argPath: string,
): BuilderState {
  const resolved = model.resolve(argPath);
  const split = splitArgumentPath(argPath);
  if (resolved?.kind !== "argument" || !split || argPath in state.args) return state;
  const selected = selectField(model, state, split.fieldPath);
  const variables = [...selected.variables];
  const name = addVariable(variables, resolved.argument);
  return { ...selected, args: { ...selected.args, [argPath]: `$${name}` }, variables };
}

/**
 * Sets an argument to a GraphQL value (`"octocat"`, `10`, `OPEN`, `{title: $t}`), or removes
 * it with `undefined`; variables no longer used are dropped.
 *
 * @param model the schema model
 * @param state the current state
 * @param argPath e.g. `Query.repository(owner)`
 * @param value GraphQL value text, or undefined to remove the argument
 * @returns the new state
 * @throws {GraphQLError} when the value is not GraphQL value syntax
 */
export function setArgument(
  model: SchemaModel,
  state: BuilderState,
  argPath: string,
  value: string | undefined,
): BuilderState {
  if (value === undefined) {
    const { [argPath]: _removed, ...args } = state.args;
    return pruneVariables(state, { ...state, args });
  }
  const text = print(parseValue(value, { noLocation: true }));
  const split = splitArgumentPath(argPath);
  if (model.resolve(argPath)?.kind !== "argument" || !split) return state;
  const selected = selectField(model, state, split.fieldPath);
  return pruneVariables(selected, { ...selected, args: { ...selected.args, [argPath]: text } });
}

/**
 * Names the operation (`query Name(…) { … }`).
 *
 * @param state the current state
 * @param name a GraphQL name, or undefined for an anonymous operation
 * @returns the new state
 */
export function setOperationName(state: BuilderState, name: string | undefined): BuilderState {
  const { name: _old, ...rest } = state;
  return name ? { ...rest, name } : rest;
}

/**
 * Prints the state as a formatted document. A selected object field with no selected
 * sub-field gets `__typename`, so the document is always valid.
 *
 * @param model the schema model
 * @param state the state
 * @returns the document text, or `""` when nothing is selected
 */
export function printState(model: SchemaModel, state: BuilderState): string {
  const document = stateToDocument(model, state);
  return document ? print(document) : "";
}

/**
 * @param model the schema model
 * @param state the state
 * @returns the document as an AST, or undefined when nothing is selected
 */
export function stateToDocument(
  model: SchemaModel,
  state: BuilderState,
): DocumentNode | undefined {
  const root = model.rootOf(state.operation);
  if (!root || state.fields.length === 0) return undefined;
  const children = new Map<string, string[]>();
  for (const path of state.fields) {
    const parent = parentPath(path);
    if (parent === undefined) continue;
    const list = children.get(parent);
    if (list) list.push(path);
    else children.set(parent, [path]);
  }
  const argsOf = new Map<string, ArgumentNode[]>();
  for (const [key, text] of Object.entries(state.args)) {
    const split = splitArgumentPath(key);
    if (!split) continue;
    const node: ArgumentNode = {
      kind: Kind.ARGUMENT,
      name: { kind: Kind.NAME, value: split.argument },
      value: parseValue(text, { noLocation: true }),
    };
    const list = argsOf.get(split.fieldPath);
    if (list) list.push(node);
    else argsOf.set(split.fieldPath, [node]);
  }
  const selectionsOf = (path: string): SelectionNode[] => {
    const selections = (children.get(path) ?? []).map((child): SelectionNode => {
      const last = child.slice(child.lastIndexOf(".") + 1);
      if (last.startsWith("on ")) {
        const fragment: InlineFragmentNode = {
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: {
            kind: Kind.NAMED_TYPE,
            name: { kind: Kind.NAME, value: last.slice(3) },
          },
          selectionSet: { kind: Kind.SELECTION_SET, selections: selectionsOf(child) },
        };
        return fragment;
      }
      const sub = selectionsOf(child);
      const field: FieldNode = {
        kind: Kind.FIELD,
        name: { kind: Kind.NAME, value: last },
        arguments: argsOf.get(child) ?? [],
        ...(sub.length > 0 ? { selectionSet: { kind: Kind.SELECTION_SET, selections: sub } } : {}),
      };
      return field;
    });
    const type = path.endsWith(".__typename") ? undefined : model.outputTypeAt(path);
    if (selections.length === 0 && type && isCompositeType(type)) {
      selections.push({ kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } });
    }
    return selections;
  };
  const variableDefinitions = state.variables.map((v): VariableDefinitionNode => ({
    kind: Kind.VARIABLE_DEFINITION,
    variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: v.name } },
    type: parseType(v.type, { noLocation: true }),
    ...(v.defaultValue !== undefined
      ? { defaultValue: parseConstValue(v.defaultValue, { noLocation: true }) }
      : {}),
  }));
  return {
    kind: Kind.DOCUMENT,
    definitions: [{
      kind: Kind.OPERATION_DEFINITION,
      operation: state.operation as OperationTypeNode,
      ...(state.name ? { name: { kind: Kind.NAME, value: state.name } } : {}),
      variableDefinitions,
      selectionSet: { kind: Kind.SELECTION_SET, selections: selectionsOf(root) },
    }],
  };
}

/**
 * @param value GraphQL value text
 * @returns the variable names the value refers to
 */
export function variablesIn(value: string): string[] {
  const names: string[] = [];
  let node: ValueNode;
  try {
    node = parseValue(value, { noLocation: true });
  } catch {
    return names;
  }
  visit(node, {
    Variable(v) {
      names.push(v.name.value);
    },
  });
  return names;
}

/** Adds a variable named after the argument, numbered when the name is taken. */
function addVariable(variables: VariableSpec[], arg: GraphQLArgument): string {
  let name = arg.name;
  for (let i = 2; variables.some((v) => v.name === name); i++) name = `${arg.name}${i}`;
  variables.push({ name, type: String(arg.type), ...argumentDefault(arg) });
  return name;
}

/**
 * @param arg a schema argument
 * @returns its default as GraphQL text, for {@link VariableSpec.argumentDefault}
 */
export function argumentDefault(arg: GraphQLArgument): { argumentDefault?: string } {
  if (arg.defaultValue === undefined) return {};
  const ast = astFromValue(arg.defaultValue, arg.type);
  return ast ? { argumentDefault: print(ast) } : {};
}

/** Drops the variables that `before` used and `after` no longer uses. */
function pruneVariables(before: BuilderState, after: BuilderState): BuilderState {
  const used = (s: BuilderState) => new Set(Object.values(s.args).flatMap(variablesIn));
  const was = used(before);
  const is = used(after);
  const variables = after.variables.filter((v) => is.has(v.name) || !was.has(v.name));
  return { ...after, variables };
}
