/**
 * `--download`: save a response body under the name the server or the URL suggests, never
 * replacing an existing file.
 * @module
 */
import { formatBytes } from "./progress.ts";
import { warn } from "./report.ts";
import { fitName, saveAsNew } from "./save_file.ts";
import { shown, type Sink } from "./terminal.ts";

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

/**
 * What a name loses: C0, DEL and C1 controls, and the bidirectional marks, embeddings,
 * overrides and isolates that make `evil\u202etxt.exe` read as `evilexe.txt`.
 */
// deno-lint-ignore no-control-regex -- removing control characters is the point
const STRIPPED = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function sanitize(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  return fitName(base.replace(STRIPPED, "").trim().replace(/^\.+/, ""));
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
 * `err` is a terminal. The bytes go to a temporary name first; the file appears under its
 * name only when the body arrived whole, and never replaces an existing file.
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
  const { path, bytes } = await saveAsNew(response, wanted, options);
  if (!options.silent) {
    if (path !== wanted) await warn(err, `"${wanted}" already exists: saved to "${path}" instead`);
    await err.write(`Saved ${formatBytes(bytes)} to "${shown(err, path)}"\n`);
  }
  return path;
}
