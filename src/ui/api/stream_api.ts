/**
 * The WebSocket and SSE tabs' endpoint, `GET /api/stream`: the browser opens a WebSocket to
 * the UI server (behind the same secret cookie, Host and Origin checks as every route), asks
 * for a session, and the server runs it with `src/stream`, so the handshake carries the auth
 * panel's credentials (a browser cannot set WebSocket headers; Deno can). One browser socket
 * is one session: closing it ends the session.
 * @module
 */
import { type DialError, UsageError } from "../../errors.ts";
import { SseSession } from "../../stream/sse_session.ts";
import { WebSocketSession } from "../../stream/ws_session.ts";
import {
  type BridgeEvent,
  errorJson,
  parseBridgeCommand,
  sseEventJson,
  type StartSse,
  type StartWebSocket,
  webSocketEventJson,
} from "./stream_messages.ts";

/** What the bridge needs from the UI server. */
export interface StreamContext {
  /** Aborted when the UI server stops: every session ends. */
  signal: AbortSignal;
  /** The fetch for SSE requests and OAuth 2.0 token requests. */
  fetch?: typeof fetch;
}

/**
 * `GET /api/stream`: upgrades to the bridge WebSocket.
 *
 * @param request the browser's upgrade request (already past the UI server's checks)
 * @param context the server's signal and fetch
 * @returns the 101 response
 * @throws {UsageError} when the request is not a WebSocket upgrade
 */
export function handleStreamSocket(request: Request, context: StreamContext): Promise<Response> {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    throw new UsageError("Expected a WebSocket upgrade", {
      hint: "the stream tabs open this endpoint with new WebSocket()",
    });
  }
  const { socket, response } = Deno.upgradeWebSocket(request);
  new StreamBridge(socket, context);
  return Promise.resolve(response);
}

/** Runs one session for one browser socket; events go out in batches, one frame per tick. */
class StreamBridge {
  readonly #socket: WebSocket;
  readonly #context: StreamContext;
  #ws?: WebSocketSession;
  #sse?: SseSession;
  #outbox: BridgeEvent[] = [];
  #flushing = false;
  #ended = false;

  constructor(socket: WebSocket, context: StreamContext) {
    this.#socket = socket;
    this.#context = context;
    socket.onmessage = (event) => this.#onCommand(event.data);
    socket.onclose = () => this.#stopSession();
    socket.onerror = () => {};
  }

  #onCommand(data: unknown): void {
    if (this.#ended) return;
    try {
      if (typeof data !== "string") throw new UsageError("Invalid bridge message: not text");
      const command = parseBridgeCommand(data);
      switch (command.type) {
        case "start":
          if (this.#ws || this.#sse) {
            throw new UsageError("A session is already running on this connection");
          }
          if (command.start.kind === "ws") this.#startWebSocket(command.start);
          else this.#startSse(command.start);
          break;
        case "send":
          if (!this.#ws) throw new UsageError("Cannot send: no WebSocket session is running");
          this.#ws.send(command.data);
          break;
        case "close":
          if (!this.#ws && !this.#sse) return this.#end();
          this.#ws?.close(command.code, command.reason);
          this.#sse?.close();
          break;
      }
    } catch (error) {
      this.#push({ type: "error", time: Date.now(), error: errorJson(error) });
      // A bad start leaves nothing to wait for; a failed send leaves the session running.
      if (!this.#ws && !this.#sse) this.#end();
    }
  }

  #startWebSocket(start: StartWebSocket): void {
    const session = this.#ws = new WebSocketSession(start.spec, {
      protocols: start.protocols,
      signal: this.#context.signal,
      ...(this.#context.fetch ? { fetch: this.#context.fetch } : {}),
      ...(start.keepAlive ? { keepAlive: start.keepAlive } : {}),
      ...(start.reconnect ? { reconnect: start.reconnect } : {}),
    });
    session.events.subscribe((event) => this.#push(webSocketEventJson(event)));
    // A refused handshake was reported as an error event already.
    session.connect().catch(() => {});
    session.finished.then(() => this.#end());
  }

  #startSse(start: StartSse): void {
    const session = this.#sse = new SseSession(start.spec, {
      reconnect: start.reconnect,
      signal: this.#context.signal,
      ...(start.lastEventId !== undefined ? { lastEventId: start.lastEventId } : {}),
      ...(this.#context.fetch ? { fetch: this.#context.fetch } : {}),
    });
    let reported: DialError | undefined;
    session.events.subscribe((event) => {
      if (event.type === "error") reported = event.error;
      this.#push(sseEventJson(event));
    });
    session.run().catch((error) => {
      if (error !== reported) {
        this.#push({ type: "error", time: Date.now(), error: errorJson(error) });
      }
    }).finally(() => this.#end());
  }

  #stopSession(): void {
    this.#ended = true;
    void this.#ws?.close();
    this.#sse?.close("the app closed the stream");
  }

  #push(event: BridgeEvent): void {
    if (this.#ended) return;
    this.#outbox.push(event);
    if (this.#flushing) return;
    this.#flushing = true;
    // Events of one burst travel in one frame: 10,000 messages are not 10,000 frames.
    setTimeout(() => this.#flush(), 0);
  }

  #flush(): void {
    this.#flushing = false;
    if (this.#outbox.length === 0 || this.#socket.readyState !== WebSocket.OPEN) return;
    const batch = this.#outbox;
    this.#outbox = [];
    this.#socket.send(JSON.stringify(batch));
  }

  /** Sends what is left and an `end` event, then closes the browser socket. */
  #end(): void {
    if (this.#ended) return;
    this.#outbox.push({ type: "end", time: Date.now() });
    this.#flush();
    this.#ended = true;
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.close(1000, "session ended");
  }
}
