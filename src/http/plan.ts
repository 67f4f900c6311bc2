/**
 * The transport plan: how one request reaches its server, decided once from the flags and the
 * environment and then only read: where the socket goes (the URL's host, an address override,
 * a Unix socket or a proxy), how the proxy is used (forwarding or a CONNECT tunnel), which TLS
 * connector and trust, which protocols ALPN offers, and the connect timeout. `send`, `-v`,
 * `--offline`, `--curl` and the UI read plans made here; nothing else decides.
 * @module
 */
import { bareHost, isIpAddress, joinHostPort, portOf } from "./authority.ts";
import { UsageError } from "../errors/mod.ts";
import type { Secret } from "../secret.ts";
import { chooseProxy, isSocks, type ProxyChoice } from "./proxy.ts";
import { type EnvLookup, processEnv } from "../env.ts";
import { trustFor, type TrustStore } from "./trust.ts";
import type { ConnectionPool } from "./pool.ts";

/** TLS, proxy and connection settings shared by every request of a run or a script. */
export interface TransportOptions {
  /** Extra trusted certificates, PEM text (`--cacert`); the default roots stay trusted. */
  caCerts?: string[];
  /** Client certificate chain, PEM text (`--cert`), for mutual TLS. */
  cert?: string;
  /** Its private key, PEM text (`--key`). */
  key?: Secret;
  /** Skip certificate verification (`-k`). */
  insecure?: boolean;
  /** Proxy URL for every request (`-x`); "" for none. Default: HTTP(S)_PROXY, ALL_PROXY. */
  proxy?: string;
  /** Hosts that bypass the proxy (`--noproxy`); replaces NO_PROXY. */
  noProxy?: string;
  /** Limit for opening the connection (TCP, proxy tunnel, TLS handshake), milliseconds. */
  connectTimeoutMs?: number;
  /** `--resolve host:port:address` entries, as curl writes them. */
  resolve?: string[];
  /** `--connect-to host:port:host2:port2` entries, as curl writes them. */
  connectTo?: string[];
  /** `--unix-socket PATH`: every connection goes to this socket. */
  unixSocket?: string;
  /**
   * Environment lookup for the proxy and CA variables; default `Deno.env.get`. Each variable
   * is read once for these options (at their first request) and once per process for the CA.
   */
  env?: EnvLookup;
  /**
   * Resolves host names apart from connecting, so each exchange's timing has its own
   * `namelookup` (curl's `time_namelookup`, the reports' DNS phase). Costs ~13 ms once per
   * process (the system resolver through node:dns); without it the runtime's connect resolves
   * and the lookup is part of the connect time.
   */
  measureLookup?: boolean;
  /** Keeps connections alive between requests ({@link ConnectionPool}); none: one per request. */
  pool?: ConnectionPool;
  /** Told each request's plan before it connects (for `-v`). */
  onRoute?: (plan: TransportPlan) => void;
  /** Told the protocol a TLS connection's ALPN chose (for `-v`), once connected. */
  onConnected?: (plan: TransportPlan, protocol: "http/1.1" | "h2") => void;
}

/** Where a socket is opened. */
export type Endpoint =
  | { kind: "tcp"; hostname: string; port: number }
  | { kind: "unix"; path: string };

/** Why TLS goes through `node:tls` rather than Deno's own (see node_tls.ts). */
export type NodeTlsReason = "insecure" | "self-signed" | "client-certificate" | "unix-socket";

/** The TLS part of a plan. */
export interface TlsPlan {
  /** The name sent as SNI and checked against the certificate (the URL's host). */
  servername: string;
  /** Whether the certificate is verified (false for `-k`). */
  verify: boolean;
  /** The connector: Deno's TLS, or node:tls where Deno's cannot do what is asked. */
  connector: "deno" | "node";
  /** Why node:tls, when it is used. */
  why?: NodeTlsReason;
  /** The trust beyond the runtime's roots: OS store, CA variables, `--cacert`. */
  trust: TrustStore;
  /** Client certificate and key (PEM). */
  cert?: string;
  /** The key of {@link TlsPlan.cert}. */
  key?: Secret;
  /** Protocols offered by ALPN, most preferred first. */
  alpn: string[];
}

/** How one request reaches its server; made by {@link planFor}. */
export interface TransportPlan {
  /** The request URL. */
  url: URL;
  /** `host:port` of the URL (the origin), as messages name it. */
  target: string;
  /** The first hop: the proxy, an override of the address, a Unix socket, or the URL's host. */
  endpoint: Endpoint;
  /** What changed the address, for `-v`: `--resolve`, `--connect-to`, `--unix-socket`. */
  override?: string;
  /**
   * The proxy and how it is used: `forward` (absolute-form request), `tunnel` (CONNECT to
   * `authority`) or `socks` (a SOCKS5 CONNECT to `authority`: socks.ts); an `https://` proxy
   * is verified against `trust`.
   */
  proxy?: ProxyChoice & {
    mode: "forward" | "tunnel" | "socks";
    authority: string;
    trust?: TrustStore;
  };
  /** TLS with the server (inside the tunnel when there is one). */
  tls?: TlsPlan;
  /** Limit for opening the connection, milliseconds. */
  connectTimeoutMs?: number;
  /** The endpoint is a name resolved apart from connecting, to time it (lookup.ts). */
  measureLookup?: true;
}

/**
 * Reads curl's `--resolve` and `--connect-to` entries.
 *
 * @param entries the values
 * @param flag the flag, for messages
 * @returns `[host, port, host2, port2]` per entry (host2 empty: keep the host; port2 empty:
 *   keep the port)
 * @throws {UsageError} for an entry of the wrong shape
 */
export function parseAddressOverrides(
  entries: string[],
  flag: "--resolve" | "--connect-to",
): Array<[string, string, string, string]> {
  return entries.map((entry) => {
    const parts = splitColons(entry);
    const ok = flag === "--resolve"
      ? parts.length === 3 && parts[1] !== "" && parts[2] !== ""
      : parts.length === 4;
    if (!ok || (parts[1] !== "" && !/^\d+$/.test(parts[1]!))) {
      throw new UsageError(`Invalid ${flag} "${entry}"`, {
        remedy: { write: flag === "--resolve" ? "resolve" : "connect_to" },
      });
    }
    const [host, port, host2, port2] = parts as [string, string, string, string?];
    return [host.toLowerCase(), port, bareHost(host2), port2 ?? ""];
  });
}

/** Splits on colons outside brackets (`[::1]:80`). */
function splitColons(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of text) {
    if (char === "[") depth++;
    if (char === "]") depth--;
    if (char === ":" && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function overrideFor(
  url: URL,
  options: TransportOptions,
): { endpoint: Endpoint; override?: string } {
  const host = bareHost(url.hostname).toLowerCase();
  const port = portOf(url);
  if (options.unixSocket !== undefined) {
    return { endpoint: { kind: "unix", path: options.unixSocket }, override: "--unix-socket" };
  }
  const matches = (h: string, p: string) =>
    (h === "" || h === "*" || h === host) &&
    (p === "" || Number(p) === port);
  for (const [h, p, h2, p2] of parseAddressOverrides(options.connectTo ?? [], "--connect-to")) {
    if (!matches(h, p)) continue;
    return {
      endpoint: { kind: "tcp", hostname: h2 || host, port: p2 ? Number(p2) : port },
      override: "--connect-to",
    };
  }
  for (const [h, p, address] of parseAddressOverrides(options.resolve ?? [], "--resolve")) {
    if (!matches(h, p)) continue;
    const first = address.split(",")[0]!;
    return { endpoint: { kind: "tcp", hostname: bareHost(first), port }, override: "--resolve" };
  }
  return { endpoint: { kind: "tcp", hostname: host, port } };
}

/**
 * Plans one request: the rules of how dial connects, in one place.
 *
 * - The proxy comes from `--proxy`, else `https_proxy`/`HTTPS_PROXY` (https, wss) or
 *   `http_proxy`/`HTTP_PROXY` (http, ws), else `all_proxy`/`ALL_PROXY`, lower case first;
 *   `--noproxy`, else `no_proxy`/`NO_PROXY`, names hosts that bypass it. An `http:` request is
 *   forwarded to an HTTP proxy in absolute form; `https:`, `ws:` and `wss:` go through a
 *   CONNECT tunnel; through a SOCKS5 proxy every request goes as it would directly.
 * - `--unix-socket`, else the first matching `--connect-to`, else `--resolve`, changes where
 *   the socket goes; the Host header, SNI and the certificate check keep the URL's host.
 * - TLS goes through Deno's own TLS unless Deno's cannot do what is asked: `-k`, a client
 *   certificate, or TLS over a Unix socket; a self-signed certificate trusted as itself is
 *   found when Deno's TLS refuses it, and the connection is made again in node:tls
 *   ({@link selfSignedPlan}).
 * - ALPN offers `h2` then `http/1.1`, as curl does (a WebSocket handshake only `http/1.1`).
 *
 * @param url an http, https, ws or wss URL
 * @param options the transport options
 * @param kind a fetch, or a WebSocket handshake (HTTP/1.1 only)
 * @returns the plan
 * @throws {UsageError} for invalid proxy or override values
 */
export function planFor(
  url: URL,
  options: TransportOptions = {},
  kind: "fetch" | "websocket" = "fetch",
): TransportPlan {
  const secure = url.protocol === "https:" || url.protocol === "wss:";
  const port = portOf(url);
  const host = bareHost(url.hostname);
  const target = `${url.hostname}:${port}`;
  const { endpoint: direct, override } = overrideFor(url, options);
  const chosen = options.unixSocket === undefined ? chooseProxy(url, options) : undefined;
  let endpoint = direct;
  let proxy: TransportPlan["proxy"];
  if (chosen) {
    const proxyUrl = chosen.url;
    endpoint = {
      kind: "tcp",
      hostname: bareHost(proxyUrl.hostname),
      port: portOf(proxyUrl),
    };
    const via = direct.kind === "tcp" ? direct : { hostname: host, port };
    const authority = joinHostPort(via.hostname, via.port);
    proxy = {
      ...chosen,
      mode: isSocks(proxyUrl) ? "socks" : url.protocol === "http:" ? "forward" : "tunnel",
      authority,
      ...(proxyUrl.protocol === "https:" ? { trust: trustFor(options) } : {}),
    };
  }
  let tls: TlsPlan | undefined;
  if (secure) {
    const trust = trustFor(options);
    // A self-signed certificate given as its own CA is found when Deno's TLS refuses it
    // (connect.ts): the trusted files are parsed only then.
    const why: NodeTlsReason | undefined = options.insecure
      ? "insecure"
      : options.cert !== undefined
      ? "client-certificate"
      : endpoint.kind === "unix"
      ? "unix-socket"
      : undefined;
    tls = {
      servername: host,
      verify: !options.insecure,
      connector: why ? "node" : "deno",
      ...(why ? { why } : {}),
      trust,
      ...(options.cert !== undefined && options.key !== undefined
        ? { cert: options.cert, key: options.key }
        : {}),
      alpn: kind === "websocket" ? ["http/1.1"] : ["h2", "http/1.1"],
    };
  }
  return {
    url,
    target,
    endpoint,
    ...(override && !proxy ? { override } : {}),
    ...(proxy ? { proxy } : {}),
    ...(tls ? { tls } : {}),
    ...(options.connectTimeoutMs !== undefined
      ? { connectTimeoutMs: options.connectTimeoutMs }
      : {}),
    ...(options.measureLookup && endpoint.kind === "tcp" && !isIpAddress(endpoint.hostname)
      ? { measureLookup: true }
      : {}),
  };
}

/**
 * The plan again for a server whose self-signed certificate Deno's TLS refused
 * (`CaUsedAsEndEntity`) when a trusted file holds that certificate for the host.
 *
 * @param plan a plan with TLS through Deno's own
 * @returns the plan with TLS through node:tls, or undefined when no trusted file names the host
 */
export function selfSignedPlan(plan: TransportPlan): TransportPlan | undefined {
  const tls = plan.tls;
  if (!tls || tls.connector !== "deno" || !tls.trust.selfSignedFor(tls.servername)) {
    return undefined;
  }
  return { ...plan, tls: { ...tls, connector: "node", why: "self-signed" } };
}

/**
 * Says how a request is routed, for `-v`.
 *
 * @param plan a plan
 * @returns `-v` lines that say how the request is routed (none for a plain direct request)
 */
export function describePlan(plan: TransportPlan): string[] {
  const lines: string[] = [];
  const at = plan.endpoint.kind === "unix"
    ? plan.endpoint.path
    : joinHostPort(plan.endpoint.hostname, plan.endpoint.port);
  if (plan.proxy) {
    const how = plan.proxy.mode === "tunnel"
      ? `tunnel (CONNECT ${plan.proxy.authority})`
      : plan.proxy.mode === "socks"
      ? `SOCKS5 CONNECT ${plan.proxy.authority}${
        plan.proxy.url.protocol === "socks5h:" ? " (the proxy resolves the name)" : ""
      }`
      : "";
    lines.push(
      `* Proxy ${plan.proxy.url.protocol}//${plan.proxy.url.host} (${plan.proxy.source}) for ${plan.target}${
        how ? `: ${how}` : ""
      }`,
    );
  } else if (plan.override) {
    lines.push(`* Connect to ${at} for ${plan.target} (${plan.override})`);
  }
  if (plan.tls?.connector === "node") {
    const words: Record<NodeTlsReason, string> = {
      "insecure": "-k, certificate not verified",
      "self-signed": "self-signed --cacert",
      "client-certificate": "client certificate",
      "unix-socket": "over a Unix socket",
    };
    lines.push(`* TLS to ${plan.target} with node:tls (${words[plan.tls.why!]})`);
  }
  return lines;
}

/** Reads an environment variable through the options' lookup. */
export function envOf(options: TransportOptions): EnvLookup {
  return options.env ?? processEnv;
}
