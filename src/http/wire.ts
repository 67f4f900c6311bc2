/**
 * The request as it goes on the wire: request line, every header the transport adds, in wire
 * case and order, and the body framing. `-v`, `--offline` and the `Content-Length` transport
 * all read it from here, so what is shown is what is sent.
 * @module
 */
import { UsageError } from "../errors.ts";
import type { MaybeSecret } from "../secret.ts";
import { reveal, Secret } from "../secret.ts";
import { requestUrl, utf8ByteString } from "./build_request.ts";
import type { PreparedRequest } from "./request_spec.ts";

/** How the body is framed: a known length, chunked (stdin), or no body. */
export type Framing = { length: number } | "chunked" | "none";

/** The head of a request as sent (the request line is the method and the URL's path). */
export interface WireHead {
  /** Header lines in wire case and order; secret values stay wrapped. */
  headers: Array<[string, MaybeSecret]>;
}

/**
 * Headers fetch or the connection controls. They cannot be set with `-H`: fetch drops some
 * silently (`Host`, `Content-Length`, `Transfer-Encoding`), the others manage the connection
 * dial keeps and are not allowed in HTTP/2.
 */
const UNSENDABLE: Record<string, string> = {
  "host": "the host and port of the URL are sent",
  "content-length": "dial sets it from the body",
  "transfer-encoding": "dial sets it from the body",
  "connection": "dial manages the connection",
  "keep-alive": "dial manages the connection",
  "proxy-connection": "dial manages the connection",
  "upgrade": "dial manages the connection",
};

/**
 * @param name a header name from `-H`
 * @throws {UsageError} when the header cannot be sent as given
 */
export function checkSendable(name: string): void {
  const why = UNSENDABLE[name.toLowerCase()];
  if (why) {
    throw new UsageError(`Cannot send header "${name}": ${why}`, {
      hint: name.toLowerCase() === "host"
        ? "put the host in the URL"
        : "leave it out; dial sends it when it applies",
    });
  }
}

/**
 * The headers a request goes out with: its own, the ones fetch (or node:http) adds, and the
 * body framing, in wire case and order.
 *
 * @param request a prepared request
 * @param framing how the body is framed
 * @returns the headers as the transport sends them
 */
export function wireHead(request: PreparedRequest, framing: Framing): WireHead {
  const url = requestUrl(request);
  if (url.protocol === "ws:" || url.protocol === "wss:") return webSocketHead(request, url);
  const headers: Array<[string, MaybeSecret]> = [];
  const has = (name: string) => request.headers.some((h) => h.name.toLowerCase() === name);
  if (typeof framing === "object") headers.push(["content-length", String(framing.length)]);
  else if (framing === "none" && /^(POST|PUT)$/.test(request.method)) {
    headers.push(["content-length", "0"]);
  }
  if ((url.username || url.password) && !has("authorization")) {
    const basic = btoa(
      utf8ByteString(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`),
    );
    headers.push(["authorization", new Secret(`Basic ${basic}`)]);
  }
  headers.push(...combined(request));
  if (request.body?.kind === "text" && !has("content-type")) {
    headers.push(["content-type", "text/plain;charset=UTF-8"]);
  }
  if (!has("accept")) headers.push(["accept", "*/*"]);
  if (!has("accept-language")) headers.push(["accept-language", "*"]);
  if (!has("user-agent")) headers.push(["user-agent", `Deno/${Deno.version.deno}`]);
  if (!has("accept-encoding")) headers.push(["accept-encoding", "gzip,br"]);
  headers.push(["host", url.host]);
  // node:http (the Content-Length transport) would add `Connection: keep-alive` itself.
  if (isSized(request, framing)) headers.push(["connection", "keep-alive"]);
  if (framing === "chunked") headers.push(["transfer-encoding", "chunked"]);
  return { headers };
}

/**
 * The request's own headers as fetch's `Headers` sends them: names lower-case, sorted, the
 * values of a repeated name joined with ", ".
 */
function combined(request: PreparedRequest): Array<[string, MaybeSecret]> {
  const sorted = request.headers
    .map(({ name, value }): [string, MaybeSecret] => [name.toLowerCase(), value])
    .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  const out: Array<[string, MaybeSecret]> = [];
  for (const [name, value] of sorted) {
    const last = out.at(-1);
    if (last?.[0] !== name) {
      out.push([name, value]);
      continue;
    }
    const joined = `${reveal(last[1])}, ${reveal(value)}`;
    last[1] = typeof last[1] === "string" && typeof value === "string"
      ? joined
      : new Secret(joined);
  }
  return out;
}

/** What Deno's WebSocket sends around the request's headers (subprotocols not shown). */
function webSocketHead(request: PreparedRequest, url: URL): WireHead {
  return {
    headers: [
      ["user-agent", `Deno/${Deno.version.deno}`],
      ["sec-websocket-version", "13"],
      ...request.headers.map((
        { name, value },
      ): [string, MaybeSecret] => [name.toLowerCase(), value]),
      ["host", url.host],
      ["upgrade", "websocket"],
      ["connection", "Upgrade"],
      ["sec-websocket-key", "(random)"],
    ],
  };
}

/**
 * @param head a wire head
 * @returns the header lines fetch or node:http is given, secrets revealed, values as UTF-8
 *   byte strings
 */
export function sendableHeaders(head: WireHead): Array<[string, string]> {
  return head.headers.map(([name, value]) => [name, utf8ByteString(reveal(value))]);
}

/**
 * Whether a request goes through the `Content-Length` transport (see sized_send.ts): file and
 * multipart bodies do, unless a proxy from `HTTP_PROXY`/`HTTPS_PROXY` applies, which only
 * fetch honours; then they are streamed chunked through fetch.
 *
 * @param request a prepared request
 * @param framing the body's framing: a file whose size is unknown (a pipe, `-d @<(cmd)`) is
 *   streamed chunked through fetch
 * @returns whether the body goes out with a known length over node:http
 */
export function isSized(request: PreparedRequest, framing?: Framing): boolean {
  const kind = request.body?.kind;
  return (kind === "file" || kind === "form") && !proxied(request.url) &&
    (framing === undefined || typeof framing === "object");
}

function proxied(url: URL): boolean {
  const env = (name: string) => Deno.env.get(name) ?? Deno.env.get(name.toLowerCase());
  const proxy = env(url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY");
  if (!proxy) return false;
  const host = url.hostname.toLowerCase();
  const excluded = (env("NO_PROXY") ?? "").split(",").map((p) =>
    p.trim().toLowerCase().replace(/^\*?\./, "")
  );
  return !excluded.some((p) => p === "*" || p === host || (p !== "" && host.endsWith(`.${p}`)));
}

/**
 * A response header value as text. fetch hands values over as byte strings (one character per
 * byte); servers send UTF-8 (`café`, `€`), which would print as `cafÃ©`. Valid UTF-8 is
 * decoded, so the head prints the bytes the server sent; anything else stays one character
 * per byte (Latin-1, as HTTP/1.1 once defined it).
 *
 * @param value a header value from fetch
 * @returns its text
 */
export function headerText(value: string): string {
  // deno-lint-ignore no-control-regex -- ASCII is the common case: nothing to decode
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  try {
    return UTF8.decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value;
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * @param response a response
 * @returns its headers as `[name, text]` pairs, values through {@link headerText}
 */
export function responseHeaders(response: Response): Array<[string, string]> {
  return [...response.headers].map(([name, value]) => [name, headerText(value)]);
}
