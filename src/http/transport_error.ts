/**
 * Transport failures in words: which certificate check failed, and whether the proxy or the
 * server could not be reached.
 * @module
 */
import {
  type Remedy,
  TimeoutError,
  type TlsCheck,
  TlsError,
  TransportError,
} from "../errors/mod.ts";
import { redactUrlsInText } from "../redact_url.ts";
import { RUNTIME_MESSAGES, TLS_CHECKS, tlsValidNames } from "../errors/runtime_messages.ts";
import { displayProxy, type ProxyChoice, proxyTarget } from "./proxy.ts";

const REMEDIES: Record<TlsCheck, Remedy | undefined> = {
  unknown_issuer: { trust: "server_certificate" },
  self_signed: { trust: "server_certificate" },
  expired: { check: "clock" },
  not_yet_valid: { check: "clock" },
  name_mismatch: { choose: "certificate_name" },
  client_certificate: { trust: "client_certificate" },
  other: undefined,
};

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
  if (!RUNTIME_MESSAGES.tlsFailure.test(text)) return undefined;
  for (const [pattern, check, words] of TLS_CHECKS) {
    if (!pattern.test(text)) continue;
    const remedy = REMEDIES[check];
    const names = check === "name_mismatch" ? tlsValidNames(text) : "";
    const what = check === "client_certificate"
      ? `TLS handshake with ${target} failed: ${words}`
      : `Cannot verify the TLS certificate of ${target}: ${words}${names}`;
    return new TlsError(what, check, {
      details: { target },
      ...(remedy ? { remedy } : {}),
      cause: error,
    });
  }
  return new TlsError(`TLS handshake with ${target} failed: ${detail(text)}`, "other", {
    details: { target },
    cause: error,
  });
}

function detail(text: string): string {
  return text.replace(RUNTIME_MESSAGES.tlsDetail, "$1").trim()
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
  const facts = {
    details: { proxySource: proxy.source },
    remedy: { check: "proxy" } as const,
  };
  const name = `${displayProxy(proxy.url)} (${proxy.source})`;
  if (RUNTIME_MESSAGES.tunnelRefused.test(text)) {
    const status = RUNTIME_MESSAGES.tunnelStatus.exec(text)?.[1];
    return new TransportError(
      `Proxy ${name} refused to tunnel to ${target}${status ? `: ${status.trim()}` : ""}`,
      { ...facts, cause: error },
    );
  }
  const why = RUNTIME_MESSAGES.refused.test(text) || RUNTIME_MESSAGES.tcpConnect.test(text)
    ? "connection refused"
    : RUNTIME_MESSAGES.hostNotFound.test(text)
    ? "host not found"
    : undefined;
  if (!why) return undefined;
  return new TransportError(`Cannot reach proxy ${name}: ${why}`, { ...facts, cause: error });
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
  return new TimeoutError(`Timed out connecting to ${to} after ${seconds} s`, {
    remedy: { raise: "connect_timeout" },
  });
}
