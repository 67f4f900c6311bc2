/**
 * `-w/--write-out`: curl's format after the body, with the common variables filled in from
 * real measurements. The format is checked before anything is sent.
 * @see https://curl.se/docs/manpage.html#-w
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** What one exchange measured. */
export interface WriteOutFacts {
  /** The final status, 0 when no response arrived. */
  status: number;
  /** Seconds from the start to the end of the body. */
  timeTotal: number;
  /** Seconds from the start to the final response's first byte. */
  timeStartTransfer: number;
  /** Seconds from the start until the name was resolved (inside connect: 0 when not apart). */
  timeNamelookup?: number;
  /** Seconds from the start until the TCP connection was open. */
  timeConnect?: number;
  /** Seconds from the start until TLS was done (0 without TLS, as curl). */
  timeAppconnect?: number;
  /** Seconds from the start until the request was about to go. */
  timePretransfer?: number;
  /** `1.1`, `2` or `1.0`, as curl prints it. */
  httpVersion?: string;
  /** Bytes of the response head(s). */
  sizeHeader?: number;
  /** Bytes of the request body sent. */
  sizeUpload?: number;
  /** The peer's port. */
  remotePort?: number;
  /** The failure's message, empty when none. */
  errorMessage?: string;
  /** Body bytes received (after content decoding). */
  sizeDownload: number;
  /** The last URL asked for, without a password. */
  urlEffective: string;
  /** The response's Content-Type, or empty. */
  contentType: string;
  /** The address the host name resolved to, or empty. */
  remoteIp: string;
  /** Redirects followed. */
  numRedirects: number;
  /** The last method sent. */
  method: string;
  /** The final response's headers, for `%header{name}`. */
  headers?: Headers;
  /** dial's exit code. */
  exitCode: number;
}

/** The variables `%{…}` may name, and how each is read. */
const VARIABLES: Record<string, (facts: WriteOutFacts) => string | number> = {
  http_code: (f) => String(f.status).padStart(3, "0"),
  response_code: (f) => String(f.status).padStart(3, "0"),
  time_total: (f) => f.timeTotal.toFixed(6),
  time_namelookup: (f) => (f.timeNamelookup ?? 0).toFixed(6),
  time_connect: (f) => (f.timeConnect ?? 0).toFixed(6),
  time_appconnect: (f) => (f.timeAppconnect ?? 0).toFixed(6),
  time_pretransfer: (f) => (f.timePretransfer ?? 0).toFixed(6),
  time_starttransfer: (f) => f.timeStartTransfer.toFixed(6),
  size_download: (f) => f.sizeDownload,
  size_header: (f) => f.sizeHeader ?? 0,
  size_upload: (f) => f.sizeUpload ?? 0,
  speed_download: (f) => f.timeTotal > 0 ? Math.round(f.sizeDownload / f.timeTotal) : 0,
  http_version: (f) => f.httpVersion ?? "0",
  remote_port: (f) => f.remotePort ?? 0,
  errormsg: (f) => f.errorMessage ?? "",
  url_effective: (f) => f.urlEffective,
  content_type: (f) => f.contentType,
  remote_ip: (f) => f.remoteIp,
  num_redirects: (f) => f.numRedirects,
  method: (f) => f.method,
  exitcode: (f) => f.exitCode,
};

/** Variables that %{json} prints as numbers. */
const NUMERIC = new Set([
  "http_code",
  "response_code",
  "time_total",
  "time_namelookup",
  "time_connect",
  "time_appconnect",
  "time_pretransfer",
  "time_starttransfer",
  "size_download",
  "size_header",
  "size_upload",
  "speed_download",
  "remote_port",
  "num_redirects",
  "exitcode",
]);

/** One piece of a parsed format. */
type Piece =
  | { kind: "text"; text: string }
  | { kind: "var"; name: string }
  | { kind: "header"; name: string }
  | { kind: "json" }
  | { kind: "stream"; to: "stdout" | "stderr" };

/** A checked `-w` format. */
export interface WriteOutFormat {
  /** Its pieces. */
  pieces: Piece[];
  /** Whether it names `%{remote_ip}` (or `%{json}`), which costs a name lookup. */
  needsRemoteIp: boolean;
  /** Whether it names `%{time_namelookup}` (or `%{json}`): the lookup is timed apart. */
  needsLookupTime: boolean;
  /** Variables dial does not know: printed empty, each told once as a warning (as curl). */
  unknown: string[];
}

/**
 * @param format the `-w` value (`@file` reads it from a file)
 * @returns the checked format
 * @throws {UsageError} on an unreadable file
 */
export async function parseWriteOut(format: string): Promise<WriteOutFormat> {
  let text = format;
  if (format.startsWith("@")) {
    try {
      text = await Deno.readTextFile(format.slice(1));
    } catch (error) {
      throw new UsageError(`Cannot read -w file "${format.slice(1)}": ${(error as Error).message}`);
    }
  }
  const pieces: Piece[] = [];
  const unknown: string[] = [];
  const add = (piece: string) => {
    const last = pieces.at(-1);
    if (last?.kind === "text") last.text += piece;
    else pieces.push({ kind: "text", text: piece });
  };
  const pattern = /%\{([^}]*)\}|%header\{([^}]*)\}|%%|\\([nrt\\])/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    add(text.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[0] === "%%") add("%");
    else if (match[3] !== undefined) {
      add({ n: "\n", r: "\r", t: "\t", "\\": "\\" }[match[3]]!);
    } else if (match[2] !== undefined) pieces.push({ kind: "header", name: match[2] });
    else {
      const name = match[1]!;
      if (name === "json") pieces.push({ kind: "json" });
      else if (name === "stdout" || name === "stderr") pieces.push({ kind: "stream", to: name });
      else if (name in VARIABLES) pieces.push({ kind: "var", name });
      else if (!unknown.includes(name)) unknown.push(name);
    }
  }
  add(text.slice(at));
  const names = (name: string) =>
    pieces.some((p) => p.kind === "json" || (p.kind === "var" && p.name === name));
  return {
    pieces: pieces.filter((p) => p.kind !== "text" || p.text !== ""),
    needsRemoteIp: names("remote_ip"),
    needsLookupTime: names("time_namelookup"),
    unknown,
  };
}

/**
 * @param format a checked format
 * @param facts what the exchange measured
 * @returns the text for stdout and for stderr (after `%{stderr}`)
 */
export function renderWriteOut(
  format: WriteOutFormat,
  facts: WriteOutFacts,
): { stdout: string; stderr: string } {
  const output = { stdout: "", stderr: "" };
  let to: "stdout" | "stderr" = "stdout";
  for (const piece of format.pieces) {
    switch (piece.kind) {
      case "text":
        output[to] += piece.text;
        break;
      case "var":
        output[to] += String(VARIABLES[piece.name]!(facts));
        break;
      case "header":
        output[to] += facts.headers?.get(piece.name) ?? "";
        break;
      case "json":
        output[to] += JSON.stringify(
          Object.fromEntries(
            Object.entries(VARIABLES).map(([name, read]) => {
              const value = read(facts);
              return [name, NUMERIC.has(name) ? Number(value) : value];
            }),
          ),
        );
        break;
      case "stream":
        to = piece.to;
        break;
    }
  }
  return output;
}
