/**
 * Host names and ports as dial writes them: the one place that knows the default ports and
 * that an IPv6 literal is bracketed in an authority (`[::1]:8080`) and bare elsewhere (a
 * socket's host name, a certificate's IP address, a netrc or NO_PROXY entry).
 * @module
 */

/**
 * @param protocol a URL scheme with its colon, e.g. `https:`
 * @returns 443 for `https:` and `wss:`, 1080 for a SOCKS proxy (as curl), 80 otherwise
 */
export function defaultPort(protocol: string): number {
  if (protocol === "socks5:" || protocol === "socks5h:") return 1080;
  return protocol === "https:" || protocol === "wss:" ? 443 : 80;
}

/**
 * @param url an http(s) or ws(s) URL
 * @returns its port, the scheme's default when the URL names none
 */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : defaultPort(url.protocol);
}

/**
 * @param url an http(s) or ws(s) URL
 * @returns `host:port`, the port always written, e.g. `[::1]:443`
 * @example
 * ```ts
 * hostPort(new URL("https://example.com/")); // "example.com:443"
 * ```
 */
export function hostPort(url: URL): string {
  return `${url.hostname}:${portOf(url)}`;
}

/**
 * @param hostname a host name or IP address, bracketed or not
 * @returns it as written in an authority: an IPv6 literal in brackets
 */
export function bracketHost(hostname: string): string {
  return hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
}

/**
 * @param hostname a host name as a URL has it (`[::1]`)
 * @returns it as a socket or a certificate has it (`::1`)
 */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "");
}

/**
 * @param hostname a host name or IP address, bracketed or not
 * @param port a port
 * @returns `host:port`, an IPv6 literal in brackets
 */
export function joinHostPort(hostname: string, port: number | string): string {
  return `${bracketHost(hostname)}:${port}`;
}

/**
 * @param host a bare host (no brackets), as a socket is opened to it
 * @returns whether it is an IP address (no name to resolve)
 */
export function isIpAddress(host: string): boolean {
  return host.includes(":") || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}
