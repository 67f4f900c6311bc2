/**
 * WebSocket and Server-Sent Events sessions for Deno scripts: the same cores `dial ws`,
 * `dial sse` and the desktop UI drive, with typed events and no printing. Imported as
 * `@dial/dial/stream`.
 *
 * @example
 * ```ts
 * import { SseSession } from "./mod.ts";
 * const session = new SseSession({
 *   method: "GET",
 *   url: new URL("https://api.example.com/events"),
 *   headers: [],
 *   auth: { queryKeys: [] },
 * });
 * for await (const event of session.events) if (event.type === "event") break;
 * ```
 * @module
 */
export {
  denoWebSocket,
  type WebSocketCloseInfo,
  type WebSocketFactory,
  WebSocketSession,
  type WebSocketSessionEvent,
  type WebSocketSessionOptions,
  type WebSocketState,
} from "./ws_session.ts";
export {
  DEFAULT_RETRY_MS,
  SseSession,
  type SseSessionEvent,
  type SseSessionOptions,
  type SseState,
} from "./sse_session.ts";
export {
  type EventStreamHandlers,
  readEventStream,
  type ServerSentEvent,
} from "./read_event_stream.ts";
export { EventChannel, type Listener } from "./event_channel.ts";
export { StatusError } from "../errors/mod.ts";
