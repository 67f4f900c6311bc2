/**
 * Client keys for `private_key_jwt` (RFC 7523): a PEM private key (PKCS#8, PKCS#1 RSA or SEC1
 * EC) read into a Web Crypto key for RS256, PS256 or ES256, chosen by the key type unless
 * given.
 * @module
 */
import { createPrivateKey } from "node:crypto";
import { UsageError } from "../../errors/mod.ts";
import type { Secret } from "../../secret.ts";

/** The JWS algorithms dial signs client assertions with. */
export const CLIENT_KEY_ALGS = ["RS256", "PS256", "ES256"] as const;

/** One of {@link CLIENT_KEY_ALGS}. */
export type ClientKeyAlg = (typeof CLIENT_KEY_ALGS)[number];

const IMPORT: Record<ClientKeyAlg, RsaHashedImportParams | EcKeyImportParams> = {
  RS256: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  PS256: { name: "RSA-PSS", hash: "SHA-256" },
  ES256: { name: "ECDSA", namedCurve: "P-256" },
};

/**
 * Reads a PEM private key into a signing key.
 *
 * @param pem the key text
 * @param alg the algorithm; default RS256 for RSA keys, PS256 for RSA-PSS keys, ES256 for P-256
 * @returns the Web Crypto key and its algorithm
 * @throws {UsageError} for text that is not a private key, or a key the algorithm cannot use
 */
export async function importClientKey(
  pem: Secret,
  alg?: ClientKeyAlg,
): Promise<{ key: CryptoKey; alg: ClientKeyAlg }> {
  let der: Uint8Array;
  let type: string | undefined;
  let curve: string | undefined;
  try {
    const key = createPrivateKey({ key: normalizePem(pem.reveal()), format: "pem" });
    type = key.asymmetricKeyType;
    curve = key.asymmetricKeyDetails?.namedCurve;
    der = new Uint8Array(key.export({ format: "der", type: "pkcs8" }));
  } catch {
    // The message of the runtime may quote the key: name the setting only.
    throw new UsageError("Cannot read the client's private key: not a PEM private key", {
      remedy: { write: "private_key" },
    });
  }
  const chosen = alg ??
    (type === "rsa" ? "RS256" : type === "rsa-pss" ? "PS256" : type === "ec" ? "ES256" : undefined);
  const fits = chosen === "ES256"
    ? type === "ec" && (curve === "prime256v1" || curve === "P-256")
    : chosen !== undefined && (type === "rsa" || type === "rsa-pss");
  if (!chosen || !fits) {
    throw new UsageError(
      `Cannot use the client's private key (${type ?? "unknown"}${curve ? ` ${curve}` : ""}) for ${
        chosen ?? "RS256, PS256 or ES256"
      }`,
      { remedy: { check: "key_algorithm" } },
    );
  }
  const key = await crypto.subtle.importKey(
    "pkcs8",
    der as Uint8Array<ArrayBuffer>,
    IMPORT[chosen],
    false,
    ["sign"],
  );
  return { key, alg: chosen };
}

/**
 * A PEM block rewrapped at 64 columns: a key pasted into a one-line field (the desktop UI)
 * or an environment variable loses its line breaks, which PEM parsers need.
 *
 * @param text PEM text, line breaks possibly lost
 * @returns the same PEM with its lines restored
 */
export function normalizePem(text: string): string {
  const match = /-----BEGIN ([A-Z0-9 ]+)-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END \1-----/.exec(text);
  if (!match) return text;
  const body = match[2]!.replace(/\s+/g, "");
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${match[1]}-----\n${lines.join("\n")}\n-----END ${match[1]}-----\n`;
}
