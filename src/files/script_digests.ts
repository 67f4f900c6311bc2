/**
 * The digests and HMACs of request-file scripts (JetBrains' `crypto`, Postman's `CryptoJS`), the
 * host side of the sandbox's `digest` function. A module of its own, loaded only before a script
 * that names `crypto` (`script_sandbox.ts`): `node:crypto` costs a run that never hashes
 * ~20–30 ms of CPU to load.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, createHmac } from "node:crypto";

const DIGESTS = new Set(["sha1", "sha256", "sha384", "sha512", "md5"]);

/**
 * A hash or HMAC of bytes given as hex.
 *
 * @param algorithm `sha1`, `sha256`, `sha384`, `sha512` or `md5`
 * @param dataHex the data, as hex
 * @param keyHex the HMAC's key, as hex; undefined for a plain hash
 * @returns the digest, as hex
 * @throws {Error} for another algorithm
 */
export function digestHex(algorithm: string, dataHex: string, keyHex?: string): string {
  if (!DIGESTS.has(algorithm)) throw new Error(`Unknown digest "${algorithm}"`);
  const hash = keyHex === undefined
    ? createHash(algorithm)
    : createHmac(algorithm, Buffer.from(keyHex, "hex"));
  return hash.update(Buffer.from(dataHex, "hex")).digest("hex");
}
