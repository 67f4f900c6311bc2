/**
 * Keyed digests of a request file's requests, so that the page can tell, after a reload or a
 * restart, whether a tab's request changed on disk while `dial ui` was closed, without keeping
 * the request's text (which may hold a literal credential) in browser storage: the page stores
 * the digest of a tab's base, and compares it with the digest of the request as the file has it
 * when the tab comes back. A digest is HMAC-SHA-256 of the request's text (the lines a save
 * compares: comments, whitespace and credential values included) under a key that is the
 * person's: a file in dial's config directory (mode 0600), never in the workspace nor the page,
 * so a digest stored in the workspace's `.dial/` cannot be tried against guessed passwords.
 * @module
 */
import { defaultConfigDir, ensurePrivateDir, joinPath } from "../../cache.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import { requestText } from "../web/workspace/request_edit.ts";
import type { EnvLookup } from "../../env.ts";

/** The key's file in dial's config directory. */
const KEY_FILE = "ui-base-digest.key";

const keys = new Map<string, Promise<CryptoKey>>();

async function readOrMakeKey(dir: string | undefined): Promise<CryptoKey> {
  const hex = dir === undefined ? undefined : await readOrCreateKeyFile(dir);
  const raw = hex !== undefined
    ? new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)))
    // No config directory (HOME unset, or not writable): a key for this run only.
    : crypto.getRandomValues(new Uint8Array(32));
  return await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
}

const KEY = /^[0-9a-f]{64}$/;

/**
 * The key file's hex, made if missing. Creation is atomic and the first maker wins: the key is
 * written whole to a temporary file, then hard-linked to its name, which fails when another
 * `dial ui` made it first (then its key is read), so two processes starting at once use one key
 * and never see half a file. Only a file that is not a key (damaged) is replaced.
 *
 * @param dir dial's config directory
 * @returns the key as hex, or undefined when it cannot be read nor made
 */
async function readOrCreateKeyFile(dir: string): Promise<string | undefined> {
  const path = joinPath(dir, KEY_FILE);
  const read = () => Deno.readTextFile(path).then((t) => t.trim(), () => undefined);
  const found = await read();
  if (found !== undefined && KEY.test(found)) return found;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await ensurePrivateDir(dir);
    await Deno.writeTextFile(temp, `${hex}\n`, { mode: 0o600, createNew: true });
    if (found === undefined) {
      await Deno.link(temp, path).catch((error) => {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      });
    } else {
      await Deno.rename(temp, path);
    }
  } catch {
    return undefined;
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  const made = await read();
  return made !== undefined && KEY.test(made) ? made : undefined;
}

/**
 * @param options where dial's config directory is (default: the person's)
 * @returns the digests' key, read once per directory (made on first use)
 */
function digestKey(options: { configDir?: string; env?: EnvLookup }): Promise<CryptoKey> {
  let dir: string | undefined = options.configDir ?? defaultConfigDir(options.env);
  // Never the working directory, which may be the workspace itself.
  if (!/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(dir)) dir = undefined;
  const id = dir ?? "";
  let key = keys.get(id);
  if (!key) keys.set(id, key = readOrMakeKey(dir));
  return key;
}

/**
 * @param text a request file's text
 * @param options where dial's config directory is
 * @returns each request's digest, by its index in the file (1-based), as hex; none when the
 *   file does not parse
 */
export async function requestDigests(
  text: string,
  options: { configDir?: string; env?: EnvLookup },
): Promise<Record<string, string>> {
  let requests;
  try {
    requests = parseHttpFile(text, "request file").requests;
  } catch {
    return {};
  }
  const key = await digestKey(options);
  const encoder = new TextEncoder();
  // One sign per request, all at once: Web Crypto's calls are asynchronous, and awaiting each in
  // turn cost a turn of the event loop per request (a 1,000-request file waited 1,000 of them).
  const macs = await Promise.all(
    requests.map((request) =>
      crypto.subtle.sign("HMAC", key, encoder.encode(requestText(text, request)))
    ),
  );
  const digests: Record<string, string> = {};
  for (const [i, request] of requests.entries()) {
    digests[request.index] = [...new Uint8Array(macs[i]!).slice(0, 16)]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return digests;
}
