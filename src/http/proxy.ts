/**
 * Which proxy a request goes through: `--proxy`, else the environment (`HTTPS_PROXY` for
 * https/wss, `HTTP_PROXY` for http/ws, else `ALL_PROXY`, lower case first, as curl reads them),
 * minus the hosts of `--noproxy` (else `NO_PROXY`). A proxy is `http://`, `https://`,
 * `socks5://` or `socks5h://` (./socks.ts).
 * @module
 */
import { bareHost, hostPort, portOf } from "./authority.ts";
import { UsageError } from "../errors/mod.ts";
import { type EnvLookup, processEnv } from "../env.ts";

export type { EnvLookup };

/** Where a proxy setting came from, for `-v` and error hints. */
export type ProxySource = "--proxy" | "HTTP_PROXY" | "HTTPS_PROXY" | "ALL_PROXY";

/** A chosen proxy. */
export interface ProxyChoice {
  /** The proxy URL, credentials included (never printed: see {@link displayProxy}). */
  url: URL;
  /** Which setting named it. */
  source: ProxySource;
}

/**
 * Parses a proxy URL: `http://`, `https://`, `socks5://` or `socks5h://` (a bare `host:port`
 * means `http://`), with optional `user:pass@`.
 *
 * @param text the value
 * @param name where it came from, for the message
 * @returns the URL
 * @throws {UsageError} for anything else
 */
export function parseProxyUrl(text: string, name: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`Invalid ${name} "${redactUserinfo(text)}": not a URL`, {
      remedy: { write: "proxy_url" },
    });
  }
  if (!PROXY_SCHEMES.includes(url.protocol)) {
    throw new UsageError(
      `Invalid ${name} "${
        displayProxy(url)
      }": only http://, https://, socks5:// and socks5h:// proxies`,
    );
  }
  if (url.hostname === "") throw new UsageError(`Invalid ${name} "${url.protocol}//": no host`);
  return url;
}

const PROXY_SCHEMES = ["http:", "https:", "socks5:", "socks5h:"];

/**
 * @param url a proxy URL
 * @returns whether it is a SOCKS5 proxy (`socks5://`, `socks5h://`)
 */
export function isSocks(url: URL): boolean {
  return url.protocol === "socks5:" || url.protocol === "socks5h:";
}

/**
 * @param url a proxy URL
 * @returns it without credentials, e.g. `http://proxy.example:3128`
 */
export function displayProxy(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * @param url a proxy URL
 * @returns `host:port` of the proxy, default port filled in
 */
export function proxyTarget(url: URL): string {
  return hostPort(url);
}

function redactUserinfo(text: string): string {
  return text.replace(/\/\/[^/@]*@/, "//(redacted)@");
}

/** Proxy settings for {@link chooseProxy}. */
export interface ProxySettings {
  /** An explicit proxy URL (`--proxy`); "" means none, even if the environment names one. */
  proxy?: string;
  /** Hosts that bypass the proxy, comma separated (`--noproxy`); replaces `NO_PROXY`. */
  noProxy?: string;
  /** Environment lookup; default `Deno.env.get`; each variable read once per settings object. */
  env?: EnvLookup;
}

/**
 * Chooses the proxy for one request.
 *
 * @param url the request URL (http, https, ws or wss)
 * @param settings `--proxy`, `--noproxy` and the environment
 * @returns the proxy, or undefined to connect directly
 * @throws {UsageError} when a proxy setting is not a valid URL
 */
export function chooseProxy(url: URL, settings: ProxySettings = {}): ProxyChoice | undefined {
  const env = settingsEnv(settings);
  const secure = url.protocol === "https:" || url.protocol === "wss:";
  let choice: ProxyChoice | undefined;
  if (settings.proxy !== undefined) {
    if (settings.proxy === "") return undefined;
    choice = { url: parseProxyUrl(settings.proxy, "--proxy"), source: "--proxy" };
  } else {
    const named: ProxySource = secure ? "HTTPS_PROXY" : "HTTP_PROXY";
    const source = env(named.toLowerCase()) || env(named) ? named : "ALL_PROXY";
    const text = env(source.toLowerCase()) || env(source);
    if (!text) return undefined;
    choice = { url: parseProxyUrl(text, source), source };
  }
  const list = settings.noProxy ?? (env("no_proxy") || env("NO_PROXY") || "");
  return bypasses(url, list) ? undefined : choice;
}

const readings = new WeakMap<ProxySettings, EnvLookup>();

/**
 * The settings' environment, each variable read once per settings object: a run's transport
 * options (made once per command) read the six proxy variables at their first request, not at
 * every request. A program that changes its environment gives new settings to be seen.
 */
function settingsEnv(settings: ProxySettings): EnvLookup {
  let env = readings.get(settings);
  if (env) return env;
  const lookup = settings.env ?? processEnv;
  const seen = new Map<string, string | undefined>();
  env = (name) => {
    if (!seen.has(name)) seen.set(name, lookup(name));
    return seen.get(name);
  };
  readings.set(settings, env);
  return env;
}

/**
 * Whether a NO_PROXY-style list names the URL's host: `*` (all), a host name (itself and
 * its subdomains; a leading dot is optional), an IP address, optionally with `:port`.
 *
 * @param url the request URL
 * @param list comma or space separated entries
 * @returns true when the request should connect directly
 */
export function bypasses(url: URL, list: string): boolean {
  const host = bareHost(url.hostname).toLowerCase();
  const port = String(portOf(url));
  for (const raw of list.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    let entryPort: string | undefined;
    const portMatch = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (portMatch) {
      entry = portMatch[1]!;
      entryPort = portMatch[2];
    }
    entry = bareHost(entry).replace(/^\*?\./, "");
    if (entryPort !== undefined && entryPort !== port) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}
