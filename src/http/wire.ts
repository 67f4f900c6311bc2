/**
 * The request as it goes on the wire: request line, every header dial adds, in wire case and
 * order (the user's headers in their own case, dial's in the case curl writes them:
 * `Host`, `Accept`, `Content-Length`), and the body framing. `-v`, `--offline` and the client (client.ts) all read it from
 * here, so what is shown is what is sent.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { MaybeSecret } from "../secret.ts";
import { reveal, Secret } from "../secret.ts";
import { ownHeaders, requestUrl, utf8ByteString } from "./build_request.ts";
import type { PreparedRequest } from "./request_spec.ts";

/**
 * Marks a `RequestInit` whose headers are a complete wire head ({@link wireHead}), values as
 * byte strings ({@link sendableHeaders}): the client sends them as they are, without adding
 * its defaults again or encoding them again (`send()` builds the head once).
 */
export const WIRE_HEAD: unique symbol = Symbol.for("dial.wireHead") as never;

/**
 * Carries a request's asterisk-form target ({@link PreparedRequest.target}) on a `RequestInit`:
 * the client writes `*` instead of the URL's path.
 */
export const REQUEST_TARGET: unique symbol = Symbol.for("dial.requestTarget") as never;

/** How the body is framed: a known length, chunked (a pipe past the buffer limit), or none. */
export type Framing = { length: number } | "chunked" | "none";

/** The head of a request as sent (the request line is the method and the URL's path). */
export interface WireHead {
  /** Header lines in wire case and order; secret values stay wrapped. */
  headers: Array<[string, MaybeSecret]>;
}

/**
 * Headers the framing or the connection controls. They cannot be set with `-H`: dial frames
 * the body itself, and the others manage the connection and are not allowed in HTTP/2.
 * (`Host` can: it is sent as given, for virtual hosts behind an address.)
 */
const UNSENDABLE: Record<string, string> = {
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
      remedy: { use: "default_header" },
    });
  }
}

/**
 * The headers a request goes out with: its own, the defaults dial adds, and the body
 * framing, in wire case and order.
 *
 * @param request a prepared request
 * @param framing how the body is framed
 * @returns the headers as they are sent
 */
export function wireHead(request: PreparedRequest, framing: Framing): WireHead {
  const url = requestUrl(request);
  if (url.protocol === "ws:" || url.protocol === "wss:") {
    return { headers: webSocketHead(ownHeaders(request), url, "(random)") };
  }
  const type = request.body?.kind === "text" ? "text/plain;charset=UTF-8" : undefined;
  const removed = request.headers.some((h) => h.remove)
    ? new Set(request.headers.filter((h) => h.remove).map((h) => h.name.toLowerCase()))
    : undefined;
  return {
    headers: completeHead(ownHeaders(request), url, request.method, framing, type, removed),
  };
}

/**
 * Completes a head with what is missing, in this order: `Host` (the given one, else the
 * URL's), `Authorization` from the URL's userinfo, the given headers in their order and case,
 * then dial's defaults: a `Content-Type` the body implies, `Accept`, `Accept-Language`,
 * `User-Agent`, `Accept-Encoding`; last the body's framing, `Content-Length` (`0` for a POST
 * or PUT without a body) or `Transfer-Encoding: chunked`. A default named in `removed` is left
 * out (curl's `-H 'Accept:'`).
 *
 * @param own the headers given, in order
 * @param url the request URL
 * @param method the method
 * @param framing the body's framing
 * @param defaultType the Content-Type the body implies when none is given
 * @param removed lower-case names of defaults not to add
 * @returns the head as sent
 */
export function completeHead<V extends MaybeSecret>(
  own: Array<[string, V]>,
  url: URL,
  method: string,
  framing: Framing,
  defaultType?: string,
  removed?: ReadonlySet<string>,
): Array<[string, V | MaybeSecret]> {
  const headers: Array<[string, V | MaybeSecret]> = [];
  // The given names in lower case, read by index (see h1.ts's bodyFraming).
  const names: string[] = [];
  for (let i = 0; i < own.length; i++) names.push(own[i]![0].toLowerCase());
  const has = (name: string) => removed?.has(name) || names.includes(name);
  const host = names.indexOf("host");
  if (host >= 0) headers.push(own[host]!);
  else if (!removed?.has("host")) headers.push(["Host", url.host]);
  if ((url.username || url.password) && !has("authorization")) {
    const basic = btoa(
      utf8ByteString(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`),
    );
    headers.push(["Authorization", new Secret(`Basic ${basic}`)]);
  }
  for (let i = 0; i < own.length; i++) if (i !== host) headers.push(own[i]!);
  if (defaultType && !has("content-type")) headers.push(["Content-Type", defaultType]);
  if (!has("accept")) headers.push(["Accept", "*/*"]);
  if (!has("accept-language")) headers.push(["Accept-Language", "*"]);
  if (!has("user-agent")) headers.push(["User-Agent", `Deno/${Deno.version.deno}`]);
  if (!has("accept-encoding")) headers.push(["Accept-Encoding", "gzip,br"]);
  const framed = names.includes("content-length") || names.includes("transfer-encoding");
  if (!framed) {
    if (typeof framing === "object") headers.push(["Content-Length", String(framing.length)]);
    else if (framing === "none" && /^(POST|PUT)$/.test(method)) {
      headers.push(["Content-Length", "0"]);
    } else if (framing === "chunked") headers.push(["Transfer-Encoding", "chunked"]);
  }
  return headers;
}

/**
 * A WebSocket handshake's head, as dial's client writes it (websocket.ts) and `-v` shows it:
 * `Host` (the given one, else the URL's), the given headers in their order and case (a
 * `Sec-WebSocket-Protocol` offer among them), a `User-Agent` unless given, then the upgrade
 * as curl writes it: `Upgrade`, `Connection`, `Sec-WebSocket-Version`, `Sec-WebSocket-Key`.
 *
 * @param own the headers given, in order
 * @param url the ws: or wss: URL
 * @param key the handshake's key (`(random)` for display)
 * @returns the head as sent
 */
export function webSocketHead<V extends MaybeSecret>(
  own: Array<[string, V]>,
  url: URL,
  key: string,
): Array<[string, V | string]> {
  const host = own.findIndex(([n]) => n.toLowerCase() === "host");
  const has = (name: string) => own.some(([n]) => n.toLowerCase() === name);
  return [
    host >= 0 ? own[host]! : ["Host", url.host],
    ...own.filter((_, i) => i !== host),
    ...(has("user-agent") ? [] : [["User-Agent", `Deno/${Deno.version.deno}`] as [string, string]]),
    ["Upgrade", "websocket"],
    ["Connection", "Upgrade"],
    ["Sec-WebSocket-Version", "13"],
    ["Sec-WebSocket-Key", key],
  ];
}

/**
 * @param head a wire head
 * @returns the header lines as sent, secrets revealed, values as UTF-8 byte strings
 */
export function sendableHeaders(head: WireHead): Array<[string, string]> {
  const lines: Array<[string, string]> = [];
  for (let i = 0; i < head.headers.length; i++) {
    const line = head.headers[i]!;
    lines.push([line[0], utf8ByteString(reveal(line[1]))]);
  }
  return lines;
}

/**
 * A response header value as text. Values arrive as byte strings (one character per byte); servers send UTF-8 (`café`, `€`), which would print as `cafÃ©`. Valid UTF-8 is
 * decoded, so the head prints the bytes the server sent; anything else stays one character
 * per byte (Latin-1, as HTTP/1.1 once defined it).
 *
 * @param value a header value as received
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
