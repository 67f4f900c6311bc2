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
export const EXPANSION_FLOOR = 8 * 1024 * 1024;

/** The formats {@link decodeBounded} decodes. */
export type Coding = "gzip" | "brotli" | "deflate";

/**
 * The most bytes one compressed byte can decode to, by format: deflate (gzip, zlib, raw) about
 * 1,032; brotli copies up to 16.8 MB for at least three bytes of length bits (a quality-11
 * bomb of zeros: 1.28 MB a byte). Decoders are fed slices small enough that one slice cannot
 * pass the bound by more than the bound itself (Deno's decoders write a whole input chunk's
 * expansion at once).
 */
const PER_BYTE: Record<Coding, number> = { gzip: 1032, deflate: 1032, brotli: 6 * 1024 * 1024 };

/** The largest slice fed to a decoder. */
const MAX_SLICE = 64 * 1024;

/**
 * Decodes a body, bounding the expansion: the decoded bytes may not pass
 * {@link MAX_EXPANSION} times the compressed bytes fed so far (nor {@link EXPANSION_FLOOR}
 * when that is more). Beyond, the body fails with a `content_encoding` error and the download
 * is cancelled. The decoder is fed slices sized from what is left of the bound, so a bomb is
 * refused after decoding at most about twice the bound (plus the decoder's own window), not
 * a whole network read's expansion. Every decoding dial does goes through here (gzip and br in
 * the client, deflate in {@link decodeContent}), on every path: CLI, library and UI.
 *
 * @param encoded the body as received
 * @param coding the content coding (deflate: zlib-wrapped or raw, told by its first bytes)
 * @param host named in the errors
 * @returns the decoded body
 */
export function decodeBounded(
  encoded: ReadableStream<Uint8Array>,
  coding: Coding,
  host: string,
): ReadableStream<Uint8Array> {
  const input = encoded.getReader();
  let compressed = 0;
  let size = 0;
  let pending: Uint8Array = new Uint8Array(0);
  let inputDone = false;
  // Connection errors pass through as they are; the decoder's are reworded for deflate.
  let readFailure: { error: unknown } | undefined;
  let decoder: {
    writer: WritableStreamDefaultWriter<BufferSource>;
    out: ReadableStreamDefaultReader<Uint8Array>;
  } | undefined;
  let feeding: Promise<void> | undefined;
  const limit = () => Math.max(compressed * MAX_EXPANSION, EXPANSION_FLOOR);
  const more = async (): Promise<boolean> => {
    try {
      const { done, value } = await input.read();
      if (done) return false;
      pending = pending.length ? concat(pending, value) : value;
      return true;
    } catch (error) {
      readFailure = { error };
      throw error;
    }
  };
  const open = async () => {
    let format: CompressionFormat = coding;
    if (coding === "deflate") {
      // The first two bytes decide between zlib and raw deflate.
      while (pending.length < 2 && await more()) { /* read on */ }
      format = isZlibHeader(pending) ? "deflate" : "deflate-raw";
    }
    const stream = new DecompressionStream(format);
    const opened = { writer: stream.writable.getWriter(), out: stream.readable.getReader() };
    // A failed read fails the decoder's output too, so the pull waiting on it ends.
    feeding = feed(opened.writer).catch((error) => {
      opened.writer.abort(error).catch(() => {});
    });
    return opened;
  };
  const feed = async (writer: WritableStreamDefaultWriter<BufferSource>) => {
    for (;;) {
      if (pending.length === 0 && (inputDone || !await more())) {
        inputDone = true;
        return await writer.close();
      }
      const room = Math.max(0, limit() - size);
      const slice = Math.min(
        pending.length,
        MAX_SLICE,
        Math.max(1, Math.floor(room / PER_BYTE[coding])),
      );
      const part = pending.subarray(0, slice);
      pending = pending.subarray(slice);
      compressed += part.length;
      await writer.write(part as Uint8Array<ArrayBuffer>);
    }
  };
  const failed = (error: unknown) =>
    readFailure
      ? readFailure.error
      : coding === "deflate" && !(error instanceof DialError)
      ? new DialError(
        `Response body from ${host} is not valid deflate data`,
        ErrorCode.ContentEncoding,
        {
          cause: error,
          remedy: { use: "undecoded" },
        },
      )
      : error;
  const stop = (reason?: unknown) => {
    input.cancel(reason).catch(() => {});
    decoder?.writer.abort(reason).catch(() => {});
    decoder?.out.cancel(reason).catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        decoder ??= await open();
        const { done, value } = await decoder.out.read();
        if (done) {
          await feeding;
          return controller.close();
        }
        size += value.length;
        if (size > limit()) {
          const error = new DialError(
            `Response body from ${host} expands more than ${MAX_EXPANSION} times: ${compressed} compressed bytes decode to over ${limit()} bytes, refused as a decompression bomb`,
            ErrorCode.ContentEncoding,
            { remedy: { use: "identity_encoding" } },
          );
          stop(error);
          return controller.error(error);
        }
        controller.enqueue(value);
      } catch (error) {
        stop(error);
        controller.error(failed(error));
      }
    },
    cancel: (reason) => stop(reason),
  }, { highWaterMark: 0 });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
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
    new Response(decodeBounded(response.body, "deflate", host), {
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
