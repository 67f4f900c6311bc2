/**
 * How a WebSocket handshake connects. Deno's `WebSocket` opens its own connection, so the
 * transport plan's trust and proxy are turned into a Deno HTTP client (one per option set and
 * route, reused, closed at exit); `-k`, a self-signed `--cacert` and a `ws://` tunnel through
 * a proxy go through a local bridge (bridge.ts). HTTP requests do not come here: they use
 * client.ts.
 * @module
 */
import { DialError, TransportError, UsageError } from "../errors.ts";
import { redactUrlsInText } from "../redact_url.ts";
import type { Bridge } from "./bridge.ts";
import { chooseProxy, denoEnv, type EnvLookup, type ProxyChoice } from "./proxy.ts";
import { planFor, type TransportOptions } from "./plan.ts";
import type { SelfSignedCertificate } from "./certificates.ts";

// Failures and --cacert files are the uncommon case: their modules load when needed.
type Errors = typeof import("./transport_error.ts");
const loadErrors = (): Promise<Errors> => import("./transport_error.ts");
const parsed = new WeakMap<string[], SelfSignedCertificate[]>();

/** How one WebSocket handshake reaches its server. */
export interface Route {
  /** `host:port` of the server. */
  target: string;
  /** The proxy, if one is used. */
  proxy?: ProxyChoice;
  /**
   * Why the request goes through dial's own TLS bridge (HTTP/1.1 only): `-k`, a self-signed
   * certificate given with `--cacert`, or a `ws://` tunnel through a proxy.
   */
  bridge?: "insecure" | "self-signed" | "tunnel";
}

interface Entry {
  /** None when nothing needs configuring: fetch's own client is the same, and ready sooner. */
  client?: Deno.HttpClient;
  bridge?: Bridge;
}

const entries = new Map<string, Entry>();
const pending = new Map<string, Promise<Entry>>();
let unloadHooked = false;

/** Closes every HTTP client and bridge made so far (also done when the process exits). */
export function closeTransports(): void {
  for (const entry of entries.values()) {
    entry.client?.close();
    entry.bridge?.close();
  }
  entries.clear();
}

function hookUnload(): void {
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", closeTransports);
}

/**
 * Decides how a request reaches its server.
 *
 * @param url an http, https, ws or wss URL
 * @param options the transport options
 * @param kind whether a fetch or a WebSocket handshake is being routed
 * @returns the route
 */
export async function routeFor(
  url: URL,
  options: TransportOptions = {},
  kind: "fetch" | "websocket" = "fetch",
): Promise<Route> {
  const secure = url.protocol === "https:" || url.protocol === "wss:";
  const target = `${url.hostname}:${url.port || (secure ? "443" : "80")}`;
  const proxy = chooseProxy(url, options);
  const bridge = secure
    ? options.insecure
      ? "insecure"
      : await namedBySelfSigned(url, options.caCerts)
      ? "self-signed"
      : undefined
    : proxy && kind === "websocket"
    ? "tunnel"
    : undefined;
  return { target, ...(proxy ? { proxy } : {}), ...(bridge ? { bridge } : {}) };
}

/** Whether a self-signed server certificate among the `--cacert` ones names the host. */
async function namedBySelfSigned(url: URL, caCerts: string[] | undefined): Promise<boolean> {
  if (!caCerts?.length) return false;
  const { namesHost, selfSignedServerCertificates } = await import("./certificates.ts");
  let found = parsed.get(caCerts);
  if (!found) parsed.set(caCerts, found = selfSignedServerCertificates(caCerts));
  return found.some((certificate) => namesHost(certificate, url.hostname));
}

function hasEnvProxy(env: EnvLookup): boolean {
  return ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"].some((name) => env(name));
}

function entryFor(route: Route, options: TransportOptions): Promise<Entry> {
  const direct = !route.proxy && hasEnvProxy(options.env ?? denoEnv);
  const key = JSON.stringify([
    route.bridge ? route.target : direct ? "direct" : "",
    route.bridge ?? "",
    route.proxy?.url.href ?? "",
    options.caCerts ?? [],
    options.cert ?? "",
    options.key?.reveal() ?? "",
  ]);
  const existing = entries.get(key);
  if (existing) return Promise.resolve(existing);
  let promise = pending.get(key);
  if (!promise) {
    promise = makeEntry(route, options, direct).then((entry) => {
      entries.set(key, entry);
      return entry;
    }).finally(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}

async function makeEntry(route: Route, options: TransportOptions, direct: boolean): Promise<Entry> {
  const [hostname, portText] = splitTarget(route.target);
  hookUnload();
  const tlsFiles = {
    ...(options.caCerts?.length ? { caCerts: options.caCerts } : {}),
    ...(options.cert && options.key ? { cert: options.cert, key: options.key.reveal() } : {}),
  };
  if (route.bridge) {
    // node:tls and node:net cost ~25 ms to load; only bridged routes need them.
    const { openBridge } = await import("./bridge.ts");
    const bridge = openBridge({
      hostname,
      port: Number(portText),
      ...(route.bridge === "tunnel" ? {} : {
        tls: {
          verify: route.bridge !== "insecure",
          ...(tlsFiles.caCerts ? { ca: tlsFiles.caCerts } : {}),
          ...(tlsFiles.cert ? { cert: tlsFiles.cert, key: tlsFiles.key } : {}),
        },
      }),
      ...(route.proxy ? { proxy: route.proxy } : {}),
    });
    return {
      client: newClient({ proxy: { transport: "unix", path: bridge.path }, allowHost: true }),
      bridge,
    };
  }
  if (!route.proxy && !direct && !tlsFiles.caCerts && !tlsFiles.cert) return {};
  return {
    client: newClient(
      { ...tlsFiles, ...(route.proxy ? { proxy: { url: route.proxy.url.href } } : {}) },
      direct,
    ),
  };
}

function newClient(options: Deno.CreateHttpClientOptions, direct = false): Deno.HttpClient {
  // Deno applies HTTP(S)_PROXY to every client it creates, reading the environment at that
  // moment; a direct route (--noproxy, --proxy "") hides them for the instant of creation.
  const saved = direct
    ? ["NO_PROXY", "no_proxy"].map((name) => [name, denoEnv(name)] as const)
    : [];
  try {
    for (const [name] of saved) Deno.env.set(name, "*");
    return Deno.createHttpClient(options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`Cannot use the TLS files: ${message}`, {
      hint: "--cacert, --cert and --key take PEM files (--key unencrypted)",
      cause: error,
    });
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
}

function splitTarget(target: string): [string, string] {
  const at = target.lastIndexOf(":");
  return [target.slice(0, at).replace(/^\[|\]$/g, ""), target.slice(at + 1)];
}

/** The URL a bridged request is sent to: plain HTTP on the bridge's socket. */
function bridgedUrl(url: URL): URL {
  const result = new URL(url);
  const port = url.port || (url.protocol === "https:" || url.protocol === "wss:" ? "443" : "80");
  result.protocol = url.protocol === "https:" || url.protocol === "http:" ? "http:" : "ws:";
  result.port = port;
  return result;
}

/**
 * Explains a failed connection: the certificate check in words, the proxy when it was the
 * proxy that could not be reached, or the bridge's own failure; undefined when nothing better
 * than the runtime's message is known.
 */
function explainFailure(
  errors: Errors,
  error: unknown,
  route: Route,
  bridge?: Bridge,
): DialError | undefined {
  if (error instanceof DialError) return error;
  const cause = bridge?.lastError ?? error;
  if (bridge?.lastError) bridge.lastError = undefined;
  const known = (route.proxy ? errors.proxyError(cause, route.proxy, route.target) : undefined) ??
    errors.tlsError(cause, route.target);
  if (known || !bridge || cause === error) return known;
  const message = redactUrlsInText(cause instanceof Error ? cause.message : String(cause));
  const why = /ECONNREFUSED/.test(message) ? "connection refused" : message;
  return new TransportError(`Cannot reach ${route.target}: ${why}`, { cause });
}

/**
 * Bounds the TCP connection phase: opens a connection of its own to the first hop (the proxy
 * or the server) and aborts when it does not open in time. Deno's HTTP client has no
 * connect timeout, so this probe stands in for it.
 */
function watchConnect(
  errors: Errors,
  route: Route,
  ms: number,
  onTimeout: (error: DialError) => void,
): () => void {
  const [hostname, port] = route.proxy
    ? [
      route.proxy.url.hostname,
      route.proxy.url.port || (route.proxy.url.protocol === "https:" ? "443" : "80"),
    ]
    : splitTarget(route.target);
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
    onTimeout(errors.connectTimeoutError(route.target, ms / 1000, route.proxy));
  }, ms);
  Deno.connect({ hostname, port: Number(port), signal: controller.signal })
    .then((conn) => conn.close(), () => {})
    .finally(() => clearTimeout(timer));
  return () => {
    clearTimeout(timer);
    controller.abort();
  };
}

/** A WebSocket handshake routed by {@link webSocketRoute}. */
export interface WebSocketRoute {
  /** The URL to hand to `new WebSocket` (plain `ws:` when bridged). */
  url: URL;
  /** The HTTP client for the WebSocket's `client` option; none: the default one. */
  client?: Deno.HttpClient;
  /** The route, for `-v`. */
  route: Route;
  /**
   * Explains why the handshake failed, once it has.
   *
   * @param event the error or close event
   * @returns a DialError, or undefined to fall back to the status or runtime message
   */
  explain(event: Event): DialError | undefined;
  /** Starts the connect timeout for a socket; call right after creating it. */
  watch(socket: WebSocket): void;
}

/**
 * Routes one WebSocket handshake like {@link transportFetch} routes requests. A `ws://` URL
 * through a proxy is tunnelled with CONNECT (as curl does), since proxies rarely forward an
 * Upgrade request.
 *
 * @param url a ws: or wss: URL
 * @param options the transport options
 * @returns the URL, client and error explanation to use
 * @throws {UsageError} when the TLS files cannot be used
 */
export async function webSocketRoute(
  url: URL,
  options: TransportOptions = {},
): Promise<WebSocketRoute> {
  if (options.resolve?.length || options.connectTo?.length || options.unixSocket !== undefined) {
    throw new UsageError(
      "--resolve, --connect-to and --unix-socket do not apply to WebSocket connections yet",
      { hint: "give the address in the URL" },
    );
  }
  const route = await routeFor(url, options, "websocket");
  options.onRoute?.(planFor(url, options, "websocket"));
  const entry = await entryFor(route, options);
  // explain() runs in an event handler, so the error words are loaded now.
  const errors = await loadErrors();
  let timedOut: DialError | undefined;
  return {
    url: route.bridge ? bridgedUrl(url) : url,
    ...(entry.client ? { client: entry.client } : {}),
    route,
    explain: (event) => {
      if (timedOut) return timedOut;
      const message = event instanceof ErrorEvent ? event.message : "";
      if (/invalid status code/i.test(message) && !entry.bridge?.lastError) return undefined;
      return explainFailure(errors, event, route, entry.bridge);
    },
    watch: (socket) => {
      if (options.connectTimeoutMs === undefined) return;
      const stop = watchConnect(errors, route, options.connectTimeoutMs, (error) => {
        timedOut = error;
        socket.close();
      });
      socket.addEventListener("open", stop, { once: true });
      socket.addEventListener("close", stop, { once: true });
    },
  };
}

/**
 * A WebSocket factory for {@link WebSocketSession} that routes by the options.
 *
 * @param options the transport options
 * @returns the factory, with `explain` for handshake failures
 */
export function transportWebSocket(options: TransportOptions = {}): TransportWebSocketFactory {
  const routes = new WeakMap<WebSocket, WebSocketRoute>();
  const factory = (async (url: URL, init: { protocols: string[]; headers: Headers }) => {
    const routed = await webSocketRoute(url, options);
    const socket = new WebSocket(routed.url, {
      ...init,
      ...(routed.client ? { client: routed.client } : {}),
    });
    routed.watch(socket);
    routes.set(socket, routed);
    return socket;
  }) as TransportWebSocketFactory;
  factory.explain = (socket, event) => routes.get(socket)?.explain(event);
  return factory;
}

/** A WebSocket factory that can explain its handshake failures. */
export interface TransportWebSocketFactory {
  (url: URL, init: { protocols: string[]; headers: Headers }): Promise<WebSocket>;
  /** Explains a failed handshake of a socket it made. */
  explain(socket: WebSocket, event: Event): DialError | undefined;
}
