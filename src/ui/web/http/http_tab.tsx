/**
 * The HTTP tab: method, URL, query parameters, headers, body (JSON, text, form), the shared
 * auth; the response's status, headers, pretty body, time and size; "Copy as curl".
 * @module
 */
import { batch, computed, signal } from "@preact/signals";
import { HeadersSection, RequestLine, tabCore, TabNotices, UrlField } from "../tab_core.tsx";
import type { HttpDraft } from "../workspace/request_edit.ts";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { linter, lintGutter } from "@codemirror/lint";
import { variableMarks } from "../variable_marks.ts";
import {
  ApiError,
  isRecord,
  ndjson,
  ndjsonError,
  nextTask,
  post,
  postJson,
  timeoutMs,
  toApiError,
} from "../api.ts";
import { DEFAULT_TIMEOUT_MS, type FileSendJson, type HttpRequestJson } from "../../protocol.ts";
import { fileAuth } from "../auth_scope.tsx";
import { CodeEditor } from "../code_editor.tsx";
import { loginIfNeeded, refreshTokenState, showOAuthNotice } from "../token_state.tsx";
import { CheckField, type FileRow, RowTable, SelectField, TextField } from "../fields.tsx";
import { paramsFromUrl, urlWithParams } from "./query_sync.ts";
import { type HistoryEntry, HistoryList, restoreRows } from "../history.tsx";
import {
  type FileRun,
  HttpResponse,
  type HttpResult,
  parseResult,
  readRunEvent,
  RESPONSE_BODY_LABEL,
  viewedOf,
} from "./http_response.tsx";
import { httpSource, requestExtras, type RequestSource, requestSource } from "../request_extras.ts";
import { requestShare, RequestSplitter } from "../splitter.tsx";
import { OpenapiPanel } from "../openapi/openapi_panel.tsx";
import { BodyParts } from "../response_viewer.tsx";
import { prepareViewer, prepareViewerWhenIdle } from "../body_window.tsx";

export type { HttpResult };
import { isRows, isString, jsonWithoutSecrets, persisted, withoutSecrets } from "../storage.ts";

type BodyKind = "none" | "json" | "text" | "form";
const BODY_KINDS: ReadonlyArray<[BodyKind, string]> = [
  ["none", "None"],
  ["json", "JSON"],
  ["text", "Text"],
  ["form", "Form (multipart)"],
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/** The HTTP tab's URL, headers, auth, request in flight and history. */
const core = tabCore("http", { url: "http.url", headers: "http.headers" });
const { url, headers, failure: error, busy } = core;
const method = persisted("http.method", "GET", isString);
const params = persisted("http.params", [], isRows, withoutSecrets);
const bodyKind = persisted<BodyKind>(
  "http.bodyKind",
  "none",
  (v): v is BodyKind => BODY_KINDS.some(([k]) => k === v),
);
const bodyText = persisted("http.body", "", isString, jsonWithoutSecrets);
// Attached files are not stored: a reload keeps the row, without the file.
const formFields = persisted<FileRow[]>("http.form", [], isRows, formForStorage);

/** Form rows as stored: credential values blanked, attached files left out. */
function formForStorage(rows: FileRow[]): FileRow[] {
  return withoutSecrets(rows.map(({ file, ...row }) => file ? { ...row, value: "" } : row));
}
/** The request's `??` lines (after `??`): the file's, and those added from the response filter. */
const assertions = signal<string[]>([]);
const follow = persisted("http.follow", true, (v): v is boolean => typeof v === "boolean");
const timeoutSeconds = persisted(
  "http.timeoutSeconds",
  String(DEFAULT_TIMEOUT_MS / 1000),
  isString,
);

// The URL holds the enabled parameters; drafts from before the two were synced did not.
if (!url.peek().includes("?") && params.peek().some((p) => p.enabled && p.name !== "")) {
  url.value = urlWithParams(url.peek(), params.peek());
}

/** A JSON body is linted as it is typed (nothing to say about an empty one). */
const JSON_BODY = [
  variableMarks,
  json(),
  linter(jsonParseLinter(), { delay: 200 }),
  lintGutter(),
  linter(null, {
    markerFilter: (diagnostics, state) =>
      state.doc.toString().trim() === "" ? [] : [...diagnostics],
  }),
];
const NO_EXTENSIONS = [variableMarks];
const SEND_KEYS = [{ key: "Mod-Enter", run: () => (void sendHttpRequest(), true) }];

const result = signal<HttpResult | undefined>(undefined);
const curl = signal("");
const pasteNote = signal<string | undefined>(undefined);
const viewed = computed(() => viewedOf(result.value, url.peek()));
/** Counts the requests sent (and failed): token states are asked again after each. */
export const sendCount = signal(0);

/** What the tab shows: its fields and its last response, kept per request tab. */
export interface HttpView {
  draft: HttpDraft;
  result?: HttpResult;
}

/** The tab's fields, as they change. */
export const currentDraft = computed((): HttpDraft => ({
  method: method.value,
  url: url.value,
  headers: headers.value,
  bodyKind: bodyKind.value,
  body: bodyText.value,
  form: formFields.value,
  ...(assertions.value.length ? { assertions: assertions.value } : {}),
}));

/** @returns the tab's fields and response now */
export function currentView(): HttpView {
  const r = result.peek();
  return { draft: currentDraft.peek(), ...(r ? { result: r } : {}) };
}

/**
 * Shows another request tab's fields and response.
 *
 * @param view the fields and response
 */
export function showView(view: HttpView): void {
  batch(() => {
    const d = view.draft;
    method.value = d.method;
    url.value = d.url;
    params.value = paramsFromUrl(d.url, []);
    headers.value = d.headers;
    bodyKind.value = d.bodyKind;
    bodyText.value = d.body;
    formFields.value = d.form;
    assertions.value = d.assertions ?? [];
    result.value = view.result;
    error.value = undefined;
    curl.value = "";
  });
}

/**
 * Replaces the request's headers (the request auth line adds a Security.Auth header).
 *
 * @param rows the new headers
 */
export function setHeaders(rows: HttpDraft["headers"]): void {
  headers.value = rows;
}

function requestJson(): HttpRequestJson {
  return {
    // The enabled parameters are in the URL already (the table and the URL are synced).
    ...core.target(),
    method: method.value,
    body: bodyKind.value === "form"
      ? { kind: "form", fields: formFields.value }
      : bodyKind.value === "none"
      ? { kind: "none" }
      : { kind: bodyKind.value, text: bodyText.value },
    follow: follow.value,
    timeoutMs: timeoutMs(timeoutSeconds.value),
  };
}

/**
 * @param source the file and request the tab comes from
 * @returns the call that runs the tab's request as `dial run` does, the tab's fields in place
 *   of the file's
 */
function fileSendJson(source: RequestSource): FileSendJson {
  const extra = requestExtras("http");
  // It carries its own auth, never the panel's (the tab says so when the panel has some).
  fileAuth(headers.peek(), core.authSkipped);
  return {
    path: source.path,
    index: source.index,
    ...(source.name !== undefined ? { name: source.name } : {}),
    draft: currentDraft.peek(),
    ...(extra.environment !== undefined ? { environment: extra.environment } : {}),
    timeoutMs: timeoutMs(timeoutSeconds.peek()),
  };
}

/** Sends the tab's request (Send, Enter in the URL, Ctrl/Cmd+Enter from anywhere). */
export async function sendHttpRequest(): Promise<void> {
  const mine = core.begin();
  // Readied while the request goes: a long body's first part does not wait for the worker's
  // load, nor for the viewer's code to compile.
  prepareViewer(RESPONSE_BODY_LABEL);
  const login = requestExtras("http").file === undefined ? loginIfNeeded() : Promise.resolve(true);
  error.value = undefined;
  curl.value = "";
  const entry = core.historyEntry((stored) => `${method.peek()} ${stored}`, {
    method: method.peek(),
    params: withoutSecrets(params.peek()),
    bodyKind: bodyKind.peek(),
    body: jsonWithoutSecrets(bodyText.peek()),
    form: formForStorage(formFields.peek()),
  });
  try {
    if (!(await login)) throw new ApiError("Log in first: the login did not complete", 0);
    mine.signal.throwIfAborted();
    // A request of a workspace file runs as `dial run` runs it (its scope, scripts and tests);
    // a file attached in the browser cannot be written in a request file, so that form goes
    // as a tab's request.
    const attached = bodyKind.peek() === "form" && formFields.peek().some((r) => r.file);
    const source = attached ? undefined : requestSource("http");
    const response = source
      ? await post("/api/http/file", { ...fileSendJson(source), bodyParts: true }, mine.signal)
      : await post("/api/http", { ...requestJson(), bodyParts: true }, mine.signal);
    // A long body's response is shown as its parts arrive (the viewer starts on the first).
    const { answer, run } = await readAnswer(response, (head) => result.value = head);
    result.value = source ? { ...answer, run } : answer;
    entry.done(answer);
  } catch (e) {
    result.value = undefined;
    const failed = mine.signal.aborted
      ? new ApiError("Cancelled: the request was stopped", 0, undefined, "cancelled")
      : toApiError(e);
    error.value = failed;
    // A failure is history too (what was tried, and why it failed), a cancel is not.
    if (!mine.signal.aborted) entry.failed(failed.message);
  } finally {
    core.end(mine);
    void refreshTokenState();
    sendCount.value++;
  }
}

/**
 * @param response the server's answer: NDJSON events of the request (and of its file's run)
 * @param arriving called with the response when its long body starts to arrive in parts
 * @returns the response, with what the file's run did before and after it
 */
async function readAnswer(
  response: Response,
  arriving: (head: HttpResult) => void,
): Promise<{ answer: HttpResult; run: FileRun }> {
  let answer: HttpResult | undefined;
  /** A long body's parts, while they come (`bodyParts` of the response). */
  let parts: BodyParts | undefined;
  const run: FileRun = { ran: [], logs: [], tests: [] };
  showOAuthNotice(undefined);
  for await (const event of ndjson(response)) {
    const failed = ndjsonError(event);
    if (failed) throw failed;
    if (!isRecord(event)) continue;
    if (event.type === "notice" && typeof event.message === "string") {
      showOAuthNotice(event.message);
    }
    if (event.type === "response") {
      answer = parseResult(event.response);
      const count = isRecord(event.response) ? event.response.bodyParts : undefined;
      parts = typeof count === "number" && count > 0 ? new BodyParts(count) : undefined;
      if (parts) answer = { ...answer, parts };
      else received();
    }
    if (event.type === "body" && answer && parts && !parts.done && typeof event.text === "string") {
      parts.add(event.text);
      // Shown from its first part (which tells a JSON body).
      if (parts.parts.length === 1) {
        performance.mark("dial:first-part");
        arriving(answer);
      }
      if (parts.done) {
        // The whole body joined in a task of its own, not the last part's.
        await nextTask();
        answer = { ...answer, body: parts.text() };
        received();
      }
    }
    readRunEvent(event, run);
  }
  if (run.error && !answer) throw run.error;
  if (!answer || (parts && !parts.done)) {
    throw new ApiError("The dial server ended the answer early", 0);
  }
  return { answer, run };
}

/**
 * For scripts/bench_ui_body.ts: the response is read (its last byte, parsed). (A long body's
 * first part read is the mark `dial:first-part`.)
 */
function received(): void {
  performance.mark("dial:response-received");
}

/** A curl command pasted into the URL becomes the tab's request (the CLI's curl reader). */
async function pasteCurl(text: string): Promise<void> {
  error.value = undefined;
  try {
    const answer = await postJson("/api/import/curl", { text });
    if (!isRecord(answer) || typeof answer.url !== "string") throw new ApiError("Bad answer", 0);
    const rows = (v: unknown) =>
      Array.isArray(v)
        ? v.filter(isRecord).map((r) => ({
          name: String(r.name),
          value: String(r.value),
          enabled: r.enabled !== false,
        }))
        : [];
    const kind = BODY_KINDS.find(([k]) => k === answer.bodyKind)?.[0] ?? "none";
    showView({
      draft: {
        method: String(answer.method),
        url: answer.url,
        headers: rows(answer.headers),
        bodyKind: kind,
        body: String(answer.body ?? ""),
        form: rows(answer.form),
      },
    });
    follow.value = answer.follow === true;
    if (typeof answer.timeoutSeconds === "string") timeoutSeconds.value = answer.timeoutSeconds;
    const notes = Array.isArray(answer.notes) ? answer.notes.map(String) : [];
    pasteNote.value = notes.length > 0
      ? `Pasted a curl command; not carried: ${notes.join(", ")}`
      : "Pasted a curl command";
  } catch (e) {
    error.value = toApiError(e);
  }
}

function restore(entry: HistoryEntry): void {
  const s = entry.snapshot;
  core.restore(entry);
  if (typeof s.method === "string") method.value = s.method;
  if (isRows(s.params)) params.value = restoreRows(s.params, params.peek());
  const kind = BODY_KINDS.find(([k]) => k === s.bodyKind)?.[0];
  if (kind) bodyKind.value = kind;
  if (typeof s.body === "string") bodyText.value = s.body;
  if (isRows(s.form)) formFields.value = restoreRows(s.form, formFields.peek());
}

async function copyAsCurl() {
  error.value = undefined;
  try {
    const answer = await postJson("/api/http/curl", requestJson());
    const text = typeof answer === "object" && answer !== null && "curl" in answer &&
        typeof answer.curl === "string"
      ? answer.curl
      : "";
    curl.value = text;
    await navigator.clipboard?.writeText(text).catch(() => {});
  } catch (e) {
    error.value = toApiError(e);
  }
}

/** @returns the HTTP tab */
export function HttpTab(): JSX.Element {
  useEffect(() => prepareViewerWhenIdle(RESPONSE_BODY_LABEL), []);
  return (
    <div class="http" style={{ "--request-share": `${requestShare.value}%` }}>
      <div class="http-request">
        <HttpRequestLine />
        {pasteNote.value && <p class="note" role="status">{pasteNote.value}</p>}
        <details open={params.value.length > 0}>
          <summary>Query parameters</summary>
          <RowTable
            label="Query parameters"
            rows={params}
            variables
            onChange={(rows) => url.value = urlWithParams(url.peek(), rows)}
          />
        </details>
        <HeadersSection core={core} summary="Headers" label="Headers" open />
        <BodySection />
        <OpenapiPanel method={method.value} url={url.value} />
        <RequestOptions />
        <HistoryList history={core.history} onRestore={restore} />
      </div>
      <RequestSplitter />
      <div class="http-response">
        <TabNotices core={core} />
        {curl.value && (
          <div class="field">
            <label for="http-curl">curl command (copied)</label>
            <textarea id="http-curl" readOnly rows={3} value={curl.value} />
          </div>
        )}
        <ResponsePane />
      </div>
    </div>
  );
}

/**
 * @returns the tab's response, a component of its own: a response (and a long body's first part
 *   before it) renders the response pane only, not the request's fields again
 */
function ResponsePane(): JSX.Element | null {
  const r = result.value;
  if (!r) return null;
  return (
    <HttpResponse
      result={r}
      viewed={viewed}
      onAssert={(line) => assertions.value = [...assertions.peek(), line]}
    />
  );
}

/** @returns method, URL (a pasted curl command becomes the request), Send, Cancel, Copy as curl */
function HttpRequestLine(): JSX.Element {
  return (
    <RequestLine onSubmit={() => void sendHttpRequest()}>
      <div class="field method">
        <label for="http-method">Method</label>
        <input
          id="http-method"
          list="http-methods"
          value={method.value}
          spellcheck={false}
          onInput={(e) => method.value = e.currentTarget.value.toUpperCase()}
        />
        <datalist id="http-methods">
          {METHODS.map((m) => <option key={m} value={m} />)}
        </datalist>
      </div>
      <UrlField
        core={core}
        label="URL"
        id="http-url"
        placeholder="https://api.example.com/users"
        onInput={(text) => params.value = paramsFromUrl(text, params.peek())}
        onPaste={(text) => {
          if (!/^\s*(\$\s*)?curl\s/.test(text)) return false;
          void pasteCurl(text);
          return true;
        }}
      />
      <button type="submit" class="primary" disabled={busy.value}>
        {busy.value ? "Sending…" : "Send"}
      </button>
      {busy.value && <button type="button" onClick={core.cancel}>Cancel</button>}
      <button type="button" onClick={copyAsCurl}>Copy as curl</button>
    </RequestLine>
  );
}

/** @returns the body: its type, then an editor (JSON is linted) or the form's fields */
function BodySection(): JSX.Element {
  return (
    <details open={bodyKind.value !== "none"}>
      <summary>Body</summary>
      <SelectField label="Body type" value={bodyKind} options={BODY_KINDS} />
      {(bodyKind.value === "json" || bodyKind.value === "text") && (
        <CodeEditor
          label="Request body"
          value={bodyText}
          placeholder={bodyKind.value === "json" ? '{"name": "value"}' : "Request body"}
          extensions={bodyKind.value === "json" ? JSON_BODY : NO_EXTENSIONS}
          keys={SEND_KEYS}
          class="body-editor"
        />
      )}
      {bodyKind.value === "form" && <RowTable label="Form fields" rows={formFields} files />}
    </details>
  );
}

/** @returns Follow redirects (a file's request: its own directive decides) and the timeout */
function RequestOptions(): JSX.Element {
  return (
    <div class="request-options">
      {httpSource.value
        ? (
          // A request of a file is sent as dial run sends it: its own directive decides.
          <span class="check">Redirects: followed unless the request says # @no-redirect</span>
        )
        : <CheckField label="Follow redirects" value={follow} />}
      <TextField label="Timeout (seconds)" value={timeoutSeconds} class="timeout" />
    </div>
  );
}
