/**
 * Loading the schema and running operations through the local server, which applies the
 * configured auth (and refreshes OAuth tokens) for both.
 * @module
 */
import { batch, signal } from "@preact/signals";
import { ApiError, isRecord, ndjson, ndjsonError, post, timeoutMs } from "../api.ts";
import { requestAuth } from "../auth_scope.tsx";
import { remember, tabHistory } from "../history.tsx";
import { jsonWithoutSecrets, urlWithoutSecrets, withoutSecrets } from "../storage.ts";
import { loginIfNeeded, refreshTokenState, tokenMessage } from "../token_state.tsx";
import { parseVariablesJson } from "../../../graphql/variables.ts";
import { requestExtras } from "../request_extras.ts";
import { prettyJson } from "../../../output/json.ts";
import {
  endpoint,
  headers,
  queryText,
  schemaState,
  setSchema,
  timeoutSeconds,
  transport,
  variablesText,
} from "./state.ts";
import { runOperationName, runTarget } from "./sync.ts";

/** The response viewer's state. */
export interface RunState {
  /** HTTP status of the target's answer (0 before it arrives). */
  status: number;
  statusText: string;
  /** Milliseconds until the last byte (so far). */
  timeMs: number;
  /** Bytes received (so far). */
  size: number;
  /** How many results arrived (more than one for a subscription, `@defer` or `@stream`). */
  results: number;
  /** Whether results are still streaming in. */
  streaming: boolean;
}

/** The last run. */
export const run = signal<RunState | undefined>(undefined);
/** The response text the viewer shows. */
export const responseText = signal("");
/** The origin the last load or run went to without the panel's auth. */
export const authSkipped = signal<string | undefined>(undefined);
/** The GraphQL tab's history. */
export const history = tabHistory("graphql");

/** The last error, in words. */
export const runError = signal<string | undefined>(undefined);
let controller: AbortController | undefined;

/** @param limited whether the tab's timeout applies (not to a subscription, which runs until Stop) */
function target(limited = true) {
  const extras = requestExtras("graphql");
  return {
    ...extras,
    url: endpoint.value,
    headers: headers.value,
    // A request from a file carries its own Authorization header, not the panel's.
    auth: requestAuth(extras.file, endpoint.value, headers.value, authSkipped),
    ...(limited ? { timeoutMs: timeoutMs(timeoutSeconds.value) } : {}),
  };
}

/**
 * Introspects the endpoint (through the server, with the configured auth). With an
 * authorization-code flow and no usable token, the login runs first.
 */
export async function loadSchema(): Promise<void> {
  schemaLoad?.abort();
  const mine = schemaLoad = new AbortController();
  const login = loginIfNeeded();
  schemaState.value = { status: "loading" };
  try {
    if (!(await login)) throw new ApiError(loginFailed(), 0);
    if (mine.signal.aborted) return;
    let introspection: unknown;
    const response = await post("/api/graphql/schema", target(), mine.signal);
    for await (const event of ndjson(response)) {
      const failed = ndjsonError(event);
      if (failed) throw failed;
      if (isRecord(event) && event.type === "schema") introspection = event.introspection;
    }
    if (introspection === undefined) {
      throw new ApiError("Unexpected answer from the dial server", 0);
    }
    // Marks for scripts/bench_ui.ts: schema received → tree painted.
    performance.mark("dial:schema-received");
    setSchema(introspection, endpoint.value);
    requestAnimationFrame(() => setTimeout(() => performance.mark("dial:tree-painted")));
  } catch (error) {
    // Aborted: Cancel has said so already, or a newer load owns the state.
    if (!mine.signal.aborted) schemaState.value = { status: "error", message: describe(error) };
  } finally {
    if (schemaLoad === mine) schemaLoad = undefined;
    void refreshTokenState();
  }
}

/**
 * After a reload: shows the schema the server has cached for the endpoint and its
 * credentials, without asking the endpoint (nothing happens when there is none, or when the
 * credentials need a login first).
 */
export async function restoreSchema(): Promise<void> {
  if (endpoint.peek().trim() === "" || schemaState.peek().status !== "idle") return;
  try {
    const response = await post("/api/graphql/schema", { ...target(), cachedOnly: true });
    for await (const event of ndjson(response)) {
      if (!isRecord(event) || event.type !== "schema" || !isRecord(event.introspection)) continue;
      if (schemaState.peek().status === "idle") setSchema(event.introspection, endpoint.peek());
    }
  } catch {
    // no cached schema to show: Load schema asks the endpoint
  }
}

let schemaLoad: AbortController | undefined;
const CANCELLED = "Cancelled: the schema was not loaded";

/**
 * Stops loading the schema (also while the login before it runs): the server aborts the
 * introspection request.
 */
export function cancelSchema(): void {
  if (!schemaLoad) return;
  schemaLoad.abort();
  schemaState.value = { status: "error", message: CANCELLED };
}

function loginFailed(): string {
  const why = tokenMessage();
  return `Log in first: the login did not complete${why ? ` (${why})` : ""}`;
}

/** Runs the chosen operation; a subscription's results stream into the viewer. */
export async function runOperation(): Promise<void> {
  controller?.abort();
  const mine = controller = new AbortController();
  const variables = parseVariablesJson(variablesText.value);
  // `{"first": {{pageSize}}}` is JSON once the server fills the variables in, as `dial run` does.
  const templated = !variables.ok && variablesText.value.includes("{{");
  if (!variables.ok && !templated) {
    runError.value = `Cannot run: the variables are not valid: ${variables.problem.message}`;
    return;
  }
  const login = loginIfNeeded();
  batch(() => {
    runError.value = undefined;
    responseText.value = "";
    run.value = { status: 0, statusText: "", timeMs: 0, size: 0, results: 0, streaming: true };
  });
  const results: string[] = [];
  // Stored under the drafts' rules: credential-named values blanked.
  const sent = {
    time: Date.now(),
    snapshot: {
      endpoint: urlWithoutSecrets(endpoint.value),
      headers: withoutSecrets(headers.value),
      query: queryText.value,
      variables: jsonWithoutSecrets(variablesText.value),
      ...(runOperationName.peek() !== undefined ? { operationName: runOperationName.peek() } : {}),
    },
  };
  try {
    if (!(await login)) throw new ApiError(loginFailed(), 0);
    if (mine.signal.aborted) return;
    const subscription = runTarget.peek()?.kind === "subscription";
    const name = runOperationName.peek();
    const response = await post("/api/graphql/run", {
      ...target(!subscription),
      query: queryText.value,
      ...(variables.ok ? { variables: variables.value } : { variablesText: variablesText.value }),
      ...(name !== undefined ? { operationName: name } : {}),
      ...(subscription ? { transport: transport.value } : {}),
    }, mine.signal);
    for await (const event of ndjson(response)) {
      if (!isRecord(event)) continue;
      const state = run.value!;
      if (event.type === "head" && typeof event.status === "number") {
        run.value = {
          ...state,
          status: event.status,
          statusText: typeof event.statusText === "string" ? event.statusText : "",
        };
      } else if (event.type === "result" && typeof event.text === "string") {
        results.push(pretty(event.text));
        responseText.value = results.join("\n\n");
        run.value = { ...state, results: results.length, ...progress(event) };
      } else if (event.type === "end") {
        run.value = { ...state, streaming: false, ...progress(event) };
      } else if (event.type === "error") {
        runError.value = describe(ndjsonError(event));
      }
    }
  } catch (error) {
    if (!mine.signal.aborted) runError.value = describe(error);
  } finally {
    if (run.value?.streaming) run.value = { ...run.value, streaming: false };
    if (run.value && run.value.status > 0 && !mine.signal.aborted) {
      const { status, size, timeMs } = run.value;
      const title = `${
        runOperationName.peek() ?? firstWords(sent.snapshot.query)
      } · ${sent.snapshot.endpoint}`;
      remember(history, { ...sent, title, status, size, timeMs });
    }
    void refreshTokenState();
  }
}

/** Stops a streaming subscription. */
export function stopOperation(): void {
  controller?.abort();
}

function firstWords(query: string): string {
  const line = query.trim().split("\n")[0] ?? "";
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

function progress(event: Record<string, unknown>): Partial<RunState> {
  return {
    ...(typeof event.timeMs === "number" ? { timeMs: event.timeMs } : {}),
    ...(typeof event.size === "number" ? { size: event.size } : {}),
  };
}

function pretty(text: string): string {
  try {
    JSON.parse(text);
    return prettyJson(text, false);
  } catch {
    return text;
  }
}

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    return error.hint ? `${error.message} (${error.hint})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
