/**
 * Request bodies: their framing (settleBody) and their bytes as streams.
 *
 * Files and forms of regular files go out with `Content-Length` from the file sizes and are
 * streamed. Pipes (stdin, `-d @<(cmd)`, `/dev/stdin`, `-F f=@-`) are read into memory up to
 * {@link BUFFER_LIMIT} and sent with `Content-Length`, as curl and HTTPie do; a pipe longer than
 * that is streamed chunked, and the user is told.
 * @module
 */
import { type DirectRead, setDirectSource } from "./direct_body.ts";
import type { BodySource, PreparedRequest } from "./request_spec.ts";
import type { Framing } from "./wire.ts";

/** The most bytes of a pipe body held in memory to send it with a length (and again after a 307). */
export const BUFFER_LIMIT = 8 * 1024 * 1024;

/** The path of a form field that reads stdin (`-F f=@-`). */
export const STDIN_PATH = "-";

/**
 * @param source the body
 * @returns the `Content-Type` the body implies, if any
 */
export function bodyContentType(source: BodySource): string | undefined {
  if (source.kind === "form") return `multipart/form-data; boundary=${source.boundary}`;
  return source.contentType;
}

/**
 * @param source the body
 * @returns whether the body can be sent a second time (redirect, 401 retry)
 */
export function isReplayable(source: BodySource | undefined): boolean {
  return source?.kind !== "stdin" && source?.kind !== "stream";
}

/**
 * Decides a request's body framing: a length from the text, the bytes or the file sizes; a
 * pipe is read into memory up to {@link BUFFER_LIMIT} (the request then carries its bytes),
 * and beyond that streamed chunked with a notice.
 *
 * @param request a prepared request
 * @param onNotice told when a body goes out chunked
 * @returns the request, its pipes read, and the framing
 * @throws {DialError} when a file cannot be read
 */
export async function settleBody(
  request: PreparedRequest,
  onNotice?: (text: string) => void,
): Promise<{ request: PreparedRequest; framing: Framing }> {
  const body = request.body;
  if (!body) return { request, framing: "none" };
  if (body.kind === "stream") return { request, framing: "chunked" };
  let length: number | undefined;
  try {
    length = body.kind === "stdin" ? undefined : await bodyLength(body);
  } catch (error) {
    const { DialError, ErrorCode } = await import("../errors/mod.ts");
    throw new DialError(
      `Cannot read the request body: ${(error as Error).message}`,
      ErrorCode.Body,
      { cause: error },
    );
  }
  if (length !== undefined) return { request, framing: { length } };
  // A pipe: read what fits, then decide.
  const source = body.kind === "stdin" ? body.stream : ReadableStream.from(bodyChunks(body));
  const reader = source.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      const contentType = "contentType" in body ? body.contentType : undefined;
      return {
        request: {
          ...request,
          body: { kind: "bytes", bytes, ...(contentType ? { contentType } : {}) },
        },
        framing: { length: size },
      };
    }
    chunks.push(value);
    size += value.length;
    if (size > BUFFER_LIMIT) break;
  }
  onNotice?.(
    `the request body from a pipe is larger than ${BUFFER_LIMIT / 1024 / 1024} MiB: ` +
      "it is streamed with Transfer-Encoding: chunked (some servers read such a body as empty; " +
      "save it to a file and give @file to send it with Content-Length)",
  );
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const contentType = "contentType" in body ? body.contentType : undefined;
  return {
    request: {
      ...request,
      body: { kind: "stream", stream, ...(contentType ? { contentType } : {}) },
    },
    framing: "chunked",
  };
}

/**
 * Opens a body for one send through fetch. Files are opened when the body is first read. Files
 * and forms are an async iterable of their chunks, which fetch accepts as it accepts a stream,
 * and which dial's client reads straight into its buffer ({@link setDirectSource}): no web
 * stream is made (a first `ReadableStream` of a process costs ~80 of the runtime's functions
 * compiled, ~1-3 ms).
 *
 * @param source the body
 * @returns a value fetch accepts
 */
export function openBody(source: BodySource): BodyInit {
  switch (source.kind) {
    case "text":
      return source.text;
    case "bytes":
      return source.bytes;
    case "stdin":
      return source.stream;
    case "stream":
      return source.stream;
    default: {
      const chunks = bodyChunks(source);
      const direct = directReader(source);
      if (direct) setDirectSource(chunks, direct);
      return chunks as BodyInit;
    }
  }
}

/**
 * The same bytes as {@link bodyChunks}, read into the caller's buffer (no buffer per chunk);
 * undefined for a form with a stdin field.
 */
function directReader(source: BodySource): DirectRead | undefined {
  const parts = segments(source);
  if (parts.includes(STDIN_PATH)) return undefined;
  let index = 0;
  let offset = 0;
  let file: Deno.FsFile | undefined;
  let regular = false;
  return async (view) => {
    while (index < parts.length) {
      const part = parts[index]!;
      if (typeof part !== "string") {
        const n = Math.min(view.length, part.length - offset);
        view.set(part.subarray(offset, offset + n));
        offset += n;
        if (offset === part.length) [index, offset] = [index + 1, 0];
        if (n > 0) return n;
        continue;
      }
      if (!file) {
        file = await Deno.open(part);
        regular = file.statSync().isFile;
      }
      // Synchronous for a regular file: Deno's async file reads (and stats) dup the descriptor
      // and hand off to a thread each time; the file is looked at once, when opened.
      const n = regular ? file.readSync(view) : await file.read(view);
      if (n !== null && n > 0) return n;
      file.close();
      file = undefined;
      index++;
    }
    return 0;
  };
}

/**
 * @param source a file or multipart body
 * @returns its length in bytes from the file sizes, or undefined when a file is not a regular
 *   file (a pipe such as `-d @<(cmd)`, a device) and its size cannot be known in advance
 */
export async function bodyLength(source: BodySource): Promise<number | undefined> {
  let length = 0;
  for (const segment of segments(source)) {
    if (typeof segment !== "string") {
      length += segment.byteLength;
      continue;
    }
    if (segment === STDIN_PATH) return undefined;
    const info = await Deno.stat(segment);
    if (!info.isFile) return undefined;
    length += info.size;
  }
  return length;
}

/** The size of one read of a body file. */
const FILE_READ = 256 * 1024;

/**
 * Reads a body chunk by chunk; files are opened only when their turn comes.
 *
 * @param source any body but stdin or a stream
 * @yields its bytes
 */
export async function* bodyChunks(source: BodySource): AsyncGenerator<Uint8Array> {
  for (const segment of segments(source)) {
    if (typeof segment !== "string") {
      yield segment;
      continue;
    }
    if (segment === STDIN_PATH) {
      if (source.kind !== "form" || !source.stdin) {
        throw new Error("a form field reads stdin: give form.stdin");
      }
      yield* source.stdin;
      continue;
    }
    using file = await Deno.open(segment);
    // A regular file is read synchronously: Deno runs each async read of a file on a blocking
    // thread with a duplicate of its descriptor (fcntl and close around every read).
    const regular = (await file.stat()).isFile;
    const buffer = new Uint8Array(FILE_READ);
    for (;;) {
      const n = regular ? file.readSync(buffer) : await file.read(buffer);
      if (n === null) break;
      yield buffer.slice(0, n);
    }
  }
}

/** @returns a fresh multipart boundary */
export function newBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `dial-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function quote(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll(/[\r\n]/g, " ");
}

/** The body as bytes and file paths (a string is a file to stream), RFC 7578 for forms. */
function segments(source: BodySource): Array<Uint8Array | string> {
  const encoder = new TextEncoder();
  switch (source.kind) {
    case "text":
      return [encoder.encode(source.text)];
    case "bytes":
      return [source.bytes];
    case "file":
      return [source.path];
    case "stdin":
    case "stream":
      throw new Error("a pipe has no segments");
  }
  const out: Array<Uint8Array | string> = [];
  for (const field of source.fields) {
    let head = `--${source.boundary}\r\nContent-Disposition: form-data; name="${
      quote(field.name)
    }"`;
    if ("path" in field) {
      head += `; filename="${quote(field.filename)}"\r\nContent-Type: ${field.contentType}`;
    }
    out.push(encoder.encode(`${head}\r\n\r\n`));
    out.push("path" in field ? field.path : encoder.encode(field.value));
    out.push(encoder.encode("\r\n"));
  }
  out.push(encoder.encode(`--${source.boundary}--\r\n`));
  return out;
}

const TYPES: Record<string, string> = {
  json: "application/json",
  txt: "text/plain",
  html: "text/html",
  csv: "text/csv",
  xml: "application/xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
};

/**
 * @param filename a file name
 * @returns a media type guessed from its extension, `application/octet-stream` otherwise
 */
export function guessContentType(filename: string): string {
  const ext = filename.split(".").pop()?.toLowerCase() ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}
