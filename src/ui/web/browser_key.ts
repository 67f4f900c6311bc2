/**
 * This browser's key for `dial ui` sessions: with a launch link the page makes an ECDSA P-256
 * key pair, keeps it in IndexedDB (per origin, port included) with its private half
 * non-extractable (scripts can sign with it, nobody can read it), and registers the public
 * half with the launch. A tab opened later on the bare address, even after every tab was
 * closed, signs a one-time challenge with it and gets its own session: no other tab, no
 * timing, no secret anyone can read from the browser's storage.
 * @module
 */
import type { SessionAnswer } from "../protocol.ts";

const DB = "dial";
const STORE = "keys";
const ID = "session";
const ECDSA = { name: "ECDSA", namedCurve: "P-256" } as const;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await request(open);
  return db.transaction(STORE, mode).objectStore(STORE);
}

/**
 * Makes and keeps a new key pair (the one of an earlier launch is replaced).
 *
 * @returns its public half, to register with the launch; undefined where the page cannot keep
 *   a key (no IndexedDB, or not a secure context: an address other than loopback)
 */
export async function newBrowserKey(): Promise<JsonWebKey | undefined> {
  try {
    const pair = await crypto.subtle.generateKey(ECDSA, false, ["sign", "verify"]);
    await request((await store("readwrite")).put(pair, ID));
    return await crypto.subtle.exportKey("jwk", pair.publicKey);
  } catch {
    return undefined;
  }
}

/**
 * @returns a session for this tab, proven with the kept key; undefined when there is no key
 *   or the server does not know it (another launch)
 */
export async function sessionFromBrowserKey(): Promise<string | undefined> {
  try {
    const pair = await request((await store("readonly")).get(ID)) as CryptoKeyPair | undefined;
    if (!pair?.privateKey) return undefined;
    const asked = await fetch("/api/session/challenge", { method: "POST" });
    if (!asked.ok) return undefined;
    const { challenge } = await asked.json() as { challenge: string };
    const signed = await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      pair.privateKey,
      new TextEncoder().encode(challenge),
    );
    const signature = new Uint8Array(signed).toBase64({ alphabet: "base64url", omitPadding: true });
    const answer = await fetch("/api/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ challenge, signature }),
    });
    if (!answer.ok) return undefined;
    return (await answer.json() as SessionAnswer).session;
  } catch {
    return undefined;
  }
}
