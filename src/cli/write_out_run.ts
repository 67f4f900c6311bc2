/**
 * `-w` after an exchange (or after a failure, as curl does: `%{http_code}` is `000`): gathers
 * the measurements and prints the format.
 * @module
 */
import type { DialError } from "../errors/mod.ts";
import type { Exchange } from "../http/send.ts";
import { redactUrl } from "../redact_url.ts";
import { escapeControls, type Sink } from "../output/terminal.ts";
import { renderWriteOut, type WriteOutFormat } from "../output/write_out.ts";
import { responseMeta } from "../http/response_meta.ts";
import { isIpAddress } from "../http/authority.ts";
import { load } from "../load.ts";

/** What the run knows when -w is printed. */
export interface WriteOutRun {
  /** `performance.now()` before sending. */
  started: number;
  /** `performance.now()` when the last response head arrived. */
  headAt: number;
  /** The exchange, when a response arrived. */
  exchange?: Exchange;
  /** The failure, when none did. */
  error?: DialError;
  /** Body bytes read. */
  size?: number;
  /** dial's exit code (the error's when it failed). */
  exitCode?: number;
  /** The method asked for. */
  method: string;
  /** The URL asked for. */
  url: URL;
  /** Request body bytes sent (the last request's framing). */
  uploaded?: number;
}

/**
 * @param format the checked -w format
 * @param run what the run measured
 * @param sinks stdout and stderr
 */
export async function writeOutAfter(
  format: WriteOutFormat,
  run: WriteOutRun,
  sinks: { out: Sink; err: Sink },
): Promise<void> {
  const ended = performance.now();
  const request = run.exchange?.request;
  const url = request?.url ?? run.url;
  const response = run.exchange?.response;
  const meta = response ? responseMeta(response) : undefined;
  const timing = meta?.timing;
  const since = (at: number | undefined) => at === undefined ? 0 : (at - run.started) / 1000;
  const secure = (request?.url ?? run.url).protocol === "https:";
  const text = renderWriteOut(format, {
    status: response?.status ?? 0,
    timeTotal: (ended - run.started) / 1000,
    timeStartTransfer: response ? since(timing?.starttransfer ?? run.headAt) : 0,
    ...(timing
      ? {
        ...(timing.namelookup !== undefined ? { timeNamelookup: since(timing.namelookup) } : {}),
        timeConnect: since(timing.connect),
        timeAppconnect: secure ? since(timing.appconnect) : 0,
        timePretransfer: since(timing.pretransfer),
      }
      : {}),
    ...(meta ? { httpVersion: meta.version.replace(/^HTTP\//, "") } : {}),
    ...(meta?.headSize !== undefined ? { sizeHeader: meta.headSize } : {}),
    ...(run.uploaded !== undefined ? { sizeUpload: run.uploaded } : {}),
    ...(meta?.remote ? { remotePort: meta.remote.port } : {}),
    errorMessage: run.error?.message ?? "",
    sizeDownload: run.size ?? 0,
    urlEffective: redactUrl(url, request?.queryKeys ?? []),
    contentType: response?.headers.get("content-type") ?? "",
    remoteIp: meta?.remote?.ip ?? (format.needsRemoteIp ? await remoteIp(url) : ""),
    numRedirects: run.exchange?.redirects ?? 0,
    method: request?.method ?? run.method,
    ...(response ? { headers: response.headers } : {}),
    exitCode: run.exitCode ?? run.error?.exitCode ?? 0,
  });
  for (const [sink, part] of [[sinks.out, text.stdout], [sinks.err, text.stderr]] as const) {
    // Header values come from the server: escaped on a terminal.
    if (part) await sink.write(sink.isTerminal ? escapeControls(part) : part);
  }
}

/**
 * The address the URL's host resolves to first (fetch does not report the peer's address;
 * getaddrinfo's first answer is the one it tries first).
 */
async function remoteIp(url: URL): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIpAddress(host)) return host;
  try {
    const { lookupHost } = await load.lookup();
    return await lookupHost(host);
  } catch {
    return "";
  }
}
