/**
 * This browser's key for `dial ui` sessions: with a launch link the page makes an ECDSA P-256
 * key pair, registers its public half with the launch and, once the server took it, keeps the
 * pair in IndexedDB (per origin, port included) with its private half non-extractable (scripts
 * can sign with it, nobody can read it). A tab opened later on the bare address, even after
 * every tab was closed, signs a one-time challenge with it and gets its own session: no other
 * tab, no timing, no secret anyone can read from the browser's storage.
 *
 * A link's trade and a bare tab's proof take one Web Lock of the origin (the trade alone, the
 * proofs together): a bare tab opened while a link's tab is still trading waits for that key
 * instead of finding none, or one the server does not know yet. A used or refused link keeps
 * the key an earlier trade registered.
 * @module
 */
import type { SessionAnswer } from "../protocol.ts";

const DB = "dial";
const STORE = "keys";
const ID = "session";
const LOCK = "dial.session-key";
const ECDSA = { name: "ECDSA", namedCurve: "P-256" } as const;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Runs `work` on the key store in one transaction; resolves once that transaction committed. */
async function inStore<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await request(open);
  try {
    const transaction = db.transaction(STORE, mode);
    const result = request(work(transaction.objectStore(STORE)));
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
    return await result;
  } finally {
    db.close();
  }
}

/**
 * Runs `work` holding the origin's key lock: `exclusive` for a link's trade, shared for the
 * proofs of bare tabs.
 *
 * @param mode the lock's mode
 * @param work what to do under it
 * @returns what `work` returns
 */
export function withKeyLock<T>(mode: LockMode, work: () => Promise<T>): Promise<T> {
  // Without Web Locks (not a secure context) there is no key either.
  if (!navigator.locks) return work();
  return navigator.locks.request(LOCK, { mode }, work);
}

/** A new key pair and its public half, not kept yet. */
export interface NewKey {
  pair: CryptoKeyPair;
  /** The public half, to register with the launch. */
  jwk: JsonWebKey;
}

/**
 * Makes a key pair to register with a launch (call {@link keepBrowserKey} once the server took
 * it).
 *
 * @returns the pair, or undefined where the page cannot keep a key (no IndexedDB, or not a
 *   secure context: an address other than loopback)
 */
export async function newBrowserKey(): Promise<NewKey | undefined> {
  try {
    if (typeof indexedDB === "undefined") return undefined;
    const pair = await crypto.subtle.generateKey(ECDSA, false, ["sign", "verify"]);
    return { pair, jwk: await crypto.subtle.exportKey("jwk", pair.publicKey) };
  } catch {
    return undefined;
  }
}

/**
 * Keeps a registered key pair (the one of an earlier launch is replaced).
 *
 * @param key the pair the server took
 */
export async function keepBrowserKey(key: NewKey): Promise<void> {
  try {
    await inStore("readwrite", (store) => store.put(key.pair, ID));
  } catch {
    // Not kept: later bare tabs need the link.
  }
}

/**
 * @returns a session for this tab, proven with the kept key; undefined when there is no key
 *   or the server does not know it (another launch)
 */
export async function sessionFromBrowserKey(): Promise<string | undefined> {
  try {
    const pair = await inStore("readonly", (store) => store.get(ID)) as
      | CryptoKeyPair
      | undefined;
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
