/**
 * The pure parts of a WebSocket handshake: URL scheme, display, and what a refusal means.
 * @module
 */
import { DialError, ErrorCode, StatusError, TransportError } from "../errors/mod.ts";
import { redactUrlsInText } from "../redact_url.ts";
import { RUNTIME_MESSAGES } from "../errors/runtime_messages.ts";
import { tlsError } from "../http/transport_error.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import { statusRemedy } from "./status_error.ts";

/**
 * @param url a ws:, wss:, http: or https: URL
 * @returns the URL with a WebSocket scheme
 */
export function toWebSocketUrl(url: URL): URL {
  const result = new URL(url);
  if (result.protocol === "http:") result.protocol = "ws:";
  if (result.protocol === "https:") result.protocol = "wss:";
  return result;
}

/**
 * Whether a handshake refused with 401 carries a challenge the request's signer answers
 * (Digest): the handshake is then sent once more with the answer, as curl answers a refused
 * upgrade and `send()` a 401. A second refusal is the one shown.
 *
 * @param prepared the request the refused handshake was built from
 * @param error why the handshake failed
 * @param refusal the server's refusal (status and headers), when the socket kept it
 * @returns true when the handshake should be sent again, now answerable
 */
export function answersChallenge(
  prepared: PreparedRequest,
  error: unknown,
  refusal: Response | undefined,
): boolean {
  if (!(error instanceof StatusError) || error.status !== 401 || refusal?.status !== 401) {
    return false;
  }
  return prepared.signer?.challenge?.(refusal) === true;
}

/**
 * Deno reports a refused handshake only through the error event's message.
 *
 * @param event the error or close event that ended the handshake
 * @param target `host:port`, for the message
 * @returns a StatusError when a status can be read, a TransportError otherwise
 */
export function handshakeError(event: Event, target: string): DialError {
  const message = event instanceof ErrorEvent ? event.message : "";
  const status = RUNTIME_MESSAGES.handshakeStatus.exec(message)?.[1];
  if (status !== undefined) {
    const code = Number(status);
    const remedy = code === 200 ? { check: "websocket_url" } as const : statusRemedy(code);
    return new StatusError(
      `WebSocket handshake refused by ${target}: HTTP ${code}`,
      code,
      remedy ? { remedy } : {},
    );
  }
  const tls = tlsError(event, target);
  if (tls) return tls;
  const detail = redactUrlsInText(message).replace(RUNTIME_MESSAGES.webSocketPrefix, "").replace(
    RUNTIME_MESSAGES.webSocketConnect,
    "",
  );
  const why = RUNTIME_MESSAGES.tcpConnect.test(detail)
    ? "connection refused"
    : detail || (event instanceof CloseEvent ? `closed with code ${event.code}` : "unknown error");
  return new TransportError(`Cannot open a WebSocket to ${target}: ${why}`, { cause: event });
}

/**
 * RFC 6455 4.1: the client fails the connection when the server picks a subprotocol it did
 * not offer. dial also fails when subprotocols were offered and none was chosen, since the
 * user asked for one (Deno's WebSocket accepts both cases).
 *
 * @param offered the subprotocols offered
 * @param chosen the one the server chose ("" for none)
 * @param target `host:port`, for the message
 * @returns an error, or undefined when the choice is acceptable
 */
export function subprotocolMismatch(
  offered: string[],
  chosen: string,
  target: string,
): DialError | undefined {
  if (offered.length === 0) {
    if (chosen === "") return undefined;
    return new DialError(
      `WebSocket handshake with ${target} failed: the server chose subprotocol "${chosen}", which was not offered`,
      ErrorCode.Subprotocol,
    );
  }
  if (offered.includes(chosen)) return undefined;
  const list = offered.map((p) => `"${p}"`).join(", ");
  return new DialError(
    chosen === ""
      ? `WebSocket handshake with ${target} failed: the server accepted none of the offered subprotocols ${list}`
      : `WebSocket handshake with ${target} failed: the server chose subprotocol "${chosen}", not one of ${list}`,
    ErrorCode.Subprotocol,
    { remedy: { check: "subprotocols" } },
  );
}
