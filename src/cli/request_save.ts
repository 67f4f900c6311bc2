/**
 * `--download`, `-o` and `-C/--continue`: which file a body goes to, resuming with `Range`,
 * and never leaving a file that lies (error pages are not saved; partial bodies are not
 * published under the final name).
 * @module
 */
import { DialError, ErrorCode, ExitCode, statusExitCode, UsageError } from "../errors/mod.ts";
import type { HeaderField } from "../http/request_spec.ts";
import { downloadName, saveDownload } from "../output/download.ts";
import { formatResponseHead } from "../output/http.ts";
import { formatBytes } from "../output/progress.ts";
import { warn } from "../output/report.ts";
import { printResponse } from "../output/response.ts";
import { appendBody, saveReplacing } from "../output/save_file.ts";
import { shown, type Sink } from "../output/terminal.ts";

/** The flags that decide where a body is saved. */
export interface SaveFlagValues {
  output?: string | undefined;
  download?: boolean | undefined;
  /** `-C` alone or curl's `-C -` (from the file's size); an offset is refused. */
  continue?: string | true | undefined;
  include?: boolean | undefined;
  silent?: boolean | undefined;
}

/** A partial file to resume (`-C`): its path and how many bytes it already holds. */
export interface Resume {
  /** The file. */
  path: string;
  /** Its size, the first byte to ask for. */
  offset: number;
}

/**
 * Checks `-C` against the other flags and finds the file to resume: `-o FILE`, or with
 * `--download` the name the URL suggests.
 *
 * @param flags the flag values
 * @param url the request URL
 * @param headers the request headers so far (a `Range` of the user's own conflicts)
 * @returns the file and its size, or undefined without `-C`
 * @throws {UsageError} `-C` without a file to resume, with an offset, or with `-H Range`
 */
export async function resumeTarget(
  flags: SaveFlagValues,
  url: URL,
  headers: HeaderField[],
): Promise<Resume | undefined> {
  if (!flags.continue) return undefined;
  if (flags.continue !== true && flags.continue !== "-") {
    throw new UsageError(
      `Cannot resume at offset ${flags.continue}: dial resumes from the file's size`,
      {
        hint: "write -C - (or -C alone) with -o <file>",
      },
    );
  }
  if (flags.output === undefined && !flags.download) {
    throw new UsageError("-C/--continue needs a file to resume", {
      hint: "add -o <file> or --download",
    });
  }
  if (headers.some((h) => h.name.toLowerCase() === "range")) {
    throw new UsageError("Conflicting -C/--continue and -H Range: give one");
  }
  const path = flags.output ?? downloadName(new Headers(), url);
  const info = await Deno.stat(path).catch(() => undefined);
  if (info && !info.isFile) throw new UsageError(`Cannot resume "${path}": not a regular file`);
  return { path, offset: info?.size ?? 0 };
}

/**
 * @param resume the file to resume
 * @param headers the request headers so far (an `Accept-Encoding` of the user's own is kept)
 * @returns the headers that ask for the rest of it; identity coding keeps the offsets those
 *   of the bytes on disk
 */
export function resumeHeaders(resume: Resume | undefined, headers: HeaderField[]): HeaderField[] {
  if (!resume || resume.offset === 0) return [];
  const range = { name: "Range", value: `bytes=${resume.offset}-` };
  const own = headers.some((h) => h.name.toLowerCase() === "accept-encoding");
  return own ? [range] : [range, { name: "Accept-Encoding", value: "identity" }];
}

/** Sinks for {@link saveResponse}. */
export interface SaveSinks {
  out: Sink;
  err: Sink;
}

/**
 * Saves a response for `--download` or `-C`. A non-2xx response is shown, not saved, and
 * decides the exit code (3, 4, 5), except a 416 to a resume (the file is complete, or the server
 * does not say its length: kept, as curl keeps it).
 *
 * @param response the response, body unread
 * @param url the URL it came from
 * @param flags the flag values
 * @param sinks stdout and stderr
 * @param resume the file to resume, with `-C`
 * @returns the exit code
 */
export async function saveResponse(
  response: Response,
  url: URL,
  flags: SaveFlagValues,
  sinks: SaveSinks,
  resume: Resume | undefined,
): Promise<number> {
  const { out, err } = sinks;
  const options = { err, silent: flags.silent ?? false };
  const note = (text: string) => flags.silent ? Promise.resolve() : warn(err, text);
  const tell = (text: string) =>
    flags.silent ? Promise.resolve() : err.write(`${shown(err, text)}\n`);
  if (resume && response.status === 416) {
    // A resume from the file's end gets a 416. Its `Content-Range: bytes */N` must agree with
    // the file; a 416 without one (lighttpd's) keeps the file, as curl keeps it.
    const length = completeLength(response);
    if (length === resume.offset || length === undefined) {
      await response.body?.cancel();
      await tell(
        length === undefined
          ? `"${resume.path}" is kept as it is (${
            formatBytes(resume.offset)
          }): the server answered 416 Range Not Satisfiable to a resume from its end`
          : `"${resume.path}" is already complete (${formatBytes(resume.offset)})`,
      );
      return ExitCode.OK;
    }
  }
  if (!response.ok) {
    await note(`Not saved: HTTP ${response.status} ${response.statusText}`.trimEnd());
    await printResponse(response, {
      out,
      err,
      ...(flags.include ? { include: true } : {}),
      silent: true,
    });
    return statusExitCode(response.status);
  }
  if (flags.include) await out.write(formatResponseHead(response, out));
  if (!resume) {
    await saveDownload(response, url, options);
    return ExitCode.OK;
  }
  await resumeDownload(response, resume, options, { note, tell });
  return ExitCode.OK;
}

/**
 * `-C`: appends the rest of a file from where it stopped, or downloads it whole again when the
 * server ignored Range; refuses a part that does not start where the file ends.
 */
async function resumeDownload(
  response: Response,
  resume: Resume,
  options: { err: SaveSinks["err"]; silent: boolean },
  say: { note: (text: string) => Promise<unknown>; tell: (text: string) => Promise<unknown> },
): Promise<void> {
  const { note, tell } = say;
  if (resume.offset > 0 && response.status === 200) {
    await note(`The server ignored Range: downloading all of "${resume.path}" again`);
    await saveReplacing(response, resume.path, options);
    return;
  }
  if (resume.offset > 0) {
    const start = rangeStart(response);
    if (response.status !== 206 || start !== resume.offset) {
      await response.body?.cancel();
      throw new DialError(
        `Cannot resume "${resume.path}": the server sent ${
          start === undefined ? `HTTP ${response.status}` : `bytes from ${start}`
        }, not from ${resume.offset}`,
        ErrorCode.Resume,
        { hint: "remove the file and download it again" },
      );
    }
  }
  try {
    const bytes = await appendBody(response, resume.path, options);
    if (resume.offset > 0) {
      await tell(
        `Resumed "${resume.path}" at ${formatBytes(resume.offset)}: ${formatBytes(bytes)} more`,
      );
    }
  } catch (error) {
    const kept = (await Deno.stat(resume.path).catch(() => undefined))?.size ?? 0;
    await note(`Kept ${formatBytes(kept)} in "${resume.path}": run the same command to resume`);
    throw error;
  }
}

/** @returns the first byte of a 206's `Content-Range: bytes a-b/len` */
function rangeStart(response: Response): number | undefined {
  const match = /^\s*bytes\s+(\d+)-\d+\/(?:\d+|\*)\s*$/i.exec(
    response.headers.get("content-range") ?? "",
  );
  return match ? Number(match[1]) : undefined;
}

/** @returns the full length from a 416's `Content-Range: bytes *\/len` */
function completeLength(response: Response): number | undefined {
  const match = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(response.headers.get("content-range") ?? "");
  return match ? Number(match[1]) : undefined;
}
