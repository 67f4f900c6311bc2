/**
 * Whether a response body is shown as text or as a hex dump: by its media type where the type
 * says, and by sniffing the bytes where it does not (a missing or generic type). A body shown
 * as text must also be valid UTF-8; anything else is binary, whatever its type claims, so no
 * garbled text reaches the viewer.
 * @module
 */

const TEXT_TYPES =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|x-yaml|toml|x-ndjson|ndjson|jsonl|sql|csv|problem\+json)\b|[\w.+-]+\/[\w.+-]*\+(json|xml)\b|image\/svg\+xml)/i;

const BINARY_TYPES =
  /^(application\/(octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed|x-bzip2|zstd|wasm|x-protobuf|protobuf|vnd\.google\.protobuf|msgpack|x-msgpack|cbor|vnd\.ms-excel|vnd\.openxmlformats[\w.-]*|java-archive|x-sqlite3)|image\/|audio\/|video\/|font\/)/i;

/**
 * @param contentType the response's Content-Type (may be empty)
 * @param bytes the first bytes of the body (a preview may end inside a character, which is left
 *   out)
 * @param truncated whether `bytes` is only the start of the body
 * @returns the body as text, or undefined when it is shown as binary (decoded once: this is a
 *   5 MiB preview on the way to a large response's first screen)
 */
export function bodyText(
  contentType: string,
  bytes: Uint8Array,
  truncated = false,
): string | undefined {
  const type = contentType.trim();
  if (type !== "" && !TEXT_TYPES.test(type) && BINARY_TYPES.test(type)) {
    // SVG is an image and text; every other image, audio, font or octet stream is binary.
    return undefined;
  }
  if (bytes.includes(0)) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return undefined;
  }
  if (TEXT_TYPES.test(type)) return text;
  // No useful type: valid UTF-8 with few control characters reads as text.
  let control = 0;
  const sample = bytes.subarray(0, 4096);
  for (const b of sample) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) control++;
  return control > sample.length / 100 ? undefined : text;
}
