/**
 * The direct path for bodies: a response body stream of HTTP/1.1 (identity coding) can also be
 * read straight into the caller's buffer, without the stream's per-chunk promises and without
 * a new buffer per read (`-o` and stdout read it so; a response of dial's client can give it
 * before any stream is made: {@link directBody}); a request body of files and form parts
 * can be read the same way into the HTTP/1.1 writer's buffer (`-T`, `-d @file`, `-F`).
 * @module
 */

/** Reads the next bytes into `view`; 0 at the end of the body. */
export type DirectRead = (view: Uint8Array) => Promise<number>;

const direct = new WeakMap<ReadableStream<Uint8Array>, DirectRead>();

/**
 * @param stream a body stream
 * @param read reads the same bytes into a buffer (while the stream is not locked)
 */
export function setDirectRead(stream: ReadableStream<Uint8Array>, read: DirectRead): void {
  direct.set(stream, read);
}

/**
 * @param stream a body stream
 * @returns its direct read, when the stream has one and no reader has taken it
 */
export function directRead(stream: ReadableStream<Uint8Array>): DirectRead | undefined {
  return stream.locked ? undefined : direct.get(stream);
}

/** A request body as a stream or as the chunks fetch also takes. */
type RequestChunks = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

const sources = new WeakMap<RequestChunks, DirectRead>();

/**
 * @param body a request body of files and forms (`body.ts`), read either way, not both
 * @param read reads the same bytes into a buffer (while no reader took the body)
 */
export function setDirectSource(body: RequestChunks, read: DirectRead): void {
  sources.set(body, read);
}

/**
 * @param body a request body
 * @returns its direct read, when it has one and no reader has taken it (a stream's)
 */
export function directSource(body: RequestChunks): DirectRead | undefined {
  // Not `instanceof ReadableStream`: reading that global loads Deno's streams code.
  return (body as Partial<ReadableStream>).locked ? undefined : sources.get(body);
}

/** Per response of dial's client: how to take its body's direct read; null: it has no body. */
const responses = new WeakMap<object, (() => DirectRead | undefined) | null>();

/**
 * @param response a response of dial's client (wire_response.ts)
 * @param take gives its body's direct read once, while no stream was made of it; null when the
 *   response has no body
 */
export function setDirectBody(
  response: Response,
  take: (() => DirectRead | undefined) | null,
): void {
  responses.set(response, take);
}

/**
 * The identity body of a response from dial's client, to read straight into a buffer, as long
 * as nobody has asked for its stream. Taking it leaves the body to the caller.
 *
 * @param response any response
 * @returns the body's direct read, or undefined (other responses, a stream already made)
 */
export function directBody(response: Response): DirectRead | undefined {
  return responses.get(response)?.();
}

/**
 * Whether a response has a body, without making the stream of one from dial's client.
 *
 * @param response any response
 * @returns false for a response without a body (HEAD, 204, 304)
 */
export function hasBody(response: Response): boolean {
  const take = responses.get(response);
  return take === undefined ? response.body !== null : take !== null;
}
