/**
 * The WebSocket and SSE tabs' endpoint, `GET /api/stream`: the browser opens a WebSocket to
 * the UI server (behind the same Host and Origin checks as every route), proves the session
 * in its first message (a browser cannot set headers on a WebSocket), asks for a session, and
 * the server runs it with `src/stream`, so the handshake carries the auth panel's
 * credentials. One browser socket is one session: closing it ends the session.
 * @module
 */
import { type DialError, UsageError } from "../../errors/mod.ts";
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
import { BRIDGE_UNAUTHORIZED, MAX_SESSION_JSON } from "../protocol.ts";
import { HELLO_DEADLINE_MS } from "../front_door.ts";
import type { Workspace } from "../workspace_path.ts";
import type { UiOAuthSettings } from "./spec_json.ts";
import {
  authTokenOptions,
  scopeSubstituter,
  type Substituter,
  substitutionFor,
} from "./environment_api.ts";
import type { VariableScope } from "../../files/substitute.ts";
import { parseJsonText } from "../../http/values.ts";
import { isObject, type JsonObject, object } from "./decode.ts";
import { evaluateFileRequest } from "./file_send.ts";
import type { ApiContext } from "./http_api.ts";
import type { RequestSpec } from "../../http/request_spec.ts";

/** How long a new bridge socket has to send its `hello`. */
const HELLO_TIMEOUT_MS = HELLO_DEADLINE_MS;

import type { TransportOptions } from "../../http/client.ts";

/** What the bridge needs from the UI server. */
export interface StreamContext extends Pick<ApiContext, "session" | "cookies" | "env"> {
  /** Whether the first message's session is one of this server's. */
  isSession?: (session: string) => boolean;
  /** Aborted when the UI server stops: every session ends. */
  signal: AbortSignal;
  /** The fetch for SSE requests and OAuth 2.0 token requests. */
  fetch?: typeof fetch;
  /** CA certificates, client certificate, `-k`, proxy for WebSocket handshakes. */
  transport?: TransportOptions;
  /** The workspace whose environments fill the `{{variables}}` of a start and its messages. */
  workspace?: Workspace;
  /** OAuth 2.0 settings, for an environment's `{{$auth.token("id")}}`. */
  oauth?: UiOAuthSettings;
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

/** What the page sees of a sent message that holds a private environment value. */
const REDACTED_MESSAGE = "(redacted: the message holds a private value)";

/** How much may wait for the page, in the outbox and the socket's buffer together: 8 MiB. */
export const BRIDGE_QUEUE_BYTES = 8 * 1024 * 1024;
/**
 * One frame carries at most about this much, so a backlog drains in steps (the page parses and
 * appends a frame in one task: 1 MiB frames made tasks of 22 ms of CPU in a 100,000-message
 * burst, 256 KiB ones 13-16 ms).
 */
const FRAME_BYTES = 256 * 1024;
/**
 * How much may wait in the browser socket's buffer before the next frame waits: four frames (one
 * frame at a time, checked every 50 ms, sent 5 MB a second, while the socket had drained in a few
 * milliseconds: a 100,000-message burst took seconds more to reach the page).
 */
const SOCKET_BYTES = 4 * FRAME_BYTES;
/** How often a full socket is checked again (WebSocket has no drain event). */
const DRAIN_POLL_MS = 10;

/**
 * Runs one session for one browser socket; events go out in batches, one frame per tick.
 * Memory is bounded when the page stops reading: while the bridge is full, an SSE session
 * stops reading its stream and a WebSocket session pauses its socket, so TCP slows the
 * server down and no message is lost.
 */
class StreamBridge {
  readonly #socket: WebSocket;
  readonly #context: StreamContext;
  #ws?: WebSocketSession;
  #sse?: SseSession;
  #outbox: BridgeEvent[] = [];
  #outboxBytes = 0;
  #paused = false;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #roomWaiters: Array<() => void> = [];
  #ended = false;
  #greeted = false;
  /** Commands run one after another (a start substitutes first, asynchronously). */
  #commands: Promise<void> = Promise.resolve();
  /** The start's substitution, for its text messages. */
  #substitute?: Substituter;
  /** The next outgoing message holds a private value: the page sees it redacted. */
  #redactOut = false;
  /** Ends the evaluation of a start from a file (its dependencies' requests) with the page. */
  readonly #stop = new AbortController();
  readonly #helloTimer: ReturnType<typeof setTimeout>;

  constructor(socket: WebSocket, context: StreamContext) {
    this.#socket = socket;
    this.#context = context;
    socket.onmessage = (event) => this.#onCommand(event.data);
    socket.onclose = () => this.#stopSession();
    socket.onerror = () => {};
    // A socket that does not prove the session at once is dropped.
    this.#helloTimer = setTimeout(() => this.#refuse(), HELLO_TIMEOUT_MS);
  }

  #refuse(): void {
    clearTimeout(this.#helloTimer);
    this.#ended = true;
    if (this.#socket.readyState <= WebSocket.OPEN) {
      this.#socket.close(BRIDGE_UNAUTHORIZED, "Unauthorized: no session");
    }
  }

  #onCommand(data: unknown): void {
    if (this.#ended) return;
    if (!this.#greeted) {
      let session: string | undefined;
      try {
        // Before the session is proven, nothing larger than a hello is parsed.
        const hello = typeof data === "string" && data.length <= MAX_SESSION_JSON
          ? parseBridgeCommand(data)
          : undefined;
        if (hello?.type === "hello") session = hello.session;
      } catch {
        // refused below
      }
      if (session === undefined || !this.#context.isSession?.(session)) return this.#refuse();
      clearTimeout(this.#helloTimer);
      this.#greeted = true;
      return;
    }
    this.#commands = this.#commands.then(() => this.#run(data));
  }

  async #run(data: unknown): Promise<void> {
    if (this.#ended) return;
    try {
      if (typeof data !== "string") throw new UsageError("Invalid bridge message: not text");
      let json = object(parseJsonText(data, "bridge message"), "bridge message");
      let built: RequestSpec | undefined;
      if (json.type === "start" && isObject(json.request) && !this.#ws && !this.#sse) {
        const request = json.request;
        if (isObject(request.fromFile)) {
          // A file's request is evaluated already: the composer's messages take its scope.
          let scope: VariableScope;
          [json, built, scope] = await this.#fromFile(json, request.fromFile);
          this.#substitute = scopeSubstituter(scope);
        } else {
          this.#substitute = await substitutionFor(
            request,
            this.#context.workspace,
            authTokenOptions(this.#context),
          );
        }
        if (this.#ended) return;
      }
      if (json.type === "send" && typeof json.text === "string") {
        await this.#substitute?.ready(json.text, "the message");
      }
      let command = parseBridgeCommand(json, this.#substitute);
      if (built && command.type === "start") {
        const start = command.start.kind === "sse"
          ? { ...command.start, spec: built, asWritten: true }
          : { ...command.start, spec: built };
        command = { ...command, start };
      }
      switch (command.type) {
        case "hello":
          throw new UsageError("The session was proven already");
        case "start":
          if (this.#ws || this.#sse) {
            throw new UsageError("A session is already running on this connection");
          }
          if (command.start.kind === "ws") this.#startWebSocket(command.start);
          else this.#startSse(command.start);
          break;
        case "send":
          if (!this.#ws) throw new UsageError("Cannot send: no WebSocket session is running");
          this.#redactOut = typeof json.text === "string" &&
            this.#substitute?.usesSecret(json.text, "the message") === true;
          try {
            this.#ws.send(command.data);
          } finally {
            this.#redactOut = false;
          }
          break;
        case "close":
          if (!this.#ws && !this.#sse) return this.#end();
          this.#ws?.close(command.code, command.reason);
          this.#sse?.close();
          break;
      }
    } catch (error) {
      this.#push({
        type: "error",
        time: Date.now(),
        error: errorJson(error, this.#context.workspace),
      });
      // A bad start leaves nothing to wait for; a failed send leaves the session running.
      if (!this.#ws && !this.#sse) this.#end();
    }
  }

  /**
   * A start of a tab's request from a workspace file: evaluated as `dial run` evaluates it
   * (its dependencies run, its pre-request scripts, the whole scope).
   *
   * @returns the start with the built URL in place of the tab's, the built request, its scope
   */
  async #fromFile(
    json: JsonObject,
    fromFile: JsonObject,
  ): Promise<[JsonObject, RequestSpec, VariableScope]> {
    const built = await evaluateFileRequest(fromFile, {
      ...this.#context,
      signal: AbortSignal.any([this.#context.signal, this.#stop.signal]),
    });
    const spec = { ...built.spec, url: new URL(built.spec.url) };
    // The session takes http(s) URLs as the tab sends them, and turns them back into ws(s).
    if (spec.url.protocol === "ws:" || spec.url.protocol === "wss:") {
      spec.url.protocol = spec.url.protocol === "wss:" ? "https:" : "http:";
    }
    const request = { url: spec.url.href, headers: [], method: spec.method };
    return [{ ...json, request }, spec, built.scope];
  }

  #startWebSocket(start: StartWebSocket): void {
    const session = this.#ws = new WebSocketSession(start.spec, {
      protocols: start.protocols,
      signal: this.#context.signal,
      ...(this.#context.fetch ? { fetch: this.#context.fetch } : {}),
      ...(this.#context.transport ? { transport: this.#context.transport } : {}),
      ...(start.keepAlive ? { keepAlive: start.keepAlive } : {}),
      ...(start.reconnect ? { reconnect: start.reconnect } : {}),
    });
    session.events.subscribe((event) => {
      // The session tells of a sent message at once: one with a private value is not shown.
      if (this.#redactOut && event.type === "message" && event.direction === "out") {
        this.#push(webSocketEventJson({ ...event, data: REDACTED_MESSAGE }));
        return;
      }
      this.#push(webSocketEventJson(event));
    });
    // A refused handshake was reported as an error event already.
    session.connect().catch(() => {});
    session.finished.then(() => this.#end());
  }

  #startSse(start: StartSse): void {
    const session = this.#sse = new SseSession(start.spec, {
      reconnect: start.reconnect,
      signal: this.#context.signal,
      ...(start.lastEventId !== undefined ? { lastEventId: start.lastEventId } : {}),
      ...(start.asWritten ? { asWritten: true } : {}),
      ...(this.#context.fetch ? { fetch: this.#context.fetch } : {}),
      ready: () => this.#ready(),
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
    clearTimeout(this.#helloTimer);
    this.#ended = true;
    this.#stop.abort();
    void this.#ws?.close();
    this.#sse?.close("the app closed the stream");
    this.#wakeRoomWaiters();
  }

  #pending(): number {
    return this.#outboxBytes + this.#socket.bufferedAmount;
  }

  #push(event: BridgeEvent): void {
    if (this.#ended) return;
    this.#outbox.push(event);
    this.#outboxBytes += eventBytes(event);
    if (this.#ws && !this.#paused && this.#pending() > BRIDGE_QUEUE_BYTES) {
      this.#paused = true;
      this.#ws.pause();
    }
    this.#scheduleFlush(0);
  }

  /** @returns undefined while there is room, else a promise resolved once there is */
  #ready(): Promise<void> | undefined {
    if (this.#ended || this.#pending() <= BRIDGE_QUEUE_BYTES) return undefined;
    return new Promise((resolve) => this.#roomWaiters.push(resolve));
  }

  #scheduleFlush(ms: number): void {
    if (this.#flushTimer !== undefined) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#flush();
    }, ms);
  }

  #flush(): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return this.#wakeRoomWaiters();
    // Events of one burst travel in one frame: 10,000 messages are not 10,000 frames.
    while (this.#outbox.length > 0) {
      if (this.#socket.bufferedAmount >= SOCKET_BYTES) {
        this.#scheduleFlush(DRAIN_POLL_MS);
        break;
      }
      let count = 0;
      let bytes = 0;
      while (count < this.#outbox.length && (bytes < FRAME_BYTES || count === 0)) {
        bytes += eventBytes(this.#outbox[count++]!);
      }
      // Taken off the front at once: a shift per event moved the whole outbox each time (a
      // 100,000-message backlog is an array V8 cannot trim in place), seconds of a burst.
      const batch = this.#outbox.splice(0, count);
      this.#outboxBytes -= bytes;
      this.#socket.send(JSON.stringify(batch));
    }
    this.#wakeRoomWaiters();
    if (this.#paused && this.#pending() <= BRIDGE_QUEUE_BYTES / 2) {
      this.#paused = false;
      this.#ws?.resume();
    }
  }

  #wakeRoomWaiters(): void {
    if (
      !this.#ended && this.#socket.readyState === WebSocket.OPEN &&
      this.#pending() > BRIDGE_QUEUE_BYTES
    ) {
      return;
    }
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Sends what is left and an `end` event, then closes the browser socket. */
  #end(): void {
    if (this.#ended) return;
    this.#push({ type: "end", time: Date.now() });
    this.#ended = true;
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    this.#drainThenClose();
  }

  /** What is queued still goes out before the close (the page may be slow, not gone). */
  #drainThenClose(): void {
    this.#flush();
    if (this.#socket.readyState !== WebSocket.OPEN) return this.#wakeRoomWaiters();
    if (this.#outbox.length > 0) {
      setTimeout(() => this.#drainThenClose(), DRAIN_POLL_MS);
      return;
    }
    this.#socket.close(1000, "session ended");
    this.#wakeRoomWaiters();
  }
}

/** An estimate of an event's size in the outbox: its text plus the object's overhead. */
function eventBytes(event: BridgeEvent): number {
  const text = typeof event.text === "string"
    ? event.text.length
    : typeof event.base64 === "string"
    ? event.base64.length
    : typeof event.data === "string"
    ? event.data.length
    : 0;
  return text + 128;
}
