/**
 * The local UI server's gate: a per-launch secret (first in the URL, then in an HttpOnly
 * SameSite=Strict cookie), a Host check against DNS rebinding and an Origin check against
 * cross-site requests. The server can reach any URL, so it must not become anyone's proxy.
 * @module
 */

/** What {@link checkRequest} needs to know about this launch. */
export interface GuardConfig {
  /** The per-launch secret. */
  secret: string;
  /** The port the server listens on. */
  port: number;
  /** The interface it listens on: `127.0.0.1` unless `--host` was given. */
  hostname: string;
}

/** The query parameter that carries the secret in the printed URL. */
export const SECRET_PARAM = "secret";

/** @returns 32 random bytes, base64url */
export function newSecret(): string {
  return crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

/**
 * @param port the server's port
 * @returns the cookie name; per port, because cookies ignore ports and two dial windows may run
 */
export function cookieName(port: number): string {
  return `dial_ui_${port}`;
}

/**
 * @param config the launch
 * @returns the URL to print and open, secret included
 */
export function appUrl(config: GuardConfig): URL {
  const host = config.hostname === "0.0.0.0" || config.hostname === "::"
    ? "127.0.0.1"
    : config.hostname.includes(":")
    ? `[${config.hostname}]`
    : config.hostname;
  const url = new URL(`http://${host}:${config.port}/`);
  url.searchParams.set(SECRET_PARAM, config.secret);
  return url;
}

const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * Whether a Host header names this server. On loopback only `127.0.0.1`, `localhost` and
 * `[::1]` with our port pass, so a rebound DNS name cannot reach us; with `--host` the given
 * name passes too, and on a wildcard address any IP literal.
 *
 * @param host the Host header
 * @param config the launch
 * @returns whether the Host is acceptable
 */
export function isAllowedHost(host: string | null, config: GuardConfig): boolean {
  if (host === null) return false;
  const suffix = `:${config.port}`;
  if (!host.endsWith(suffix)) return false;
  const name = host.slice(0, -suffix.length).toLowerCase();
  if (name === "127.0.0.1" || name === "localhost" || name === "[::1]") return true;
  const bound = config.hostname.includes(":") ? `[${config.hostname}]` : config.hostname;
  if (name === bound.toLowerCase()) return true;
  return (config.hostname === "0.0.0.0" || config.hostname === "::") && IP_LITERAL.test(name);
}

/** Compares two strings in time independent of where they differ. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

/**
 * @param header a Cookie header
 * @param name a cookie name
 * @returns the cookie's value
 */
export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Headers on every response of the UI server. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Content-Security-Policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

function deny(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status, headers: SECURITY_HEADERS });
}

/**
 * Decides whether a request may reach the app. Order: Host (403), Origin and fetch metadata
 * (403), then the secret: `GET /?secret=…` sets the cookie and redirects to `/` so the secret
 * leaves the address bar; anything else without the cookie gets 401.
 *
 * @param request the incoming request (WebSocket upgrades included)
 * @param config the launch
 * @returns a response to send instead, or undefined to let the request through
 */
export function checkRequest(request: Request, config: GuardConfig): Response | undefined {
  if (!isAllowedHost(request.headers.get("host"), config)) {
    return deny(403, "Forbidden: unexpected Host header");
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !isAllowedOrigin(origin, config)) {
    return deny(403, "Forbidden: cross-origin request");
  }
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    return deny(403, "Forbidden: cross-site request");
  }
  const url = new URL(request.url);
  const name = cookieName(config.port);
  const offered = url.searchParams.get(SECRET_PARAM);
  if (request.method === "GET" && url.pathname === "/" && offered !== null) {
    if (!sameSecret(offered, config.secret)) return deny(401, "Unauthorized: wrong secret");
    return new Response(null, {
      status: 303,
      headers: {
        ...SECURITY_HEADERS,
        "Location": "/",
        "Set-Cookie": `${name}=${config.secret}; HttpOnly; SameSite=Strict; Path=/`,
      },
    });
  }
  const cookie = readCookie(request.headers.get("cookie"), name);
  if (cookie === undefined || !sameSecret(cookie, config.secret)) {
    return deny(401, "Unauthorized: open the URL that dial ui printed");
  }
  return undefined;
}

function isAllowedOrigin(origin: string, config: GuardConfig): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === "http:" && url.origin === origin &&
    isAllowedHost(`${url.hostname}:${url.port}`, config);
}
