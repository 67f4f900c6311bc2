/**
 * Formatting of request and response heads. Secret header values print as `(redacted)`.
 * @module
 */
import { type StatusClass, statusClass } from "../http/status.ts";
import { displayUrl } from "../http/build_request.ts";
import type { PreparedRequest } from "../http/spec.ts";
import { paint, Style } from "./terminal.ts";

/**
 * @param request a prepared request
 * @param color whether to colour
 * @returns the request line and headers, credentials redacted, ending in a blank line
 */
export function formatRequestHead(request: PreparedRequest, color: boolean): string {
  // The shown URL has no userinfo, so it starts with the origin.
  const target = displayUrl(request).slice(request.url.origin.length) || "/";
  const lines = [
    `${paint(request.method, Style.bold, color)} ${target} HTTP/1.1`,
    header("Host", request.url.host, color),
    ...request.headers.map((h) => header(h.name, String(h.value), color)),
  ];
  return lines.join("\n") + "\n\n";
}

/**
 * @param response a response
 * @param color whether to colour
 * @returns the status line and headers, ending in a blank line
 */
export function formatResponseHead(response: Response, color: boolean): string {
  const lines = [formatStatus(response, color)];
  for (const [name, value] of response.headers) lines.push(header(canonical(name), value, color));
  return lines.join("\n") + "\n\n";
}

const STATUS_STYLE: Record<StatusClass, string> = {
  informational: Style.green,
  success: Style.green,
  redirect: Style.cyan,
  client_error: Style.yellow,
  server_error: Style.red,
};

/**
 * The status line as far as it is known. fetch exposes neither the protocol version nor the
 * server's own reason phrase: `statusText` is the standard phrase for the code (empty for
 * codes without one, e.g. 299), so the version is left out rather than guessed.
 *
 * @param response a response
 * @param color whether to colour
 * @returns e.g. `404 Not Found`, or `299` for a code without a standard phrase
 */
export function formatStatus(response: Response, color: boolean): string {
  const style = STATUS_STYLE[statusClass(response.status)];
  const text = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return paint(text, style + ";1", color);
}

function header(name: string, value: string, color: boolean): string {
  return `${paint(name, Style.cyan, color)}: ${value}`;
}

/** fetch lowercases header names; show them the way servers usually write them. */
function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
