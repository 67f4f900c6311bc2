/**
 * Formatting of request and response heads. Secret header values print as `(redacted)`.
 * @module
 */
import { type StatusClass, statusClass } from "../http/status.ts";
import { displayUrl } from "../http/build_request.ts";
import { redactUrl } from "../redact_url.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import { type Framing, headerText, wireHead } from "../http/wire.ts";
import { responseMeta } from "../http/response_meta.ts";
import { paint, shown, type Sink, Style } from "./terminal.ts";

/** Where a head is printed: colour, and escaping of control characters on a terminal. */
export type HeadSink = Pick<Sink, "color" | "isTerminal">;

/**
 * The request as it goes on the wire: every header the transport adds, names in wire case,
 * values as typed (sent as UTF-8), the body framing, and no userinfo or fragment in the
 * request line. The protocol is named when it is known before connecting: `http:` URLs go
 * over HTTP/1.1; for `https:` ALPN decides, and the response's status line names it.
 *
 * @param request a prepared request
 * @param framing how the body is framed
 * @param sink where it is printed (colour; on a terminal, control characters are escaped)
 * @returns the request line and headers, credentials redacted, ending in a blank line
 */
export function formatRequestHead(
  request: PreparedRequest,
  framing: Framing,
  sink: HeadSink,
): string {
  const color = sink.color;
  const head = wireHead(request, framing);
  const url = new URL(request.url);
  url.username = url.password = url.hash = "";
  const target = request.target ??
    (displayUrl({ ...request, url }).slice(url.origin.length) || "/");
  const line = `${paint(request.method, Style.bold, color)} ${target}`;
  const known = /^(http|ws|wss):$/.test(request.url.protocol);
  const lines = [
    known ? `${line} HTTP/1.1` : line,
    ...head.headers.map(([name, value]) => header(name, String(value), sink)),
  ];
  return lines.join("\n") + "\n\n";
}

/** Options for {@link formatResponseHead}. */
export interface ResponseHeadOptions {
  /**
   * A trace (`-v`), not output: URLs in `Location` and `Content-Location` lose userinfo and
   * credential-named query values, as the next hop's request line does.
   */
  trace?: boolean;
}

/**
 * @param response a response
 * @param sink where it is printed (colour; on a terminal, control characters in the server's
 *   header values are escaped, so that a header cannot steer the terminal)
 * @param options whether it is a `-v` trace
 * @returns the status line and headers, ending in a blank line
 */
export function formatResponseHead(
  response: Response,
  sink: HeadSink,
  options: ResponseHeadOptions = {},
): string {
  const lines = [formatStatus(response, sink.color)];
  for (const [name, value] of response.headers) {
    const text = headerText(value);
    const shownValue = options.trace && /^(content-)?location$/.test(name)
      ? redactedLocation(text)
      : text;
    lines.push(header(canonical(name), shownValue, sink));
  }
  return lines.join("\n") + "\n\n";
}

/** @returns a Location value with userinfo and credential values redacted (relative ones too) */
function redactedLocation(value: string): string {
  try {
    if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith("//")) {
      const url = new URL(value, "http://relative.invalid");
      if (!/^(https?|wss?):$/.test(url.protocol)) return value;
      const redacted = redactUrl(url);
      if (redacted === url.href) return value;
      return value.startsWith("//") ? redacted.slice(url.protocol.length) : redacted;
    }
    // A relative reference: its query is redacted, the rest kept as written.
    const mark = value.indexOf("?");
    if (mark < 0) return value;
    const end = value.indexOf("#", mark);
    const query = end < 0 ? value.slice(mark) : value.slice(mark, end);
    const url = new URL(`http://relative.invalid/${query}`);
    const redacted = redactUrl(url);
    if (redacted === url.href) return value;
    return value.slice(0, mark) + redacted.slice(url.origin.length + 1) +
      (end < 0 ? "" : value.slice(end));
  } catch {
    return value;
  }
}

const STATUS_STYLE: Record<StatusClass, string> = {
  informational: Style.green,
  success: Style.green,
  redirect: Style.cyan,
  client_error: Style.yellow,
  server_error: Style.red,
};

/**
 * The status line as curl and HTTPie show it: the protocol version and the server's own
 * reason phrase (HTTP/2 has none). A response that did not come from dial's client (a test's
 * own fetch) shows its code and `statusText` only.
 *
 * @param response a response
 * @param color whether to colour
 * @returns e.g. `HTTP/1.1 404 Not Found`, `HTTP/1.0 299 Custom Thing`, `HTTP/2 200`
 */
export function formatStatus(response: Response, color: boolean): string {
  const style = STATUS_STYLE[statusClass(response.status)];
  const meta = responseMeta(response);
  const reason = meta ? meta.reason : response.statusText;
  const text = `${meta ? `${meta.version} ` : ""}${response.status}${reason ? ` ${reason}` : ""}`;
  return paint(text, style + ";1", color);
}

function header(name: string, value: string, sink: HeadSink): string {
  return `${paint(name, Style.cyan, sink.color)}: ${shown(sink, value)}`;
}

/** fetch lowercases header names; show them the way servers usually write them. */
function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
