/**
 * Keeps the checkboxes, the query text and the variables in step: a tick edits the document in
 * place (`document_edit.ts`), the text is read back into checkboxes (`parseQuery`), and the
 * variables JSON gains placeholders and loses values of variables no longer defined (with undo).
 * @module
 */
import { batch, computed, effect, signal } from "@preact/signals";
import { operationsOf, parseDocument } from "../../../graphql/document.ts";
import {
  type DocumentEdit,
  tickArgument,
  tickField,
  untickArgument,
  untickField,
} from "../../../graphql/document_edit.ts";
import { type SelectedOperation, selectOperation } from "../../../graphql/operation.ts";
import { emptyState } from "../../../graphql/query_builder.ts";
import { parseQuery } from "../../../graphql/query_parse.ts";
import { parseVariablesJson, variablesTemplate } from "../../../graphql/variables.ts";
import { prettyJson } from "../../../output/json.ts";
import {
  builder,
  type LoadedSchema,
  loadedSchema,
  operationName,
  queryText,
  toggleExpanded,
  variablesText,
} from "./state.ts";

/** Why the tree shows an older state of the query, or why a tick did nothing. */
export const builderNote = signal<string | undefined>(undefined);

/** The variables JSON before the builder last removed unused variables from it. */
export const variablesUndo = signal<
  { text: string; names: string[]; after: string } | undefined
>(undefined);

/** Re-reads the checkboxes from the query text whenever the text or the schema changes. */
export function startQuerySync(): () => void {
  return effect(() => {
    const text = queryText.value;
    const loaded = loadedSchema();
    const name = runOperationName.value;
    if (!loaded) return;
    if (text.trim() === "") {
      builder.value = emptyState(builder.peek().operation);
      builderNote.value = undefined;
      return;
    }
    const parsed = parseQuery(loaded.model, text, {
      previous: builder.peek(),
      ...(name !== undefined ? { operationName: name } : {}),
    });
    if (parsed.error) {
      const { line, column } = parsed.error;
      builderNote.value = `The query does not parse (line ${line}, column ${column}): ` +
        "the checkboxes show its last good state.";
    } else {
      builder.value = parsed.state;
      builderNote.value = undefined;
    }
  });
}

/**
 * Ticks or unticks a field (or `... on Type`) checkbox: the query text is edited in place.
 * A ticked object field is expanded.
 *
 * @param path the field's path
 */
export function toggleField(path: string): void {
  const loaded = loadedSchema();
  if (!loaded) return;
  const ticked = builder.peek().fields.includes(path);
  const edit = ticked
    ? untickField(loaded.model, queryText.peek(), path, runOperationName.peek())
    : tickField(loaded.model, queryText.peek(), path, runOperationName.peek());
  if (apply(loaded, edit) && !ticked && loaded.model.node(path)?.expandable) {
    toggleExpanded(path, true);
  }
}

/**
 * Switches an argument on (as a new variable) or off.
 *
 * @param path the argument's path, `Query.repository(owner)`
 */
export function toggleArgument(path: string): void {
  const loaded = loadedSchema();
  if (!loaded) return;
  const edit = path in builder.peek().args
    ? untickArgument(loaded.model, queryText.peek(), path, runOperationName.peek())
    : tickArgument(loaded.model, queryText.peek(), path, runOperationName.peek());
  apply(loaded, edit);
}

/** Puts back the variables the builder last removed. */
export function undoVariablesPrune(): void {
  const undo = variablesUndo.peek();
  if (!undo) return;
  variablesText.value = undo.text;
  variablesUndo.value = undefined;
}

/** Writes an edit into the query text and the variables; false when it was refused. */
function apply(loaded: LoadedSchema, edit: DocumentEdit): boolean {
  if (edit.error) {
    builderNote.value = edit.error;
    return false;
  }
  batch(() => {
    queryText.value = edit.text;
    const before = variablesText.peek();
    const current = parseVariablesJson(before);
    if (!current.ok) return;
    const values: Record<string, unknown> = { ...current.value };
    const removed = edit.removedVariables.filter((n) => Object.hasOwn(values, n));
    for (const name of removed) delete values[name];
    const added = variablesTemplate(loaded.schema, edit.addedVariables, values);
    const next = { ...values, ...added };
    if (removed.length === 0 && edit.addedVariables.length === 0) return;
    const after = prettyJson(JSON.stringify(next), false);
    variablesText.value = after;
    if (removed.length > 0) variablesUndo.value = { text: before, names: removed, after };
  });
  return true;
}

/** The query text, parsed (once per edit, for everything that reads the document). */
export const parsedQuery = computed(() => parseDocument(queryText.value));

/** The picker's label of each operation in the document, in order. */
export const operationNames = computed((): string[] => {
  const parsed = parsedQuery.value;
  if (!parsed.ok) return [];
  return operationsOf(parsed.document).map((o, i) => o.name?.value ?? `(anonymous ${i + 1})`);
});

/**
 * The operation name Run sends: the picked one while the document holds it, else the first
 * shown in the picker when the document holds several (none for a document with one
 * operation). The pick itself is kept while the text is being edited, so an edit that breaks
 * the document for a moment, or renames another operation, does not lose it.
 */
export const runOperationName = computed((): string | undefined => {
  const names = operationNames.value;
  const picked = operationName.value;
  if (picked !== undefined && names.includes(picked)) return picked;
  return names.length > 1 ? names[0] : undefined;
});

/**
 * The operation Run sends, picked and checked by the core as `dial graphql` and the server
 * do; undefined while the text does not parse or names no operation.
 */
export const runTarget = computed((): SelectedOperation | undefined => {
  const parsed = parsedQuery.value;
  if (!parsed.ok) return undefined;
  const name = runOperationName.value;
  const selected = selectOperation(
    parsed.document,
    name === undefined ? {} : {
      operationName: name,
    },
  );
  return selected.ok ? selected.operation : undefined;
});
