/**
 * The local UI server's gate. No cookie: cookies ignore ports, so any other server on
 * 127.0.0.1 would receive one. Instead a one-time launch token travels in the URL fragment
 * (never sent by browsers), the page trades it for the session secret (`POST /api/session`),
 * keeps that in memory (and in the tab's sessionStorage, which is per origin, port included)
 * and sends it in the `X-Dial-Session` header on every API call and in the first message of
 * the stream bridge. A tab opened on the bare address (no link, nothing in its sessionStorage)
 * proves it is the same browser instead: with the launch the page registered the public half of
 * a key pair whose private half the browser keeps non-extractable (IndexedDB, per origin, port
 * included); such a tab signs a one-time challenge with it and gets a session, with no other
 * tab's help, whenever it opens. A Host check stops DNS rebinding, an Origin check cross-site
 * requests.
 * The server can reach any URL, so it must not become anyone's proxy.
 * @module
 */
import { bracketHost } from "../http/authority.ts";
import { LAUNCH_PARAM, NO_SESSION_HINT, SESSION_HEADER } from "./protocol.ts";

/** The most browser keys and open challenges one server keeps (the oldest go first). */
const MAX_DEVICES = 16;
const MAX_CHALLENGES = 64;

/** The one-time launch tokens, the session secrets and the browsers' keys of one server. */
export class SessionKeys {
  readonly #launches = new Map<string, () => void>();
  readonly #sessions: string[] = [];
  readonly #devices: CryptoKey[] = [];
  readonly #challenges: string[] = [];

  /**
   * Keeps the public key of the browser that traded a launch token (ECDSA P-256, as a JWK).
   *
   * @param jwk the key
   * @throws {Error} when it is not such a public key
   */
  async addDevice(jwk: JsonWebKey): Promise<void> {
    const { kty, crv, x, y } = jwk;
    if (kty !== "EC" || crv !== "P-256" || jwk.d !== undefined || !x || !y) {
      throw new Error("not an ECDSA P-256 public key");
    }
    const key = await crypto.subtle.importKey("jwk", { kty, crv, x, y }, ECDSA, false, [
      "verify",
    ]);
    this.#devices.push(key);
    if (this.#devices.length > MAX_DEVICES) this.#devices.shift();
  }

  /** @returns a new one-time challenge for a browser to sign */
  issueChallenge(): string {
    const challenge = newSecret();
    this.#challenges.push(challenge);
    if (this.#challenges.length > MAX_CHALLENGES) this.#challenges.shift();
    return challenge;
  }

  /**
   * A session for a browser that signed one of this server's challenges with a key it
   * registered with a launch token. The challenge is used up either way.
   *
   * @param challenge the challenge
   * @param signature its ECDSA P-256 SHA-256 signature, base64url
   * @returns a fresh session secret, or undefined
   */
  async redeemSignature(challenge: string, signature: string): Promise<string | undefined> {
    const at = this.#challenges.findIndex((known) => sameSecret(known, challenge));
    if (at < 0) return undefined;
    this.#challenges.splice(at, 1);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = Uint8Array.fromBase64(signature, { alphabet: "base64url" }) as Uint8Array<
        ArrayBuffer
      >;
    } catch {
      return undefined;
    }
    const data = new TextEncoder().encode(challenge);
    for (const key of this.#devices) {
      if (await crypto.subtle.verify(ECDSA_SHA256, key, bytes, data)) {
        const session = newSecret();
        this.#sessions.push(session);
        return session;
      }
    }
    return undefined;
  }

  /**
   * @param onRedeem called once when the token is traded (e.g. to remove a handover file)
   * @returns a new one-time launch token
   */
  issueLaunch(onRedeem: () => void = () => {}): string {
    const token = newSecret();
    this.#launches.set(token, onRedeem);
    return token;
  }

  /**
   * Trades a launch token for a session secret, once.
   *
   * @param token the launch token from the URL fragment
   * @returns a fresh session secret, or undefined for an unknown or used token
   */
  redeem(token: string): string | undefined {
    for (const [known, onRedeem] of this.#launches) {
      if (!sameSecret(known, token)) continue;
      this.#launches.delete(known);
      const session = newSecret();
      this.#sessions.push(session);
      onRedeem();
      return session;
    }
    return undefined;
  }

  /**
   * @param session what a request offered
   * @returns whether it is a session secret of this server
   */
  isSession(session: string | null | undefined): boolean {
    if (!session) return false;
    let found = false;
    for (const known of this.#sessions) found = sameSecret(known, session) || found;
    return found;
  }
}

const ECDSA = { name: "ECDSA", namedCurve: "P-256" } as const;
const ECDSA_SHA256 = { name: "ECDSA", hash: "SHA-256" } as const;

/** What {@link checkRequest} needs to know about this launch. */
export interface GuardConfig {
  /** Launch tokens and sessions. */
  keys: SessionKeys;
  /** The port the server listens on. */
  port: number;
  /** The interface it listens on: `127.0.0.1` unless `--host` was given. */
  hostname: string;
}

/** @returns 32 random bytes, base64url */
export function newSecret(): string {
  return crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

/**
 * @param config the launch
 * @param token a launch token
 * @returns the URL to print or hand over, the one-time token in its fragment
 */
export function appUrl(config: Omit<GuardConfig, "keys">, token: string): URL {
  const host = config.hostname === "0.0.0.0" || config.hostname === "::"
    ? "127.0.0.1"
    : bracketHost(config.hostname);
  const url = new URL(`http://${host}:${config.port}/`);
  url.hash = `${LAUNCH_PARAM}=${token}`;
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
  const bound = bracketHost(config.hostname);
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

/** The Content-Security-Policy of every response: scripts from this server only. */
const POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Headers on every response of the UI server. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Content-Security-Policy": POLICY,
});

/**
 * The page's headers: {@link SECURITY_HEADERS}, its policy letting run one inline script, the
 * page's bootstrap, by the hash of its text (no other inline script, no `unsafe-inline`).
 *
 * @param boot the bootstrap's text, if the page has one
 * @returns the headers
 */
export async function pageHeaders(boot: string | undefined): Promise<Record<string, string>> {
  if (boot === undefined) return { ...SECURITY_HEADERS };
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(boot));
  const hash = new Uint8Array(digest).toBase64();
  return {
    ...SECURITY_HEADERS,
    "Content-Security-Policy": `${POLICY}; script-src 'self' 'sha256-${hash}'`,
  };
}

/**
 * A refusal in the protocol's error shape. `Connection: close`: a client that is refused
 * does not keep a connection open.
 *
 * @param status 401 or 403
 * @param code the error code
 * @param message what is wrong
 * @param hint what to do
 * @returns the response
 */
export function deny(status: number, code: string, message: string, hint?: string): Response {
  return Response.json({ error: { code, message, ...(hint ? { hint } : {}) } }, {
    status,
    headers: { ...SECURITY_HEADERS, "Connection": "close" },
  });
}

/**
 * What anyone on an allowed Host and Origin may load: the app shell and its worker (the browser
 * asks for a favicon too: it gets 404) and the session trade.
 */
const PUBLIC = new Set([
  "GET /",
  "GET /app.js",
  "GET /app.css",
  "GET /json_worker.js",
  "GET /favicon.ico",
  "POST /api/session",
  "POST /api/session/challenge",
]);

/**
 * Decides whether a request may reach the app. Order: Host (403), Origin and fetch metadata
 * (403), then the session header (401) for everything but the app shell, the session trade
 * and the stream bridge's upgrade (whose first message carries the session).
 *
 * @param request the incoming request (WebSocket upgrades included)
 * @param config the launch
 * @returns a response to send instead, or undefined to let the request through
 */
export function checkRequest(request: Request, config: GuardConfig): Response | undefined {
  if (!isAllowedHost(request.headers.get("host"), config)) {
    return deny(403, "forbidden", "Forbidden: unexpected Host header");
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !isAllowedOrigin(origin, config)) {
    return deny(403, "forbidden", "Forbidden: cross-origin request");
  }
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname}`;
  // Opening the app shell from elsewhere (the handover file, a bookmark) is a cross-site
  // navigation and harmless: the shell holds no secret and no file name (`page.ts`), and a
  // cross-site page cannot read it. Anything else cross-site is refused.
  const opensShell = key === "GET /" && request.headers.get("sec-fetch-mode") === "navigate";
  if (request.headers.get("sec-fetch-site") === "cross-site" && !opensShell) {
    return deny(403, "forbidden", "Forbidden: cross-site request");
  }
  if (PUBLIC.has(key) || key === "GET /api/stream") return undefined;
  if (!config.keys.isSession(request.headers.get(SESSION_HEADER))) {
    return deny(
      401,
      "unauthorized",
      "Unauthorized: this page has no session of this dial ui",
      NO_SESSION_HINT,
    );
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
