/**
 * The WebSocket tab: URL, subprotocols, headers and the shared auth; Connect / Disconnect
 * with the state, close code and reason in view; keep-alive and auto-reconnect; a composer;
 * the virtualized message log. The session runs on the dial server (`src/stream`), so the
 * handshake carries the auth panel's credentials.
 * @module
 */
import { batch, computed, signal } from "@preact/signals";
import type { JSX } from "preact";
import { CheckField, TextField } from "../fields.tsx";
import { isString, persisted } from "../storage.ts";
import { type BridgeEvent, eventError, StreamBridge } from "../stream/bridge_client.ts";
import type { LogEntry, LogStore } from "../stream/log_store.ts";
import { pageLog, STREAM_STATE_TEXT, StreamLog } from "../stream/stream_log.tsx";
import { ensureStreamStyles } from "../stream/stream_styles.ts";
import { type Outgoing, WsComposer } from "./ws_composer.tsx";
import { HeadersSection, RequestLine, tabCore, TabNotices, UrlField } from "../tab_core.tsx";

/** The WebSocket tab's URL, headers, auth, session in flight and history. */
const core = tabCore("ws", { url: "ws.url", headers: "ws.headers" });
const { url, headers, failure } = core;

const isBool = (v: unknown): v is boolean => typeof v === "boolean";

const protocols = persisted("ws.protocols", "", isString);
const keepAlive = persisted("ws.keepAlive", false, isBool);
const keepAliveSeconds = persisted("ws.keepAliveSeconds", "30", isString);
const keepAliveData = persisted("ws.keepAliveData", "ping", isString);
const reconnect = persisted("ws.reconnect", false, isBool);
const reconnectAttempts = persisted("ws.reconnectAttempts", "5", isString);
const reconnectSeconds = persisted("ws.reconnectSeconds", "2", isString);
const closeCode = signal("1000");
const closeReason = signal("");

type WsState = "disconnected" | "connecting" | "open" | "reconnecting" | "closing";

/** The fields a request file's WEBSOCKET request fills and is saved from. */
export const wsFields = { url, headers };

/** The log of the WebSocket tab (exported for the benchmark). */
export const wsLog: LogStore = pageLog();
const state = signal<WsState>("disconnected");
const closed = signal<{ code: number; reason: string; by: string; clean: boolean } | undefined>(
  undefined,
);
const protocol = signal("");
const attempt = signal(0);
const canSend = computed(() => state.value === "open");
let bridge: StreamBridge | undefined;

function seconds(text: string, field: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0) {
    throw new Error(`Invalid ${field}: expected a positive number of seconds`);
  }
  return Math.round(value * 1000);
}

function startCommand(): Record<string, unknown> {
  const attempts = Number(reconnectAttempts.value);
  if (reconnect.value && (!Number.isInteger(attempts) || attempts < 1)) {
    throw new Error("Invalid reconnect attempts: expected a whole number from 1");
  }
  return {
    kind: "ws",
    request: { ...core.target(), url: url.value.trim() },
    protocols: protocols.value.split(",").map((p) => p.trim()).filter((p) => p !== ""),
    ...(keepAlive.value
      ? {
        keepAlive: {
          intervalMs: seconds(keepAliveSeconds.value, "keep-alive interval"),
          data: keepAliveData.value,
        },
      }
      : {}),
    ...(reconnect.value
      ? {
        reconnect: {
          attempts,
          delayMs: seconds(reconnectSeconds.value, "reconnect delay"),
        },
      }
      : {}),
  };
}

function connect(): void {
  failure.value = undefined;
  closed.value = undefined;
  let start: Record<string, unknown>;
  try {
    start = startCommand();
  } catch (error) {
    failure.value = { message: error instanceof Error ? error.message : String(error) };
    return;
  }
  state.value = "connecting";
  const mine = core.begin();
  const session = bridge = new StreamBridge(start, {
    // One frame's events, one notice to what shows them (not one per event's state).
    onEvents: (events) => batch(() => wsLog.append(events.flatMap(toEntries))),
    onClosed: (reason) => {
      if (!core.end(mine)) return;
      if (reason) failure.value = { message: reason };
      state.value = "disconnected";
      bridge = undefined;
    },
  });
  // Stopped without a close code of its own: the server closes with 1000.
  mine.signal.addEventListener("abort", () => session.close());
}

function disconnect(): void {
  const code = Number(closeCode.value.trim() || "1000");
  if (!Number.isInteger(code) || !(code === 1000 || (code >= 3000 && code <= 4999))) {
    failure.value = { message: `Invalid close code "${closeCode.value}": use 1000 or 3000–4999` };
    return;
  }
  if (new TextEncoder().encode(closeReason.value).length > 123) {
    failure.value = { message: "Invalid close reason: longer than 123 bytes of UTF-8" };
    return;
  }
  failure.value = undefined;
  state.value = state.value === "open" ? "closing" : state.value;
  bridge?.close(code, closeReason.value);
}

function toEntries(event: BridgeEvent): LogEntry[] {
  const time = event.time;
  switch (event.type) {
    case "connecting":
      state.value = "connecting";
      attempt.value = Number(event.attempt) || 0;
      return [{ time, kind: "info", label: "connect", text: `Connecting to ${event.url}` }];
    case "open":
      state.value = "open";
      protocol.value = String(event.protocol ?? "");
      return [{
        time,
        kind: "info",
        label: "open",
        text: `Connected${protocol.value ? ` (subprotocol ${protocol.value})` : ""}`,
      }];
    case "message": {
      const binary = typeof event.base64 === "string";
      return [{
        time,
        kind: event.direction === "out" ? "out" : "in",
        label: "",
        text: String(binary ? event.base64 : event.text ?? ""),
        ...(binary ? { binary } : {}),
        size: Number(event.size) || 0,
        ...(event.keepAlive === true ? { keepAlive: true } : {}),
      }];
    }
    case "close": {
      const info = {
        code: Number(event.code),
        reason: String(event.reason ?? ""),
        by: String(event.by),
        clean: event.clean === true,
      };
      closed.value = info;
      state.value = "disconnected";
      return [{ time, kind: "info", label: "close", text: closeText(info) }];
    }
    case "reconnecting":
      state.value = "reconnecting";
      return [{
        time,
        kind: "info",
        label: "retry",
        text: `Reconnecting in ${Number(event.delayMs) / 1000} s (attempt ${event.attempt})`,
      }];
    case "error": {
      const error = eventError(event.error);
      failure.value = error;
      return [{ time, kind: "error", label: "error", text: error.message }];
    }
    default:
      return [];
  }
}

function closeText(info: { code: number; reason: string; by: string; clean: boolean }): string {
  return `Closed by the ${info.by}: ${info.code}${info.reason ? ` ${info.reason}` : ""}${
    info.clean ? "" : " (not clean)"
  }`;
}

function send(message: Outgoing): void {
  bridge?.send(message);
}

const STATE_TEXT: Record<WsState, string> = {
  ...STREAM_STATE_TEXT,
  reconnecting: "Reconnecting…",
  closing: "Closing…",
};

/** @returns the WebSocket panel */
export function WebSocketTab(): JSX.Element {
  ensureStreamStyles();
  const busy = state.value !== "disconnected";
  return (
    <div class="stream ws">
      <RequestLine onSubmit={() => busy ? disconnect() : connect()}>
        <UrlField core={core} label="WebSocket endpoint" placeholder="wss://example.com/socket" />
        <TextField label="Subprotocols" value={protocols} placeholder="comma-separated" />
        <button type="submit" class="primary">{busy ? "Disconnect" : "Connect"}</button>
        <span class={`conn-state ${state.value}`} role="status" data-testid="ws-state">
          {STATE_TEXT[state.value]}
          {state.value === "open" && protocol.value ? ` (${protocol.value})` : ""}
          {attempt.value > 1 ? ` · attempt ${attempt.value}` : ""}
        </span>
      </RequestLine>
      {closed.value && (
        <p class="close-info" data-testid="ws-close">
          {closeText(closed.value)}
        </p>
      )}
      <TabNotices core={core} />
      <HeadersSection core={core} summary="Handshake headers" label="Handshake header" />
      <ConnectionOptions />
      <WsComposer canSend={canSend} onSend={send} />
      <StreamLog store={wsLog} label="Messages" />
    </div>
  );
}

/** @returns keep-alive, auto-reconnect and the close code and reason */
function ConnectionOptions(): JSX.Element {
  return (
    <details>
      <summary>Connection options</summary>
      <div class="options">
        <CheckField label="Keep-alive message" value={keepAlive} />
        <TextField label="Every (seconds)" value={keepAliveSeconds} class="narrow" />
        <TextField label="Keep-alive text" value={keepAliveData} />
        <CheckField label="Auto-reconnect" value={reconnect} />
        <TextField label="Attempts" value={reconnectAttempts} class="narrow" />
        <TextField label="Delay (seconds)" value={reconnectSeconds} class="narrow" />
        <TextField label="Close code" value={closeCode} class="narrow" />
        <TextField label="Close reason" value={closeReason} />
      </div>
    </details>
  );
}
