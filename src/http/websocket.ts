/**
 * dial's WebSocket client (RFC 6455) on the same transport plan and connection as every HTTP
 * request: proxies, trust, `-k`, client certificates, `--resolve`, `--connect-to` and
 * `--unix-socket` apply alike. Unlike the runtime's `WebSocket`, it can {@link
 * DialWebSocket.pause pause}: while paused it reads nothing from the socket, so TCP slows the
 * server down and no message has to be held or dropped.
 * @module
 */
import { concatBytes } from "../bytes.ts";
import { load } from "../load.ts";
import type { DialError } from "../errors/mod.ts";
import { type Connection, openConnection } from "./connect.ts";
import { RUNTIME_MESSAGES } from "../errors/runtime_messages.ts";
import { ByteReader, parseHead } from "./h1.ts";
import { planFor, type TransportOptions } from "./plan.ts";
import { webSocketHead } from "./wire.ts";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/** The largest message accepted (close 1009 beyond). */
export const MAX_MESSAGE = 64 * 1024 * 1024;

/** How a {@link DialWebSocket} is opened. */
export interface DialWebSocketInit {
  /** Subprotocols to offer. */
  protocols?: string[];
  /** Handshake headers (credentials, `-H`), sent in this order and case. */
  headers?: Array<[string, string]>;
  /** Aborts the handshake. */
  signal?: AbortSignal;
}

const ENCODER = new TextEncoder();
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A WebSocket with the runtime's interface (`onopen`, `onmessage`, `onclose`, `onerror`,
 * `send`, `close`, `readyState`, `protocol`) plus `pause()` and `resume()`.
 */
export class DialWebSocket extends EventTarget {
  /** Ready states, as on `WebSocket`. */
  static readonly CONNECTING = 0;
  /** Open. */
  static readonly OPEN = 1;
  /** Closing. */
  static readonly CLOSING = 2;
  /** Closed. */
  static readonly CLOSED = 3;
  /** Connecting, as on a `WebSocket` instance. */
  readonly CONNECTING = 0;
  /** Open. */
  readonly OPEN = 1;
  /** Closing. */
  readonly CLOSING = 2;
  /** Closed. */
  readonly CLOSED = 3;
  /** Bytes queued to send (not tracked: sends are written in order as they come). */
  readonly bufferedAmount = 0;
  /** The state: 0 connecting, 1 open, 2 closing, 3 closed. */
  readyState = 0;
  /** The subprotocol the server chose, or "". */
  protocol = "";
  /** The extensions the server chose (none are offered). */
  readonly extensions = "";
  /** How binary messages are delivered (`arraybuffer`; `blob` is not supported). */
  binaryType: BinaryType = "arraybuffer";
  /** The URL. */
  readonly url: string;
  /** Why the connection failed, in words, when it did. */
  failure?: DialError;
  /**
   * The server's answer when it refused the handshake (not 101): status and headers, no body.
   * A Digest challenge is read from it, as curl answers a refused upgrade.
   */
  refusal?: Response;
  /** Called when the connection opens. */
  onopen: ((event: Event) => void) | null = null;
  /** Called with each message. */
  onmessage: ((event: MessageEvent) => void) | null = null;
  /** Called when the connection fails. */
  onerror: ((event: Event) => void) | null = null;
  /** Called when the connection has closed. */
  onclose: ((event: CloseEvent) => void) | null = null;
  #conn?: Connection;
  #writing: Promise<void> = Promise.resolve();
  #paused = false;
  #wake: (() => void) | undefined;
  #closeSent = false;
  #closed = false;

  /**
   * Opens a connection; events follow.
   *
   * @param url a ws: or wss: URL
   * @param init subprotocols, handshake headers, signal
   * @param options the transport options
   */
  constructor(url: URL | string, init: DialWebSocketInit = {}, options: TransportOptions = {}) {
    super();
    this.url = String(url);
    this.#run(new URL(url), init, options).catch(() => {});
  }

  /** Stops reading from the server: TCP's flow control then holds the server back. */
  pause(): void {
    this.#paused = true;
  }

  /** Reads again after {@link pause}. */
  resume(): void {
    this.#paused = false;
    this.#wake?.();
  }

  /**
   * Sends a message.
   *
   * @param data text, or bytes for a binary message
   */
  send(data: string | ArrayBufferLike | ArrayBufferView | Blob): void {
    if (this.readyState !== 1) {
      throw new DOMException("the WebSocket is not open", "InvalidStateError");
    }
    if (data instanceof Blob) throw new TypeError("Blob messages are not supported");
    const bytes = typeof data === "string"
      ? ENCODER.encode(data)
      : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);
    this.#frame(typeof data === "string" ? 1 : 2, bytes);
  }

  /**
   * Starts the closing handshake.
   *
   * @param code 1000 or 3000–4999
   * @param reason at most 123 bytes of UTF-8
   */
  close(code = 1000, reason = ""): void {
    if (this.readyState >= 2) return;
    if (this.readyState === 0) {
      this.#fail(undefined, 1006, "closed before the connection opened");
      return;
    }
    this.readyState = 2;
    this.#sendClose(code, reason);
    this.resume();
  }

  #sendClose(code: number, reason: string): void {
    if (this.#closeSent) return;
    this.#closeSent = true;
    const text = ENCODER.encode(reason).subarray(0, 123);
    const payload = new Uint8Array(2 + text.length);
    payload[0] = code >> 8;
    payload[1] = code & 0xff;
    payload.set(text, 2);
    this.#frame(8, payload);
  }

  #frame(opcode: number, payload: Uint8Array): void {
    const length = payload.length;
    const head = length < 126 ? 2 : length < 65536 ? 4 : 10;
    const frame = new Uint8Array(head + 4 + length);
    frame[0] = 0x80 | opcode;
    if (length < 126) frame[1] = 0x80 | length;
    else if (length < 65536) {
      frame[1] = 0x80 | 126;
      frame[2] = length >> 8;
      frame[3] = length & 0xff;
    } else {
      frame[1] = 0x80 | 127;
      new DataView(frame.buffer).setBigUint64(2, BigInt(length));
    }
    const mask = crypto.getRandomValues(new Uint8Array(4));
    frame.set(mask, head);
    for (let i = 0; i < length; i++) frame[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
    const conn = this.#conn!;
    this.#writing = this.#writing.then(() => conn.write(frame)).catch(() => {});
  }

  #emit(event: Event): void {
    const handler = `on${event.type}` as "onopen" | "onmessage" | "onerror" | "onclose";
    try {
      (this[handler] as ((event: Event) => void) | null)?.(event);
    } finally {
      this.dispatchEvent(event);
    }
  }

  #fail(failure: DialError | undefined, code: number, reason: string, message = reason): void {
    if (this.#closed) return;
    this.#closed = true;
    if (failure) this.failure = failure;
    this.readyState = 3;
    this.#conn?.close();
    this.#emit(new ErrorEvent("error", { message }));
    this.#emit(new CloseEvent("close", { code, reason, wasClean: false }));
  }

  #finish(code: number, reason: string, clean: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    this.readyState = 3;
    this.#conn?.close();
    this.#emit(new CloseEvent("close", { code, reason, wasClean: clean }));
  }

  async #run(url: URL, init: DialWebSocketInit, options: TransportOptions): Promise<void> {
    let reader: ByteReader;
    try {
      reader = await this.#handshake(url, init, options);
    } catch (error) {
      const { tlsError } = await load.transportError();
      const { DialError, TransportError } = await import("../errors/mod.ts");
      const plan = planFor(url, options, "websocket");
      const failure = error instanceof DialError ? error : tlsError(error, plan.target) ??
        new TransportError(
          `Cannot open a WebSocket to ${plan.target}: ${
            /refused/i.test(String(error)) ? "connection refused" : (error as Error).message
          }`,
          { cause: error },
        );
      const status = RUNTIME_MESSAGES.handshakeStatus.exec(String((error as Error).message))?.[1];
      this.#fail(
        status ? undefined : failure,
        1006,
        "",
        status ? (error as Error).message : failure.message,
      );
      return;
    }
    this.readyState = 1;
    this.#emit(new Event("open"));
    await this.#read(reader);
  }

  async #handshake(
    url: URL,
    init: DialWebSocketInit,
    options: TransportOptions,
  ): Promise<ByteReader> {
    const plan = planFor(url, options, "websocket");
    options.onRoute?.(plan);
    const conn = this.#conn = await openConnection(plan, init.signal, options.onRoute);
    const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    // As `-v` shows it (wire.ts): the subprotocols offered after the request's own headers.
    const offer: Array<[string, string]> = init.protocols?.length
      ? [["Sec-WebSocket-Protocol", init.protocols.join(", ")]]
      : [];
    let head = `GET ${url.pathname || "/"}${url.search} HTTP/1.1\r\n`;
    for (const [name, value] of webSocketHead([...init.headers ?? [], ...offer], url, key)) {
      head += `${name}: ${value}\r\n`;
    }
    await conn.write(Uint8Array.from(`${head}\r\n`, (c) => c.charCodeAt(0) & 0xff));
    const reader = new ByteReader(conn);
    const text = await reader.head(64 * 1024);
    if (text === undefined) {
      throw new Error("the server closed the connection during the handshake");
    }
    const response = parseHead(text);
    if (response.status !== 101) {
      conn.close();
      try {
        this.refusal = new Response(null, { status: response.status, headers: response.headers });
      } catch {
        // A status or header a Response cannot hold: there is no challenge to read.
      }
      throw new Error(`invalid status code ${response.status}`);
    }
    const get = (name: string) =>
      response.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? "";
    const digest = await crypto.subtle.digest("SHA-1", ENCODER.encode(key + GUID));
    const accept = btoa(String.fromCharCode(...new Uint8Array(digest)));
    if (get("upgrade").toLowerCase() !== "websocket" || get("sec-websocket-accept") !== accept) {
      conn.close();
      throw new Error("the server's handshake answer is not a WebSocket upgrade");
    }
    this.protocol = get("sec-websocket-protocol");
    return reader;
  }

  async #read(reader: ByteReader): Promise<void> {
    const parts: Uint8Array[] = [];
    let size = 0;
    let type = 0;
    try {
      for (;;) {
        while (this.#paused && !this.#closed) {
          await new Promise<void>((resolve) => this.#wake = resolve);
          this.#wake = undefined;
        }
        if (this.#closed) return;
        const b = await reader.exactly(2);
        if (!b) return this.#finish(1006, "", false);
        const fin = (b[0]! & 0x80) !== 0;
        const opcode = b[0]! & 0x0f;
        let length = b[1]! & 0x7f;
        if (b[1]! & 0x80) return this.#protocolError("the server masked a frame");
        if (length === 126) length = new DataView((await reader.exactly(2))!.buffer).getUint16(0);
        else if (length === 127) {
          length = Number(new DataView((await reader.exactly(8))!.buffer).getBigUint64(0));
        }
        if (length > MAX_MESSAGE || size + length > MAX_MESSAGE) {
          this.#sendClose(1009, "message too big");
          return this.#finish(1009, "message too big", false);
        }
        const payload = length === 0 ? new Uint8Array(0) : await reader.exactly(length);
        if (!payload) return this.#finish(1006, "", false);
        if (opcode >= 8) {
          if (opcode === 9) this.#frame(10, payload);
          else if (opcode === 8) {
            const code = payload.length >= 2 ? (payload[0]! << 8) | payload[1]! : 1005;
            const reason = payload.length > 2 ? UTF8.decode(payload.subarray(2)) : "";
            this.#sendClose(code === 1005 ? 1000 : code, "");
            await this.#writing;
            return this.#finish(code, reason, true);
          }
          continue;
        }
        if (opcode !== 0) type = opcode;
        parts.push(payload);
        size += payload.length;
        if (!fin) continue;
        const whole = parts.length === 1 ? parts[0]! : concatBytes(parts, size);
        parts.length = 0;
        size = 0;
        if (type === 1) {
          let text: string;
          try {
            text = UTF8.decode(whole);
          } catch {
            this.#sendClose(1007, "invalid UTF-8");
            return this.#finish(1007, "invalid UTF-8", false);
          }
          this.#emit(new MessageEvent("message", { data: text }));
        } else {
          const data = whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength);
          this.#emit(new MessageEvent("message", { data }));
        }
      }
    } catch {
      this.#finish(1006, "", false);
    }
  }

  #protocolError(reason: string): void {
    this.#sendClose(1002, reason);
    this.#finish(1002, reason, false);
  }
}

/** A WebSocket factory for `WebSocketSession` that can explain its handshake failures. */
export interface TransportWebSocketFactory {
  (url: URL, init: { protocols: string[]; headers: Array<[string, string]> }): WebSocket;
  /** Explains a failed handshake of a socket it made. */
  explain(socket: WebSocket, event: Event): DialError | undefined;
}

/**
 * A WebSocket factory for `WebSocketSession` that connects by the transport options.
 *
 * @param options the transport options
 * @returns the factory, with `explain` for handshake failures
 */
export function transportWebSocket(options: TransportOptions = {}): TransportWebSocketFactory {
  // A DialWebSocket has WebSocket's interface (and pause/resume besides).
  const factory =
    ((url: URL, init: { protocols: string[]; headers: Array<[string, string]> }) =>
      new DialWebSocket(url, init, options) as unknown as WebSocket) as TransportWebSocketFactory;
  factory.explain = (socket) => (socket as unknown as DialWebSocket).failure;
  return factory;
}
