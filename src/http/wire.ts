/**
 * The request as it goes on the wire: request line, every header dial adds, in wire case and
 * order, and the body framing. `-v`, `--offline` and the client (client.ts) all read it from
 * here, so what is shown is what is sent.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { MaybeSecret } from "../secret.ts";
import { reveal, Secret } from "../secret.ts";
import { requestUrl, utf8ByteString } from "./build_request.ts";
import type { PreparedRequest } from "./request_spec.ts";

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
 * Headers Deno's fetch always sends, adding its own value when the request has none; so they
 * cannot be left out, only sent empty (`Name;`).
 */
const ALWAYS_SENT = ["accept", "accept-language", "accept-encoding", "user-agent"];

/**
 * @param name a header the user asked to remove (HTTPie's `Name:` item)
 * @param hasBody whether the request has a body (fetch then adds a `Content-Type`)
 * @throws {UsageError} when the transport would send it anyway
 */
export function checkRemovable(name: string, hasBody: boolean): void {
  const lower = name.toLowerCase();
  if (ALWAYS_SENT.includes(lower) || (hasBody && lower === "content-type")) {
    throw new UsageError(`Cannot remove header "${name}": Deno's fetch always sends one`, {
      details: { name },
      remedy: { use: "empty_header" },
    });
  }
}

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
  if (url.protocol === "ws:" || url.protocol === "wss:") return webSocketHead(request, url);
  const type = request.body?.kind === "text" ? "text/plain;charset=UTF-8" : undefined;
  return { headers: completeHead(combined(request), url, request.method, framing, type) };
}

/**
 * Completes a head with what is missing, in this order: `Content-Length` (or `0` for a POST
 * or PUT without a body), `Authorization` from the URL's userinfo, the given headers, a
 * default `Content-Type`, `Accept`, `Accept-Language`, `User-Agent`, `Accept-Encoding`,
 * `Host`, and `Transfer-Encoding: chunked` for a body of unknown length.
 *
 * @param own the headers given, in order
 * @param url the request URL
 * @param method the method
 * @param framing the body's framing
 * @param defaultType the Content-Type the body implies when none is given
 * @returns the head as sent
 */
export function completeHead<V extends MaybeSecret>(
  own: Array<[string, V]>,
  url: URL,
  method: string,
  framing: Framing,
  defaultType?: string,
): Array<[string, V | MaybeSecret]> {
  const headers: Array<[string, V | MaybeSecret]> = [];
  const has = (name: string) => own.some(([n]) => n.toLowerCase() === name);
  if (!has("content-length") && !has("transfer-encoding")) {
    if (typeof framing === "object") headers.push(["content-length", String(framing.length)]);
    else if (framing === "none" && /^(POST|PUT)$/.test(method)) {
      headers.push(["content-length", "0"]);
    }
  }
  if ((url.username || url.password) && !has("authorization")) {
    const basic = btoa(
      utf8ByteString(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`),
    );
    headers.push(["authorization", new Secret(`Basic ${basic}`)]);
  }
  headers.push(...own);
  if (defaultType && !has("content-type")) headers.push(["content-type", defaultType]);
  if (!has("accept")) headers.push(["accept", "*/*"]);
  if (!has("accept-language")) headers.push(["accept-language", "*"]);
  if (!has("user-agent")) headers.push(["user-agent", `Deno/${Deno.version.deno}`]);
  if (!has("accept-encoding")) headers.push(["accept-encoding", "gzip,br"]);
  if (!has("host")) headers.push(["host", url.host]);
  if (framing === "chunked" && !has("transfer-encoding")) {
    headers.push(["transfer-encoding", "chunked"]);
  }
  return headers;
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
 * @returns the header lines as sent, secrets revealed, values as UTF-8 byte strings
 */
export function sendableHeaders(head: WireHead): Array<[string, string]> {
  return head.headers.map(([name, value]) => [name, utf8ByteString(reveal(value))]);
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
