/**
 * Postman's `pm.sendRequest` for `# @postman` scripts: what a script asks to send goes through
 * dial's one transport (the command line's proxy, CA certificates, client certificate,
 * `--resolve`, `-k`, timeout and the run's cookie jar), with only the method, URL, headers and
 * body the script wrote: dial adds no credential of its own (no `Security.Auth`, OAuth 2.0 token
 * or default header), and a redirect to another origin drops the script's `Authorization` and
 * `Cookie` as every redirect does (and is refused unless the script may go there itself).
 *
 * Where a script may send is the command line's to say, not the file's: to the origins the run's
 * requests go to (the script's own request's included) and to the ones `--script-origin` names;
 * anything else fails that request (the script's callback gets the error, as Postman gives a
 * network error). A script cannot reach a file (a form-data file
 * part is refused inside the sandbox).
 * @module
 */
import { HANDLER_BODY_LIMIT } from "./_run_parts.ts";
import type { CookieJar } from "../http/cookies.ts";
import { send, type SendOptions } from "../http/send.ts";
import type { ScriptReply, ScriptRequest } from "./script_sandbox.ts";

/** What a script's requests go through, and where they may go. */
export interface ScriptSendOptions {
  /** The run's send options (transport, Ctrl-C signal). */
  send: SendOptions;
  /** The run's cookies. */
  cookies?: CookieJar;
  /** Milliseconds each exchange may take (the run's `--timeout`). */
  timeoutMs?: number;
  /** Whether a script may send to this origin (`https://host:port`). */
  allowed: (origin: string) => boolean;
}

/**
 * @param options the transport and the rule
 * @returns the session's `sendRequest`
 */
export function scriptSender(
  options: ScriptSendOptions,
): (request: ScriptRequest) => Promise<ScriptReply> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { error: `pm.sendRequest: invalid URL "${request.url}"` };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { error: `pm.sendRequest: only http: and https: URLs, not "${url.protocol}"` };
    }
    if (!options.allowed(url.origin)) {
      return {
        error:
          `pm.sendRequest to ${url.origin} is refused: a script reaches only the origins of the run's requests and the script origins the run allows`,
      };
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(request.method)) {
      return { error: `pm.sendRequest: invalid method "${request.method}"` };
    }
    const signals = [
      options.send.signal,
      options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
    ].filter((s) => s !== undefined);
    const started = performance.now();
    try {
      const { response } = await send({
        method: request.method,
        url,
        headers: request.headers.map(([name, value]) => ({ name, value })),
        auth: { queryKeys: [] },
        ...(request.body !== undefined ? { body: { kind: "text", text: request.body } } : {}),
      }, {
        ...options.send,
        follow: true,
        // A redirect may not take the script where it may not go itself.
        onRequest: (prepared, framing) => {
          if (!options.allowed(prepared.url.origin)) {
            throw new Error(
              `a redirect to ${prepared.url.origin} is refused: not an origin the script may reach`,
            );
          }
          return options.send.onRequest?.(prepared, framing);
        },
        ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
        ...(options.cookies ? { cookies: options.cookies } : {}),
      });
      const body = await boundedText(response);
      return {
        response: {
          status: response.status,
          headers: [...response.headers],
          body,
          responseTime: Math.round(performance.now() - started),
        },
      };
    } catch (error) {
      return { error: `pm.sendRequest to ${url.origin}: ${(error as Error).message}` };
    }
  };
}

/** The body as text, its first {@link HANDLER_BODY_LIMIT} bytes (what handlers see too). */
async function boundedText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < HANDLER_BODY_LIMIT) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(Math.min(size, HANDLER_BODY_LIMIT));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(bytes);
}
