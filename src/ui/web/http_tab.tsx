/**
 * The HTTP tab: method, URL, query parameters, headers, body (JSON, text, form), the shared
 * auth; the response's status, headers, pretty body, time and size; "Copy as curl".
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { json } from "@codemirror/lang-json";
import {
  ApiError,
  isRecord,
  ndjson,
  ndjsonError,
  post,
  postJson,
  timeoutMs,
  toApiError,
} from "./api.ts";
import { DEFAULT_TIMEOUT_MS, type HttpRequestJson, type ResponseJson } from "../protocol.ts";
import { authJson } from "./auth_state.ts";
import { CodeEditor } from "./code_editor.tsx";
import { refreshTokenState } from "./token_state.tsx";
import { RowTable, SelectField, TextField } from "./fields.tsx";
import { prettyIfJson, ResponseMeta } from "./response_meta.tsx";
import {
  isRows,
  isString,
  jsonWithoutSecrets,
  persisted,
  urlWithoutSecrets,
  withoutSecrets,
} from "./storage.ts";

type BodyKind = "none" | "json" | "text" | "form";
const BODY_KINDS: ReadonlyArray<[BodyKind, string]> = [
  ["none", "None"],
  ["json", "JSON"],
  ["text", "Text"],
  ["form", "Form (multipart)"],
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

const method = persisted("http.method", "GET", isString);
const url = persisted("http.url", "", isString, urlWithoutSecrets);
const params = persisted("http.params", [], isRows, withoutSecrets);
const headers = persisted("http.headers", [], isRows, withoutSecrets);
const bodyKind = persisted<BodyKind>(
  "http.bodyKind",
  "none",
  (v): v is BodyKind => BODY_KINDS.some(([k]) => k === v),
);
const bodyText = persisted("http.body", "", isString, jsonWithoutSecrets);
const formFields = persisted("http.form", [], isRows, withoutSecrets);
const follow = persisted("http.follow", true, (v): v is boolean => typeof v === "boolean");
const timeoutSeconds = persisted(
  "http.timeoutSeconds",
  String(DEFAULT_TIMEOUT_MS / 1000),
  isString,
);

type HttpResult = Pick<
  ResponseJson,
  "status" | "statusText" | "headers" | "body" | "truncated" | "size" | "timeMs"
>;

const result = signal<HttpResult | undefined>(undefined);
const error = signal<ApiError | undefined>(undefined);
const busy = signal(false);
let inFlight: AbortController | undefined;
const curl = signal("");
const shownBody = signal("");

function requestJson(): HttpRequestJson {
  return {
    method: method.value,
    url: url.value,
    params: params.value,
    headers: headers.value,
    body: bodyKind.value === "form"
      ? { kind: "form", fields: formFields.value }
      : bodyKind.value === "none"
      ? { kind: "none" }
      : { kind: bodyKind.value, text: bodyText.value },
    auth: authJson.value,
    follow: follow.value,
    timeoutMs: timeoutMs(timeoutSeconds.value),
  };
}

function parseResult(value: unknown): HttpResult {
  if (!isRecord(value)) throw new ApiError("Unexpected answer from the dial server", 0);
  const v = value;
  if (typeof v.status !== "number" || !Array.isArray(v.headers)) {
    throw new ApiError("Bad answer", 0);
  }
  return {
    status: v.status,
    statusText: typeof v.statusText === "string" ? v.statusText : "",
    headers: v.headers.filter((h): h is [string, string] =>
      Array.isArray(h) && typeof h[0] === "string" && typeof h[1] === "string"
    ),
    ...(typeof v.body === "string" ? { body: v.body } : {}),
    truncated: v.truncated === true,
    size: typeof v.size === "number" ? v.size : 0,
    timeMs: typeof v.timeMs === "number" ? v.timeMs : 0,
  };
}

async function sendRequest() {
  inFlight?.abort();
  const mine = inFlight = new AbortController();
  busy.value = true;
  error.value = undefined;
  curl.value = "";
  try {
    const response = await post("/api/http", requestJson(), mine.signal);
    let answer: HttpResult | undefined;
    for await (const event of ndjson(response)) {
      const failed = ndjsonError(event);
      if (failed) throw failed;
      if (isRecord(event) && event.type === "response") answer = parseResult(event.response);
    }
    if (!answer) throw new ApiError("The dial server ended the answer early", 0);
    result.value = answer;
    shownBody.value = answer.body === undefined
      ? `(binary body of ${answer.size} bytes)`
      : prettyIfJson(answer.body) + (answer.truncated ? "\n… (cut: too large to show)" : "");
  } catch (e) {
    result.value = undefined;
    error.value = mine.signal.aborted
      ? new ApiError("Cancelled: the request was stopped", 0, undefined, "cancelled")
      : toApiError(e);
  } finally {
    if (inFlight === mine) {
      inFlight = undefined;
      busy.value = false;
    }
    void refreshTokenState();
  }
}

/** Stops the request in flight: the server aborts its upstream request. */
function cancelRequest() {
  inFlight?.abort();
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
  return (
    <div class="http">
      <form
        class="request-line"
        onSubmit={(e) => {
          e.preventDefault();
          sendRequest();
        }}
      >
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
        <TextField
          label="URL"
          type="url"
          value={url}
          placeholder="https://api.example.com/users"
          class="grow"
        />
        <button type="submit" class="primary" disabled={busy.value}>
          {busy.value ? "Sending…" : "Send"}
        </button>
        {busy.value && <button type="button" onClick={cancelRequest}>Cancel</button>}
        <button type="button" onClick={copyAsCurl}>Copy as curl</button>
      </form>
      <details open={params.value.length > 0}>
        <summary>Query parameters</summary>
        <RowTable label="Query parameters" rows={params} />
      </details>
      <details open>
        <summary>Headers</summary>
        <RowTable label="Headers" rows={headers} />
      </details>
      <details open={bodyKind.value !== "none"}>
        <summary>Body</summary>
        <SelectField label="Body type" value={bodyKind} options={BODY_KINDS} />
        {(bodyKind.value === "json" || bodyKind.value === "text") && (
          <CodeEditor
            label="Request body"
            value={bodyText}
            extensions={bodyKind.value === "json" ? json() : []}
            class="body-editor"
          />
        )}
        {bodyKind.value === "form" && <RowTable label="Form fields" rows={formFields} />}
      </details>
      <label class="check">
        <input
          type="checkbox"
          checked={follow.value}
          onChange={(e) => follow.value = e.currentTarget.checked}
        />{" "}
        Follow redirects
      </label>
      <TextField label="Timeout (seconds)" value={timeoutSeconds} class="timeout" />
      {error.value && (
        <p role="alert" class="error">
          {error.value.message}
          {error.value.hint && <span class="hint">: {error.value.hint}</span>}
        </p>
      )}
      {curl.value && (
        <div class="field">
          <label for="http-curl">curl command (copied)</label>
          <textarea id="http-curl" readOnly rows={3} value={curl.value} />
        </div>
      )}
      {result.value && <HttpResponse result={result.value} />}
    </div>
  );
}

function HttpResponse(props: { result: HttpResult }): JSX.Element {
  const r = props.result;
  return (
    <section class="response" aria-label="Response">
      <ResponseMeta status={r.status} statusText={r.statusText} timeMs={r.timeMs} size={r.size} />
      <details>
        <summary>Response headers ({r.headers.length})</summary>
        <table class="headers" aria-label="Response headers">
          <tbody>
            {r.headers.map(([name, value], i) => (
              <tr key={i}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <CodeEditor
        label="Response body"
        value={shownBody}
        readOnly
        extensions={json()}
        class="viewer"
      />
    </section>
  );
}
