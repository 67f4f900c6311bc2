/**
 * Content codings: dial's client decodes gzip and br (as fetch does); deflate is decoded here, in both of the forms
 * servers send (zlib-wrapped, as RFC 9110 says, and raw, as some servers do).
 * @module
 */
import { DialError, ErrorCode } from "../errors/mod.ts";
import { copyMeta } from "./response_meta.ts";

/** Codings whose bodies reach dial decoded: by fetch (gzip, br) or by {@link decodeContent}. */
const DECODED = new Set(["", "identity", "gzip", "x-gzip", "br", "deflate"]);

/**
 * @param headers response headers
 * @returns the Content-Encoding value when dial delivers the body still encoded, else undefined
 */
export function undecodedEncoding(headers: Headers): string | undefined {
  const value = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  return DECODED.has(value) ? undefined : value;
}

/** Statuses whose responses cannot carry a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A compressed body may decode to at most this many times its size so far (gzip's own ceiling
 * is about 1,032; brotli's is far higher, which is what a decompression bomb uses)…
 */
export const MAX_EXPANSION = 2000;
/** …but a body may always decode to this much, whatever its compressed size. */
export const EXPANSION_FLOOR = 16 * 1024 * 1024;

/**
 * Decodes a body through a decompressor, bounding the expansion: the decoded bytes may not
 * pass {@link MAX_EXPANSION} times the compressed bytes read so far (nor
 * {@link EXPANSION_FLOOR} when that is more). Beyond, the body fails with a `content_encoding`
 * error and the download is cancelled. Every decoding dial does goes through here (gzip and br
 * in the client, deflate in {@link decodeContent}), on every path: CLI, library and UI.
 *
 * @param encoded the body as received
 * @param decode the decompressor
 * @param host named in the error
 * @returns the decoded body
 */
export function decodeBounded(
  encoded: ReadableStream<Uint8Array>,
  decode: (input: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>,
  host: string,
): ReadableStream<Uint8Array> {
  let compressed = 0;
  let size = 0;
  const counted = encoded.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        compressed += chunk.length;
        controller.enqueue(chunk);
      },
    }),
  );
  return decode(counted).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.length;
        const limit = Math.max(compressed * MAX_EXPANSION, EXPANSION_FLOOR);
        if (size <= limit) return controller.enqueue(chunk);
        controller.error(
          new DialError(
            `Response body from ${host} expands more than ${MAX_EXPANSION} times: ${compressed} compressed bytes decode to over ${limit} bytes, refused as a decompression bomb`,
            ErrorCode.ContentEncoding,
            { remedy: { use: "identity_encoding" } },
          ),
        );
      },
    }),
  );
}

/**
 * Decodes a `Content-Encoding: deflate` body; other responses are returned as they are. The
 * headers are kept, as fetch keeps them for the codings it decodes. The expansion is bounded
 * ({@link decodeBounded}).
 *
 * @param response a response from fetch, body unread
 * @param host named in the error when the body is not deflate data
 * @returns a response whose body is the decoded bytes
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.4.1.2
 */
export function decodeContent(response: Response, host: string): Response {
  const coding = (response.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (coding !== "deflate" || !response.body || NULL_BODY.has(response.status)) return response;
  return copyMeta(
    response,
    new Response(decodeBounded(response.body, (body) => inflate(body, host), host), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    }),
  );
}

/**
 * @param bytes the first bytes of a deflate body
 * @returns whether they start a zlib stream (RFC 1950: method 8, header checksum)
 */
export function isZlibHeader(bytes: Uint8Array): boolean {
  const cmf = bytes[0];
  const flg = bytes[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && (cmf >> 4) <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

function inflate(body: ReadableStream<Uint8Array>, host: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  // Errors of the connection pass through as they are; only the decoder's are reworded.
  let readFailure: { error: unknown } | undefined;
  const source = {
    read: () =>
      reader.read().catch((error) => {
        readFailure = { error };
        throw error;
      }),
    cancel: (reason: unknown) => reader.cancel(reason),
  };
  let decoded: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const fail = (cause: unknown) =>
    new DialError(
      `Response body from ${host} is not valid deflate data`,
      ErrorCode.ContentEncoding,
      { cause, remedy: { use: "undecoded" } },
    );
  const open = async (): Promise<ReadableStreamDefaultReader<Uint8Array> | undefined> => {
    // The first two bytes decide between zlib and raw deflate.
    const head: Uint8Array[] = [];
    let size = 0;
    while (size < 2) {
      const { done, value } = await source.read();
      if (done) break;
      head.push(value);
      size += value.length;
    }
    if (size === 0) return undefined;
    const first = new Uint8Array(size);
    let at = 0;
    for (const part of head) {
      first.set(part, at);
      at += part.length;
    }
    const encoded = new ReadableStream<BufferSource>({
      start: (controller) => controller.enqueue(first),
      pull: async (controller) => {
        const { done, value } = await source.read();
        if (done) controller.close();
        else controller.enqueue(value as Uint8Array<ArrayBuffer>);
      },
      cancel: (reason) => source.cancel(reason),
    });
    const format = isZlibHeader(first) ? "deflate" : "deflate-raw";
    return encoded.pipeThrough(new DecompressionStream(format)).getReader();
  };
  let opened = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!opened) {
          opened = true;
          decoded = await open();
        }
        const next = decoded ? await decoded.read() : { done: true as const, value: undefined };
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(readFailure ? readFailure.error : fail(error));
      }
    },
    cancel: (reason) => decoded ? decoded.cancel(reason) : source.cancel(reason),
  });
}
