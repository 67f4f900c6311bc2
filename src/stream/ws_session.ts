/**
 * A WebSocket session: handshake with dial's auth, messages both ways, keep-alive, optional
 * auto-reconnect. No printing; the CLI and the UI server observe it through typed events.
 * @module
 */
import { hostPort } from "../http/authority.ts";
import { DialError, ErrorCode, StatusError, TimeoutError } from "../errors/mod.ts";
import { displayUrl, requestHeaders, requestUrl, USER_AGENT } from "../http/build_request.ts";
import { withCredentials } from "../http/credentials.ts";
import type { PreparedRequest, RequestSpec } from "../http/request_spec.ts";
import { transportFetch, type TransportOptions } from "../http/client.ts";
import { DialWebSocket, transportWebSocket } from "../http/websocket.ts";
import { EventChannel, sleep } from "./event_channel.ts";
import {
  answersChallenge,
  handshakeError,
  subprotocolMismatch,
  toWebSocketUrl,
} from "./ws_handshake.ts";

/** How long a close waits for the server's close frame before the connection is dropped. */
export const CLOSE_WAIT_MS = 2000;

/**
 * Creates a WebSocket; tests and other runtimes may pass their own. A factory may have an
 * `explain(socket, event)` method that words a failed handshake (see `transportWebSocket`).
 */
export type WebSocketFactory =
  & ((
    url: URL,
    init: { protocols: string[]; headers: Array<[string, string]> },
  ) => WebSocket | Promise<WebSocket>)
  & {
    explain?: (socket: WebSocket, event: Event) => DialError | undefined;
  };

/**
 * The runtime's own `WebSocket` (Deno's accepts handshake headers). It always sends its own
 * User-Agent and appends the request's headers after it, so dial's default one is left out:
 * the server sees one User-Agent (one given with `-H` is still sent, after Deno's).
 *
 * @param url the ws: or wss: URL
 * @param init subprotocols and handshake headers
 * @returns the new socket
 */
export function denoWebSocket(
  url: URL,
  init: { protocols: string[]; headers: Array<[string, string]> },
): WebSocket {
  const isDefault = ([name, value]: [string, string]) =>
    name.toLowerCase() === "user-agent" && value === USER_AGENT;
  return new WebSocket(url, { ...init, headers: init.headers.filter((h) => !isDefault(h)) });
}

/** Options for {@link WebSocketSession}. */
export interface WebSocketSessionOptions {
  /** Subprotocols to offer (`Sec-WebSocket-Protocol`); one must be chosen when given. */
  protocols?: string[];
  /** How sockets are made. Default: Deno's WebSocket. */
  createWebSocket?: WebSocketFactory;
  /** The fetch used for OAuth 2.0 token requests. */
  fetch?: typeof fetch;
  /** CA certificates, client certificate, `-k`, proxy, connect timeout. */
  transport?: TransportOptions;
  /** Limit for each handshake, in milliseconds. */
  timeoutMs?: number;
  /**
   * Keep-alive: send `data` as a text message every `intervalMs` while open. Deno's
   * WebSocket, like a browser's, cannot send protocol-level ping frames.
   */
  keepAlive?: { intervalMs: number; data: string };
  /** Reconnect after an abnormal close: how many times and how long to wait first. */
  reconnect?: { attempts: number; delayMs: number };
  /** Ends the session (Ctrl-C); the socket is closed with 1000. */
  signal?: AbortSignal;
  /** Called with each handshake request (for `-v`), credentials as secrets. */
  onRequest?: (request: PreparedRequest) => void;
}

/** The state of a {@link WebSocketSession}. */
export type WebSocketState = "idle" | "connecting" | "open" | "closing" | "closed";

/** How a connection ended. */
export interface WebSocketCloseInfo {
  /** The close code; 1006 when the connection was lost without a close frame. */
  code: number;
  /** The close reason, possibly empty. */
  reason: string;
  /** Whether a close handshake took place. */
  clean: boolean;
  /** Who started closing. */
  by: "client" | "server";
}

/** What a {@link WebSocketSession} reports; `time` is milliseconds since the epoch. */
export type WebSocketSessionEvent =
  | { type: "connecting"; time: number; attempt: number; url: string }
  | { type: "open"; time: number; protocol: string; extensions: string }
  | {
    type: "message";
    time: number;
    direction: "in" | "out";
    data: string | Uint8Array;
    /** Bytes on the wire (UTF-8 length for text). */
    size: number;
    /** A keep-alive message sent by the session itself. */
    keepAlive: boolean;
  }
  | ({ type: "close"; time: number } & WebSocketCloseInfo)
  | { type: "reconnecting"; time: number; attempt: number; delayMs: number }
  | { type: "error"; time: number; error: DialError };

/**
 * One WebSocket conversation. A session connects once (reconnecting by itself when
 * `reconnect` is set); after its final close, create a new session to connect again.
 *
 * @example
 * ```ts
 * const session = new WebSocketSession(spec, { protocols: ["chat"] });
 * session.events.subscribe((e) => e.type === "message" && console.log(e.direction, e.data));
 * await session.connect();
 * session.send("hello");
 * await session.close();
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6455
 */
export class WebSocketSession {
  /** Every event of the session, for listeners and `for await`. */
  readonly events: EventChannel<WebSocketSessionEvent> = new EventChannel();
  readonly #spec: RequestSpec;
  readonly #options: WebSocketSessionOptions;
  #socket?: WebSocket;
  /** The last refused handshake's answer (a Digest challenge is read from it). */
  #refusal: Response | undefined;
  #state: WebSocketState = "idle";
  #attempt = 0;
  #closingByClient = false;
  /** Aborted by {@link close}: ends a reconnection wait at once. */
  readonly #stop = new AbortController();
  #keepAliveTimer?: ReturnType<typeof setInterval>;
  #finished?: PromiseWithResolvers<WebSocketCloseInfo>;

  /**
   * Creates a session; nothing connects before `connect()`.
   *
   * @param spec the handshake request: a ws:, wss:, http: or https: URL, headers and auth
   * @param options subprotocols, socket factory, keep-alive, reconnection, signal
   */
  constructor(spec: RequestSpec, options: WebSocketSessionOptions = {}) {
    this.#spec = { ...spec, method: "GET", url: toWebSocketUrl(spec.url) };
    this.#options = options;
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  /**
   * The connection state.
   *
   * @returns the current state
   */
  get state(): WebSocketState {
    return this.#state;
  }

  /**
   * The subprotocol the server chose, or an empty string.
   *
   * @returns the subprotocol the server chose ("" for none)
   */
  get protocol(): string {
    return this.#socket?.protocol ?? "";
  }

  /**
   * The connection attempt, counting from 1.
   *
   * @returns how many handshakes were attempted
   */
  get attempt(): number {
    return this.#attempt;
  }

  /**
   * Resolves with the final close: after {@link close}, or after the server closed and no
   * reconnection is left.
   */
  get finished(): Promise<WebSocketCloseInfo> {
    return (this.#finished ??= Promise.withResolvers()).promise;
  }

  /**
   * Performs the handshake. A 401 to a cached OAuth 2.0 token is retried once with a fresh
   * token.
   *
   * @returns when the connection is open
   * @throws {StatusError} when the server refuses the handshake (the status decides the exit
   * code); {@link DialError} for a subprotocol mismatch, transport failure or timeout
   */
  connect(): Promise<void> {
    if (this.#state !== "idle") {
      return Promise.reject(
        new DialError(
          "A WebSocket session connects once: create a new session to connect again",
          ErrorCode.State,
        ),
      );
    }
    return this.#connect(false);
  }

  async #connect(reconnecting: boolean): Promise<void> {
    this.#finished ??= Promise.withResolvers();
    this.#closingByClient = false;
    try {
      await this.#open();
    } catch (error) {
      const failure = error instanceof DialError
        ? error
        : new DialError(String(error), ErrorCode.WebSocket, { cause: error });
      this.#state = "closed";
      this.#emit({ type: "error", error: failure });
      if (!reconnecting) {
        const by = this.#closingByClient ? "client" : "server";
        this.#finish({ code: 1006, reason: failure.message, clean: false, by });
      }
      throw failure;
    }
  }

  /**
   * Sends one message.
   *
   * @param data text, or bytes for a binary message
   * @throws {DialError} when the connection is not open
   */
  send(data: string | Uint8Array): void {
    this.#send(data, false);
  }

  /**
   * Stops reading incoming messages until {@link resume}: the server is slowed down by TCP's
   * flow control, and nothing is dropped. (A socket from a factory without `pause`, such as
   * the runtime's own WebSocket, cannot pause; the call does nothing then.)
   */
  pause(): void {
    (this.#socket as { pause?: () => void } | undefined)?.pause?.();
  }

  /** Reads incoming messages again after {@link pause}. */
  resume(): void {
    (this.#socket as { resume?: () => void } | undefined)?.resume?.();
  }

  /**
   * Closes the connection (no reconnection follows).
   *
   * @param code 1000 or 3000–4999
   * @param reason at most 123 bytes of UTF-8
   * @returns the final close
   */
  close(code = 1000, reason = ""): Promise<WebSocketCloseInfo> {
    const finished = this.finished;
    this.#closingByClient = true;
    this.#stop.abort();
    const socket = this.#socket;
    if (this.#state === "idle" || !socket) {
      this.#finish({ code, reason, clean: true, by: "client" });
    } else if (this.#state !== "closed" && this.#state !== "closing") {
      this.#state = "closing";
      try {
        socket.close(code, reason);
      } catch {
        socket.close();
      }
      // RFC 6455 7.1.1 lets the client give up on a server that never answers the close.
      const giveUp = setTimeout(() => {
        if (this.#state !== "closing") return;
        socket.onclose = socket.onmessage = null;
        const info: WebSocketCloseInfo = {
          code: 1006,
          reason: `the server did not answer the close frame within ${CLOSE_WAIT_MS / 1000} s`,
          clean: false,
          by: "client",
        };
        this.#state = "closed";
        this.#emit({ type: "close", ...info });
        this.#finish(info);
      }, CLOSE_WAIT_MS);
      finished.finally(() => clearTimeout(giveUp));
    }
    return finished;
  }

  #send(data: string | Uint8Array, keepAlive: boolean): void {
    const socket = this.#socket;
    if (this.#state !== "open" || !socket) {
      throw new DialError(
        `Cannot send: the connection is ${this.#state}`,
        ErrorCode.State,
      );
    }
    socket.send(data);
    const size = typeof data === "string" ? new TextEncoder().encode(data).length : data.length;
    this.#emit({ type: "message", direction: "out", data, size, keepAlive });
  }

  async #open(): Promise<void> {
    const credentials = {
      fetch: this.#options.fetch ?? transportFetch(this.#options.transport),
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    };
    const handshake = async (prepared: PreparedRequest) => {
      try {
        await this.#handshake(prepared);
      } catch (error) {
        if (!answersChallenge(prepared, error, this.#refusal)) throw error;
        await this.#handshake(prepared);
      }
    };
    await withCredentials(this.#spec, credentials, handshake, {
      unauthorized: (outcome) =>
        !outcome.ok && outcome.error instanceof StatusError && outcome.error.status === 401,
    });
  }

  async #handshake(built: PreparedRequest): Promise<void> {
    this.#refusal = undefined;
    const prepared = built.signer ? await built.signer.sign(built) : built;
    this.#attempt++;
    this.#state = "connecting";
    const url = requestUrl(prepared);
    const protocols = this.#options.protocols ?? [];
    this.#emit({ type: "connecting", attempt: this.#attempt, url: displayUrl(prepared) });
    // `-v` shows the subprotocols offered where the handshake sends them.
    const offer = protocols.length
      ? [{ name: "Sec-WebSocket-Protocol", value: protocols.join(", ") }]
      : [];
    this.#options.onRequest?.({ ...prepared, headers: [...prepared.headers, ...offer] });
    const create = this.#options.createWebSocket ?? transportWebSocket(this.#options.transport);
    const created = create(url, { protocols, headers: requestHeaders(prepared) });
    // A synchronous factory's socket gets its handlers before anything else can run.
    const socket = created instanceof Promise ? await created : created;
    socket.binaryType = "arraybuffer";
    this.#socket = socket;
    const target = hostPort(url);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const fail = (error: DialError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#options.signal?.removeEventListener("abort", onAbort);
        socket.onopen =
          socket.onerror =
          socket.onclose =
          socket.onmessage =
            null;
        try {
          socket.close();
        } catch { /* already closed */ }
        reject(error);
      };
      const timer = this.#options.timeoutMs === undefined ? undefined : setTimeout(
        () =>
          fail(new TimeoutError(`Timed out waiting for the WebSocket handshake with ${target}`)),
        this.#options.timeoutMs,
      );
      const onAbort = () => {
        const reason = this.#options.signal?.reason;
        fail(
          reason instanceof DialError ? reason : new DialError("Aborted", ErrorCode.Aborted),
        );
      };
      if (this.#options.signal?.aborted) return onAbort();
      this.#options.signal?.addEventListener("abort", onAbort, { once: true });
      const failed = (event: Event) => {
        this.#refusal = socket instanceof DialWebSocket ? socket.refusal : undefined;
        fail(create.explain?.(socket, event) ?? handshakeError(event, target));
      };
      socket.onerror = failed;
      socket.onclose = failed;
      socket.onopen = () => {
        if (settled) return;
        const mismatch = subprotocolMismatch(protocols, socket.protocol, target);
        if (mismatch) return fail(mismatch);
        settled = true;
        clearTimeout(timer);
        this.#options.signal?.removeEventListener("abort", onAbort);
        this.#attach(socket);
        this.#state = "open";
        this.#emit({ type: "open", protocol: socket.protocol, extensions: socket.extensions });
        this.#startKeepAlive();
        resolve();
      };
    });
  }

  #attach(socket: WebSocket): void {
    socket.onmessage = (event: MessageEvent) => {
      const data = event.data;
      if (typeof data === "string") {
        const size = new TextEncoder().encode(data).length;
        this.#emit({ type: "message", direction: "in", data, size, keepAlive: false });
      } else if (data instanceof ArrayBuffer) {
        const bytes = new Uint8Array(data);
        this.#emit({
          type: "message",
          direction: "in",
          data: bytes,
          size: bytes.length,
          keepAlive: false,
        });
      }
    };
    socket.onerror = () => {};
    socket.onclose = (event: CloseEvent) => void this.#onClose(event);
  }

  async #onClose(event: CloseEvent): Promise<void> {
    clearInterval(this.#keepAliveTimer);
    const info: WebSocketCloseInfo = {
      code: event.code === 0 ? 1006 : event.code,
      reason: event.reason,
      clean: event.wasClean && event.code !== 1006 && event.code !== 0,
      by: this.#closingByClient ? "client" : "server",
    };
    this.#state = "closed";
    this.#emit({ type: "close", ...info });
    const policy = this.#options.reconnect;
    if (this.#closingByClient || !policy || info.code === 1000) return this.#finish(info);
    for (let tries = 1; tries <= policy.attempts; tries++) {
      this.#emit({ type: "reconnecting", attempt: this.#attempt + 1, delayMs: policy.delayMs });
      const signal = this.#options.signal
        ? AbortSignal.any([this.#options.signal, this.#stop.signal])
        : this.#stop.signal;
      if (!await sleep(policy.delayMs, signal) || this.#closingByClient) break;
      try {
        await this.#connect(true);
        return;
      } catch {
        if (this.#closingByClient) break;
      }
    }
    this.#finish(info);
  }

  #startKeepAlive(): void {
    const keepAlive = this.#options.keepAlive;
    if (!keepAlive) return;
    this.#keepAliveTimer = setInterval(() => {
      if (this.#state === "open") this.#send(keepAlive.data, true);
    }, keepAlive.intervalMs);
  }

  #finish(info: WebSocketCloseInfo): void {
    clearInterval(this.#keepAliveTimer);
    this.#state = "closed";
    (this.#finished ??= Promise.withResolvers()).resolve(info);
    this.events.end();
  }

  #emit(event: DistributiveOmit<WebSocketSessionEvent, "time">): void {
    this.events.emit({ ...event, time: Date.now() } as WebSocketSessionEvent);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
