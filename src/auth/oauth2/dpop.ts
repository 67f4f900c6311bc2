/**
 * DPoP (RFC 9449), `--oauth2-dpop`: a key pair of this run (ES256, its private key not
 * extractable) binds the token; token requests carry a proof (through oauth4webapi), and each
 * request with the token carries `Authorization: DPoP <token>` and a proof of its own (method,
 * URL, the token's hash), made here. A resource server's `use_dpop_nonce` is answered once.
 * @module
 */
import type { PreparedRequest, RequestSigner } from "../../http/request_spec.ts";
import { requestUrl } from "../../http/build_request.ts";
import { reveal, Secret } from "../../secret.ts";

const keys = new Map<string, Promise<CryptoKeyPair>>();

/** Which client a key pair belongs to: the same before and after endpoint discovery. */
export interface DpopOwner {
  /** The client id. */
  clientId: string;
  /** The issuer, when given. */
  issuer?: URL;
  /** The token endpoint, when given. */
  tokenUrl?: URL;
}

/**
 * The process's DPoP key pair for one client (its token and every proof use it). Tokens bound
 * to it are kept in memory only: the key dies with the process.
 *
 * @param owner the client: id, and issuer or token URL
 * @returns the key pair, made on first use
 */
export function dpopKeyPair(owner: DpopOwner): Promise<CryptoKeyPair> {
  const id = `${owner.clientId} ${owner.issuer?.href ?? owner.tokenUrl?.href ?? ""}`;
  let pair = keys.get(id);
  if (!pair) {
    pair = crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
      "verify",
    ]) as Promise<CryptoKeyPair>;
    keys.set(id, pair);
  }
  return pair;
}

const encoder = new TextEncoder();
const b64url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });

/** What one proof is for. */
export interface ProofTarget {
  /** The request's method. */
  method: string;
  /** The request's URL (query and fragment are left out of `htu`). */
  url: URL;
  /** The access token the request carries (its hash is `ath`). */
  accessToken?: string;
  /** The nonce the server asked for. */
  nonce?: string;
}

/**
 * Makes a DPoP proof JWT.
 *
 * @param pair the run's key pair
 * @param target method, URL, token and nonce
 * @returns the proof, for the `DPoP` header
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-4.2
 */
export async function dpopProof(pair: CryptoKeyPair, target: ProofTarget): Promise<string> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const htu = new URL(target.url);
  htu.search = "";
  htu.hash = "";
  const payload: Record<string, unknown> = {
    jti: crypto.randomUUID(),
    htm: target.method,
    htu: htu.href,
    iat: Math.floor(Date.now() / 1000),
  };
  if (target.accessToken !== undefined) {
    const hash = await crypto.subtle.digest("SHA-256", encoder.encode(target.accessToken));
    payload.ath = b64url(new Uint8Array(hash));
  }
  if (target.nonce !== undefined) payload.nonce = target.nonce;
  const header = { typ: "dpop+jwt", alg: "ES256", jwk: { kty, crv, x, y } };
  const input = `${b64url(encoder.encode(JSON.stringify(header)))}.${
    b64url(encoder.encode(JSON.stringify(payload)))
  }`;
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    pair.privateKey,
    encoder.encode(input),
  );
  return `${input}.${b64url(new Uint8Array(signature))}`;
}

/**
 * The signer that adds a proof to each request carrying the DPoP-bound token (the
 * `Authorization: DPoP …` the credential step put there), and learns a resource server's nonce
 * from a 401 `use_dpop_nonce`.
 *
 * @param owner the client whose key pair bound the token
 * @returns the signer
 */
export function dpopSigner(owner: DpopOwner): RequestSigner {
  let nonce: string | undefined;
  let answered: string | undefined;
  return {
    scheme: "dpop",
    async sign(request: PreparedRequest) {
      const authorization = request.headers.find((h) => h.name.toLowerCase() === "authorization");
      const value = authorization ? reveal(authorization.value) : "";
      if (!/^DPoP /i.test(value)) return request;
      answered = nonce;
      const proof = await dpopProof(await dpopKeyPair(owner), {
        method: request.method,
        url: requestUrl(request),
        accessToken: value.slice(5),
        ...(nonce !== undefined ? { nonce } : {}),
      });
      const headers = request.headers.filter((h) => h.name.toLowerCase() !== "dpop");
      return { ...request, headers: [...headers, { name: "DPoP", value: new Secret(proof) }] };
    },
    challenge(response: Response) {
      const next = response.headers.get("dpop-nonce");
      const asked = /\bDPoP\b[^,]*error="?use_dpop_nonce/i.test(
        response.headers.get("www-authenticate") ?? "",
      );
      if (!asked || next === null || next === answered) return false;
      nonce = next;
      return true;
    },
    // A proof is bound to its time and used once: curl gets the token header only.
    curlArgs: () => [],
  };
}
