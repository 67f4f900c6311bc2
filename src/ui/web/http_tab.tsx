/**
 * The HTTP tab: method, URL, query parameters, headers, body (JSON, text, form), the shared
 * auth; the response's status, headers, pretty body, time and size; "Copy as curl".
 * @module
 */
import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { json } from "@codemirror/lang-json";
import { ApiError, isRecord, postJson } from "./api.ts";
import { authJson } from "./auth_state.ts";
import { CodeEditor } from "./code_editor.tsx";
import { refreshTokenState } from "./token_state.tsx";
import { RowTable, SelectField, TextField } from "./fields.tsx";
import { prettyIfJson, ResponseMeta } from "./response_meta.tsx";
import { isRows, isString, persisted, withoutSecrets } from "./storage.ts";

type BodyKind = "none" | "json" | "text" | "form";
const BODY_KINDS: ReadonlyArray<[BodyKind, string]> = [
  ["none", "None"],
  ["json", "JSON"],
  ["text", "Text"],
  ["form", "Form (multipart)"],
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

const method = persisted("http.method", "GET", isString);
const url = persisted("http.url", "", isString);
const params = persisted("http.params", [], isRows);
const headers = persisted("http.headers", [], isRows, withoutSecrets);
const bodyKind = persisted<BodyKind>(
  "http.bodyKind",
  "none",
  (v): v is BodyKind => BODY_KINDS.some(([k]) => k === v),
);
const bodyText = persisted("http.body", "", isString);
const formFields = persisted("http.form", [], isRows);
const follow = persisted("http.follow", true, (v): v is boolean => typeof v === "boolean");

interface HttpResult {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body?: string;
  truncated: boolean;
  size: number;
  timeMs: number;
}

const result = signal<HttpResult | undefined>(undefined);
const error = signal<ApiError | undefined>(undefined);
const busy = signal(false);
const curl = signal("");
const shownBody = signal("");

function requestJson() {
  return {
    method: method.value,
    url: url.value,
    params: params.value,
    headers: headers.value,
    body: bodyKind.value === "form"
      ? { kind: "form", fields: formFields.value }
      : { kind: bodyKind.value, text: bodyText.value },
    auth: authJson.value,
    follow: follow.value,
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
  busy.value = true;
  error.value = undefined;
  curl.value = "";
  try {
    const answer = parseResult(await postJson("/api/http", requestJson()));
    result.value = answer;
    shownBody.value = answer.body === undefined
      ? `(binary body of ${answer.size} bytes)`
      : prettyIfJson(answer.body) + (answer.truncated ? "\n… (cut: too large to show)" : "");
  } catch (e) {
    result.value = undefined;
    error.value = e instanceof ApiError ? e : new ApiError(String(e), 0);
  } finally {
    busy.value = false;
    void refreshTokenState();
  }
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
    error.value = e instanceof ApiError ? e : new ApiError(String(e), 0);
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
