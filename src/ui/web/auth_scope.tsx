/**
 * Auth scoped to origins: the auth panel's credentials go only to the origins (scheme, host,
 * port) listed in the panel, by default the first one they were used with. A request to
 * another origin goes without them, and its tab says so with a button to add the origin.
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { JSX } from "preact";
import { auth, authJson } from "./auth_state.ts";
import type { AuthJson } from "../protocol.ts";

/** The origins the auth panel's credentials are sent to. */
export const authOrigins = signal<readonly string[]>([]);

/**
 * @param url an absolute URL (`ws:`/`wss:` count as `http:`/`https:` on the same host)
 * @returns its origin, or undefined when it is not an absolute http(s) or ws(s) URL
 */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const scheme = { "http:": "http:", "https:": "https:", "ws:": "http:", "wss:": "https:" }[
    parsed.protocol
  ];
  if (!scheme) return undefined;
  return new URL(`${scheme}//${parsed.host}`).origin;
}

/**
 * The auth JSON for a request to a URL: the panel's when the URL's origin is in scope (the
 * first origin used becomes the scope), else none, noting the origin left out in `skipped`.
 *
 * @param url the request's URL
 * @param skipped where to note an origin the credentials were not sent to
 * @returns the auth JSON to send to the server
 */
export function authFor(url: string, skipped: Signal<string | undefined>): AuthJson {
  skipped.value = undefined;
  if (auth.kind.peek() === "none") return authJson.peek();
  const origin = originOf(url);
  // Not a URL: the server reports that, and no credentials leave the machine anyway.
  if (origin === undefined) return authJson.peek();
  const origins = authOrigins.peek();
  if (origins.length === 0) authOrigins.value = [origin];
  else if (!origins.includes(origin)) {
    skipped.value = origin;
    return { kind: "none" };
  }
  return authJson.peek();
}

/** What {@link AuthSkipped} shows for a request from a file that went without any auth. */
export const FROM_FILE = "file";

/**
 * The auth JSON for a request from a file: none of the panel's (the request's own
 * Authorization header is its auth). When the panel has credentials and the request has no
 * Authorization header, `skipped` notes that it went without auth.
 *
 * @param headers the request's headers
 * @param skipped where to note that the panel's credentials were not sent
 * @returns no auth
 */
export function fileAuth(
  headers: readonly { name: string; enabled: boolean }[],
  skipped: Signal<string | undefined>,
): AuthJson {
  const own = headers.some((h) => h.enabled && h.name.trim().toLowerCase() === "authorization");
  skipped.value = auth.kind.peek() !== "none" && !own ? FROM_FILE : undefined;
  return { kind: "none" };
}

/**
 * The auth JSON of any tab's request: a request from a file carries its own
 * ({@link fileAuth}), any other the panel's, scoped to its origins ({@link authFor}).
 *
 * @param file the workspace file the request comes from, if any
 * @param url the request's URL
 * @param headers the request's headers
 * @param skipped where to note credentials that were not sent
 * @returns the auth JSON to send to the server
 */
export function requestAuth(
  file: string | undefined,
  url: string,
  headers: readonly { name: string; enabled: boolean }[],
  skipped: Signal<string | undefined>,
): AuthJson {
  return file !== undefined ? fileAuth(headers, skipped) : authFor(url, skipped);
}

/**
 * @param origin an origin to send the credentials to as well
 */
export function addAuthOrigin(origin: string): void {
  if (!authOrigins.peek().includes(origin)) authOrigins.value = [...authOrigins.peek(), origin];
}

/** @returns the panel's list of origins, each removable */
export function AuthOrigins(): JSX.Element {
  const origins = authOrigins.value;
  return (
    <div class="auth-origins" role="group" aria-label="Sent to">
      <span class="muted">Sent to:</span>
      {origins.length === 0 && <span class="muted">the first origin you send to</span>}
      {origins.map((o) => (
        <span class="chip" key={o}>
          {o}
          <button
            type="button"
            aria-label={`Remove ${o} from auth`}
            onClick={() => authOrigins.value = authOrigins.peek().filter((x) => x !== o)}
          >
            ×
          </button>
        </span>
      ))}
    </div>
  );
}

/** @returns the notice a tab shows when its last request went without the panel's auth */
export function AuthSkipped(props: { skipped: Signal<string | undefined> }): JSX.Element | null {
  const origin = props.skipped.value;
  if (origin === undefined) return null;
  if (origin === FROM_FILE) {
    return (
      <p role="status" class="note auth-skipped">
        Sent without auth: a request from a file sends its own Authorization header (or its
        environment's Security.Auth), not the auth panel's credentials.
      </p>
    );
  }
  const added = authOrigins.value.includes(origin);
  return (
    <p role="status" class="note auth-skipped">
      {added
        ? `Auth now applies to ${origin}; send again to use it.`
        : `Sent without auth: ${origin} is not among the origins the auth panel applies to.`}{" "}
      {!added && (
        <button type="button" onClick={() => addAuthOrigin(origin)}>
          Add {origin} to auth
        </button>
      )}
    </p>
  );
}
