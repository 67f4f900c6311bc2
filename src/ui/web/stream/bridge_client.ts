/**
 * The browser's side of the stream bridge: one WebSocket to the local server
 * (`/api/stream`) per session. The server runs the real session with the auth panel's
 * credentials and sends its events back in batches.
 * @module
 */
import { sessionSecret } from "../api.ts";
import {
  BRIDGE_UNAUTHORIZED,
  type BridgeEvent,
  type BridgeHello,
  isRecord,
  NO_SESSION_HINT,
  readErrorJson,
} from "../../protocol.ts";

export type { BridgeEvent };

/** What a {@link StreamBridge} reports. */
export interface BridgeHandlers {
  /** A batch of events, oldest first. */
  onEvents(events: BridgeEvent[]): void;
  /** The bridge closed (after the server's `end` event, or when the server went away). */
  onClosed(reason: string): void;
}

/** A running bridge: send commands, close. */
export class StreamBridge {
  readonly #socket: WebSocket;
  #ended = false;

  /**
   * Opens the bridge and starts the session once it is open.
   *
   * @param start the start command (kind, request, options)
   * @param handlers receive events and the end
   */
  constructor(start: Record<string, unknown>, handlers: BridgeHandlers) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = this.#socket = new WebSocket(`${scheme}//${location.host}/api/stream`);
    socket.onopen = () => {
      // A browser cannot set headers on a WebSocket: the first message proves the session.
      const hello: BridgeHello = { type: "hello", session: sessionSecret() };
      socket.send(JSON.stringify(hello));
      socket.send(JSON.stringify({ type: "start", ...start }));
    };
    socket.onmessage = (message) => {
      let batch: unknown;
      try {
        batch = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (!Array.isArray(batch)) return;
      const events = batch.filter((e): e is BridgeEvent =>
        isRecord(e) && typeof e.type === "string" && typeof e.time === "number"
      );
      if (events.some((e) => e.type === "end")) this.#ended = true;
      handlers.onEvents(events);
    };
    socket.onclose = (event) =>
      handlers.onClosed(
        this.#ended
          ? ""
          : event.code === BRIDGE_UNAUTHORIZED
          ? `The dial server refused this page's session: ${NO_SESSION_HINT}`
          : "Lost the connection to the dial server: is `dial ui` still running?",
      );
  }

  /**
   * Sends a text message, or base64 of a binary one.
   *
   * @param message `{text}` or `{base64}`
   */
  send(message: { text: string } | { base64: string }): void {
    if (this.#socket.readyState === WebSocket.OPEN) {
      this.#socket.send(JSON.stringify({ type: "send", ...message }));
    }
  }

  /**
   * Ends the session: the server closes it (with the code and reason, for a WebSocket).
   *
   * @param code a close code
   * @param reason a close reason
   */
  close(code?: number, reason?: string): void {
    if (this.#socket.readyState === WebSocket.OPEN) {
      this.#socket.send(JSON.stringify({
        type: "close",
        ...(code !== undefined ? { code } : {}),
        ...(reason ? { reason } : {}),
      }));
    } else if (this.#socket.readyState === WebSocket.CONNECTING) {
      this.#socket.close();
    }
  }
}

/**
 * @param value anything from an event
 * @returns the error's message and hint, when it is one
 */
export function eventError(value: unknown): { message: string; hint?: string } {
  const { message, hint } = readErrorJson(value);
  return { message, ...(hint ? { hint } : {}) };
}
