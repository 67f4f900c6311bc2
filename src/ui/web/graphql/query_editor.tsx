/**
 * The query editor: GraphQL highlighting (colours in `../editor_theme.ts`), schema-aware completion and validation
 * (cm6-graphql), Ctrl/Cmd+Enter to run.
 * @module
 */
import type { JSX } from "preact";
import { useMemo } from "preact/hooks";
import { linter } from "@codemirror/lint";
import { graphql } from "cm6-graphql";
import { CodeEditor } from "../code_editor.tsx";
import { loadedSchema, queryText } from "./state.ts";

/** No "Unexpected <EOF>" on an empty document: nothing to lint yet. */
const QUIET_WHEN_EMPTY = linter(null, {
  markerFilter: (diagnostics, state) => state.doc.toString().trim() === "" ? [] : [...diagnostics],
  tooltipFilter: (diagnostics, state) => state.doc.toString().trim() === "" ? [] : [...diagnostics],
});

/**
 * @param props what Ctrl/Cmd+Enter does
 * @returns the query editor
 */
export function QueryEditor(props: { onRun: () => void }): JSX.Element {
  const schema = loadedSchema()?.schema;
  // A new schema reconfigures the editor's language, completion and lint in place.
  const extensions = useMemo(() => [graphql(schema), QUIET_WHEN_EMPTY], [schema]);
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
