/**
 * The query editor: GraphQL highlighting, schema-aware completion and validation
 * (cm6-graphql), Ctrl/Cmd+Enter to run.
 * @module
 */
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { linter } from "@codemirror/lint";
import { tags } from "@lezer/highlight";
import { graphql } from "cm6-graphql";
import { CodeEditor } from "../code_editor.tsx";
import { loadedSchema, queryText } from "./state.ts";

/** No "Unexpected <EOF>" on an empty document: nothing to lint yet. */
const QUIET_WHEN_EMPTY = linter(null, {
  markerFilter: (diagnostics, state) => state.doc.toString().trim() === "" ? [] : [...diagnostics],
  tooltipFilter: (diagnostics, state) => state.doc.toString().trim() === "" ? [] : [...diagnostics],
});

/** Colours for what cm6-graphql tags but the default style leaves plain, as GraphiQL does. */
const NAMES = syntaxHighlighting(
  HighlightStyle.define([
    { tag: tags.variableName, color: "var(--hl-variable)" },
    { tag: tags.propertyName, color: "var(--hl-field)" },
    { tag: tags.attributeName, color: "var(--hl-argument)" },
    { tag: tags.modifier, color: "var(--hl-directive)" },
  ]),
);

/**
 * @param props what Ctrl/Cmd+Enter does
 * @returns the query editor
 */
export function QueryEditor(props: { onRun: () => void }): JSX.Element {
  const schema = loadedSchema()?.schema;
  // A new schema reconfigures the editor's language, completion and lint in place.
  const extensions = useMemo(() => [graphql(schema), QUIET_WHEN_EMPTY, NAMES], [schema]);
  return (
    <CodeEditor
      label="Query"
      value={queryText}
      extensions={extensions}
      keys={[{ key: "Mod-Enter", run: () => (props.onRun(), true) }]}
      class="query-editor"
      placeholder="Write a query, or tick fields in the schema tree"
    />
  );
}
