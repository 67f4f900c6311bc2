/**
 * The loopback server that receives the authorization-code callback.
 * @module
 */
import { joinHostPort } from "../../http/authority.ts";
import { AuthError, DialError } from "../../errors/mod.ts";

/** Options for {@link startCallbackServer}. */
export interface CallbackServerOptions {
  /** Stops waiting (Ctrl-C). */
  signal?: AbortSignal;
  /** How long to wait for the callback, in milliseconds. */
  timeout: number;
}

/** A running callback server. */
export interface CallbackServer {
  /** The callback's query parameters, once a request with the right `state` arrived. */
  callback: Promise<URLSearchParams>;
  /** Stops listening and waits until the servers are down. */
  close(): Promise<void>;
}

/**
 * @param redirectUri the redirect URI
 * @returns the loopback addresses to listen on: 127.0.0.1 and ::1 for `localhost`
 * @throws {AuthError} for a host that is not loopback or a scheme other than http
 */
export function callbackHosts(redirectUri: URL): string[] {
  if (redirectUri.protocol !== "http:") {
    throw new AuthError(`Redirect URI "${redirectUri.href}" must use http://`);
  }
  switch (redirectUri.hostname) {
    case "localhost":
      return ["127.0.0.1", "::1"];
    case "127.0.0.1":
      return ["127.0.0.1"];
    case "[::1]":
      return ["::1"];
    default:
      throw new AuthError(
        `Redirect URI "${redirectUri.href}" must name localhost, 127.0.0.1 or [::1]`,
      );
  }
}

/**
 * Starts listening on the redirect URI's loopback address(es) and port. Only the redirect
 * path is answered (404 elsewhere); a request with a missing or wrong `state` gets 400 and
 * the server keeps waiting; the first request with the right `state` (carrying a code or an
 * error) ends the wait.
 *
 * @param redirectUri the registered redirect URI (`http://localhost:8484/` by default)
 * @param state the `state` sent in the authorization request
 * @param options signal and timeout
 * @returns the server, with a promise of the callback parameters
 * @throws {AuthError} when the port cannot be listened on
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3
 */
export function startCallbackServer(
  redirectUri: URL,
  state: string,
  options: CallbackServerOptions,
): CallbackServer {
  const hosts = callbackHosts(redirectUri);
  const port = Number(redirectUri.port || "80");
  const { promise, resolve, reject } = Promise.withResolvers<URLSearchParams>();
  let done = false;
  const handler = (request: Request): Response => {
    const url = new URL(request.url);
    if (url.pathname !== redirectUri.pathname) return page(404, "Not found", "");
    if (request.method !== "GET") return page(405, "Method not allowed", "");
    const params = url.searchParams;
    if (done) return page(409, "Login already completed", "You can close this tab.");
    if (params.get("state") !== state) {
      return page(
        400,
        "Login response refused",
        "The state parameter does not match the login dial started. dial keeps waiting for the real login.",
      );
    }
    done = true;
    resolve(params);
    const error = params.get("error");
    if (error !== null) {
      const description = params.get("error_description");
      return page(
        400,
        "Login failed",
        `The provider answered: ${error}${
          description ? ` (${description})` : ""
        }. You can close this tab.`,
      );
    }
    return page(200, "Login succeeded", "You can close this tab and return to dial.");
  };
  const servers: Deno.HttpServer[] = [];
  for (const hostname of hosts) {
    try {
      servers.push(Deno.serve({ hostname, port, onListen() {} }, handler));
    } catch (error) {
      // ::1 is optional for localhost: some machines have no IPv6 loopback.
      if (hostname === "::1" && hosts.length > 1 && !(error instanceof Deno.errors.AddrInUse)) {
        continue;
      }
      for (const server of servers) void server.shutdown();
      throw new AuthError(
        `Cannot listen on ${joinHostPort(hostname, port)} for the OAuth 2.0 callback: ${
          error instanceof Error ? error.message.split("\n")[0] : String(error)
        }`,
        { remedy: { choose: "callback_port" }, cause: error },
      );
    }
  }
  const stop = AbortSignal.any([
    ...(options.signal ? [options.signal] : []),
    AbortSignal.timeout(options.timeout),
  ]);
  const onStop = () => {
    const reason = options.signal?.aborted ? options.signal.reason : undefined;
    reject(
      reason instanceof DialError ? reason : new AuthError(
        `Timed out after ${
          options.timeout / 1000
        } s waiting for the OAuth 2.0 login callback on ${redirectUri.href}`,
        { remedy: { raise: "login_timeout" } },
      ),
    );
  };
  if (stop.aborted) onStop();
  else stop.addEventListener("abort", onStop, { once: true });
  promise.catch(() => {}).finally(() => stop.removeEventListener("abort", onStop));
  return {
    callback: promise,
    async close() {
      await Promise.all(servers.map(async (server) => {
        await server.shutdown();
        await server.finished;
      }));
    },
  };
}

function page(status: number, title: string, text: string): Response {
  const body = `<!doctype html>
<html><head><meta charset="utf-8"><title>dial: ${escapeHtml(title)}</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>${escapeHtml(title)}</h1><p>${
    escapeHtml(text)
  }</p></body></html>
`;
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}

/**
 * @param text any text
 * @returns the text with `& < > " '` escaped for HTML
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
