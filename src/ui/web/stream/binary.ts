/**
 * Binary WebSocket messages as text: hex and base64, both ways.
 * @module
 */

/**
 * @param text hex digits; spaces, newlines and `0x` prefixes are ignored
 * @returns the bytes
 * @throws {Error} naming the problem
 */
export function parseHex(text: string): Uint8Array {
  const digits = text.replace(/0x/gi, "").replace(/[\s:,]/g, "");
  if (!/^[0-9a-f]*$/i.test(digits)) throw new Error("Invalid hex: only 0-9 and a-f are allowed");
  if (digits.length % 2 !== 0) throw new Error("Invalid hex: an odd number of digits");
  return Uint8Array.fromHex(digits);
}

/**
 * @param text base64 or base64url, whitespace ignored
 * @returns the bytes
 * @throws {Error} naming the problem
 */
export function parseBase64(text: string): Uint8Array {
  const compact = text.replace(/\s/g, "");
  const alphabet = /[-_]/.test(compact) ? "base64url" : "base64";
  try {
    return Uint8Array.fromBase64(compact, { alphabet });
  } catch {
    throw new Error("Invalid base64");
  }
}

/**
 * @param bytes any bytes
 * @returns space-separated hex pairs, 16 per line
 */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    lines.push(
      [...bytes.subarray(i, i + 16)].map((b) => b.toString(16).padStart(2, "0")).join(" "),
    );
  }
  return lines.join("\n");
}
