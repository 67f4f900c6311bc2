/**
 * The GraphQL tab: endpoint and headers, Load schema, the schema tree with search
 * and checkboxes, the query and variables editors, Run with an operation picker, and the
 * response viewer.
 * @module
 */
import { GRAPHQL_TRANSPORTS } from "../../protocol.ts";
import type { JSX } from "preact";
import { json } from "@codemirror/lang-json";
import { CodeEditor } from "../code_editor.tsx";
import { RowTable, TextField } from "../fields.tsx";
import { ResponseMeta } from "../response_meta.tsx";
import { QueryEditor } from "./query_editor.tsx";
import {
  cancelSchema,
  loadSchema,
  responseText,
  run,
  runError,
  runOperation,
  stopOperation,
} from "./run.ts";
import { SchemaTree } from "./schema_tree.tsx";
import { SearchBox } from "./search_box.tsx";
import {
  endpoint,
  headers,
  operationName,
  schemaState,
  timeoutSeconds,
  transport,
} from "./state.ts";
import { operationNames, runsSubscription, startQuerySync } from "./sync.ts";
import { VariablesEditor } from "./variables_editor.tsx";

startQuerySync();
const RESPONSE_EXTENSIONS = json();

/** @returns the GraphQL tab */
export function GraphqlTab(): JSX.Element {
  return (
    <div class="gql">
      <form
        class="request-line"
        onSubmit={(e) => {
          e.preventDefault();
          loadSchema();
        }}
      >
        <TextField
          label="Endpoint URL"
          type="url"
          value={endpoint}
          placeholder="https://api.example.com/graphql"
          class="grow"
        />
        <button type="submit" disabled={schemaState.value.status === "loading"}>
          {schemaState.value.status === "loading" ? "Loading schema…" : "Load schema"}
        </button>
        {schemaState.value.status === "loading" && (
          <button type="button" onClick={cancelSchema}>Cancel</button>
        )}
        <TextField label="Timeout (seconds)" value={timeoutSeconds} class="timeout" />
      </form>
      <details>
        <summary>Headers</summary>
        <RowTable label="GraphQL headers" rows={headers} />
      </details>
      <div class="gql-grid">
        <SchemaPane />
        <section class="editor-pane" aria-label="Query and variables">
          <OperationBar />
          <QueryEditor onRun={() => void runOperation()} />
          <VariablesEditor />
        </section>
        <ResponsePane />
      </div>
    </div>
  );
}

function SchemaPane(): JSX.Element {
  const state = schemaState.value;
  return (
    <aside class="schema-pane" aria-label="Schema explorer">
      <SearchBox />
      {state.status === "idle" && <p class="muted">Enter the endpoint and press Load schema.</p>}
      {state.status === "loading" && <p class="muted" role="status">Loading schema…</p>}
      {state.status === "error" && (
        <p role="alert" class="error">Cannot load the schema: {state.message}</p>
      )}
      {state.status === "loaded" && (
        <p class="muted" data-testid="schema-summary">
          {Object.keys(state.loaded.schema.getTypeMap()).length} types from {state.loaded.endpoint}
        </p>
      )}
      {state.status === "loaded" && <SchemaTree />}
    </aside>
  );
}

function OperationBar(): JSX.Element {
  const names = operationNames();
  const chosen = operationName.value;
  if (chosen !== undefined && !names.includes(chosen)) {
    queueMicrotask(() => operationName.value = undefined);
  }
  const streaming = run.value?.streaming ?? false;
  return (
    <div class="bar">
      <h3>Query</h3>
      {names.length > 1 && <label class="inline" for="gql-operation">Operation</label>}
      {names.length > 1 && (
        <select
          id="gql-operation"
          value={chosen ?? names[0]}
          onChange={(e) => operationName.value = e.currentTarget.value}
        >
          {names.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      )}
      {runsSubscription() && (
        <label class="inline" for="gql-transport">Subscription transport</label>
      )}
      {runsSubscription() && (
        <select
          id="gql-transport"
          value={transport.value}
          onChange={(e) => {
            const value = e.currentTarget.value;
            const found = GRAPHQL_TRANSPORTS.find((t) => t === value);
            if (found) transport.value = found;
          }}
        >
          <option value="http">One POST</option>
          <option value="ws">WebSocket</option>
          <option value="sse">SSE</option>
        </select>
      )}
      <button
        type="button"
        class="primary"
        onClick={() => void runOperation()}
        title="Run (Ctrl/Cmd+Enter)"
      >
        Run
      </button>
      {streaming && <button type="button" onClick={stopOperation}>Stop</button>}
    </div>
  );
}

function ResponsePane(): JSX.Element {
  const state = run.value;
  return (
    <section class="response-pane" aria-label="GraphQL response">
      <div class="bar">
        <h3>Response</h3>
      </div>
      {state && state.status > 0 && (
        <ResponseMeta
          status={state.status}
          statusText={state.statusText}
          timeMs={state.timeMs}
          size={state.size}
          {...(state.results > 1 || state.streaming
            ? { extra: `${state.results} results${state.streaming ? ", streaming…" : ""}` }
            : {})}
        />
      )}
      {runError.value && <p role="alert" class="error">{runError.value}</p>}
      <CodeEditor
        label="GraphQL response"
        value={responseText}
        readOnly
        extensions={RESPONSE_EXTENSIONS}
        class="viewer"
      />
    </section>
  );
}
