/**
 * The one rule for where a redirect may lead: `http:` and `https:` only (`ws:`/`wss:` too for a
 * WebSocket upgrade). Deno's fetch reads `file:` URLs, so a server that answers
 * `Location: file:///proc/self/environ` would otherwise make dial return a local file as the
 * response; curl (CVE-2009-0037), HTTPie and wget refuse such a hop as well.
 * @module
 */
import { DialError, ErrorCode } from "../errors/mod.ts";

const HTTP = new Set(["http:", "https:"]);
const UPGRADE = new Set(["http:", "https:", "ws:", "wss:"]);

/**
 * Refuses a redirect target whose scheme is not one dial follows. Called where the next hop
 * is decided, before anything is read from it.
 *
 * @param target the URL the `Location` header resolved to
 * @param from the URL that answered with the redirect (named in the error)
 * @param upgrade whether the request is a WebSocket upgrade (`ws:`/`wss:` allowed)
 * @throws {DialError} `redirect_scheme`, exit 47, naming the scheme
 */
export function checkRedirectScheme(target: URL, from: URL, upgrade = false): void {
  if ((upgrade ? UPGRADE : HTTP).has(target.protocol)) return;
  throw new DialError(
    `Refused a redirect to a "${target.protocol}" URL from ${from.host}: only ${
      upgrade ? "http:, https:, ws: and wss:" : "http: and https:"
    } redirects are followed`,
    ErrorCode.RedirectScheme,
    { remedy: { use: "no_follow" } },
  );
}
