/**
 * `--download`: save a response body under the name the server or the URL suggests, never
 * replacing an existing file.
 * @module
 */
import { DialError, ExitCode } from "../errors.ts";
import { formatBytes, ProgressBar } from "./progress.ts";
import { warn } from "./report.ts";
import { pipeToOpenFile, type Sink } from "./terminal.ts";

const EXTENSIONS: Record<string, string> = {
  "application/json": ".json",
  "text/html": ".html",
  "text/plain": ".txt",
  "text/csv": ".csv",
  "application/xml": ".xml",
  "text/xml": ".xml",
  "application/pdf": ".pdf",
  "application/zip": ".zip",
  "image/png": ".png",
  "image/jpeg": ".jpg",
};

/**
 * Picks a file name for a download: `filename*` or `filename` from Content-Disposition
 * (RFC 6266), else the last segment of the URL path, else `index` with an extension from
 * the Content-Type. Directory parts, control characters and leading dots are removed, so the
 * file always lands in the current directory.
 *
 * @param headers the response headers
 * @param url the URL the response came from (after redirects)
 * @returns a bare file name
 * @see https://www.rfc-editor.org/rfc/rfc6266#section-4.3
 */
export function downloadName(headers: Headers, url: URL): string {
  const fromHeader = dispositionName(headers.get("content-disposition") ?? "");
  const cleaned = fromHeader === undefined ? "" : sanitize(fromHeader);
  if (cleaned) return cleaned;
  const segment = url.pathname.split("/").pop() ?? "";
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Keep the raw segment.
  }
  const fromUrl = sanitize(decoded);
  if (fromUrl) return fromUrl;
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  return `index${EXTENSIONS[type] ?? ""}`;
}

function dispositionName(value: string): string | undefined {
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^']*)'[^']*'([^;]*)/i.exec(value);
  if (extended) {
    try {
      const charset = extended[1]!.trim().toLowerCase();
      const text = extended[2]!.trim();
      if (charset === "utf-8") return decodeURIComponent(text);
      if (charset === "iso-8859-1") {
        return text.replace(
          /%([0-9a-f]{2})/gi,
          (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)),
        );
      }
    } catch {
      // Fall back to the plain parameter.
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(value);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, "$1");
  const token = /(?:^|;)\s*filename\s*=\s*([^;\s]+)/i.exec(value);
  return token?.[1];
}

function sanitize(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // deno-lint-ignore no-control-regex
  return base.replace(/[\x00-\x1f\x7f]/g, "").trim().replace(/^\.+/, "").slice(0, 200);
}

/**
 * Creates a new file, adding `-1`, `-2` … before the extension when the name is taken.
 *
 * @param name the wanted name
 * @returns the open file and the name used
 */
export async function createNewFile(name: string): Promise<{ file: Deno.FsFile; path: string }> {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let n = 0; n < 1000; n++) {
    const path = n === 0 ? name : `${stem}-${n}${ext}`;
    try {
      return { file: await Deno.open(path, { write: true, createNew: true }), path };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw new DialError(
          `Cannot create "${path}": ${(error as Error).message}`,
          "output",
          ExitCode.Failure,
          { cause: error },
        );
      }
    }
  }
  throw new DialError(`Cannot find a free file name for "${name}"`, "output", ExitCode.Failure);
}

/** Options for {@link saveDownload}. */
export interface SaveDownloadOptions {
  /** Where the progress bar and notes go. */
  err: Sink;
  /** `-s`: no progress bar and no notes. */
  silent?: boolean;
}

/**
 * Saves a response body as a new file in the current directory, with a progress bar when
 * `err` is a terminal.
 *
 * @param response a response whose body is not yet read
 * @param url the URL it came from, for the name
 * @param options the notes sink and silence
 * @returns the path written
 */
export async function saveDownload(
  response: Response,
  url: URL,
  options: SaveDownloadOptions,
): Promise<string> {
  const { err } = options;
  const wanted = downloadName(response.headers, url);
  const { file, path } = await createNewFile(wanted);
  using _file = file;
  if (path !== wanted && !options.silent) {
    await warn(err, `"${wanted}" already exists: saving to "${path}" instead`);
  }
  const bytes = await saveBody(response, file, err, options.silent ?? false);
  if (!options.silent) await err.write(`Saved ${formatBytes(bytes)} to "${path}"\n`);
  return path;
}

/**
 * Writes a body to a file (`-o`), replacing it, with a progress bar when `err` is a terminal.
 *
 * @param response the response
 * @param path the file
 * @param err where the bar goes
 * @param silent whether to hide the bar
 * @returns the number of bytes written
 */
export async function saveToFile(
  response: Response,
  path: string,
  err: Sink,
  silent: boolean,
): Promise<number> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  return await saveBody(response, file, err, silent);
}

/**
 * Streams a body into an open file, with a progress bar on a terminal.
 *
 * @param response the response
 * @param file the open file
 * @param err where the bar goes
 * @param silent whether to hide the bar
 * @returns the number of bytes written
 */
export async function saveBody(
  response: Response,
  file: Deno.FsFile,
  err: Sink,
  silent: boolean,
): Promise<number> {
  if (!response.body) return 0;
  const bar = silent ? undefined : new ProgressBar(err, { ...expectedSize(response) });
  try {
    const bytes = await pipeToOpenFile(
      response.body,
      file,
      bar?.visible ? (n) => bar.add(n) : undefined,
    );
    await bar?.finish();
    return bytes;
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
