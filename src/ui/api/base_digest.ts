/**
 * Keyed digests of a request file's requests, so that the page can tell, after a reload or a
 * restart, whether a tab's request changed on disk while `dial ui` was closed, without keeping
 * the request's text (which may hold a literal credential) in browser storage: the page stores
 * the digest of a tab's base, and compares it with the digest of the request as the file has it
 * when the tab comes back. A digest is HMAC-SHA-256 of the request's text (the lines a save
 * compares: comments, whitespace and credential values included) under a key that is the
 * person's: a file in dial's config directory (mode 0600), never in the workspace nor the page,
 * so a digest stored in the workspace's `.dial/` cannot be tried against guessed passwords.
 * What is made is kept in memory ({@link requestDigests}): a file read again unchanged costs
 * neither a parse nor a sign, and a save parses only the blocks and signs only the requests it
 * changed ({@link requestTexts}).
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

/** The most request texts whose digests are kept per key, and the most file text kept. */
const REQUESTS_KEPT = 20_000;
const FILE_CHARS_KEPT = 16 * 1024 * 1024;

/**
 * Digests made already, per key: of whole file texts (the latest, up to {@link FILE_CHARS_KEPT}
 * characters in all: a file read again unchanged costs neither a parse nor a sign) and of
 * request texts (a save that changed one request of a 1,000-request file signs that one).
 */
interface Memo {
  files: Map<string, Record<string, string>>;
  fileChars: number;
  requests: Map<string, string>;
}

const memos = new WeakMap<CryptoKey, Memo>();

function memoOf(key: CryptoKey): Memo {
  let memo = memos.get(key);
  if (!memo) memos.set(key, memo = { files: new Map(), fileChars: 0, requests: new Map() });
  return memo;
}

function keepFile(memo: Memo, text: string, digests: Record<string, string>): void {
  if (text.length > FILE_CHARS_KEPT) return;
  memo.files.set(text, digests);
  memo.fileChars += text.length;
  for (const old of memo.files.keys()) {
    if (memo.fileChars <= FILE_CHARS_KEPT) break;
    memo.files.delete(old);
    memo.fileChars -= old.length;
  }
}

function keepRequest(memo: Memo, text: string, digest: string): void {
  memo.requests.set(text, digest);
  if (memo.requests.size <= REQUESTS_KEPT) return;
  for (const old of memo.requests.keys()) {
    memo.requests.delete(old);
    if (memo.requests.size <= REQUESTS_KEPT / 2) break;
  }
}

function hex(mac: ArrayBuffer): string {
  return [...new Uint8Array(mac).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** The most blocks whose request texts are kept. */
const BLOCKS_KEPT = 20_000;

/** Each block's (from a `###` line to the next) requests' texts, parsed alone. */
const blocks = new Map<string, string[]>();

function keepBlock(text: string, texts: string[]): void {
  blocks.set(text, texts);
  if (blocks.size <= BLOCKS_KEPT) return;
  for (const old of blocks.keys()) {
    blocks.delete(old);
    if (blocks.size <= BLOCKS_KEPT / 2) break;
  }
}

const encoder = new TextEncoder();

/** A copy of a text that keeps no larger one alive (a slice would keep its whole file). */
function own(text: string): string {
  return JSON.parse(JSON.stringify(text));
}

/**
 * Where the parser starts a block: the start, and each line that starts with `###` (after LF,
 * CR or CRLF, as its line reader breaks lines).
 */
function blockStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("###", 1); at >= 0; at = text.indexOf("###", at + 3)) {
    const before = text.charCodeAt(at - 1);
    if (before === 10 || before === 13) starts.push(at);
  }
  return starts;
}

/**
 * The file's requests' own texts (request line, headers and body: what a save replaces and a
 * digest signs), in order. The parser cuts a file into blocks at `###` lines and reads each
 * block alone (a block shares nothing with the others that moves a request's lines), so each
 * block is parsed once and its texts kept: a save that changed one request parses one block.
 *
 * @param text a request file's text
 * @returns the texts, or undefined when the file does not parse
 */
export function requestTexts(text: string): string[] | undefined {
  const starts = blockStarts(text);
  const cut = starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
  const unknown = cut.filter((block) => !blocks.has(block)).length;
  // Most blocks new (a file not seen yet): one parse of the whole file, cut into its blocks.
  if (unknown > 8 && unknown > cut.length / 4) return wholeFile(text, starts, cut);
  const texts: string[] = [];
  for (const block of cut) {
    let known = blocks.get(block);
    if (!known) {
      try {
        known = parseHttpFile(block, "request file").requests.map((r) =>
          own(requestText(block, r))
        );
      } catch {
        return undefined;
      }
      keepBlock(own(block), known);
    }
    texts.push(...known);
  }
  return texts;
}

/** {@link requestTexts} of a file by one parse, each block's texts kept. */
function wholeFile(text: string, starts: number[], cut: string[]): string[] | undefined {
  let requests;
  try {
    requests = parseHttpFile(text, "request file").requests;
  } catch {
    return undefined;
  }
  const texts = requests.map((r) => own(requestText(text, r)));
  let at = 0;
  for (const [i, block] of cut.entries()) {
    const end = starts[i + 1] ?? text.length;
    const first = at;
    while (at < requests.length && requests[at]!.requestLine.start < end) at++;
    if (!blocks.has(block)) keepBlock(own(block), texts.slice(first, at));
  }
  return texts;
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
  const key = await digestKey(options);
  const memo = memoOf(key);
  const known = memo.files.get(text);
  if (known) {
    // The most recent last: kept longest.
    memo.files.delete(text);
    memo.files.set(text, known);
    return { ...known };
  }
  const texts = requestTexts(text);
  if (!texts) return {};
  const digests: Record<string, string> = {};
  const signing: Promise<void>[] = [];
  for (const [i, request] of texts.entries()) {
    const index = i + 1;
    const digest = memo.requests.get(request);
    if (digest !== undefined) {
      digests[index] = digest;
      continue;
    }
    // One sign per request, all at once (awaiting each in turn cost a turn of the event loop
    // per request).
    signing.push(
      crypto.subtle.sign("HMAC", key, encoder.encode(request)).then((mac) => {
        digests[index] = hex(mac);
        keepRequest(memo, request, digests[index]!);
      }),
    );
  }
  await Promise.all(signing);
  keepFile(memo, text, digests);
  return { ...digests };
}
