/**
 * The checkbox builder's edits of a hand-written document: ticking or unticking a field, a
 * type condition or an argument changes only the selection set (or argument list) it touches.
 * Aliases, named fragments (a field ticked inside a fragment's type goes into the fragment),
 * directives, comments and formatting elsewhere stay as written; fragments and variable
 * definitions the edit leaves unused are removed, and the removed variable names are reported
 * so a UI can drop their values (with an undo).
 * @module
 */
import {
  type DocumentNode,
  type FieldNode,
  isCompositeType,
  isRequiredArgument,
  Kind,
  type OperationDefinitionNode,
  print,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from "graphql";
import { parseDocument } from "./document.ts";
import { findOperation } from "./operation.ts";
import { type Container, locate, spreadNames, usedVariables } from "./document_locate.ts";
import {
  applySplices,
  defineVariables,
  freeName,
  indentAt,
  insertInto,
  rangeOf,
  reindent,
  removal,
  type Splice,
} from "./document_text.ts";
import { splitArgumentPath } from "./paths.ts";
import {
  argumentDefault,
  emptyState,
  enableArgument,
  printState,
  selectField,
  type VariableSpec,
} from "./query_builder.ts";
import type { SchemaModel } from "./schema_model.ts";

/** The result of an edit. */
export interface DocumentEdit {
  /** The new text (the old one when nothing changed or on error). */
  text: string;
  /** Variables the edit defined (for placeholders in the variables JSON). */
  addedVariables: VariableSpec[];
  /** Variable definitions the edit removed because nothing uses them any more. */
  removedVariables: string[];
  /** Why nothing changed, e.g. the text does not parse. */
  error?: string;
}

const SYNTAX = "The query does not parse; fix it (or clear it) before using the checkboxes";

/**
 * Ticks a field or `on T` path: adds what is missing of it, in place.
 *
 * @param model the schema model
 * @param text the document
 * @param path the path to select
 * @param operationName the operation the tree shows (default: the first)
 * @returns the edit
 */
export function tickField(
  model: SchemaModel,
  text: string,
  path: string,
  operationName?: string,
): DocumentEdit {
  const unchanged: DocumentEdit = { text, addedVariables: [], removedVariables: [] };
  const kind = model.operationOf(path.slice(0, path.indexOf(".")));
  if (!kind) return unchanged;
  const fresh = (): DocumentEdit => {
    const state = selectField(model, emptyState(kind), path);
    return {
      text: printState(model, state),
      addedVariables: [...state.variables],
      removedVariables: [],
    };
  };
  if (text.trim() === "") return fresh();
  const parsed = parseDocument(text);
  if (!parsed.ok) return { ...unchanged, error: SYNTAX };
  const document = parsed.document;
  const operation = chooseOperation(document, operationName);
  if (!operation) {
    const made = fresh();
    return { ...made, text: `${made.text}\n\n${text.trimStart()}` };
  }
  if (operation.operation !== kind) {
    const made = fresh();
    const r = rangeOf(operation);
    return { ...made, text: text.slice(0, r.start) + made.text + text.slice(r.end) };
  }
  const at = locate(model, document, operation, path);
  if (!at || at.found === at.steps.length) return unchanged;
  const taken = new Set((operation.variableDefinitions ?? []).map((v) => v.variable.name.value));
  const added: VariableSpec[] = [];
  const node = chain(model, at.foundPath, at.steps.slice(at.found), taken, added);
  const printed = print(node);
  const splices: Splice[] = [];
  const bare = at.found > 0 ? at.matches.find((m) => m.node.kind === Kind.FIELD) : undefined;
  if (at.containers.length === 0 && bare?.node.loc) {
    const indent = indentAt(text, bare.node.loc.start);
    splices.push({
      start: bare.node.loc.end,
      end: bare.node.loc.end,
      text: ` {\n${indent}  ${reindent(printed, `${indent}  `)}\n${indent}}`,
    });
  } else {
    const first = at.containers[0];
    const target = at.containers.find((c) => c.fragment && c.fragment !== first?.fragment) ?? first;
    if (!target) return unchanged;
    splices.push(insertInto(text, target, printed));
  }
  if (added.length > 0) splices.push(defineVariables(text, operation, added));
  return { text: applySplices(text, splices), addedVariables: added, removedVariables: [] };
}

/**
 * Unticks a field or `on T` path: removes every occurrence of it (aliased ones too), then
 * the fragments and variable definitions nothing uses any more.
 *
 * @param model the schema model
 * @param text the document
 * @param path the path to unselect
 * @param operationName the operation the tree shows
 * @returns the edit
 */
export function untickField(
  model: SchemaModel,
  text: string,
  path: string,
  operationName?: string,
): DocumentEdit {
  const unchanged: DocumentEdit = { text, addedVariables: [], removedVariables: [] };
  const parsed = parseDocument(text);
  if (!parsed.ok) return { ...unchanged, error: SYNTAX };
  const operation = chooseOperation(parsed.document, operationName);
  if (!operation) return unchanged;
  const at = locate(model, parsed.document, operation, path);
  if (!at || at.found < at.steps.length || at.found === 0) return unchanged;
  const bySet = new Map<Container["set"], SelectionNode[]>();
  for (const m of at.matches) {
    bySet.set(m.container.set, [...bySet.get(m.container.set) ?? [], m.node]);
  }
  const splices: Splice[] = [];
  for (const [set, nodes] of bySet) {
    if (nodes.length < set.selections.length) {
      for (const n of nodes) splices.push(removal(text, n.loc!.start, n.loc!.end));
    } else if (set === operation.selectionSet) {
      splices.push(removal(text, operation.loc!.start, operation.loc!.end));
      const edited = applySplices(text, splices).replace(/\n\n+$/, "\n");
      return cleanUp(parsed.document, operation, edited, operationName);
    } else if (emptiedFragment(parsed.document, set)) {
      splices.push(...dropFragment(text, parsed.document, emptiedFragment(parsed.document, set)!));
    } else {
      const [keep, ...rest] = nodes;
      splices.push({ ...rangeOf(keep!), text: "__typename" });
      for (const n of rest) splices.push(removal(text, n.loc!.start, n.loc!.end));
    }
  }
  return cleanUp(parsed.document, operation, applySplices(text, splices), operationName);
}

/**
 * Switches an argument on as a new variable (ticking its field first when needed).
 *
 * @param model the schema model
 * @param text the document
 * @param argPath e.g. `Query.repository(followRenames)`
 * @param operationName the operation the tree shows
 * @returns the edit
 */
export function tickArgument(
  model: SchemaModel,
  text: string,
  argPath: string,
  operationName?: string,
): DocumentEdit {
  const split = splitArgumentPath(argPath);
  const resolved = model.resolve(argPath);
  const unchanged: DocumentEdit = { text, addedVariables: [], removedVariables: [] };
  if (!split || resolved?.kind !== "argument") return unchanged;
  if (text.trim() === "") {
    const state = enableArgument(model, emptyState(), argPath);
    return {
      text: printState(model, state),
      addedVariables: [...state.variables],
      removedVariables: [],
    };
  }
  const ticked = tickField(model, text, split.fieldPath, operationName);
  if (ticked.error) return ticked;
  const parsed = parseDocument(ticked.text);
  if (!parsed.ok) return { ...unchanged, error: SYNTAX };
  const operation = chooseOperation(parsed.document, operationName);
  const at = operation && locate(model, parsed.document, operation, split.fieldPath);
  const field = at?.matches.find((m) => m.node.kind === Kind.FIELD)?.node as FieldNode | undefined;
  if (!operation || !field?.loc) return ticked;
  if (field.arguments?.some((a) => a.name.value === split.argument)) return ticked;
  const taken = new Set((operation.variableDefinitions ?? []).map((v) => v.variable.name.value));
  const name = freeName(split.argument, taken);
  const variable: VariableSpec = {
    name,
    type: String(resolved.argument.type),
    ...argumentDefault(resolved.argument),
  };
  const args = field.arguments ?? [];
  const last = args[args.length - 1];
  const splice: Splice = last
    ? { start: last.loc!.end, end: last.loc!.end, text: `, ${split.argument}: $${name}` }
    : {
      start: field.name.loc!.end,
      end: field.name.loc!.end,
      text: `(${split.argument}: $${name})`,
    };
  return {
    text: applySplices(ticked.text, [splice, defineVariables(ticked.text, operation, [variable])]),
    addedVariables: [...ticked.addedVariables, variable],
    removedVariables: [],
  };
}

/**
 * Removes an argument from every occurrence of its field, then unused variable definitions.
 *
 * @param model the schema model
 * @param text the document
 * @param argPath e.g. `Query.repository(followRenames)`
 * @param operationName the operation the tree shows
 * @returns the edit
 */
export function untickArgument(
  model: SchemaModel,
  text: string,
  argPath: string,
  operationName?: string,
): DocumentEdit {
  const unchanged: DocumentEdit = { text, addedVariables: [], removedVariables: [] };
  const split = splitArgumentPath(argPath);
  const parsed = parseDocument(text);
  if (!parsed.ok) return { ...unchanged, error: SYNTAX };
  const operation = chooseOperation(parsed.document, operationName);
  if (!split || !operation) return unchanged;
  const at = locate(model, parsed.document, operation, split.fieldPath);
  if (!at || at.found < at.steps.length) return unchanged;
  const splices: Splice[] = [];
  for (const m of at.matches) {
    if (m.node.kind !== Kind.FIELD) continue;
    const args = m.node.arguments ?? [];
    const i = args.findIndex((a) => a.name.value === split.argument);
    if (i < 0) continue;
    if (args.length === 1) {
      const close = text.indexOf(")", args[0]!.loc!.end);
      splices.push({ start: m.node.name.loc!.end, end: close + 1, text: "" });
    } else if (i === 0) {
      splices.push({ start: args[0]!.loc!.start, end: args[1]!.loc!.start, text: "" });
    } else splices.push({ start: args[i - 1]!.loc!.end, end: args[i]!.loc!.end, text: "" });
  }
  if (splices.length === 0) return unchanged;
  return cleanUp(parsed.document, operation, applySplices(text, splices), operationName);
}

/** @returns the operation the tree shows: the named one, else the first */
function chooseOperation(
  document: DocumentNode,
  name?: string,
): OperationDefinitionNode | undefined {
  return findOperation(document, name) ?? findOperation(document);
}

/** @returns the fragment whose body the set is */
function emptiedFragment(document: DocumentNode, set: SelectionSetNode): string | undefined {
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION && d.selectionSet === set) return d.name.value;
  }
  return undefined;
}

/** Removes a fragment and its spreads (a set left empty gets `__typename`). */
function dropFragment(text: string, document: DocumentNode, name: string): Splice[] {
  const splices: Splice[] = [];
  visit(document, {
    FragmentDefinition(d) {
      if (d.name.value === name) splices.push(removal(text, d.loc!.start, d.loc!.end));
    },
    SelectionSet(set) {
      const spreads = set.selections.filter((s) =>
        s.kind === Kind.FRAGMENT_SPREAD && s.name.value === name
      );
      spreads.forEach((s, i) => {
        splices.push(
          i === 0 && spreads.length === set.selections.length
            ? { ...rangeOf(s), text: "__typename" }
            : removal(text, s.loc!.start, s.loc!.end),
        );
      });
    },
  });
  return splices;
}

/** Removes the fragments and variable definitions an edit left unused. */
function cleanUp(
  before: DocumentNode,
  operationBefore: OperationDefinitionNode,
  edited: string,
  operationName?: string,
): DocumentEdit {
  let text = edited.replace(/\n\n+$/, "\n");
  const spreadBefore = spreadNames(before);
  for (let round = 0; round < 20; round++) {
    const parsed = parseDocument(text);
    if (!parsed.ok) break;
    const spread = spreadNames(parsed.document);
    const unused = parsed.document.definitions.filter((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION && spreadBefore.has(d.name.value) &&
      !spread.has(d.name.value)
    );
    if (unused.length === 0) break;
    text = applySplices(text, unused.map((d) => removal(text, d.loc!.start, d.loc!.end)))
      .replace(/\n\n+$/, "\n");
  }
  const usedBefore = usedVariables(before, operationBefore);
  const parsed = parseDocument(text);
  const defsBefore = (operationBefore.variableDefinitions ?? []).map((d) => d.variable.name.value);
  // Our edits keep the syntax; only a document left without definitions does not parse.
  if (!parsed.ok) return { text, addedVariables: [], removedVariables: defsBefore };
  const name = operationBefore.name?.value ?? operationName;
  const operation = chooseOperation(parsed.document, name);
  if (!operation || (name !== undefined && operation.name?.value !== name)) {
    return {
      text: text.trim() === "" ? "" : text,
      addedVariables: [],
      removedVariables: defsBefore,
    };
  }
  const used = usedVariables(parsed.document, operation);
  const defs = operation.variableDefinitions ?? [];
  const removed = defs.filter((d) =>
    usedBefore.has(d.variable.name.value) && !used.has(d.variable.name.value)
  );
  if (removed.length === 0) return { text, addedVariables: [], removedVariables: [] };
  const kept = defs.filter((d) => !removed.includes(d));
  const first = defs[0]!.loc!;
  const last = defs[defs.length - 1]!.loc!;
  let splice: Splice;
  if (kept.length === 0) {
    let open = text.lastIndexOf("(", first.start);
    while (open > 0 && /\s/.test(text[open - 1]!)) open--;
    splice = { start: open, end: text.indexOf(")", last.end) + 1, text: "" };
  } else {
    const joined = kept.map((d) => text.slice(d.loc!.start, d.loc!.end)).join(", ");
    splice = { start: first.start, end: last.end, text: joined };
  }
  return {
    text: applySplices(text, [splice]),
    addedVariables: [],
    removedVariables: removed.map((d) => d.variable.name.value),
  };
}

/** The AST of the missing steps of a path, required arguments as new variables. */
function chain(
  model: SchemaModel,
  base: string,
  steps: readonly string[],
  taken: Set<string>,
  added: VariableSpec[],
): SelectionNode {
  const [step, ...rest] = steps;
  const path = `${base}.${step}`;
  const type = model.outputTypeAt(path);
  const inner = rest.length > 0
    ? [chain(model, path, rest, taken, added)]
    : type && isCompositeType(type)
    ? [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } } as FieldNode]
    : [];
  const selectionSet = inner.length > 0
    ? { selectionSet: { kind: Kind.SELECTION_SET, selections: inner } as const }
    : {};
  if (step!.startsWith("on ")) {
    return {
      kind: Kind.INLINE_FRAGMENT,
      typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: step!.slice(3) } },
      selectionSet: { kind: Kind.SELECTION_SET, selections: inner },
    };
  }
  const resolved = model.resolve(path);
  const args = resolved?.kind === "field"
    ? resolved.field.args.filter((a) => isRequiredArgument(a)).map((a) => {
      const name = freeName(a.name, taken);
      added.push({ name, type: String(a.type) });
      return {
        kind: Kind.ARGUMENT,
        name: { kind: Kind.NAME, value: a.name },
        value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } },
      } as const;
    })
    : [];
  return {
    kind: Kind.FIELD,
    name: { kind: Kind.NAME, value: step! },
    arguments: args,
    ...selectionSet,
  };
}
