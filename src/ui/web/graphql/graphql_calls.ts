/**
 * Loading the schema and running operations through the local server, which applies the
 * configured auth (and refreshes OAuth tokens) for both.
 * @module
 */
import { batch, signal } from "@preact/signals";
import { ApiError, isRecord, ndjson, ndjsonError, post, timeoutMs } from "../api.ts";
import { jsonWithoutSecrets } from "../storage.ts";
import { loginIfNeeded, refreshTokenState, tokenMessage } from "../token_state.tsx";
import { parseVariablesJson } from "../../../graphql/variables.ts";
import { prettyJson } from "../../../output/json.ts";
import {
  core,
  endpoint,
  queryText,
  schemaState,
  setSchema,
  timeoutSeconds,
  transport,
  variablesText,
} from "./state.ts";
import { runOperationName, runTarget } from "./sync.ts";
import { type FileRun, readRunEvent } from "../http/http_response.tsx";
import { SLICE_CHARS } from "../response_viewer.tsx";
import { prepareViewer } from "../body_window.tsx";

/** The response viewer's accessible name (its editor is made as the operation runs). */
export const GRAPHQL_RESPONSE_LABEL = "GraphQL response";

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
/** A file's query, run as `dial run` runs it: what ran first, its log lines and tests. */
export const fileRun = signal<FileRun | undefined>(undefined);
/** @param limited whether the tab's timeout applies (not to a subscription, which runs until Stop) */
function target(limited = true) {
  return {
    ...core.target(),
    ...(limited ? { timeoutMs: timeoutMs(timeoutSeconds.value) } : {}),
  };
}

/** @param message the last error, in words (none: clears it) */
export function setRunError(message: string | undefined): void {
  core.failure.value = message === undefined ? undefined : { message };
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
    let from = "";
    const response = await post("/api/graphql/schema", target(), mine.signal);
    for await (const event of ndjson(response)) {
      const failed = ndjsonError(event);
      if (failed) throw failed;
      if (isRecord(event) && event.type === "schema") {
        introspection = event.introspection;
        from = typeof event.from === "string" ? event.from : "";
      }
    }
    if (introspection === undefined) {
      throw new ApiError("Unexpected answer from the dial server", 0);
    }
    // Marks for scripts/bench_ui.ts: schema received → tree painted.
    performance.mark("dial:schema-received");
    setSchema(introspection, from);
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
    // Never evaluated from its file (that would run its dependencies on a reload).
    const { fromFile: _, ...fields } = target();
    const response = await post("/api/graphql/schema", { ...fields, cachedOnly: true });
    for await (const event of ndjson(response)) {
      if (!isRecord(event) || event.type !== "schema" || !isRecord(event.introspection)) continue;
      if (schemaState.peek().status !== "idle") continue;
      setSchema(event.introspection, typeof event.from === "string" ? event.from : "");
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
  const mine = core.begin();
  // Readied while the operation runs, as Send does: a long answer's first screen does not wait
  // for the worker's load, nor for the viewer's code to compile.
  prepareViewer(GRAPHQL_RESPONSE_LABEL);
  const variables = parseVariablesJson(variablesText.value);
  // `{"first": {{pageSize}}}` is JSON once the server fills the variables in, as `dial run` does.
  const templated = !variables.ok && variablesText.value.includes("{{");
  if (!variables.ok && !templated) {
    setRunError(`Cannot run: the variables are not valid: ${variables.problem.message}`);
    core.end(mine);
    return;
  }
  const login = loginIfNeeded();
  batch(() => {
    setRunError(undefined);
    responseText.value = "";
    fileRun.value = undefined;
    run.value = { status: 0, statusText: "", timeMs: 0, size: 0, results: 0, streaming: true };
  });
  const name = runOperationName.peek();
  const query = queryText.value;
  const entry = core.historyEntry((url) => `${name ?? firstWords(query)} · ${url}`, {
    query,
    variables: jsonWithoutSecrets(variablesText.value),
    ...(name !== undefined ? { operationName: name } : {}),
  });
  try {
    if (!(await login)) throw new ApiError(loginFailed(), 0);
    if (mine.signal.aborted) return;
    const subscription = runTarget.peek()?.kind === "subscription";
    const response = await post("/api/graphql/run", {
      ...target(!subscription),
      query,
      ...(variables.ok ? { variables: variables.value } : { variablesText: variablesText.value }),
      ...(name !== undefined ? { operationName: name } : {}),
      ...(subscription ? { transport: transport.value } : {}),
    }, mine.signal);
    await readResults(response);
  } catch (error) {
    if (!mine.signal.aborted) setRunError(describe(error));
  } finally {
    if (run.value?.streaming) run.value = { ...run.value, streaming: false };
    if (run.value && run.value.status > 0 && !mine.signal.aborted) entry.done(run.value);
    core.end(mine);
    void refreshTokenState();
  }
}

/** @param response the server's answer: the head, then each result as it arrives, then the end */
async function readResults(response: Response): Promise<void> {
  const results: string[] = [];
  const ran: FileRun = { ran: [], logs: [], tests: [] };
  for await (const event of ndjson(response)) {
    if (!isRecord(event)) continue;
    if (event.type === "ran" || event.type === "log" || event.type === "tests") {
      readRunEvent(event.type === "tests" ? { ...event, type: "result" } : event, ran);
      fileRun.value = { ...ran };
      continue;
    }
    const state = run.value!;
    if (event.type === "head" && typeof event.status === "number") {
      run.value = {
        ...state,
        status: event.status,
        statusText: typeof event.statusText === "string" ? event.statusText : "",
      };
    } else if (event.type === "result" && typeof event.text === "string") {
      // A large first result is left to the viewer, which formats it in its worker: pretty-
      // printing it here would stop the page for a parse and a print of the whole answer.
      const large = results.length === 0 && event.text.length > SLICE_CHARS;
      results.push(large ? event.text : pretty(event.text));
      responseText.value = results.join("\n\n");
      run.value = { ...state, results: results.length, ...progress(event) };
    } else if (event.type === "end") {
      run.value = { ...state, streaming: false, ...progress(event) };
    } else if (event.type === "error") {
      setRunError(describe(ndjsonError(event)));
    }
  }
}

/** Stops a streaming subscription. */
export function stopOperation(): void {
  core.cancel();
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
