/**
 * A server-sent events session: connect through {@link send}, parse, reconnect per the HTML
 * standard with `Last-Event-ID` and fresh credentials. No printing; the CLI and the UI server
 * observe it through typed events.
 * @module
 */
import { DialError, ErrorCode, networkError, StatusError } from "../errors/mod.ts";
import { send, type SendOptions } from "../http/send.ts";
import type { HeaderField, RequestSpec } from "../http/request_spec.ts";
import { EventChannel, sleep, untilAborted } from "./event_channel.ts";
import { retryAfterMs } from "./status_error.ts";
import { readEventStream, type ServerSentEvent } from "./read_event_stream.ts";

/** The reconnection time before the server sets one with `retry:` (HTML standard: UA-defined). */
export const DEFAULT_RETRY_MS = 3000;
/** The longest wait between failed attempts. */
export const MAX_BACKOFF_MS = 60_000;
/** The shortest wait before any reconnection, whatever `retry:` says: at most 4 per second. */
export const MIN_RETRY_MS = 250;

/** Options for {@link SseSession}. */
export interface SseSessionOptions
  extends Pick<SendOptions, "fetch" | "follow" | "maxRedirects" | "onRequest" | "onResponse"> {
  /** Sent as `Last-Event-ID` on the first connection (`--last-event-id`). */
  lastEventId?: string;
  /** Reconnect when the stream ends or breaks. Default true. */
  reconnect?: boolean;
  /** The reconnection time until the server sends `retry:`. Default 3000 ms. */
  retryMs?: number;
  /**
   * Failed attempts in a row (refused, non-2xx, wrong type, or a stream that ended without an
   * event) tolerated before giving up. Default 3.
   */
  maxRetries?: number;
  /** Ends the session (Ctrl-C, Disconnect). */
  signal?: AbortSignal;
  /**
   * Send the request's headers as written, as `dial run` sends a request file's event stream:
   * no `Accept` or `Cache-Control` added (a reconnection still sends `Last-Event-ID`).
   */
  asWritten?: boolean;
  /**
   * Backpressure: asked after each chunk of the stream; reading pauses while the returned
   * promise is pending (e.g. while the output queue is full).
   */
  ready?: () => Promise<void> | undefined;
}

/** The state of an {@link SseSession}. */
export type SseState = "idle" | "connecting" | "open" | "waiting" | "closed";

/** What an {@link SseSession} reports; `time` is milliseconds since the epoch. */
export type SseSessionEvent =
  | { type: "connecting"; time: number; attempt: number; lastEventId?: string }
  | { type: "open"; time: number; status: number; contentType: string }
  | ({ type: "event"; time: number; lastEventId: string } & ServerSentEvent)
  | { type: "comment"; time: number; text: string }
  | { type: "retry"; time: number; retryMs: number }
  | { type: "disconnected"; time: number; reason: string }
  | {
    type: "reconnecting";
    time: number;
    attempt: number;
    delayMs: number;
    lastEventId?: string;
    failures: number;
  }
  | { type: "error"; time: number; error: DialError; willRetry: boolean }
  | { type: "closed"; time: number; reason: string };

/** Failures that another attempt cannot fix. */
const FATAL = new Set(["auth", "usage", "event_too_large", "redirect_body", "too_many_redirects"]);

const EVENT_STREAM = /^text\/event-stream\s*(;|$)/i;

/**
 * Follows a server-sent event stream, reconnecting after the server's `retry:` interval.
 *
 * @example
 * ```ts
 * const session = new SseSession(spec, { retryMs: 1000 });
 * session.events.subscribe((e) => { if (e.type === "event") console.log(e.data); });
 * await session.run();
 * ```
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html
 */
export class SseSession {
  /** Every event of the session, for listeners and `for await`. */
  readonly events: EventChannel<SseSessionEvent> = new EventChannel();
  readonly #spec: RequestSpec;
  readonly #options: SseSessionOptions;
  readonly #abort = new AbortController();
  readonly #signal: AbortSignal;
  #state: SseState = "idle";
  #lastEventId: string;
  #retryMs: number;
  #attempt = 0;
  /** Events received on the current connection. */
  #eventsThisConnection = 0;
  #running?: Promise<void>;

  /**
   * Creates a session; nothing connects before `start()`.
   *
   * @param spec the request (any method; `Accept: text/event-stream` is added unless given)
   * @param options reconnection policy, fetch, signal and observers
   */
  constructor(spec: RequestSpec, options: SseSessionOptions = {}) {
    this.#spec = spec;
    this.#options = options;
    this.#lastEventId = options.lastEventId ?? "";
    this.#retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.#signal = options.signal
      ? AbortSignal.any([options.signal, this.#abort.signal])
      : this.#abort.signal;
  }

  /**
   * The connection state.
   *
   * @returns the current state
   */
  get state(): SseState {
    return this.#state;
  }

  /**
   * The last event id received, sent as `Last-Event-ID` on reconnection.
   *
   * @returns the ID the next connection sends as `Last-Event-ID` ("" for none)
   */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /**
   * The reconnection delay in milliseconds, as the server last set it.
   *
   * @returns the current reconnection time in milliseconds
   */
  get retryMs(): number {
    return this.#retryMs;
  }

  /**
   * The connection attempt, counting from 1.
   *
   * @returns how many connections were attempted
   */
  get attempt(): number {
    return this.#attempt;
  }

  /**
   * Connects and follows the stream until it ends without reconnection, the server answers
   * 204, or {@link close} is called.
   *
   * @returns when the session is over
   * @throws {DialError} when the server keeps refusing (after `maxRetries`) or the stream
   * breaks with reconnection off
   */
  run(): Promise<void> {
    return this.#running ??= this.#loop().finally(() => {
      this.#state = "closed";
      this.events.end();
    });
  }

  /**
   * Ends the session: cancels the stream or the wait; {@link run} then resolves.
   *
   * @param reason shown in the `closed` event
   */
  close(reason = "closed by the client"): void {
    if (!this.#abort.signal.aborted) this.#abort.abort(new SessionClosed(reason));
  }

  async #loop(): Promise<void> {
    const reconnect = this.#options.reconnect ?? true;
    const maxRetries = this.#options.maxRetries ?? 3;
    let failures = 0;
    for (;;) {
      this.#attempt++;
      let outcome: Outcome;
      try {
        outcome = await this.#connectOnce();
      } catch (error) {
        if (this.#signal.aborted) return this.#closed();
        outcome = { kind: "failed", error: asDialError(error, this.#spec.url, this.#signal) };
      }
      if (this.#signal.aborted) return this.#closed();
      let delayMs = this.#retryMs;
      if (outcome.kind === "stop") return this.#closed(outcome.reason);
      if (outcome.kind === "failed") {
        failures++;
        const willRetry = reconnect && failures <= maxRetries && retryable(outcome.error);
        this.#emit({ type: "error", error: outcome.error, willRetry });
        if (!willRetry) throw outcome.error;
        delayMs = backoff(this.#retryMs, failures);
        if (outcome.error instanceof StatusError && outcome.error.retryAfterMs !== undefined) {
          delayMs = Math.max(delayMs, outcome.error.retryAfterMs);
        }
      } else {
        this.#emit({ type: "disconnected", reason: outcome.reason });
        if (outcome.error && !reconnect) throw outcome.error;
        if (!reconnect) return this.#closed("the stream ended");
        // A stream that ends before any event counts like a failure, so a server that
        // ends at once (with retry: 0, say) cannot draw reconnections forever.
        if (this.#eventsThisConnection > 0) failures = 0;
        else if (++failures > maxRetries) throw emptyStreams(this.#spec.url, failures);
        else delayMs = backoff(this.#retryMs, failures);
      }
      delayMs = Math.max(delayMs, MIN_RETRY_MS);
      this.#state = "waiting";
      this.#emit({
        type: "reconnecting",
        attempt: this.#attempt + 1,
        delayMs,
        ...(this.#lastEventId ? { lastEventId: this.#lastEventId } : {}),
        failures,
      });
      if (!await sleep(delayMs, this.#signal)) return this.#closed();
    }
  }

  #closed(reason?: string): void {
    const why = reason ??
      (this.#signal.reason instanceof SessionClosed ? this.#signal.reason.message : "aborted");
    this.#emit({ type: "closed", reason: why });
  }

  async #connectOnce(): Promise<Outcome> {
    this.#state = "connecting";
    this.#eventsThisConnection = 0;
    this.#emit({
      type: "connecting",
      attempt: this.#attempt,
      ...(this.#lastEventId ? { lastEventId: this.#lastEventId } : {}),
    });
    const headers: HeaderField[] = [...this.#spec.headers];
    if (!this.#options.asWritten) {
      if (!headers.some((h) => h.name.toLowerCase() === "accept")) {
        headers.push({ name: "Accept", value: "text/event-stream" });
      }
      headers.push({ name: "Cache-Control", value: "no-store" });
    }
    if (this.#lastEventId) headers.push({ name: "Last-Event-ID", value: this.#lastEventId });
    const { fetch, follow, maxRedirects, onRequest, onResponse } = this.#options;
    const { response, request } = await send({ ...this.#spec, headers }, {
      signal: this.#signal,
      ...(fetch ? { fetch } : {}),
      ...(follow !== undefined ? { follow } : {}),
      ...(maxRedirects !== undefined ? { maxRedirects } : {}),
      ...(onRequest ? { onRequest } : {}),
      ...(onResponse ? { onResponse } : {}),
    });
    const host = request.url.host;
    const contentType = response.headers.get("content-type") ?? "";
    if (response.status === 204) {
      await response.body?.cancel();
      return { kind: "stop", reason: "the server answered 204 No Content: no more events" };
    }
    if (response.status < 200 || response.status >= 300) {
      await response.body?.cancel();
      const text = `${response.status} ${response.statusText}`.trimEnd();
      return {
        kind: "failed",
        error: new StatusError(
          `Server-sent events refused by ${host}: HTTP ${text}`,
          response.status,
          { details: retryAfter(response.headers) },
        ),
      };
    }
    if (!EVENT_STREAM.test(contentType)) {
      await response.body?.cancel();
      return {
        kind: "failed",
        error: new DialError(
          `Expected Content-Type "text/event-stream" from ${host}, got "${contentType || "none"}"`,
          ErrorCode.NotEventStream,
          { remedy: { check: "event_stream" } },
        ),
      };
    }
    this.#state = "open";
    this.#emit({ type: "open", status: response.status, contentType });
    if (!response.body) return { kind: "ended", reason: "the response had no body" };
    try {
      await readEventStream(response.body, {
        onId: (id) => this.#lastEventId = id,
        onRetry: (ms) => {
          this.#retryMs = ms;
          this.#emit({ type: "retry", retryMs: ms });
        },
        onComment: (text) => this.#emit({ type: "comment", text }),
        onEvent: (event) => {
          this.#eventsThisConnection++;
          this.#emit({ type: "event", ...event, lastEventId: this.#lastEventId });
        },
        ready: () => {
          const pause = this.#options.ready?.();
          return pause && untilAborted(pause, this.#signal);
        },
      });
    } catch (error) {
      if (this.#signal.aborted) throw error;
      const failure = asDialError(error, request.url, this.#signal);
      if (failure.code === ErrorCode.EventTooLarge) throw failure;
      return {
        kind: "ended",
        reason: `the stream broke: ${failure.message}`,
        error: new DialError(
          `Event stream from ${host} was cut off: ${failure.message}`,
          ErrorCode.Transport,
          { cause: error },
        ),
      };
    }
    return { kind: "ended", reason: "the server ended the stream" };
  }

  #emit(event: DistributiveOmit<SseSessionEvent, "time">): void {
    this.events.emit({ ...event, time: Date.now() } as SseSessionEvent);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

type Outcome =
  | { kind: "ended"; reason: string; error?: DialError }
  | { kind: "failed"; error: DialError }
  | { kind: "stop"; reason: string };

/** The reason a session's own signal carries when the caller closes it. */
class SessionClosed extends DialError {
  constructor(reason: string) {
    super(reason, ErrorCode.Aborted);
  }
}

/** Network errors, 408, 429 and 5xx are tried again; auth failures and other statuses are not. */
function retryable(error: DialError): boolean {
  if (error instanceof StatusError) return error.retryable;
  return !FATAL.has(error.code);
}

function backoff(retryMs: number, failures: number): number {
  return Math.min(retryMs * 2 ** (failures - 1), MAX_BACKOFF_MS);
}

function emptyStreams(url: URL, times: number): DialError {
  return new DialError(
    `Server-sent events from ${url.host} ended ${times} times in a row without an event`,
    ErrorCode.EmptyStream,
    { remedy: { raise: "max_retries" } },
  );
}

function asDialError(error: unknown, url: URL, signal: AbortSignal): DialError {
  return error instanceof DialError ? error : networkError(error, url, signal);
}

function retryAfter(headers: Headers): { retryAfterMs?: number } {
  const ms = retryAfterMs(headers.get("retry-after"));
  return ms === undefined ? {} : { retryAfterMs: ms };
}
