/**
 * The one table of the runtime's own messages that dial reads: Deno's fetch and WebSocket
 * (hyper, rustls), node:http and node:tls (file uploads, the TLS relay), and V8's JSON parser.
 * Their wording is not an API; when a runtime upgrade changes it, this file is the one to fix,
 * and `tests/unit/runtime_messages_test.ts` names the pattern that stopped matching.
 * @module
 */
import type { TlsCheck } from "./codes.ts";

/** Patterns over a failure's messages (and node's `code`s), by what they mean. */
export const RUNTIME_MESSAGES = {
  /** The server refused the TCP connection. */
  refused: /connection refused|ECONNREFUSED/i,
  /** hyper's connect failure, refused or unreachable (Deno's proxy and WebSocket errors). */
  tcpConnect: /tcp connect/i,
  /** The host name did not resolve. */
  hostNotFound: /dns error|failed to lookup|name or service not known|no such host|ENOTFOUND/i,
  /** As {@link hostNotFound}, with getaddrinfo's temporary failure too. */
  hostNotFoundOrRetry:
    /dns error|failed to lookup|name or service not known|no such host|ENOTFOUND|EAI_AGAIN/i,
  /** The peer reset the connection. */
  reset: /connection reset|ECONNRESET|socket hang up/i,
  /** Any mention of TLS. */
  tls: /certificate|tls|ssl/i,
  /** A TLS failure, alerts and OpenSSL's codes included. */
  tlsFailure: /certificate|tls|ssl|alert|CERT_/i,
  /** Deno's `--deny-net`-style block of a port. */
  blocked: /blocked/i,
  /** The connection closed before the response was complete. */
  closedEarly: /incomplete|unexpected eof|closed before|end of file|EPIPE/i,
  /** The connection attempt timed out in the operating system. */
  timedOut: /timed out/i,
  /** The server's answer is not HTTP. */
  malformed: /invalid http|parse error|malformed|invalid status/i,
  /** Deno's proxy: the proxy refused to open a CONNECT tunnel. */
  tunnelRefused: /unsuccessful tunnel/i,
  /** The status line a proxy answered CONNECT with (our TLS relay's wording). */
  tunnelStatus: /answered CONNECT with (HTTP \d{3}[^\n]*)/,
  /** Deno's WebSocket: the handshake was answered with another status than 101. */
  handshakeStatus: /invalid status code:?\s*(\d{3})/i,
  /** The prefix Deno's WebSocket error events carry. */
  webSocketPrefix: /^NetworkError:\s*/,
  /** The second prefix Deno's WebSocket error events carry. */
  webSocketConnect: /^failed to connect to WebSocket:\s*/i,
  /** rustls: the names a certificate is valid for. */
  tlsValidFor: /only valid for (.*)/,
  /** rustls: one name in {@link tlsValidFor}'s list. */
  tlsName: /(?:DnsName|IpAddress)\("?([^")]+)"?\)/g,
  /** rustls: the start of the useful part of a handshake failure. */
  tlsDetail: /.*(invalid peer certificate|received fatal alert)/i,
  /** V8's JSON.parse message quotes the input, which may be a secret. */
  jsonQuotedInput: /, ".*" is not valid JSON$/s,
} as const;

/** The reasons a network failure is named by, first match wins (see `networkError`). */
export const NETWORK_REASONS: ReadonlyArray<readonly [RegExp, string]> = [
  [RUNTIME_MESSAGES.refused, "connection refused"],
  [RUNTIME_MESSAGES.hostNotFoundOrRetry, "host not found"],
  [RUNTIME_MESSAGES.reset, "connection reset"],
  [RUNTIME_MESSAGES.tls, "TLS failure"],
  [RUNTIME_MESSAGES.blocked, "port blocked by the runtime"],
  [RUNTIME_MESSAGES.closedEarly, "connection closed early"],
  [RUNTIME_MESSAGES.timedOut, "connection timed out"],
  [RUNTIME_MESSAGES.malformed, "malformed response"],
];

/** Certificate checks in rustls' and OpenSSL's words, first match wins, and ours. */
export const TLS_CHECKS: ReadonlyArray<readonly [RegExp, TlsCheck, string]> = [
  [
    /CaUsedAsEndEntity|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT_IN_CHAIN|self[- ]signed/i,
    "self_signed",
    "self-signed certificate",
  ],
  [
    /UnknownIssuer|UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT)|unable to (verify|get local issuer)/i,
    "unknown_issuer",
    "unknown issuer (not signed by a trusted certificate authority)",
  ],
  [/Expired|CERT_HAS_EXPIRED/i, "expired", "certificate expired"],
  [/NotValidYet|CERT_NOT_YET_VALID/i, "not_yet_valid", "certificate not yet valid"],
  [
    /not valid for name|NotValidForName|ALTNAME_INVALID|does not match certificate/i,
    "name_mismatch",
    "name mismatch (the certificate is for another host name)",
  ],
  [
    /CertificateRequired|certificate required|BadCertificate|UnknownCA|alert.*certificate/i,
    "client_certificate",
    "the server requires a client certificate it accepts",
  ],
];

/** OS error codes that mean the local output failed, not the network. */
export const LOCAL_OUTPUT_CODES: ReadonlySet<string> = new Set([
  "ENOSPC",
  "EDQUOT",
  "EFBIG",
  "EISDIR",
  "ENOTDIR",
  "ENOENT",
  "EACCES",
  "EPERM",
  "EROFS",
  "EBADF",
]);

/**
 * @param text the messages of a TLS failure
 * @returns the names rustls says the certificate is valid for, e.g. `; it is for other.example`
 */
export function tlsValidNames(text: string): string {
  const list = RUNTIME_MESSAGES.tlsValidFor.exec(text)?.[1] ?? "";
  const names = [...list.matchAll(RUNTIME_MESSAGES.tlsName)].map((m) => m[1]);
  return names.length ? `; it is for ${names.join(", ")}` : "";
}

/**
 * @param error what JSON.parse threw
 * @returns V8's reason without the input it quotes (which may be a secret)
 */
export function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(RUNTIME_MESSAGES.jsonQuotedInput, "");
}
