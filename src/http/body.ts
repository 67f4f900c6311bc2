/**
 * Opening request bodies as streams.
 * @module
 */
import type { BodySource, FormField } from "./spec.ts";

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
 * Opens a body for one send. Files are opened here and streamed.
 *
 * @param source the body
 * @returns a value fetch accepts
 */
export async function openBody(source: BodySource): Promise<BodyInit> {
  switch (source.kind) {
    case "text":
      return source.text;
    case "file":
      return (await Deno.open(source.path)).readable;
    case "stdin":
      return Deno.stdin.readable;
    case "form":
      return multipartStream(source.fields, source.boundary);
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

/** Streams a multipart/form-data body, reading files chunk by chunk (RFC 7578). */
function multipartStream(fields: FormField[], boundary: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const field of fields) {
      let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(field.name)}"`;
      if ("path" in field) {
        head += `; filename="${quote(field.filename)}"\r\nContent-Type: ${field.contentType}`;
      }
      yield encoder.encode(`${head}\r\n\r\n`);
      if ("path" in field) {
        const file = await Deno.open(field.path);
        for await (const chunk of file.readable) yield chunk;
      } else {
        yield encoder.encode(field.value);
      }
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  return ReadableStream.from(parts());
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
