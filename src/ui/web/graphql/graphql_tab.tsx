/**
 * The GraphQL tab: endpoint and headers, Load schema, the schema tree with search
 * and checkboxes, the query and variables editors, Run with an operation picker, and the
 * response viewer.
 * @module
 */
import { GRAPHQL_TRANSPORTS } from "../../protocol.ts";
import type { JSX } from "preact";
import { computed, signal } from "@preact/signals";
import { print } from "graphql";
import { parseVariablesJson } from "../../../graphql/variables.ts";
import { isRecord, postJson } from "../api.ts";
import { type HistoryEntry, HistoryList } from "../history.tsx";
import { ResponseViewer, type ViewedBody } from "../response_viewer.tsx";
import { TextField } from "../fields.tsx";
import { HeadersSection, RequestLine, TabNotices, UrlField } from "../tab_core.tsx";
import { ResponseMeta } from "../response_meta.tsx";
import { RunLines } from "../http/http_response.tsx";
import { QueryEditor } from "./query_editor.tsx";
import {
  cancelSchema,
  fileRun,
  GRAPHQL_RESPONSE_LABEL,
  loadSchema,
  responseText,
  restoreSchema,
  run,
  runOperation,
  setRunError,
  stopOperation,
} from "./graphql_calls.ts";
import { useEffect } from "preact/hooks";
import { SchemaTree } from "./schema_tree.tsx";
import { prepareViewerWhenIdle } from "../body_window.tsx";
import { SearchBox } from "./search_box.tsx";
import { SearchResults } from "./search_results.tsx";
import { DocsPane } from "./docs_pane.tsx";
import {
  core,
  endpoint,
  operationName,
  queryText,
  schemaState,
  timeoutSeconds,
  transport,
  variablesText,
} from "./state.ts";
import {
  builderNote,
  operationNames,
  parsedQuery,
  runOperationName,
  runTarget,
  startQuerySync,
} from "./sync.ts";
import { VariablesEditor } from "./variables_editor.tsx";

startQuerySync();
const viewed = computed((): ViewedBody | undefined =>
  responseText.value === "" ? undefined : {
    text: responseText.value,
    contentType: "application/json",
    size: run.value?.size ?? 0,
    truncated: false,
    fileName: "response.json",
  }
);

/** @returns the GraphQL tab */
export function GraphqlTab(): JSX.Element {
  useEffect(() => void restoreSchema(), []);
  useEffect(() => prepareViewerWhenIdle(GRAPHQL_RESPONSE_LABEL), []);
  return (
    <div class="gql">
      <RequestLine onSubmit={() => void loadSchema()}>
        <UrlField core={core} label="Endpoint URL" placeholder="https://api.example.com/graphql" />
        <button type="submit" disabled={schemaState.value.status === "loading"}>
          {schemaState.value.status === "loading" ? "Loading schema…" : "Load schema"}
        </button>
        {schemaState.value.status === "loading" && (
          <button type="button" onClick={cancelSchema}>Cancel</button>
        )}
        <TextField label="Timeout (seconds)" value={timeoutSeconds} class="timeout" />
      </RequestLine>
      <HeadersSection core={core} summary="Headers" label="GraphQL headers" open={false} />
      <div class="gql-grid">
        <SchemaPane />
        <section class="editor-pane" aria-label="Query and variables">
          <OperationBar />
          {curlText.value && (
            <div class="field">
              <label for="gql-curl">curl command (copied)</label>
              <textarea id="gql-curl" readOnly rows={3} value={curlText.value} />
            </div>
          )}
          <QueryEditor onRun={() => void (canRun() && runOperation())} />
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
      <SearchResults />
      {state.status === "idle" && <p class="muted">Enter the endpoint and press Load schema.</p>}
      {state.status === "loading" && <p class="muted" role="status">Loading schema…</p>}
      {state.status === "error" && (
        <p role="alert" class="error">Cannot load the schema: {state.message}</p>
      )}
      {state.status === "loaded" && (
        <p class="muted" data-testid="schema-summary">
          {Object.keys(state.loaded.schema.getTypeMap()).length} types
          {state.loaded.origin ? ` from ${state.loaded.origin}` : ""}
        </p>
      )}
      {state.status === "loaded" && builderNote.value && (
        <p role="note" class="note">{builderNote.value}</p>
      )}
      {state.status === "loaded" && <SchemaTree />}
      {state.status === "loaded" && <DocsPane />}
    </aside>
  );
}

const curlText = signal("");

/** Formats the query (graphql-js `print`: comments are not kept). */
function prettify(): void {
  const parsed = parsedQuery.peek();
  if (parsed.ok) queryText.value = print(parsed.document);
}

/** The curl command for the Run request (secrets included, as with `dial --curl`). */
async function copyGraphqlCurl(): Promise<void> {
  const variables = parseVariablesJson(variablesText.peek());
  const base = core.target();
  const answer = await postJson("/api/http/curl", {
    ...base,
    method: "POST",
    params: [],
    headers: [
      ...base.headers,
      {
        name: "Accept",
        value: "application/graphql-response+json, application/json;q=0.9",
        enabled: true,
      },
    ],
    body: {
      kind: "json",
      text: JSON.stringify({
        query: queryText.peek(),
        variables: variables.ok ? variables.value : {},
        ...(runOperationName.peek() !== undefined
          ? { operationName: runOperationName.peek() }
          : {}),
      }),
    },
    follow: false,
  }).catch((e) => {
    setRunError(e instanceof Error ? e.message : String(e));
    return undefined;
  });
  const text = isRecord(answer) && typeof answer.curl === "string" ? answer.curl : "";
  curlText.value = text;
  if (text) await navigator.clipboard?.writeText(text).catch(() => {});
}

function restoreRun(entry: HistoryEntry): void {
  const s = entry.snapshot;
  core.restore(entry);
  if (typeof s.query === "string") queryText.value = s.query;
  if (typeof s.variables === "string") variablesText.value = s.variables;
  operationName.value = typeof s.operationName === "string" ? s.operationName : undefined;
}

/** @returns whether Run has what it needs: an endpoint and a document */
function canRun(): boolean {
  return endpoint.value.trim() !== "" && queryText.value.trim() !== "";
}

function OperationBar(): JSX.Element {
  const names = operationNames.value;
  const chosen = runOperationName.value;
  const subscription = runTarget.value?.kind === "subscription";
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
      {subscription && <label class="inline" for="gql-transport">Subscription transport</label>}
      {subscription && (
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
        disabled={!canRun()}
        title={canRun() ? "Run (Ctrl/Cmd+Enter)" : "Enter the endpoint URL and a query first"}
      >
        Run
      </button>
      {streaming && <button type="button" onClick={stopOperation}>Stop</button>}
      <button type="button" onClick={prettify} disabled={!parsedQuery.value.ok}>
        Prettify
      </button>
      <button type="button" onClick={() => void copyGraphqlCurl()} disabled={!canRun()}>
        Copy as curl
      </button>
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
      <TabNotices core={core} />
      {fileRun.value && <RunLines run={fileRun.value} />}
      <HistoryList history={core.history} onRestore={restoreRun} />
      <ResponseViewer
        body={viewed}
        label={GRAPHQL_RESPONSE_LABEL}
        placeholder="Run a query to see the response here"
      />
    </section>
  );
}
