/**
 * Cookies within one run (RFC 6265): `Set-Cookie` from each response is kept and sent on the
 * following requests (redirect hops) that match its domain, path and `Secure` rules, never to
 * another site, nor for a public suffix (`tldts`, the Public Suffix List). The jar reads and
 * writes curl's Netscape cookie file format.
 * @module
 */
import { load } from "../load.ts";

type SuffixCheck = (domain: string) => boolean;
let publicSuffix: SuffixCheck | undefined;

/**
 * Loads the Public Suffix List, which {@link parseSetCookie} needs for a `Domain` attribute
 * ({@link CookieJar.store} loads it itself). Kept out of the start-up graph: it costs tens of
 * milliseconds, and most runs set no cookie.
 *
 * @returns when it is loaded
 */
export async function loadPublicSuffixList(): Promise<void> {
  if (publicSuffix) return;
  const module = await load.publicSuffix();
  publicSuffix = module.isPublicSuffix;
}

/** One stored cookie. */
export interface Cookie {
  /** The cookie's name. */
  name: string;
  /** The cookie's value, as the server set it. */
  value: string;
  /** The host (host-only) or the domain the cookie was set for, lower-case, no leading dot. */
  domain: string;
  /** Sent to `domain` only, not to its subdomains. */
  hostOnly: boolean;
  /** Sent to this path and the paths below it. */
  path: string;
  /** Sent over https only. */
  secure: boolean;
  /** Marked HttpOnly (kept in the Netscape file as `#HttpOnly_`). */
  httpOnly: boolean;
  /** Expiry in seconds since the epoch; 0 for a session cookie. */
  expires: number;
}

const IP = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/** A cookie jar for one run. */
export class CookieJar {
  #cookies: Cookie[] = [];

  /**
   * The cookies held now.
   *
   * @returns the cookies, expired ones dropped
   */
  get cookies(): readonly Cookie[] {
    const now = Date.now() / 1000;
    this.#cookies = this.#cookies.filter((c) => c.expires === 0 || c.expires > now);
    return this.#cookies;
  }

  /**
   * Stores the `Set-Cookie` lines of a response, each checked against the URL it came from
   * and the Public Suffix List.
   *
   * @param url the URL that was requested
   * @param lines the `Set-Cookie` header values
   * @returns when they are stored
   */
  async store(url: URL, lines: string[]): Promise<void> {
    await loadPublicSuffixList();
    for (const line of lines) {
      const cookie = parseSetCookie(line, url);
      if (cookie) this.add(cookie);
    }
  }

  /**
   * Adds or replaces a cookie (same name, domain and path); an expired one deletes it.
   *
   * @param cookie the cookie
   */
  add(cookie: Cookie): void {
    this.#cookies = this.#cookies.filter((c) =>
      !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path)
    );
    if (cookie.expires === 0 || cookie.expires > Date.now() / 1000) this.#cookies.push(cookie);
  }

  /**
   * The `Cookie` header for a request: the cookies whose domain, path and `Secure` match.
   *
   * @param url a request URL
   * @returns the header value (longest paths first), or undefined when none match
   */
  header(url: URL): string | undefined {
    const host = url.hostname.toLowerCase();
    const path = url.pathname || "/";
    const matching = this.cookies
      .filter((c) =>
        (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)) && pathMatch(path, c.path) &&
        (!c.secure || url.protocol === "https:")
      )
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join("; ") : undefined;
  }

  /**
   * Reads a Netscape cookie file (curl's `-c` format); comments and bad lines are skipped.
   *
   * @param text the file's content
   */
  load(text: string): void {
    for (let line of text.split(/\r?\n/)) {
      let httpOnly = false;
      if (line.startsWith("#HttpOnly_")) {
        httpOnly = true;
        line = line.slice("#HttpOnly_".length);
      }
      if (line.startsWith("#") || line.trim() === "") continue;
      const [domain, sub, path, secure, expires, name, value = ""] = line.split("\t");
      if (!domain || !path || name === undefined || Number.isNaN(Number(expires))) continue;
      this.add({
        name,
        value,
        domain: domain.replace(/^\./, "").toLowerCase(),
        hostOnly: sub !== "TRUE",
        path,
        secure: secure === "TRUE",
        httpOnly,
        expires: Number(expires),
      });
    }
  }

  /**
   * Writes the jar out as curl does.
   *
   * @returns the jar in Netscape cookie file format
   */
  serialize(): string {
    const lines = [
      "# Netscape HTTP Cookie File",
      "# Written by dial; the format curl and wget read.",
      "",
    ];
    for (const c of this.cookies) {
      const domain = c.hostOnly ? c.domain : `.${c.domain}`;
      lines.push(
        [
          `${c.httpOnly ? "#HttpOnly_" : ""}${domain}`,
          c.hostOnly ? "FALSE" : "TRUE",
          c.path,
          c.secure ? "TRUE" : "FALSE",
          String(c.expires),
          c.name,
          c.value,
        ].join("\t"),
      );
    }
    return lines.join("\n") + "\n";
  }
}

/**
 * Parses one `Set-Cookie` value (RFC 6265 section 5.2) for the URL it came with.
 *
 * @param line the header value
 * @param url the request URL
 * @returns the cookie, or undefined when it must be ignored (e.g. a domain of another site, or
 *   a public suffix)
 * @throws {Error} for a `Domain` attribute before {@link loadPublicSuffixList} has run
 */
export function parseSetCookie(line: string, url: URL): Cookie | undefined {
  const [pair = "", ...attributes] = line.split(";");
  const eq = pair.indexOf("=");
  if (eq < 0) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (name === "") return undefined;
  const host = url.hostname.toLowerCase();
  let domain = "";
  let path = "";
  let secure = false;
  let httpOnly = false;
  let expires = 0;
  let maxAge: number | undefined;
  for (const attribute of attributes) {
    const i = attribute.indexOf("=");
    const key = (i < 0 ? attribute : attribute.slice(0, i)).trim().toLowerCase();
    const val = i < 0 ? "" : attribute.slice(i + 1).trim();
    if (key === "domain") domain = val.replace(/^\./, "").toLowerCase();
    else if (key === "path" && val.startsWith("/")) path = val;
    else if (key === "secure") secure = true;
    else if (key === "httponly") httpOnly = true;
    else if (key === "max-age" && /^-?\d+$/.test(val)) maxAge = Number(val);
    else if (key === "expires") {
      const time = Date.parse(val);
      if (!Number.isNaN(time)) expires = Math.max(1, Math.floor(time / 1000));
    }
  }
  if (maxAge !== undefined) expires = maxAge <= 0 ? 1 : Math.floor(Date.now() / 1000) + maxAge;
  if (secure && url.protocol !== "https:") return undefined;
  // A public suffix (co.uk, github.io: the Public Suffix List, private section included) is
  // no cookie domain: set by that very host it is host-only, else it is refused (RFC 6265
  // section 5.3 step 5), as curl with libpsl and browsers do.
  if (domain !== "" && isPublicSuffix(domain)) {
    if (domain !== host) return undefined;
    domain = "";
  }
  const hostOnly = domain === "" || (domain === host && IP.test(host));
  // Another site, another IP address, or a bare top-level name.
  if (!hostOnly && (!domainMatch(host, domain) || !domain.includes("."))) return undefined;
  return {
    name,
    value,
    domain: hostOnly ? host : domain,
    hostOnly,
    path: path || defaultPath(url.pathname),
    secure,
    httpOnly,
    expires,
  };
}

/**
 * @param domain a cookie's Domain attribute, lower-case, no leading dot
 * @returns whether it is a public suffix (ICANN or private section of the list)
 * @throws {Error} when {@link loadPublicSuffixList} has not run: never a silent supercookie
 */
function isPublicSuffix(domain: string): boolean {
  if (IP.test(domain)) return false;
  if (!publicSuffix) {
    throw new Error(
      "Cookie Domain checks need the public suffix list: await loadPublicSuffixList()",
    );
  }
  return publicSuffix(domain);
}

function domainMatch(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(`.${domain}`) && !IP.test(host));
}

function pathMatch(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

function defaultPath(path: string): string {
  if (!path.startsWith("/")) return "/";
  const last = path.lastIndexOf("/");
  return last <= 0 ? "/" : path.slice(0, last);
}
