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
  const decoding = new BoundedDecoding(encoded.getReader(), coding, host);
  return new ReadableStream<Uint8Array>({
    pull: (controller) => decoding.pull(controller),
    cancel: (reason) => decoding.stop(reason),
  }, { highWaterMark: 0 });
}

/** One bounded decoding: the input read on demand, fed to the decoder in bounded slices. */
class BoundedDecoding {
  #input: ReadableStreamDefaultReader<Uint8Array>;
  #coding: Coding;
  #host: string;
  /** Compressed bytes fed to the decoder so far. */
  #compressed = 0;
  /** Decoded bytes delivered so far. */
  #size = 0;
  /** Read, not yet fed. */
  #pending: Uint8Array = new Uint8Array(0);
  #inputDone = false;
  /** Connection errors pass through as they are; the decoder's are reworded for deflate. */
  #readFailure: { error: unknown } | undefined;
  #decoder: {
    writer: WritableStreamDefaultWriter<BufferSource>;
    out: ReadableStreamDefaultReader<Uint8Array>;
  } | undefined;
  #feeding: Promise<void> | undefined;

  constructor(input: ReadableStreamDefaultReader<Uint8Array>, coding: Coding, host: string) {
    this.#input = input;
    this.#coding = coding;
    this.#host = host;
  }

  #limit(): number {
    return Math.max(this.#compressed * MAX_EXPANSION, EXPANSION_FLOOR);
  }

  async #more(): Promise<boolean> {
    try {
      const { done, value } = await this.#input.read();
      if (done) return false;
      this.#pending = this.#pending.length ? concat(this.#pending, value) : value;
      return true;
    } catch (error) {
      this.#readFailure = { error };
      throw error;
    }
  }

  async #open() {
    let format: CompressionFormat = this.#coding;
    if (this.#coding === "deflate") {
      // The first two bytes decide between zlib and raw deflate.
      while (this.#pending.length < 2 && await this.#more()) { /* read on */ }
      format = isZlibHeader(this.#pending) ? "deflate" : "deflate-raw";
    }
    const stream = new DecompressionStream(format);
    const opened = { writer: stream.writable.getWriter(), out: stream.readable.getReader() };
    // A failed read fails the decoder's output too, so the pull waiting on it ends.
    this.#feeding = this.#feed(opened.writer).catch((error) => {
      opened.writer.abort(error).catch(() => {});
    });
    return opened;
  }

  async #feed(writer: WritableStreamDefaultWriter<BufferSource>) {
    for (;;) {
      if (this.#pending.length === 0 && (this.#inputDone || !await this.#more())) {
        this.#inputDone = true;
        return await writer.close();
      }
      const room = Math.max(0, this.#limit() - this.#size);
      const slice = Math.min(
        this.#pending.length,
        MAX_SLICE,
        Math.max(1, Math.floor(room / PER_BYTE[this.#coding])),
      );
      const part = this.#pending.subarray(0, slice);
      this.#pending = this.#pending.subarray(slice);
      this.#compressed += part.length;
      await writer.write(part as Uint8Array<ArrayBuffer>);
    }
  }

  #failed(error: unknown): unknown {
    if (this.#readFailure) return this.#readFailure.error;
    if (this.#coding !== "deflate" || error instanceof DialError) return error;
    return new DialError(
      `Response body from ${this.#host} is not valid deflate data`,
      ErrorCode.ContentEncoding,
      { cause: error, remedy: { use: "undecoded" } },
    );
  }

  /** Cancels the input and the decoder. */
  stop(reason?: unknown): void {
    this.#input.cancel(reason).catch(() => {});
    this.#decoder?.writer.abort(reason).catch(() => {});
    this.#decoder?.out.cancel(reason).catch(() => {});
  }

  /** Delivers the next decoded chunk, or fails the body past the bound. */
  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    try {
      this.#decoder ??= await this.#open();
      const { done, value } = await this.#decoder.out.read();
      if (done) {
        await this.#feeding;
        return controller.close();
      }
      this.#size += value.length;
      if (this.#size > this.#limit()) {
        const error = new DialError(
          `Response body from ${this.#host} expands more than ${MAX_EXPANSION} times: ${this.#compressed} compressed bytes decode to over ${this.#limit()} bytes, refused as a decompression bomb`,
          ErrorCode.ContentEncoding,
          { remedy: { use: "identity_encoding" } },
        );
        this.stop(error);
        return controller.error(error);
      }
      controller.enqueue(value);
    } catch (error) {
      this.stop(error);
      controller.error(this.#failed(error));
    }
  }
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
