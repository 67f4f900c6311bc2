/**
 * Careful file access for the token cache: regular files only, a size limit, and a lock wait
 * bounded by a signal.
 * @module
 */
import { DialError, ErrorCode, TimeoutError } from "../../errors/mod.ts";

/** How a wait for another process's lock is bounded and announced. */
export interface LockOptions {
  /** Aborts the wait (`--timeout`, Ctrl-C). */
  signal?: AbortSignal;
  /** Called once when the lock is not granted at once (another process holds it). */
  onWait?: () => void;
}

/**
 * Reads a file only if it is a regular file (lstat before opening, so links are not followed;
 * checked again on the open file) of at most `limit` bytes.
 *
 * @param path the file
 * @param limit the most bytes accepted
 * @returns its text, or undefined when it does not exist
 * @throws {DialError} for a link, FIFO, device or directory, a file that changed while being
 * opened, or one larger than the limit
 */
export async function readRegularFile(path: string, limit: number): Promise<string | undefined> {
  const before = await refuseSpecial(path);
  if (!before) return undefined;
  try {
    using file = await Deno.open(path, { read: true });
    const info = await file.stat();
    if (!info.isFile || info.ino !== before.ino || info.dev !== before.dev) {
      throw new DialError(
        `Refusing the token cache file ${path}: it changed while being opened`,
        ErrorCode.TokenCache,
      );
    }
    refuseForeign(info, path, "token cache file");
    const parent = path.slice(0, Math.max(path.lastIndexOf("/"), 0));
    if (parent) refuseForeign(await Deno.stat(parent), parent, "token cache directory");
    const tooLarge = () =>
      new DialError(
        `Refusing the token cache file ${path}: larger than ${limit >> 20} MiB`,
        ErrorCode.TokenCache,
        { details: { path }, remedy: { remove: "cache_file" } },
      );
    if (info.size > limit) throw tooLarge();
    const bytes = new Uint8Array(limit + 1);
    let size = 0;
    for (;;) {
      const n = await file.read(bytes.subarray(size));
      if (n === null) break;
      size += n;
      if (size > limit) throw tooLarge();
    }
    return new TextDecoder().decode(bytes.subarray(0, size));
  } catch (error) {
    if (error instanceof DialError) throw error;
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw cacheFileError("Cannot read the token cache file", path, error);
  }
}

/** @returns this process's user id, or undefined where there is none (Windows) or no permission */
function currentUid(): number | undefined {
  try {
    return Deno.uid() ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a cache file or directory that another local user could have planted or can change:
 * one owned by someone else, or writable by the group or by others.
 *
 * @param info its stat information
 * @param path it, for the message
 * @param what "token cache file" or "token cache directory"
 * @throws {DialError} `token_cache` naming the path and the reason
 */
export function refuseForeign(info: Deno.FileInfo, path: string, what: string): void {
  if (Deno.build.os === "windows") return;
  const uid = currentUid();
  const reason = uid !== undefined && info.uid !== null && info.uid !== uid
    ? `owned by another user (uid ${info.uid})`
    : info.mode !== null && (info.mode & 0o022) !== 0
    ? `writable by ${(info.mode & 0o002) !== 0 ? "every user" : "its group"}`
    : undefined;
  if (reason === undefined) return;
  throw new DialError(
    `Refusing the ${what} ${path}: ${reason}, so another user could have written it`,
    ErrorCode.TokenCache,
    { details: { path }, remedy: { remove: "cache_dir" } },
  );
}

/**
 * Takes an exclusive lock, bounded by the signal, announcing a wait once.
 *
 * @param file the open lock file
 * @param options signal and the wait notice
 */
export async function waitForLock(file: Deno.FsFile, options: LockOptions): Promise<void> {
  const { signal, onWait } = options;
  signal?.throwIfAborted();
  let granted = false;
  const lock = file.lock(true).then(() => granted = true);
  const notice = onWait && setTimeout(() => granted || onWait(), 300);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(lockAbortError(signal?.reason));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([lock, aborted]);
  } finally {
    clearTimeout(notice);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    // A lock granted after an abort is released when the file is closed.
    lock.catch(() => {});
  }
}

function lockAbortError(reason: unknown): unknown {
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return new TimeoutError(
      "Timed out waiting for another dial process to finish getting an OAuth 2.0 token",
      { remedy: { wait: "other_login" } },
    );
  }
  return reason;
}

/**
 * @param what what failed, e.g. "Cannot write the token cache file"
 * @param path the file
 * @param error the OS error
 * @returns an exit-1 error naming the path and the OS reason
 */
export function cacheFileError(what: string, path: string, error: unknown): DialError {
  const text = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  // Deno appends the call and the (temporary) path; the message names the path already.
  const reason = text.replace(/: \w+ '[^']*'$/, "");
  return new DialError(`${what} ${path}: ${reason}`, ErrorCode.TokenCache, {
    cause: error,
  });
}

/**
 * Refuses a path that exists and is not a regular file (lstat: links are not followed).
 *
 * @param path the file
 * @returns its lstat information, or undefined when it does not exist
 */
export async function refuseSpecial(path: string): Promise<Deno.FileInfo | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw cacheFileError("Cannot read the token cache file", path, error);
  }
  if (!info.isFile) {
    const kind = info.isSymlink
      ? "a symbolic link"
      : info.isDirectory
      ? "a directory"
      : "a FIFO, socket or device";
    throw new DialError(
      `Refusing the token cache file ${path}: it is ${kind}, not a regular file`,
      ErrorCode.TokenCache,
      { details: { path }, remedy: { remove: "cache_file" } },
    );
  }
  return info;
}
