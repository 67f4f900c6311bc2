/**
 * Bytes held whole: chunks joined into one buffer ({@link concatBytes}), and a stream read
 * within a bound ({@link readBounded}): a body dial must hold in memory (a response to filter,
 * an imported collection, an OAuth 2.0 token response, a UI API request) is read up to a limit
 * and refused as soon as it passes it, never after it has all arrived.
 * @module
 */

/**
 * @param chunks the parts, in order
 * @param size their total length, when known
 * @returns one buffer holding them all
 */
export function concatBytes(
  chunks: readonly Uint8Array[],
  size: number = chunks.reduce((n, c) => n + c.byteLength, 0),
): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * @param stream the body (none reads as empty)
 * @param limit the most bytes kept
 * @param tooLarge the error to throw past the limit (the stream is cancelled first)
 * @returns the bytes, in one buffer
 */
export async function readBounded(
  stream: ReadableStream<Uint8Array> | null | undefined,
  limit: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by a throw cancels the stream.
  for await (const chunk of stream ?? []) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return concatBytes(chunks, size);
}
