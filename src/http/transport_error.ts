/**
 * Transport failures in words: which certificate check failed, and whether the proxy or the
 * server could not be reached.
 * @module
 */
import { TimeoutError, TransportError } from "../errors.ts";
import { redactUrlsInText } from "../redact_url.ts";
import { displayProxy, type ProxyChoice, proxyTarget } from "./proxy.ts";

/** The certificate check that failed. */
export type TlsCheck =
  | "unknown_issuer"
  | "self_signed"
  | "expired"
  | "not_yet_valid"
  | "name_mismatch"
  | "client_certificate"
  | "other";

const CHECKS: Array<[RegExp, TlsCheck, string]> = [
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

const TRUST = "trust its CA (or the self-signed certificate itself) with --cacert file.pem, " +
  "or skip verification for this run with -k (insecure)";
const CLOCK = "check this machine's clock, or have the certificate renewed; " +
  "-k skips verification for this run (insecure)";

const HINTS: Record<TlsCheck, string | undefined> = {
  unknown_issuer: TRUST,
  self_signed: TRUST,
  expired: CLOCK,
  not_yet_valid: CLOCK,
  name_mismatch:
    "use the host name the certificate names, or skip verification for this run with -k (insecure)",
  client_certificate: "present one with --cert client.pem --key client.key",
  other: undefined,
};

/** The names rustls says a certificate is valid for, e.g. `: it is for other.example`. */
function validNames(text: string): string {
  const list = /only valid for (.*)/.exec(text)?.[1] ?? "";
  const names = [...list.matchAll(/(?:DnsName|IpAddress)\("?([^")]+)"?\)/g)].map((m) => m[1]);
  return names.length ? `; it is for ${names.join(", ")}` : "";
}

/** A TLS failure: the server's certificate failed a check, or the server refused ours. */
export class TlsError extends TransportError {
  /** The check that failed. */
  readonly check: TlsCheck;

  /**
   * Creates the error.
   *
   * @param message names the host and the check in words
   * @param check the failed check
   * @param options hint and cause
   */
  constructor(message: string, check: TlsCheck, options: { hint?: string; cause?: unknown }) {
    super(message, options);
    this.name = "TlsError";
    this.check = check;
  }
}

function causeText(error: unknown): string {
  const texts: string[] = [];
  for (let e: unknown = error; e && texts.length < 6; e = (e as { cause?: unknown }).cause) {
    // The runtime's messages name the URL, query (API keys) included.
    if (e instanceof ErrorEvent) texts.push(redactUrlsInText(e.message));
    else if (e instanceof Error) {
      texts.push(`${redactUrlsInText(e.message)} ${(e as { code?: string }).code ?? ""}`);
    } else if (typeof e === "string") texts.push(redactUrlsInText(e));
    else break;
  }
  return texts.join(" ");
}

/**
 * Recognises a certificate or TLS handshake failure.
 *
 * @param error what fetch, WebSocket or node:tls reported
 * @param target `host:port` of the server
 * @returns a {@link TlsError}, or undefined when the failure is not about TLS
 */
export function tlsError(error: unknown, target: string): TlsError | undefined {
  const text = causeText(error);
  if (!/certificate|tls|ssl|alert|CERT_/i.test(text)) return undefined;
  for (const [pattern, check, words] of CHECKS) {
    if (!pattern.test(text)) continue;
    const hint = HINTS[check];
    const names = check === "name_mismatch" ? validNames(text) : "";
    const what = check === "client_certificate"
      ? `TLS handshake with ${target} failed: ${words}`
      : `Cannot verify the TLS certificate of ${target}: ${words}${names}`;
    return new TlsError(what, check, { ...(hint ? { hint } : {}), cause: error });
  }
  return new TlsError(`TLS handshake with ${target} failed: ${detail(text)}`, "other", {
    cause: error,
  });
}

function detail(text: string): string {
  return text.replace(/.*(invalid peer certificate|received fatal alert)/i, "$1").trim()
    .split("\n")[0] ?? text;
}

/**
 * Recognises a failure at the proxy: it could not be reached (refused, unknown host), or it
 * refused the CONNECT tunnel.
 *
 * @param error what fetch or WebSocket reported
 * @param proxy the proxy in use
 * @param target `host:port` of the server, for a refused tunnel
 * @returns a TransportError naming the proxy, or undefined
 */
export function proxyError(
  error: unknown,
  proxy: ProxyChoice,
  target = "the server",
): TransportError | undefined {
  const text = causeText(error);
  const hint = proxy.source === "--proxy"
    ? "check --proxy, or bypass it for this host with --noproxy <host>"
    : `check ${proxy.source}, or bypass it with --noproxy <host> (or --proxy "" for none)`;
  const name = `${displayProxy(proxy.url)} (${proxy.source})`;
  if (/unsuccessful tunnel/i.test(text)) {
    const status = /answered CONNECT with (HTTP \d{3}[^\n]*)/.exec(text)?.[1];
    return new TransportError(
      `Proxy ${name} refused to tunnel to ${target}${status ? `: ${status.trim()}` : ""}`,
      { hint, cause: error },
    );
  }
  const why = /connection refused|tcp connect error|ECONNREFUSED/i.test(text)
    ? "connection refused"
    : /dns error|failed to lookup|name or service not known|no such host|ENOTFOUND/i.test(text)
    ? "host not found"
    : undefined;
  if (!why) return undefined;
  return new TransportError(`Cannot reach proxy ${name}: ${why}`, { hint, cause: error });
}

/**
 * The error for a connection that did not open within `--connect-timeout`.
 *
 * @param target `host:port` being connected to
 * @param seconds the limit
 * @param proxy the proxy being connected to, if any
 * @returns a TimeoutError
 */
export function connectTimeoutError(
  target: string,
  seconds: number,
  proxy?: ProxyChoice,
): TimeoutError {
  const to = proxy ? `${proxyTarget(proxy.url)} (proxy for ${target})` : target;
  return new TimeoutError(`Timed out connecting to ${to} after ${seconds} s (--connect-timeout)`);
}
