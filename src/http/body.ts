/**
 * Opening request bodies as streams.
 * @module
 */
import type { BodySource } from "./request_spec.ts";

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
  return source?.kind !== "stdin";
}

/**
 * Opens a body for one send through fetch. Files are opened when the stream is first read.
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
      return Deno.stdin.readable;
    default:
      return ReadableStream.from(bodyChunks(source));
  }
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
    const info = await Deno.stat(segment);
    if (!info.isFile) return undefined;
    length += info.size;
  }
  return length;
}

/**
 * Reads a body chunk by chunk; files are opened only when their turn comes.
 *
 * @param source any body but stdin
 * @yields its bytes
 */
export async function* bodyChunks(source: BodySource): AsyncGenerator<Uint8Array> {
  for (const segment of segments(source)) {
    if (typeof segment !== "string") {
      yield segment;
      continue;
    }
    using file = await Deno.open(segment);
    const buffer = new Uint8Array(64 * 1024);
    for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
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
      throw new Error("stdin has no segments");
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
