/**
 * The query editor: GraphQL highlighting, schema-aware completion and validation
 * (cm6-graphql), Ctrl/Cmd+Enter to run.
 * @module
 */
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { EditorView } from "@codemirror/view";
import { graphql, updateSchema } from "cm6-graphql";
import { CodeEditor } from "../code_editor.tsx";
import { loadedSchema, queryText } from "./state.ts";

const EXTENSIONS = graphql();

/**
 * @param props what Ctrl/Cmd+Enter does
 * @returns the query editor
 */
export function QueryEditor(props: { onRun: () => void }): JSX.Element {
  const view = useRef<EditorView | null>(null);
  const schema = loadedSchema()?.schema;
  useEffect(() => {
    if (view.current) updateSchema(view.current, schema);
  }, [schema]);
  return (
    <CodeEditor
      label="Query"
      value={queryText}
      extensions={EXTENSIONS}
      keys={[{ key: "Mod-Enter", run: () => (props.onRun(), true) }]}
      class="query-editor"
      onView={(v) => {
        view.current = v;
        if (schema) updateSchema(v, schema);
      }}
    />
  );
}
