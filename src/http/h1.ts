/**
 * HTTP/1.1 on an open connection, written and read by dial itself: the request goes out
 * byte for byte as `-v` shows it (origin-form target, the head's lines in the order and case
 * `wire.ts` built them, `Content-Length` or chunked framing as planned), and the response
 * keeps what fetch would hide: the version, the server's own reason phrase, any number of
 * headers up to {@link HEAD_LIMIT}, any port. Heads with bare LF line ends are read; chunk
 * sizes must be hex and chunk data end with CRLF. A connection whose exchange ended cleanly
 * goes back to the caller for keep-alive (pool.ts).
 * @module
 */
import { TransportError } from "../errors/mod.ts";
import type { Connection } from "./connect.ts";
import { type DirectRead, directSource, setDirectRead } from "./direct_body.ts";

/** The largest response head read (status line and headers), in bytes. curl allows 300 KB. */
export const HEAD_LIMIT = 1024 * 1024;

/** A request as bytes go on the wire. */
export interface WireRequest {
  /** The method, as sent. */
  method: string;
  /** The request target: `/path?query`, or the absolute URL for a forwarding proxy. */
  target: string;
  /** The `:authority` (HTTP/2) and the URL's scheme (`http` or `https`). */
  authority: string;
  /** The URL's scheme, without the colon. */
  scheme: string;
  /** Header lines in order, values as byte strings. */
  headers: Array<[string, string]>;
  /** The body: bytes, or a stream of known length or chunked. */
  body?: WireBody;
  /** Aborts the exchange, body included. */
  signal?: AbortSignal;
}

/** A request body for the wire. */
export type WireBody =
  | { bytes: Uint8Array }
  | { stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>; length?: number };

/** A response head and its body as it arrives (content codings not yet undone). */
export interface WireResponse {
  /** `HTTP/1.1`, `HTTP/1.0` or `HTTP/2`. */
  version: string;
  /** The status code. */
  status: number;
  /** The server's reason phrase (empty in HTTP/2). */
  reason: string;
  /** Header lines as received, values as byte strings. */
  headers: Array<[string, string]>;
  /** The body, null when the response cannot have one. */
  body: ResponseBody | null;
  /** When the request was about to be written and the response's first byte came. */
  timing?: { pretransfer: number; starttransfer: number };
  /** Bytes of the response head(s) as received, 1xx heads included (curl's size_header). */
  headSize?: number;
}

/**
 * A response body as it arrives, made into a stream only when a stream is asked for: `dial GET`
 * prints an identity body with {@link ResponseBody.read} and never loads the runtime's stream
 * code (a start-up cost of its own, ~1.5 ms).
 */
export interface ResponseBody {
  /** The body as a stream (made on the first call; the same stream after). */
  open(): ReadableStream<Uint8Array>;
  /** Reads the next bytes into a buffer (HTTP/1.1 identity bodies); 0 at the end. */
  read?: DirectRead;
  /** Ends the body unread (a short one is drained so the connection can be kept). */
  cancel(): Promise<void>;
}

/**
 * @param stream a body stream
 * @returns it as a {@link ResponseBody}
 */
export function streamBody(stream: ReadableStream<Uint8Array>): ResponseBody {
  return { open: () => stream, cancel: () => stream.cancel().catch(() => {}) };
}

/** Bytes as a byte string, one character per byte (TextDecoder's "latin1" is windows-1252). */
function byteString(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; at += 8192) {
    // `apply`, not a spread: spreading a typed array goes through its iterator (~10 KB of
    // garbage and ~30× the time for a 140-byte head).
    text += String.fromCharCode.apply(null, bytes.subarray(at, at + 8192) as unknown as number[]);
  }
  return text;
}

/**
 * A byte string's bytes (a loop: `Uint8Array.from` with a mapper costs ~5× as much).
 *
 * @param text a byte string
 * @param room bytes to leave free after it
 */
function bytesOf(text: string, room = 0): Uint8Array {
  const bytes = new Uint8Array(text.length + room);
  for (let at = 0; at < text.length; at++) bytes[at] = text.charCodeAt(at);
  return bytes;
}

/** A buffered reader over a connection's bytes (HTTP/1.1 heads and bodies, WebSocket frames). */
export class ByteReader {
  #conn: Connection;
  #buffer: Uint8Array = new Uint8Array(0);
  /** When the first bytes arrived (`performance.now()`). */
  firstByteAt?: number;
  /** Bytes of the heads read so far, blank lines included. */
  headBytes = 0;
  /** @param conn the connection to read */
  constructor(conn: Connection) {
    this.#conn = conn;
  }
  /** @returns false at the end of the stream */
  async #more(): Promise<boolean> {
    const value = await this.#conn.read();
    if (value === null) return false;
    this.firstByteAt ??= performance.now();
    if (this.#buffer.length === 0) {
      this.#buffer = value;
      return true;
    }
    const joined = new Uint8Array(this.#buffer.length + value.length);
    joined.set(this.#buffer);
    joined.set(value, this.#buffer.length);
    this.#buffer = joined;
    return true;
  }
  /**
   * Reads through the next CRLF CRLF (a response head).
   *
   * @param limit the most bytes to read
   * @returns the head as a byte string, undefined at a clean end
   */
  async head(limit: number): Promise<string | undefined> {
    let from = 0;
    for (;;) {
      const end = headEnd(this.#buffer, from);
      if (end && end.at > limit) break;
      if (end) {
        this.headBytes += end.next;
        const text = byteString(this.#buffer.subarray(0, end.at));
        this.#buffer = this.#buffer.subarray(end.next);
        return text;
      }
      from = Math.max(0, this.#buffer.length - 2);
      if (this.#buffer.length > limit) break;
      if (!await this.#more()) {
        if (this.#buffer.length === 0) return undefined;
        throw new Error("connection closed early, in the middle of the response head");
      }
    }
    throw new TransportError(
      `The response head is larger than ${limit / 1024} KiB: dial stops reading it`,
    );
  }
  /** @returns one CRLF-terminated line (chunk sizes, trailers) */
  async line(): Promise<string> {
    for (;;) {
      const at = this.#buffer.indexOf(10);
      if (at >= 0) {
        const text = byteString(this.#buffer.subarray(0, at)).replace(/\r$/, "");
        this.#buffer = this.#buffer.subarray(at + 1);
        return text;
      }
      if (this.#buffer.length > 64 * 1024) throw new Error("malformed chunked body: line too long");
      if (!await this.#more()) throw new Error("connection closed early, in a chunked body");
    }
  }
  /**
   * @param length how many bytes
   * @returns exactly that many bytes, or undefined when the stream ends first
   */
  async exactly(length: number): Promise<Uint8Array | undefined> {
    while (this.#buffer.length < length) {
      if (!await this.#more()) return undefined;
    }
    const out = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return out;
  }
  /**
   * @param max the most bytes
   * @returns up to `max` bytes; an empty array at the end of the stream
   */
  async some(max: number): Promise<Uint8Array> {
    if (this.#buffer.length === 0 && !await this.#more()) return new Uint8Array(0);
    // The buffer is never written after a read returned it, so a view of it is the caller's.
    const out = this.#buffer.subarray(0, Math.min(max, this.#buffer.length));
    this.#buffer = this.#buffer.subarray(out.length);
    return out;
  }
  /**
   * Reads into a buffer: bytes already read first, else straight from the connection.
   *
   * @param view where to put them
   * @returns how many; 0 at the end of the stream
   */
  async into(view: Uint8Array): Promise<number> {
    if (this.#buffer.length === 0) {
      if (this.#conn.readInto) return (await this.#conn.readInto(view)) ?? 0;
      if (!await this.#more()) return 0;
    }
    // Bytes already read (a short body came with its head): taken without another await.
    const n = Math.min(view.length, this.#buffer.length);
    view.set(this.#buffer.subarray(0, n));
    this.#buffer = this.#buffer.subarray(n);
    return n;
  }
  /** How many bytes were read but not yet taken. */
  get buffered(): number {
    return this.#buffer.length;
  }
  /** Closes the connection. */
  cancel(): void {
    this.#conn.close();
  }
}

/**
 * Finds the blank line that ends a head: CRLF CRLF, or bare LFs as curl and fetch accept them.
 *
 * @returns where the head's text ends and the body starts, undefined when not yet there
 */
function headEnd(buffer: Uint8Array, from: number): { at: number; next: number } | undefined {
  for (let i = buffer.indexOf(10, from); i >= 0; i = buffer.indexOf(10, i + 1)) {
    const at = i > 0 && buffer[i - 1] === 13 ? i - 1 : i;
    if (buffer[i + 1] === 10) return { at, next: i + 2 };
    if (buffer[i + 1] === 13 && buffer[i + 2] === 10) return { at, next: i + 3 };
  }
  return undefined;
}

/**
 * Writes the request and reads the response head; the body streams from the connection.
 * When the body ends, the connection is handed to `release` with whether it can carry another
 * request (keep-alive: the request written whole, the body read to its framed end, nothing
 * left over, no `Connection: close` either way); without `release`, or when the body is
 * cancelled or fails, it is closed.
 *
 * @param conn an open connection
 * @param request the request
 * @param release takes the connection back when the exchange is over
 * @returns the response
 */
export async function exchangeH1(
  conn: Connection,
  request: WireRequest,
  release?: (reusable: boolean) => void,
): Promise<WireResponse> {
  const reader = new ByteReader(conn);
  const pretransfer = performance.now();
  const onAbort = () => conn.close();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  // Aborted while connecting or waiting for the connection: the event has passed already.
  if (request.signal?.aborted) onAbort();
  let headDone = false;
  let written = false;
  let writeError: Error | undefined;
  writeRequest(conn, request).then(() => written = true, (error: Error) => {
    if (headDone) return; // the server answered without reading all: its answer counts
    if (error instanceof SocketWriteError) {
      // The server may have answered and closed (413): the answer is read first.
      writeError = error.cause as Error;
      return;
    }
    writeError = error; // reading the body failed: the server would wait for the rest
    conn.close();
  });
  let head: ParsedHead;
  try {
    head = await readFinalHead(reader);
  } catch (error) {
    request.signal?.removeEventListener("abort", onAbort);
    conn.close();
    if (request.signal?.aborted) throw request.signal.reason;
    throw writeError ?? error;
  }
  headDone = true;
  const facts = {
    timing: { pretransfer, starttransfer: reader.firstByteAt ?? performance.now() },
    headSize: reader.headBytes,
  };
  const noBody = request.method === "HEAD" || head.status === 204 || head.status === 304 ||
    head.status < 200;
  let finished = false;
  const finish = (clean: boolean) => {
    if (finished) return;
    finished = true;
    request.signal?.removeEventListener("abort", onAbort);
    const reusable = clean && written && !request.signal?.aborted && reader.buffered === 0 &&
      keepsAlive(request.headers, head);
    if (release && reusable) release(true);
    else {
      conn.close();
      release?.(false);
    }
  };
  if (noBody) {
    finish(head.status >= 200);
    return { ...head, ...facts, body: null };
  }
  const ends = { finish, finished: () => finished, pooled: release !== undefined };
  return {
    ...head,
    ...facts,
    body: responseBody(reader, bodyFraming(head.headers), request, ends),
  };
}

/** Reads response heads until the final one (1xx heads, 100 Continue and 103 Early Hints, pass). */
async function readFinalHead(reader: ByteReader): Promise<ParsedHead> {
  for (;;) {
    const text = await reader.head(HEAD_LIMIT);
    if (text === undefined) {
      throw new Error("connection closed early: the server sent no response");
    }
    const head = parseHead(text);
    if (head.status >= 200 || head.status === 101) return head;
  }
}

/**
 * The response body, read from the connection as it is pulled (or straight into the caller's
 * buffer for an identity body); the exchange ends (`finish`) at the framed end, on a failure,
 * or on a cancel, after which a short delimited rest is drained so a pooled connection can be
 * reused.
 */
function responseBody(
  reader: ByteReader,
  framing: BodyFraming,
  request: WireRequest,
  ends: { finish(clean: boolean): void; finished(): boolean; pooled: boolean },
): ResponseBody {
  const { finish } = ends;
  let pulling = false;
  const failed = (error: unknown) => request.signal?.aborted ? request.signal.reason : error;
  const cancel = async () => {
    // A redirect's or a 401's short body is read to its end, as curl does, so the next
    // request reuses the connection; a longer one closes it.
    if (!ends.pooled || !framing.delimited || ends.finished() || pulling) return finish(false);
    let drained = 0;
    try {
      for (;;) {
        if (framing.left > DRAIN_LIMIT - drained) return finish(false);
        const chunk = await framing.next(reader);
        if (chunk === undefined) return finish(true);
        drained += chunk.length;
      }
    } catch {
      finish(false);
    }
  };
  const into = framing.into;
  const read: DirectRead | undefined = into && (async (view) => {
    // A cancel while this read waits (the output failed) closes the connection: draining
    // beside it would read the same socket twice and wait for bytes this read took.
    pulling = true;
    try {
      const n = await into(reader, view);
      if (n === 0) finish(framing.delimited);
      return n;
    } catch (error) {
      finish(false);
      throw failed(error);
    } finally {
      pulling = false;
    }
  });
  let stream: ReadableStream<Uint8Array> | undefined;
  const open = () => {
    if (stream) return stream;
    stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulling = true;
        try {
          const chunk = await framing.next(reader);
          if (chunk === undefined) {
            finish(framing.delimited);
            controller.close();
          } else controller.enqueue(chunk);
        } catch (error) {
          finish(false);
          controller.error(failed(error));
        } finally {
          pulling = false;
        }
      },
      cancel,
    }, { highWaterMark: 0 });
    // `-o` reads an identity body straight into its own buffer (direct_body.ts).
    if (read) setDirectRead(stream, read);
    return stream;
  };
  return {
    open,
    ...(read ? { read } : {}),
    cancel: () => stream ? stream.cancel() : cancel(),
  };
}

/** Whether neither side asked to close (HTTP/1.1 keeps alive unless `Connection: close`). */
function keepsAlive(requestHeaders: Array<[string, string]>, head: ParsedHead): boolean {
  if (head.version !== "HTTP/1.1") return false;
  return !closes(requestHeaders) && !closes(head.headers);
}

/** Whether a head says `Connection: close` (indexed: see {@link bodyFraming}). */
function closes(headers: Array<[string, string]>): boolean {
  for (let i = 0; i < headers.length; i++) {
    const line = headers[i]!;
    if (line[0].toLowerCase() === "connection" && /(^|,)\s*close\s*(,|$)/i.test(line[1])) {
      return true;
    }
  }
  return false;
}

interface ParsedHead {
  version: string;
  status: number;
  reason: string;
  headers: Array<[string, string]>;
}

/**
 * @param text a response head, CRLF CRLF excluded
 * @returns its version, status, reason and header lines (folded lines joined)
 */
export function parseHead(text: string): ParsedHead {
  const lines = text.split(/\r?\n/);
  const status = /^(HTTP\/\d(?:\.\d)?) (\d{3})(?: (.*))?$/.exec(lines[0] ?? "");
  if (!status) {
    throw new Error(
      `malformed response: the status line is not HTTP/1.x (${
        JSON.stringify((lines[0] ?? "").slice(0, 40))
      })`,
    );
  }
  const headers: Array<[string, string]> = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^[ \t]/.test(line) && headers.length > 0) {
      headers.at(-1)![1] += " " + line.trim();
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`malformed response: header line without a name`);
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return {
    version: status[1]!,
    status: Number(status[2]),
    reason: status[3] ?? "",
    headers,
  };
}

interface BodyFraming {
  /** Reads the next bytes into a buffer (identity bodies); 0 at the end of the body. */
  into?(reader: ByteReader, view: Uint8Array): Promise<number>;
  /** Whether the body's end is framed (length or chunked), not the connection's end. */
  delimited: boolean;
  /** How many bytes are known to be left (0 when not known: chunked, or to the end). */
  readonly left: number;
  /** @returns the next chunk, or undefined at the end of the body */
  next(reader: ByteReader): Promise<Uint8Array | undefined>;
}

/** The most bytes one body chunk holds (a read of the connection is at most as large). */
const CHUNK = 256 * 1024;

/** The most body bytes read after a cancel to keep the connection (curl drains redirects). */
const DRAIN_LIMIT = 64 * 1024;

/**
 * How the response body is framed. The header lines are read by index, here and on every
 * request's path (`closes`, `writeRequest`, wire.ts, client.ts, wire_response.ts): until V8
 * optimises a function, each `[name, value]` destructuring or `for…of` makes an iterator and
 * its result objects, ~100 bytes a line, and a short `dial test` run never optimises most of
 * them.
 */
function bodyFraming(headers: Array<[string, string]>): BodyFraming {
  const codings: string[] = [];
  const lengths: string[] = [];
  for (let i = 0; i < headers.length; i++) {
    const line = headers[i]!;
    const lower = line[0].toLowerCase();
    if (lower === "transfer-encoding") codings.push(line[1]);
    else if (lower === "content-length") lengths.push(line[1]);
  }
  const coding = codings.join(",").toLowerCase();
  if (/(^|,)\s*chunked\s*$/.test(coding)) {
    let left = 0;
    let ended = false;
    return {
      delimited: true,
      get left() {
        return left;
      },
      async next(reader) {
        if (ended) return undefined;
        if (left === 0) {
          // Hex digits only (no sign, no 0x), then extensions after ";" (RFC 9112 §7.1).
          const field = (await reader.line()).split(";")[0]!.replace(/[ \t]+$/, "");
          if (!/^[0-9a-fA-F]{1,13}$/.test(field)) {
            throw new Error(
              `malformed chunked body: bad chunk size ${JSON.stringify(field.slice(0, 20))}`,
            );
          }
          const size = parseInt(field, 16);
          if (size === 0) {
            while ((await reader.line()) !== "") { /* trailers are not kept */ }
            ended = true;
            return undefined;
          }
          left = size;
        }
        const bytes = await reader.some(Math.min(left, CHUNK));
        if (bytes.length === 0) throw new Error("connection closed early, in a chunked body");
        left -= bytes.length;
        if (left === 0 && await reader.line() !== "") {
          throw new Error("malformed chunked body: no CRLF after the chunk data");
        }
        return bytes;
      },
    };
  }
  if (lengths.length > 0 && !coding) {
    const length = contentLength(lengths);
    let left = length;
    return {
      delimited: true,
      get left() {
        return left;
      },
      async next(reader) {
        if (left === 0) return undefined;
        const bytes = await reader.some(Math.min(left, CHUNK));
        if (bytes.length === 0) {
          throw new Error(
            `connection closed early: ${length - left} of ${length} bytes of the body arrived`,
          );
        }
        left -= bytes.length;
        return bytes;
      },
      async into(reader, view) {
        if (left === 0) return 0;
        const n = await reader.into(view.subarray(0, Math.min(left, view.length)));
        if (n === 0) {
          throw new Error(
            `connection closed early: ${length - left} of ${length} bytes of the body arrived`,
          );
        }
        left -= n;
        return n;
      },
    };
  }
  return {
    delimited: false,
    left: 0,
    async next(reader) {
      const bytes = await reader.some(CHUNK);
      return bytes.length === 0 ? undefined : bytes;
    },
    into: (reader, view) => reader.into(view),
  };
}

/**
 * @param values the values of every Content-Length line (each may list values with commas)
 * @returns the length they all state
 * @throws {Error} when they state different lengths, or one is not a number
 */
function contentLength(values: string[]): number {
  // One line of digits (nearly every response): no list to split.
  if (values.length === 1 && /^\d+$/.test(values[0]!)) return Number(values[0]);
  const stated = new Set(values.flatMap((v) => v.split(",")).map((v) => v.trim()));
  const [first] = stated;
  if (stated.size !== 1 || !/^\d+$/.test(first!)) {
    throw new Error("malformed response: conflicting or invalid Content-Length");
  }
  return Number(first);
}

/** A failure to write to the connection (as opposed to reading the body's source). */
class SocketWriteError extends Error {}

async function writeRequest(conn: Connection, request: WireRequest): Promise<void> {
  const writer = {
    write: (bytes: Uint8Array) =>
      conn.write(bytes).catch((cause) => {
        throw new SocketWriteError("write failed", { cause });
      }),
  };
  let head = `${request.method} ${request.target} HTTP/1.1\r\n`;
  const headers = request.headers;
  for (let i = 0; i < headers.length; i++) head += `${headers[i]![0]}: ${headers[i]![1]}\r\n`;
  head += "\r\n";
  const body = request.body;
  if (!body || "bytes" in body) {
    // The head and a body of bytes in one write (one buffer made when there is no body).
    const length = body?.bytes.length ?? 0;
    const all = bytesOf(head, length);
    if (body) all.set(body.bytes, head.length);
    await writer.write(all);
    return;
  }
  await writer.write(bytesOf(head));
  const chunked = body.length === undefined;
  let sent = 0;
  const direct = directSource(body.stream);
  if (direct) {
    // Files and form parts read into one buffer and written from it (-T, -d @file, -F).
    const buffer = new Uint8Array(CHUNK);
    for (let n = await direct(buffer); n > 0; n = await direct(buffer)) {
      sent += n;
      if (body.length !== undefined && sent > body.length) break;
      if (chunked) await writer.write(bytesOf(`${n.toString(16)}\r\n`));
      await writer.write(buffer.subarray(0, n));
      if (chunked) await writer.write(bytesOf("\r\n"));
    }
  } else {
    for await (const chunk of body.stream) {
      if (chunk.length === 0) continue;
      sent += chunk.length;
      if (body.length !== undefined && sent > body.length) break;
      if (chunked) await writer.write(bytesOf(`${chunk.length.toString(16)}\r\n`));
      await writer.write(chunk);
      if (chunked) await writer.write(bytesOf("\r\n"));
    }
  }
  if (chunked) await writer.write(bytesOf("0\r\n\r\n"));
  else if (sent !== body.length) {
    throw new Error(
      `the body changed while it was sent: ${body.length} bytes announced, ${
        sent > body.length! ? "more" : sent
      } read`,
    );
  }
}
