/**
 * One HTTP request of a file through dial's `send`. The body streams to the caller (who prints
 * it) as `dial GET` streams one; when handlers, assertions, request variables or `>>` files read
 * it, each chunk also goes to the `>>` files and into a buffer of at most
 * {@link HANDLER_BODY_LIMIT} bytes, so an endless body costs what it costs `dial GET`. An event
 * stream is read event by event.
 * @module
 */
import { reveal } from "../secret.ts";
import type { CookieJar } from "../http/cookies.ts";
import { directBody } from "../http/direct_body.ts";
import { copyMeta, responseMeta } from "../http/response_meta.ts";
import { send, type SendOptions } from "../http/send.ts";
import type { FileRequest } from "./file_request.ts";
import type { ExchangeEvent } from "./run_http_file.ts";
import { readEventStreamData, type StreamOptions } from "./run_streams.ts";
import {
  HANDLER_BODY_LIMIT,
  nullBodyStatus,
  type Outcome,
  type OutputFile,
  type Phases,
} from "./_run_parts.ts";

/** Options of {@link sendFileRequest}. */
export interface FileExchangeOptions {
  /** The run's send options (transport, fetch, observers). */
  send: SendOptions;
  /** Ctrl-C and the request's timeout. */
  signal?: AbortSignal;
  /** The run's cookie jar, unless `# @no-cookie-jar`. */
  cookies?: CookieJar;
  /** Where an event stream's events go. */
  streams: StreamOptions;
  /** Whether the request ran only because another refers to it. */
  dependency: boolean;
  /** Told of the exchange; it reads (or cancels) the body before the run goes on. */
  onExchange?: (event: ExchangeEvent) => void | Promise<void>;
  /** Read the whole body even when nothing in the file reads it (a contract check does). */
  wholeBody?: boolean;
  /** Opens the request's `>>` files, when the response's head has arrived. */
  outputs?: () => Promise<OutputFile[]>;
}

/**
 * Sends a file request and reads its response.
 *
 * @param fileRequest the built request
 * @param options send options, signal, cookies, observers
 * @returns what handlers and request variables see
 * @throws {DialError} transport, timeout, auth errors
 */
export async function sendFileRequest(
  fileRequest: FileRequest,
  options: FileExchangeOptions,
): Promise<Outcome> {
  const base = options.send;
  const started = performance.now();
  const exchange = await send(fileRequest.spec, {
    ...base,
    follow: fileRequest.follow,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.cookies ? { cookies: options.cookies } : {}),
    ...(fileRequest.connectTimeoutMs !== undefined && !base.fetch
      ? { transport: { ...base.transport, connectTimeoutMs: fileRequest.connectTimeoutMs } }
      : {}),
  });
  const { response } = exchange;
  const requestHeaders: [string, string][] = exchange.request.headers.map((h) => [
    h.name,
    reveal(h.value),
  ]);
  const head = () => ({
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  const firstByteMs = performance.now() - started;
  const phases = phasesOf(response, started);
  const { dependency } = options;
  let text: string;
  let truncated = false;
  if (/^text\/event-stream/i.test(response.headers.get("content-type") ?? "") && response.body) {
    // Shown as it streams: the head first, then each event's data.
    await options.onExchange?.({
      fileRequest,
      exchange: { ...exchange, response: new Response(null, head()) },
      dependency,
      streamed: true,
    });
    text = (await readEventStreamData(response.body, options.streams)).join("\n");
    await writeOutputs(await options.outputs?.() ?? [], [new TextEncoder().encode(text)]);
  } else if (!options.wholeBody && !needsBody(fileRequest)) {
    // Nothing reads it later (no handler, name, assertion or >> file): the body streams to the
    // caller, as dial GET streams it, however large.
    if (options.onExchange) {
      await options.onExchange({ fileRequest, exchange, dependency, streamed: false });
    }
    await discarded(response);
    text = "";
  } else {
    const capture = new Capture(options.outputs ? await options.outputs() : []);
    try {
      if (options.onExchange) {
        await shownAndCaptured(response, capture, (shown) =>
          options.onExchange!({
            fileRequest,
            exchange: { ...exchange, response: copyMeta(response, new Response(shown, head())) },
            dependency,
            streamed: false,
          }));
      } else await captured(response, capture);
    } finally {
      if (capture.files.length) await capture.close();
    }
    text = capture.takeText();
    truncated = capture.truncated;
  }
  return {
    status: response.status,
    headers: [...response.headers],
    body: text,
    ...(truncated ? { truncated } : {}),
    timings: {
      firstByteMs,
      totalMs: performance.now() - started,
      ...(phases ? { phases } : {}),
    },
    ...versionAndReason(response),
    requestHeaders,
    url: exchange.request.url.href,
  };
}

/** The protocol version and reason phrase dial's client read (none from `fetch`). */
function versionAndReason(response: Response): { version?: string; reason?: string } {
  const meta = responseMeta(response);
  return meta ? { version: meta.version, reason: meta.reason } : {};
}

/** The final hop's phases, from what dial's client recorded on the response. */
function phasesOf(response: Response, started: number): Phases | undefined {
  const meta = responseMeta(response);
  const t = meta?.timing;
  if (!t) return undefined;
  const span = (from: number, to: number) => Math.max(0, to - from);
  const looked = t.namelookup;
  return {
    blockedMs: span(started, t.start),
    ...(looked !== undefined ? { dnsMs: span(t.start, looked) } : {}),
    connectMs: span(looked ?? t.start, t.connect),
    tlsMs: span(t.connect, t.appconnect),
    waitMs: span(t.appconnect, t.starttransfer),
    reused: meta.reused === true,
  };
}

/**
 * Shows the body as it streams (the caller pulls it chunk by chunk, nothing read ahead) and
 * captures each chunk; what the caller leaves is read here.
 */
async function shownAndCaptured(
  response: Response,
  capture: Capture,
  show: (shown: ReadableStream<Uint8Array> | null) => void | Promise<void>,
): Promise<void> {
  const reader = response.body?.getReader();
  try {
    const shown = reader && !nullBodyStatus(response.status)
      ? new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          await capture.add(value);
          controller.enqueue(value);
        },
      }, { highWaterMark: 0 })
      : null;
    await show(shown);
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
      await capture.add(read.value);
    }
  } catch (error) {
    // The run stops here (--check-status, a failed write): the rest of the body is not read.
    await reader?.cancel().catch(() => {});
    throw error;
  }
}

/**
 * Captures a body nobody shows (`dial test`): an identity body of dial's client straight from
 * the connection into the capture's own buffer, without a stream (direct_body.ts); any other
 * through its stream.
 */
async function captured(response: Response, capture: Capture): Promise<void> {
  const read = directBody(response);
  if (!read) return await shownAndCaptured(response, capture, () => {});
  try {
    for (;;) {
      const room = capture.room();
      const n = await read(room);
      if (n === 0) return;
      const writing = capture.added(room.subarray(0, n));
      if (writing) await writing;
    }
  } catch (error) {
    await response.body?.cancel().catch(() => {});
    throw error;
  }
}

/** The most of a body nobody reads that is drained to keep its connection (h1's own rule). */
const DRAINED = 64 * 1024;

/**
 * Ends a body nobody reads (`dial test` of a request without tests): a short identity body is
 * read off the connection without a stream (making one loads the runtime's stream code), the
 * rest cancelled.
 */
async function discarded(response: Response): Promise<void> {
  const read = directBody(response);
  if (read) {
    const buffer = new Uint8Array(16 * 1024);
    for (let drained = 0; drained <= DRAINED;) {
      const n = await read(buffer).catch(() => 0);
      if (n === 0) return;
      drained += n;
    }
  }
  await response.body?.cancel().catch(() => {});
}

async function writeOutputs(files: OutputFile[], chunks: Uint8Array[]): Promise<void> {
  try {
    for (const file of files) for (const chunk of chunks) await file.write(chunk);
  } finally {
    for (const file of files) await file.close();
  }
}

/** The first buffer of a capture read straight from the connection (grown when full). */
const FIRST_ROOM = 4 * 1024;
/** What a capture reads into once it holds the limit: the rest only goes to the files. */
const OVERFLOW = 64 * 1024;

const utf8 = new TextDecoder();

/**
 * The first buffer of the capture that ended last, for the next one: a run of 1,000 requests
 * allocated one per request (an ArrayBuffer costs more to make than its few bytes suggest).
 */
let spare: Uint8Array<ArrayBuffer> | undefined;

/** A body's first bytes (up to the limit), kept in one buffer, and its `>>` files. */
class Capture {
  #buffer = new Uint8Array(0);
  #kept = 0;
  #overflow?: Uint8Array;
  truncated = false;

  constructor(readonly files: OutputFile[]) {}

  /** Writes the chunk to the files and keeps a copy of it (the caller may reuse it). */
  async add(chunk: Uint8Array): Promise<void> {
    for (const file of this.files) await file.write(chunk);
    const room = HANDLER_BODY_LIMIT - this.#kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#grow(kept.length);
    this.#buffer.set(kept, this.#kept);
    this.#kept += kept.length;
  }

  /**
   * Where the next bytes may be read to: the free end of the kept buffer (grown when full), or,
   * once the limit is kept, a scratch buffer for the files.
   */
  room(): Uint8Array {
    if (this.#kept >= HANDLER_BODY_LIMIT) return this.#overflow ??= new Uint8Array(OVERFLOW);
    if (this.#kept === this.#buffer.length) this.#grow(FIRST_ROOM);
    return this.#buffer.subarray(this.#kept);
  }

  /**
   * Takes bytes read into {@link room}: kept when they are in the buffer, and written out.
   *
   * @returns the writes to the files, when there are files (no promise to await otherwise)
   */
  added(chunk: Uint8Array): Promise<void> | undefined {
    if (chunk.buffer === this.#buffer.buffer) this.#kept += chunk.length;
    else this.truncated = true;
    return this.files.length ? this.#write(chunk) : undefined;
  }

  async #write(chunk: Uint8Array): Promise<void> {
    for (const file of this.files) await file.write(chunk);
  }

  /** Makes room for `more` bytes after the kept ones (doubling, up to the limit). */
  #grow(more: number): void {
    if (this.#kept + more <= this.#buffer.length) return;
    const size = Math.min(
      HANDLER_BODY_LIMIT,
      Math.max(this.#kept + more, this.#buffer.length * 2),
    );
    const reused = this.#buffer.length === 0 && spare !== undefined && spare.length >= size;
    const grown = reused ? spare! : new Uint8Array(size);
    if (reused) spare = undefined;
    grown.set(this.#buffer.subarray(0, this.#kept));
    this.#buffer = grown;
  }

  /**
   * Ends the capture: a first buffer that never grew goes to the next capture.
   *
   * @returns the kept bytes as UTF-8 text
   */
  takeText(): string {
    const text = utf8.decode(this.#buffer.subarray(0, this.#kept));
    if (this.#buffer.length === FIRST_ROOM) spare = this.#buffer;
    this.#buffer = new Uint8Array(0);
    this.#kept = 0;
    return text;
  }

  async close(): Promise<void> {
    for (const file of this.files) await file.close();
  }
}

/** Whether anything after the exchange reads the response body. */
function needsBody(fileRequest: FileRequest): boolean {
  const { request } = fileRequest;
  return request.handlers.length > 0 || request.name !== undefined ||
    request.outputs.length > 0 || request.assertions.length > 0;
}
