/**
 * Writing a response body to a file so that the file never lies: the bytes go to a temporary
 * name in the target directory and get the real name only when the body arrived whole.
 * @module
 */
import { DialError, ErrorCode } from "../errors/mod.ts";
import { ProgressBar } from "./progress.ts";
import { pipeIntoFile, type Sink } from "./terminal.ts";

/** Where progress goes, and whether to show it. */
export interface SaveOptions {
  /** Where the progress bar goes. */
  err: Sink;
  /** `-s`: no progress bar. */
  silent?: boolean;
}

/**
 * Saves a body under `path`, replacing the file only once the body is complete (`-o`). A
 * target that exists and is not a regular file (`/dev/null`, a FIFO) is written directly.
 *
 * @param response the response, body unread
 * @param path the target file
 * @param options progress sink and silence
 * @returns the number of bytes saved
 */
export async function saveReplacing(
  response: Response,
  path: string,
  options: SaveOptions,
): Promise<number> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (info && !info.isFile) {
    const file = await openOutput(path, { write: true, truncate: true });
    await writeBody(response, file, options);
    return 0;
  }
  // The temporary file is created with the replaced file's permissions, so a private file
  // stays private while it downloads too; a new file gets the umask's.
  const mode = typeof info?.mode === "number" ? info.mode & 0o777 : undefined;
  return await saveAtomically(response, path, options, async (temp) => {
    if (mode !== undefined) await Deno.chmod(temp, info!.mode! & 0o7777);
    await Deno.rename(temp, path);
  }, mode);
}

/**
 * Saves a body under `wanted` or, when that name is taken, `name-1.ext`, `name-2.ext` …,
 * never replacing a file (`--download`).
 *
 * @param response the response, body unread
 * @param wanted the wanted path
 * @param options progress sink and silence
 * @returns the path used and the number of bytes saved
 */
export async function saveAsNew(
  response: Response,
  wanted: string,
  options: SaveOptions,
): Promise<{ path: string; bytes: number }> {
  let path = wanted;
  const bytes = await saveAtomically(response, wanted, options, async (temp) => {
    path = await publishNew(temp, wanted);
  });
  return { path, bytes };
}

/**
 * Appends a body to a file (`-C` after a 206, or a first `-C` download). The bytes go to the
 * file itself so that an interrupted transfer can be resumed from what arrived.
 *
 * @param response the response, body unread
 * @param path the partial file
 * @param options progress sink and silence
 * @returns the number of bytes appended
 */
export async function appendBody(
  response: Response,
  path: string,
  options: SaveOptions,
): Promise<number> {
  const before = (await Deno.stat(path).catch(() => undefined))?.size ?? 0;
  const file = await openOutput(path, { append: true, create: true });
  await writeBody(response, file, options);
  return (await Deno.stat(path)).size - before;
}

const encoder = new TextEncoder();

/** Most file systems' limit on one name (ext4, XFS, APFS, NTFS in UTF-16 units). */
const NAME_MAX = 255;

/**
 * Shortens a file name to at most `maxBytes` of UTF-8, keeping its extension (up to 16
 * characters after the last dot) and never splitting a character.
 *
 * @param name a bare file name
 * @param maxBytes the limit, 255 by default
 * @returns the name, shortened when it was longer
 */
export function fitName(name: string, maxBytes = NAME_MAX): string {
  if (encoder.encode(name).length <= maxBytes) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
  const room = maxBytes - encoder.encode(ext).length;
  let stem = "";
  let used = 0;
  for (const char of name.slice(0, name.length - ext.length)) {
    used += encoder.encode(char).length;
    if (used > room) break;
    stem += char;
  }
  return stem + ext;
}

/**
 * @param path a target file
 * @returns a temporary name beside it, hidden, unique to this run (within the name limit)
 */
export function temporaryName(path: string): string {
  const slash = path.lastIndexOf("/");
  const dir = slash >= 0 ? path.slice(0, slash + 1) : "";
  const base = fitName(path.slice(slash + 1), NAME_MAX - ".dial-part".length - 10);
  const random = crypto.getRandomValues(new Uint8Array(4)).toHex();
  return `${dir}.${base}.${random}.dial-part`;
}

async function saveAtomically(
  response: Response,
  path: string,
  options: SaveOptions,
  publish: (temp: string) => Promise<void>,
  mode?: number,
): Promise<number> {
  const temp = temporaryName(path);
  const file = await openOutput(temp, {
    write: true,
    createNew: true,
    ...(mode !== undefined ? { mode } : {}),
  }, path);
  try {
    await writeBody(response, file, options);
    const bytes = (await Deno.stat(temp)).size;
    await publish(temp);
    return bytes;
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Gives the temporary file a free name without ever replacing one (link fails if taken). */
async function publishNew(temp: string, wanted: string): Promise<string> {
  for (let n = 0; n < 1000; n++) {
    const path = n === 0 ? wanted : numbered(wanted, n);
    try {
      await Deno.link(temp, path);
      await Deno.remove(temp);
      return path;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) continue;
      // A file system without hard links: check, then rename (a small window, no better way).
      if (await Deno.lstat(path).then(() => true, () => false)) continue;
      await Deno.rename(temp, path);
      return path;
    }
  }
  throw new DialError(
    `Cannot find a free file name for "${wanted}"`,
    ErrorCode.Output,
  );
}

/** @returns `dir/name-n.ext` for `dir/name.ext`, within the name limit */
function numbered(path: string, n: number): string {
  const slash = path.lastIndexOf("/");
  const base = fitName(path.slice(slash + 1), NAME_MAX - `-${n}`.length);
  const dot = base.lastIndexOf(".");
  const named = dot > 0 ? `${base.slice(0, dot)}-${n}${base.slice(dot)}` : `${base}-${n}`;
  return path.slice(0, slash + 1) + named;
}

async function openOutput(
  path: string,
  mode: Deno.OpenOptions,
  shown = path,
): Promise<Deno.FsFile> {
  try {
    return await Deno.open(path, mode);
  } catch (error) {
    throw new DialError(
      `Cannot write "${shown}": ${(error as Error).message}`,
      ErrorCode.Output,
      { cause: error },
    );
  }
}

/** Streams the body into the file (which this closes), with a progress bar on a terminal. */
async function writeBody(response: Response, file: Deno.FsFile, options: SaveOptions) {
  const bar = options.silent ? undefined : new ProgressBar(options.err, expectedSize(response));
  try {
    await pipeIntoFile(response, file, bar?.visible ? (n) => bar.add(n) : undefined);
    await bar?.finish();
  } catch (error) {
    await bar?.clear();
    throw error;
  }
}

/**
 * @param response a response
 * @returns the body size from Content-Length, when it is the size of what fetch delivers
 */
export function expectedSize(response: Response): { total?: number } {
  const length = response.headers.get("content-length");
  if (length === null || response.headers.has("content-encoding")) return {};
  const total = Number(length);
  return Number.isSafeInteger(total) && total >= 0 ? { total } : {};
}
