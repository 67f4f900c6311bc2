/**
 * The SSE tab: GET, or POST with a body; URL, headers and the shared auth; Connect /
 * Disconnect; the reconnection policy in view (retry interval, Last-Event-ID sent, attempt
 * count) and a Last-Event-ID to start from; the virtualized event log with a type filter.
 * The stream runs on the dial server (`src/stream`), which resolves the credentials again for
 * every reconnection, so OAuth 2.0 tokens are refreshed as they expire.
 * @module
 */
import { batch, signal } from "@preact/signals";
import type { JSX } from "preact";
import { json } from "@codemirror/lang-json";
import { CodeEditor } from "../code_editor.tsx";
import { CheckField, SelectField, TextField } from "../fields.tsx";
import { isString, jsonWithoutSecrets, persisted } from "../storage.ts";
import { type BridgeEvent, eventError, StreamBridge } from "../stream/bridge_client.ts";
import type { LogEntry, LogStore } from "../stream/log_store.ts";
import { pageLog, STREAM_STATE_TEXT, StreamLog } from "../stream/stream_log.tsx";
import { ensureStreamStyles } from "../stream/stream_styles.ts";
import { HeadersSection, RequestLine, tabCore, TabNotices, UrlField } from "../tab_core.tsx";

/** The SSE tab's URL, headers, auth, session in flight and history. */
const core = tabCore("sse", { url: "sse.url", headers: "sse.headers" });
const { url, headers, failure } = core;

type Method = "GET" | "POST";
type BodyKind = "json" | "text";

const method = persisted<Method>(
  "sse.method",
  "GET",
  (v): v is Method => v === "GET" || v === "POST",
);
const bodyKind = persisted<BodyKind>(
  "sse.bodyKind",
  "json",
  (v): v is BodyKind => v === "json" || v === "text",
);
const body = persisted("sse.body", "", isString, jsonWithoutSecrets);
const reconnect = persisted("sse.reconnect", true, (v): v is boolean => typeof v === "boolean");
const startId = signal("");

/** The fields a request file's event-stream request fills and is saved from. */
export const sseFields = { method, url, headers, bodyKind, body };

type SseState = "disconnected" | "connecting" | "open" | "waiting";

/** The log of the SSE tab. */
export const sseLog: LogStore = pageLog();
const types = signal<string[]>([]);
const state = signal<SseState>("disconnected");
const policy = {
  retryMs: signal<number | undefined>(undefined),
  sentId: signal(""),
  lastId: signal(""),
  attempt: signal(0),
  nextDelayMs: signal<number | undefined>(undefined),
};

function connect(): void {
  failure.value = undefined;
  policy.retryMs.value = undefined;
  policy.nextDelayMs.value = undefined;
  policy.attempt.value = 0;
  policy.sentId.value = "";
  state.value = "connecting";
  const mine = core.begin();
  const bridge = new StreamBridge({
    kind: "sse",
    request: {
      ...core.target(),
      url: url.value.trim(),
      method: method.value,
      ...(method.value === "POST" ? { body: { kind: bodyKind.value, text: body.value } } : {}),
    },
    reconnect: reconnect.value,
    ...(startId.value.trim() ? { lastEventId: startId.value.trim() } : {}),
  }, {
    // One frame's events, one notice to what shows them (not one per event's state).
    onEvents: (events) => batch(() => sseLog.append(events.flatMap(toEntries))),
    onClosed: (reason) => {
      if (!core.end(mine)) return;
      if (reason) failure.value = { message: reason };
      state.value = "disconnected";
      policy.nextDelayMs.value = undefined;
    },
  });
  // Disconnect: the server ends the stream (and any reconnection).
  mine.signal.addEventListener("abort", () => bridge.close());
}

function toEntries(event: BridgeEvent): LogEntry[] {
  const time = event.time;
  const info = (label: string, text: string): LogEntry[] => [{ time, kind: "info", label, text }];
  switch (event.type) {
    case "connecting": {
      state.value = "connecting";
      policy.attempt.value = Number(event.attempt) || 0;
      const sent = typeof event.lastEventId === "string" ? event.lastEventId : "";
      policy.sentId.value = sent;
      return info(
        "connect",
        `Connecting (attempt ${policy.attempt.value}${sent ? `, Last-Event-ID: ${sent}` : ""})`,
      );
    }
    case "open":
      state.value = "open";
      policy.nextDelayMs.value = undefined;
      return info("open", `Connected: HTTP ${event.status}`);
    case "event": {
      const type = String(event.event ?? "message");
      if (!types.value.includes(type)) types.value = [...types.value, type];
      if (typeof event.lastEventId === "string") policy.lastId.value = event.lastEventId;
      return [{
        time,
        kind: "event",
        label: type,
        ...(typeof event.id === "string" ? { id: event.id } : {}),
        text: String(event.data ?? ""),
      }];
    }
    case "comment":
      return info("comment", `: ${event.text}`);
    case "retry":
      policy.retryMs.value = Number(event.retryMs);
      return info("retry", `The server set the retry interval to ${event.retryMs} ms`);
    case "disconnected":
      return info("drop", `Disconnected: ${event.reason}`);
    case "reconnecting": {
      state.value = "waiting";
      policy.nextDelayMs.value = Number(event.delayMs);
      const id = typeof event.lastEventId === "string"
        ? `, Last-Event-ID: ${event.lastEventId}`
        : "";
      return info("retry", `Reconnecting in ${event.delayMs} ms (attempt ${event.attempt}${id})`);
    }
    case "error": {
      const error = eventError(event.error);
      failure.value = error;
      const more = event.willRetry === true ? " (will retry)" : "";
      return [{ time, kind: "error", label: "error", text: `${error.message}${more}` }];
    }
    case "closed":
      return info("closed", `Closed: ${event.reason}`);
    default:
      return [];
  }
}

const STATE_TEXT: Record<SseState, string> = {
  ...STREAM_STATE_TEXT,
  waiting: "Waiting to reconnect…",
};

/** @returns the SSE panel */
export function SseTab(): JSX.Element {
  ensureStreamStyles();
  const busy = state.value !== "disconnected";
  return (
    <div class="stream sse">
      <RequestLine onSubmit={() => busy ? core.cancel() : connect()}>
        <SelectField
          label="Send as"
          value={method}
          options={[["GET", "GET"], ["POST", "POST (with a body)"]]}
        />
        <UrlField core={core} label="SSE endpoint" placeholder="https://example.com/events" />
        <TextField label="Start from Last-Event-ID" value={startId} />
        <button type="submit" class="primary">{busy ? "Disconnect" : "Connect"}</button>
        <span class={`conn-state ${state.value}`} role="status" data-testid="sse-state">
          {STATE_TEXT[state.value]}
        </span>
      </RequestLine>
      <ReconnectionPolicy />
      {/* Outside the list: a definition list holds only terms and their descriptions. */}
      <CheckField label="Reconnect when the stream ends" value={reconnect} />
      <TabNotices core={core} />
      <HeadersSection core={core} summary="Request headers" label="Request header" />
      {method.value === "POST" && (
        <details open>
          <summary>Body</summary>
          <SelectField
            label="SSE body format"
            value={bodyKind}
            options={[["json", "JSON"], ["text", "Text"]]}
          />
          <CodeEditor
            label="SSE body"
            value={body}
            extensions={bodyKind.value === "json" ? json() : []}
            class="body-editor"
          />
        </details>
      )}
      <StreamLog store={sseLog} label="Events" types={types} />
    </div>
  );
}

/** @returns the reconnection policy in view: retry interval, IDs, attempt, next try */
function ReconnectionPolicy(): JSX.Element {
  return (
    <dl class="policy" aria-label="Reconnection policy">
      <div>
        <dt>Retry interval</dt>
        <dd data-testid="sse-retry">
          {policy.retryMs.value === undefined
            ? "3000 ms (default)"
            : `${policy.retryMs.value} ms (set by the server)`}
        </dd>
      </div>
      <div>
        <dt>Last-Event-ID sent</dt>
        <dd data-testid="sse-sent-id">{policy.sentId.value || "none"}</dd>
      </div>
      <div>
        <dt>Last event ID</dt>
        <dd data-testid="sse-last-id">{policy.lastId.value || "none"}</dd>
      </div>
      <div>
        <dt>Attempt</dt>
        <dd data-testid="sse-attempt">{policy.attempt.value}</dd>
      </div>
      {policy.nextDelayMs.value !== undefined && (
        <div>
          <dt>Next try in</dt>
          <dd>{policy.nextDelayMs.value} ms</dd>
        </div>
      )}
    </dl>
  );
}
