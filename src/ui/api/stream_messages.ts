/**
 * The stream bridge's wire format between the browser and the UI server: what the browser
 * asks for (validated: `unknown` in, a typed command or a {@link UsageError} out) and how the
 * session events of `src/stream` travel back as JSON.
 * @module
 */
import { parseJsonText, parseUrl } from "../../http/values.ts";
import { UsageError } from "../../errors/mod.ts";
import type { RequestSpec } from "../../http/request_spec.ts";
import type { SseSessionEvent } from "../../stream/sse_session.ts";
import type { WebSocketSessionEvent } from "../../stream/ws_session.ts";
import { array, boolean, isObject, type JsonObject, object, oneOf, string } from "./decode.ts";
import { type Substituter, substituteRows } from "./environment_api.ts";
import { parseUiRequest } from "./spec_json.ts";
import { errorJson } from "./error_json.ts";
import type { BridgeEvent, BridgeHello } from "../protocol.ts";

export { errorJson };
export type { BridgeEvent };

/** Starts a WebSocket session: the handshake carries the auth panel's credentials. */
export interface StartWebSocket {
  kind: "ws";
  /** The handshake request (method GET). */
  spec: RequestSpec;
  /** Subprotocols to offer. */
  protocols: string[];
  /** A text message sent every `intervalMs` while open. */
  keepAlive?: { intervalMs: number; data: string };
  /** Reconnection after an abnormal close. */
  reconnect?: { attempts: number; delayMs: number };
}

/** Starts a server-sent events session. */
export interface StartSse {
  kind: "sse";
  /** The request (GET, or POST with a body). */
  spec: RequestSpec;
  /** Sent as `Last-Event-ID` on the first connection. */
  lastEventId?: string;
  /** Whether to reconnect when the stream ends. */
  reconnect: boolean;
  /** A request file's request: its headers sent as written, as `dial run` sends them. */
  asWritten?: boolean;
}

/** What the browser may send over the bridge. */
export type BridgeCommand =
  | BridgeHello
  | { type: "start"; start: StartWebSocket | StartSse }
  | { type: "send"; data: string | Uint8Array }
  | { type: "close"; code?: number; reason?: string };

/** The longest keep-alive interval or reconnection delay accepted: one day. */
const MAX_MS = 86_400_000;

/**
 * Parses one message from the browser.
 *
 * @param text a text frame, or its JSON
 * @param substitute replaces the `{{variables}}` of a start's URL, headers and body and of a
 *   text message (the start's scope: a file's request's as `dial run` evaluated it)
 * @returns the command
 * @throws {UsageError} naming what is wrong
 */
export function parseBridgeCommand(
  text: string | JsonObject,
  substitute?: Substituter,
): BridgeCommand {
  let json = typeof text === "string"
    ? object(parseJsonText(text, "bridge message"), "bridge message")
    : text;
  if (substitute) json = substituted(json, substitute);
  const type = oneOf(json.type, "type", ["hello", "start", "send", "close"] as const);
  switch (type) {
    case "hello":
      return { type, session: string(json.session, "session") };
    case "start":
      return { type, start: parseStart(json) };
    case "send":
      return { type, data: parseSendData(json) };
    case "close": {
      const code = json.code === undefined ? undefined : closeCode(json.code);
      const reason = json.reason === undefined ? undefined : string(json.reason, "reason");
      if (reason !== undefined && new TextEncoder().encode(reason).length > 123) {
        throw new UsageError("Invalid close reason: longer than 123 bytes of UTF-8");
      }
      return {
        type,
        ...(code !== undefined ? { code } : {}),
        ...(reason !== undefined ? { reason } : {}),
      };
    }
  }
}

/** A start's request and a text message with their `{{variables}}` replaced. */
function substituted(json: JsonObject, sub: Substituter): JsonObject {
  if (json.type === "send" && typeof json.text === "string") {
    return { ...json, text: sub(json.text, "the message") };
  }
  if (json.type !== "start" || !isObject(json.request)) return json;
  const request = json.request;
  const body = isObject(request.body) && typeof request.body.text === "string"
    ? { body: { ...request.body, text: sub(request.body.text, "the body") } }
    : {};
  return {
    ...json,
    request: {
      ...request,
      ...(typeof request.url === "string" ? { url: sub(request.url, "the URL") } : {}),
      headers: substituteRows(request.headers, "header", sub),
      ...body,
    },
  };
}

function parseStart(json: JsonObject): StartWebSocket | StartSse {
  const kind = oneOf(json.kind, "kind", ["ws", "sse"] as const);
  const request = object(json.request, "request");
  if (kind === "ws") {
    // parseUiRequest takes http(s) URLs; the session turns them back into ws(s).
    const url = parseUrl(string(request.url ?? "", "url").trim(), [
      "ws:",
      "wss:",
      "http:",
      "https:",
    ], true);
    url.protocol = url.protocol === "wss:"
      ? "https:"
      : url.protocol === "ws:"
      ? "http:"
      : url.protocol;
    const spec = parseUiRequest({ ...request, url: url.href, method: "GET", body: undefined });
    const protocols = array(json.protocols, "protocols").map((p, i) =>
      string(p, `protocols[${i}]`).trim()
    ).filter((p) => p !== "");
    for (const protocol of protocols) {
      // RFC 6455 4.1: a subprotocol is an HTTP token.
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(protocol)) {
        throw new UsageError(`Invalid subprotocol "${protocol}": not a token`, {
          hint: "subprotocols are names like graphql-transport-ws, without spaces or commas",
        });
      }
    }
    const keepAlive = json.keepAlive === undefined || json.keepAlive === null
      ? undefined
      : object(json.keepAlive, "keepAlive");
    const reconnect = json.reconnect === undefined || json.reconnect === null
      ? undefined
      : object(json.reconnect, "reconnect");
    return {
      kind,
      spec,
      protocols,
      ...(keepAlive
        ? {
          keepAlive: {
            intervalMs: milliseconds(keepAlive.intervalMs, "keepAlive.intervalMs", 100),
            data: string(keepAlive.data ?? "", "keepAlive.data"),
          },
        }
        : {}),
      ...(reconnect
        ? {
          reconnect: {
            attempts: count(reconnect.attempts, "reconnect.attempts"),
            delayMs: milliseconds(reconnect.delayMs, "reconnect.delayMs", 0),
          },
        }
        : {}),
    };
  }
  const method = string(request.method ?? "GET", "method").trim().toUpperCase();
  if (method !== "GET" && method !== "POST") {
    throw new UsageError(`Invalid method "${method}" for server-sent events: use GET or POST`);
  }
  const spec = parseUiRequest({
    ...request,
    method,
    ...(method === "GET" ? { body: undefined } : {}),
  });
  const lastEventId = json.lastEventId === undefined || json.lastEventId === ""
    ? undefined
    : string(json.lastEventId, "lastEventId");
  if (lastEventId !== undefined && /[\0\r\n]/.test(lastEventId)) {
    throw new UsageError("Invalid Last-Event-ID: contains a line break or NUL");
  }
  return {
    kind,
    spec,
    ...(lastEventId !== undefined ? { lastEventId } : {}),
    reconnect: json.reconnect === undefined ? true : boolean(json.reconnect, "reconnect"),
  };
}

function parseSendData(json: JsonObject): string | Uint8Array {
  if (json.base64 !== undefined) {
    const text = string(json.base64, "base64");
    try {
      return Uint8Array.fromBase64(text);
    } catch {
      throw new UsageError("Invalid binary message: not base64");
    }
  }
  return string(json.text, "text");
}

function milliseconds(value: unknown, field: string, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > MAX_MS) {
    throw new UsageError(`Invalid ${field}: expected whole milliseconds from ${min} to ${MAX_MS}`);
  }
  return value;
}

function count(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 1000) {
    throw new UsageError(`Invalid ${field}: expected a whole number from 0 to 1000`);
  }
  return value;
}

function closeCode(value: unknown): number {
  if (
    typeof value !== "number" || !Number.isInteger(value) ||
    !(value === 1000 || (value >= 3000 && value <= 4999))
  ) {
    throw new UsageError("Invalid close code: use 1000 or 3000–4999");
  }
  return value;
}

/**
 * @param event a WebSocket session event
 * @returns it as JSON for the browser
 */
export function webSocketEventJson(event: WebSocketSessionEvent): BridgeEvent {
  switch (event.type) {
    case "message": {
      const { data, ...rest } = event;
      return typeof data === "string"
        ? { ...rest, text: data }
        : { ...rest, base64: toBase64(data) };
    }
    case "error":
      return { type: "error", time: event.time, error: errorJson(event.error) };
    default:
      return { ...event };
  }
}

/**
 * @param event an SSE session event
 * @returns it as JSON for the browser
 */
export function sseEventJson(event: SseSessionEvent): BridgeEvent {
  if (event.type === "error") {
    return {
      type: "error",
      time: event.time,
      error: errorJson(event.error),
      willRetry: event.willRetry,
    };
  }
  return { ...event };
}

function toBase64(bytes: Uint8Array): string {
  return bytes.toBase64();
}
