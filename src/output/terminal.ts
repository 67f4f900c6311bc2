/**
 * Outputs as dial writes to them ({@link Sink}: stdout, stderr, a test buffer), the colour
 * policy, and terminal safety. The process's own streams are opened in `src/cli/io.ts`.
 * @module
 */
import { directBody, directRead } from "../http/direct_body.ts";

const encoder = new TextEncoder();

/** A writable output: stdout, stderr or a test buffer. */
export interface Sink {
  /** Writes all of the text or bytes. */
  write(data: string | Uint8Array): Promise<void>;
  /** Whether a person is looking at it. */
  readonly isTerminal: boolean;
  /** Whether to use ANSI colours. */
  readonly color: boolean;
  /** The underlying stream of a file, for copies that stay out of JavaScript. */
  readonly writable?: WritableStream<Uint8Array>;
}

/**
 * Writes all of the text or bytes to a file.
 *
 * @param file an open file, or a standard stream
 * @param data the text or bytes
 */
export async function writeAll(
  file: { write(p: Uint8Array): Promise<number> },
  data: string | Uint8Array,
): Promise<void> {
  let bytes = typeof data === "string" ? encoder.encode(data) : data;
  while (bytes.length > 0) bytes = bytes.subarray(await file.write(bytes));
}

/**
 * Each buffer of a body's direct copy (stdout and `-o`): a read takes what the socket holds, up
 * to this; fewer, larger reads and writes are fewer thread hand-offs and less work on the
 * reading thread, which is the copy's bottleneck (a 512 MiB download: docs/benchmarks.md,
 * session 13).
 */
const DIRECT_BUFFER = 1024 * 1024;

/**
 * The first read of a body's direct copy fills only this much of its buffer, so every later
 * write of a full buffer starts this far past a multiple of the buffer's size. Linux gives a
 * file's page cache folios as large as a write and its alignment in the file allow: 1 MiB
 * writes on 1 MiB boundaries made 1 MiB folios, which cost 2–4× the CPU in some downloads while
 * another process wrote to the same disk; the same writes 256 KiB off those boundaries did not,
 * and need a quarter of 256 KiB writes' thread hand-offs (docs/benchmarks.md, session 13).
 */
const FIRST_FILL = 256 * 1024;

/**
 * Reads a body into two buffers in turn while what arrived before is written, one write in
 * flight: each read goes on while a write waits, and when the write is done everything read
 * meanwhile is written next, at once (a slow disk gets fewer, larger writes; bytes that
 * arrived are never held back until the next read). Writes stay in order; a buffer is read
 * into again only once all of it was written.
 *
 * @param read reads the next bytes into a buffer; 0 at the end
 * @param write writes bytes (done with them when it resolves)
 * @param cancel ends the source after a failure
 * @param size the size of each buffer
 */
export async function overlapped(
  read: (view: Uint8Array) => Promise<number>,
  write: (bytes: Uint8Array) => Promise<void>,
  cancel: (error: unknown) => Promise<void> | undefined,
  size: number = DIRECT_BUFFER,
): Promise<void> {
  const buffers = [new Uint8Array(size), new Uint8Array(size)];
  let turn = 0;
  // The current buffer: bytes before `start` are written or being written, up to `filled` read,
  // up to `end` to read (the first time less: FIRST_FILL).
  let start = 0;
  let filled = 0;
  let end = Math.min(size, FIRST_FILL);
  let writing: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const check = () => {
    if (failure) throw failure.error;
  };
  // A failed write ends the wait for a read at once (the output went away: stop reading).
  let writeFailed!: (error: unknown) => void;
  const failed = new Promise<never>((_, reject) => writeFailed = reject);
  failed.catch(() => {});
  const flush = () => {
    if (writing || failure || start === filled) return;
    const bytes = buffers[turn]!.subarray(start, filled);
    start = filled;
    writing = write(bytes).then(() => {
      writing = undefined;
      flush();
    }, (error) => {
      writing = undefined;
      failure = { error };
      writeFailed(error);
    });
  };
  const written = async () => {
    while (writing) await writing;
  };
  try {
    for (;;) {
      if (filled === end) {
        // All of this buffer goes to writes before the other one is read into (whose writes
        // were all done before this one's began).
        while (start < end) {
          await writing;
          check();
          flush();
        }
        turn ^= 1;
        start = filled = 0;
        end = size;
      }
      const view = buffers[turn]!.subarray(filled, end);
      // (Raced only while a write is in flight: none can fail otherwise.)
      const n = writing ? await Promise.race([read(view), failed]) : await read(view);
      filled += n;
      check();
      if (n === 0) break;
      flush();
    }
    await written();
    check();
  } catch (error) {
    // The source failed (a connection cut off): what arrived is written first (`-C` resumes
    // after it). A failed write leaves nothing more to write.
    await written();
    flush();
    await written();
    await cancel(error)?.catch(() => {});
    throw error;
  }
}

/** A body read straight into the caller's buffer (direct_body.ts), or copied into it. */
interface DirectSource {
  read: (view: Uint8Array) => Promise<number>;
  cancel: (error: unknown) => Promise<void> | undefined;
}

/** A stream's chunks copied into the caller's buffer, for {@link overlapped}. */
function copied(body: ReadableStream<Uint8Array>): DirectSource {
  const reader = body.getReader();
  let rest: Uint8Array = new Uint8Array(0);
  return {
    async read(view) {
      if (rest.length === 0) {
        const { value, done } = await reader.read();
        if (done) return 0;
        rest = value;
      }
      const n = Math.min(view.length, rest.length);
      view.set(rest.subarray(0, n));
      rest = rest.subarray(n);
      return n;
    },
    cancel: (error) => reader.cancel(error),
  };
}

/**
 * Whether to colour an output, as `NO_COLOR` and `FORCE_COLOR` say.
 *
 * @param isTerminal whether a person is looking at it
 * @param env the run's environment
 * @returns whether to use ANSI colours
 */
export function colorWanted(
  isTerminal: boolean,
  env: (name: string) => string | undefined,
): boolean {
  if (env("NO_COLOR")) return false;
  if (env("FORCE_COLOR")) return true;
  return isTerminal;
}

/**
 * Writes a body to an output without closing it.
 *
 * @param body the bytes: a stream, or a response (an HTTP/1.1 identity body of dial's client
 *   is then read straight from the connection, without a stream: wire_response.ts)
 * @param sink stdout or a test buffer
 * @returns when all bytes are written
 */
export async function pipeToSink(
  body: ReadableStream<Uint8Array> | Response,
  sink: Sink,
): Promise<void> {
  const source = directOrStream(body);
  if (!source) return;
  // An identity body, read into two buffers in turn (a sink's write is done with the bytes
  // when it resolves).
  if (!("getReader" in source)) {
    return await overlapped(source.read, (bytes) => sink.write(bytes), source.cancel);
  }
  if (sink.writable) {
    // pipeTo between two runtime streams stays out of per-chunk JavaScript promises: about
    // twice the throughput of a for-await loop and a flat heap (see `deno task bench`).
    await source.pipeTo(sink.writable, { preventClose: true });
    return;
  }
  for await (const chunk of source) await sink.write(chunk);
}

/**
 * Writes a body into an open file and closes it (on failure too). Every chunk that arrived is
 * written before a failure of the body is thrown: `-C` keeps what arrived (a `pipeTo` into the
 * file's `writable` drops the chunk in flight when the source fails).
 *
 * @param body the bytes: a stream, or a response (an HTTP/1.1 identity body of dial's client
 *   is then read straight from the connection, without a stream: wire_response.ts)
 * @param file the open file; closed when this returns or throws
 * @param onChunk called with each chunk's size, for progress
 */
export async function pipeIntoFile(
  body: ReadableStream<Uint8Array> | Response,
  file: Deno.FsFile,
  onChunk?: (size: number) => void,
): Promise<void> {
  try {
    // An HTTP/1.1 identity body is read straight into the buffers (no stream, no buffer per
    // chunk); decoded (gzip, br) and HTTP/2 chunks are copied into them. Writes are
    // asynchronous, one in flight while the body is read on: a synchronous write stalls the
    // reads whenever the kernel throttles the disk (another process writing to it), and what
    // arrives meanwhile is gathered into fewer, larger writes (docs/benchmarks.md).
    const source = directOrStream(body);
    if (!source) return;
    const { read, cancel } = "getReader" in source ? copied(source) : source;
    await overlapped(read, async (bytes) => {
      await writeAll(file, bytes);
      onChunk?.(bytes.length);
    }, cancel);
  } finally {
    file.close();
  }
}

/**
 * @param body a stream, or a response whose body is not yet read
 * @returns its direct read when it has one, else its stream; null when there is no body
 */
function directOrStream(
  body: ReadableStream<Uint8Array> | Response,
): DirectSource | ReadableStream<Uint8Array> | null {
  // Not `instanceof ReadableStream`: reading that global loads the runtime's stream code.
  if (!("getReader" in body)) {
    const response = body;
    const read = directBody(response);
    if (read) return { read, cancel: (e: unknown) => response.body?.cancel(e) };
    return response.body && directOrStream(response.body);
  }
  const read = directRead(body);
  return read ? { read, cancel: (e: unknown) => body.cancel(e) } : body;
}

/**
 * @param error what writing the output threw
 * @returns whether the reader of stdout went away (EPIPE)
 */
export function isBrokenPipe(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof Deno.errors.BrokenPipe) return true;
  }
  return false;
}

/**
 * The one terminal-safety rule for text from the network: C0 controls but tab and newline,
 * DEL, C1 (U+0080–U+009F) and the bidirectional embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069), which can make a name read backwards.
 */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
/** The same without ESC, for text dial coloured itself (where a raw ESC cannot come from data). */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE_BUT_ESC = /[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function escaped(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Shows control characters from the network as `\x1b`-style escapes (`\u202e` for the
 * bidirectional controls), so that a server cannot write to the clipboard (OSC 52), retitle
 * or clear the terminal, or make a name read backwards. Callers use it only when the output
 * is a terminal (see {@link shown}); piped output stays byte-exact.
 *
 * @param text text that came from a server
 * @param keepEsc leave ESC alone (for output dial coloured, where data cannot hold a raw ESC)
 * @returns the text with C0 (but tab and newline), DEL, C1 and bidi controls escaped
 */
export function escapeControls(text: string, keepEsc = false): string {
  return text.replace(keepEsc ? UNSAFE_BUT_ESC : UNSAFE, escaped);
}

/**
 * The terminal-safety rule at the point of printing: text from the network, escaped when the
 * sink is a terminal and byte-exact otherwise. Every note, header, name or token dial prints
 * that a server could have chosen goes through here (or {@link escapeControls} where the
 * caller already knows it writes to a terminal).
 *
 * @param sink where the text goes
 * @param text text that may hold a server's bytes
 * @param keepEsc leave ESC alone (the text is dial's own colouring of escaped data)
 * @returns the text to write
 * @example
 * ```ts
 * await err.write(`Saved to "${shown(err, path)}"\n`);
 * ```
 */
export function shown(sink: Pick<Sink, "isTerminal">, text: string, keepEsc = false): string {
  return sink.isTerminal ? escapeControls(text, keepEsc) : text;
}

/** ANSI styles used by the formatters. */
export const Style = {
  bold: "1",
  dim: "2",
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
  magenta: "35",
  cyan: "36",
  gray: "90",
  key: "34;1",
} as const;

/**
 * @param text the text
 * @param style an ANSI SGR code from {@link Style}
 * @param on whether colour is enabled
 * @returns the text, coloured when on
 */
export function paint(text: string, style: string, on: boolean): string {
  return on ? `\x1b[${style}m${text}\x1b[0m` : text;
}
