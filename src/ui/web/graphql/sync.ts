/**
 * Keeps the checkboxes, the query text and the variables in step, through the GraphQL
 * module's builder (`selectField`, `printState`, `parseQuery`, `variablesTemplate`).
 * @module
 */
import { effect } from "@preact/signals";
import { operationsOf, parseDocument } from "../../../graphql/document.ts";
import {
  type BuilderState,
  emptyState,
  enableArgument,
  printState,
  selectField,
  setArgument,
  unselectField,
} from "../../../graphql/query_builder.ts";
import { parseQuery } from "../../../graphql/query_parse.ts";
import { parseVariablesJson, variablesTemplate } from "../../../graphql/variables.ts";
import { prettyJson } from "../../../output/json.ts";
import {
  builder,
  type LoadedSchema,
  loadedSchema,
  operationName,
  queryText,
  variablesText,
} from "./state.ts";

/** Text the builder itself wrote: parsing it back would change nothing. */
let written: string | undefined;

/** Re-reads the checkboxes from the query text whenever the text or the schema changes. */
export function startQuerySync(): () => void {
  return effect(() => {
    const text = queryText.value;
    const loaded = loadedSchema();
    const name = operationName.value;
    if (!loaded || text === written) return;
    const parsed = parseQuery(loaded.model, text, {
      previous: builder.peek(),
      ...(name !== undefined ? { operationName: name } : {}),
    });
    if (text.trim() === "") builder.value = emptyState(builder.peek().operation);
    else if (!parsed.error) builder.value = parsed.state;
  });
}

/**
 * Ticks or unticks a field (or `... on Type`) checkbox.
 *
 * @param path the field's path
 */
export function toggleField(path: string): void {
  const loaded = loadedSchema();
  if (!loaded) return;
  const state = builder.peek();
  const next = state.fields.includes(path)
    ? unselectField(state, path)
    : selectField(loaded.model, state, path);
  apply(loaded, next);
}

/**
 * Switches an argument on (as a new variable) or off.
 *
 * @param path the argument's path, `Query.repository(owner)`
 */
export function toggleArgument(path: string): void {
  const loaded = loadedSchema();
  if (!loaded) return;
  const state = builder.peek();
  const next = path in state.args
    ? setArgument(loaded.model, state, path, undefined)
    : enableArgument(loaded.model, state, path);
  apply(loaded, next);
}

/** Writes a new builder state into the query text (only its operation) and the variables. */
function apply(loaded: LoadedSchema, next: BuilderState): void {
  const printed = printState(loaded.model, next);
  const text = replaceOperation(queryText.peek(), printed, operationName.peek());
  written = text;
  builder.value = next;
  queryText.value = text;
  const current = parseVariablesJson(variablesText.peek());
  if (current.ok) {
    const values = variablesTemplate(loaded.schema, next.variables, current.value);
    variablesText.value = prettyJson(JSON.stringify(values), false);
  }
}

/**
 * Replaces the chosen operation of a document with new text, keeping the other operations
 * and fragments; the whole text when it does not parse or holds one operation.
 *
 * @param document the current text
 * @param operation the new operation's text
 * @param name the chosen operation's name
 * @returns the new document
 */
export function replaceOperation(document: string, operation: string, name?: string): string {
  const parsed = parseDocument(document);
  if (!parsed.ok) return operation;
  const operations = operationsOf(parsed.document);
  if (parsed.document.definitions.length <= 1) return operation;
  const target = name === undefined
    ? operations[0]
    : operations.find((o) => o.name?.value === name) ?? operations[0];
  if (!target?.loc) return operation;
  return document.slice(0, target.loc.start) + operation + document.slice(target.loc.end);
}

/**
 * @returns the operation names of the current document (for the picker)
 */
export function operationNames(): string[] {
  const parsed = parseDocument(queryText.value);
  if (!parsed.ok) return [];
  return operationsOf(parsed.document).map((o, i) => o.name?.value ?? `(anonymous ${i + 1})`);
}

/**
 * @returns whether the operation Run sends (the picked one, else the first) is a
 * subscription, for which a transport can be chosen
 */
export function runsSubscription(): boolean {
  const parsed = parseDocument(queryText.value);
  if (!parsed.ok) return false;
  const operations = operationsOf(parsed.document);
  const name = operationName.value;
  const chosen = name === undefined
    ? operations[0]
    : operations.find((o, i) => (o.name?.value ?? `(anonymous ${i + 1})`) === name);
  return chosen?.operation === "subscription";
}
