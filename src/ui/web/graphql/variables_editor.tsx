/**
 * The variables editor: JSON with live validation (syntax, then the operation's variable
 * types), the first problem in words (`role="alert"`), and a Format button.
 * @module
 */
import { computed } from "@preact/signals";
import type { JSX } from "preact";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { linter } from "@codemirror/lint";
import { findOperation } from "../../../graphql/operation.ts";
import {
  parseVariablesJson,
  validateVariables,
  type VariableProblem,
} from "../../../graphql/variables.ts";
import { prettyJson } from "../../../output/json.ts";
import { CodeEditor } from "../code_editor.tsx";
import { loadedSchema, variablesText } from "./state.ts";
import { parsedQuery, runOperationName, undoVariablesPrune, variablesUndo } from "./sync.ts";

const EXTENSIONS = [json(), linter(jsonParseLinter())];

/** The problems with the variables as they stand, syntax first. */
export const variableProblems = computed((): VariableProblem[] => {
  const parsed = parseVariablesJson(variablesText.value);
  if (!parsed.ok) return [parsed.problem];
  const loaded = loadedSchema();
  if (!loaded) return [];
  const document = parsedQuery.value;
  if (!document.ok) return [];
  const operation = findOperation(document.document, runOperationName.value);
  return operation ? validateVariables(loaded.schema, operation, parsed.value) : [];
});

/** Pretty-prints the variables when they are valid JSON. */
export function formatVariables(): void {
  const parsed = parseVariablesJson(variablesText.value);
  if (parsed.ok) variablesText.value = prettyJson(JSON.stringify(parsed.value), false);
}

/** @returns the variables editor */
export function VariablesEditor(): JSX.Element {
  const problems = variableProblems.value.filter((p) => p.severity !== "warning");
  const warnings = variableProblems.value.filter((p) => p.severity === "warning");
  const first = problems[0];
  return (
    <section class="variables" aria-label="Variables">
      <div class="bar">
        <h3>Variables</h3>
        <button
          type="button"
          onClick={formatVariables}
          disabled={!parseVariablesJson(variablesText.value).ok}
        >
          Format
        </button>
      </div>
      <CodeEditor
        label="Variables JSON"
        value={variablesText}
        extensions={EXTENSIONS}
        class="vars-editor"
      />
      {variablesUndo.value?.after === variablesText.value && (
        <p role="status" class="note">
          Removed unused {variablesUndo.value.names.map((n) => `$${n}`).join(", ")}.{" "}
          <button type="button" onClick={undoVariablesPrune}>Undo</button>
        </p>
      )}
      {warnings.length > 0 && (
        <p role="status" class="note warning">
          {warnings.map((w) => w.message).join("; ")}
        </p>
      )}
      {first && (
        <p role="alert" class="error">
          {first.message}
          {first.line !== undefined && ` (line ${first.line}, column ${first.column})`}
          {problems.length > 1 && ` (and ${problems.length - 1} more)`}
        </p>
      )}
    </section>
  );
}
