/**
 * One HTTP request of a file through dial's `send`: the body read whole for handlers and request
 * variables (and shown to the caller), or an event stream read event by event.
 * @module
 */
import { reveal } from "../secret.ts";
import type { CookieJar } from "../http/cookies.ts";
import { send, type SendOptions } from "../http/send.ts";
import type { FileRequest } from "./file_request.ts";
import type { ExchangeEvent } from "./run_http_file.ts";
import { readEventStreamData, type StreamOptions } from "./run_streams.ts";
import { nullBodyStatus, type Outcome } from "./_run_parts.ts";

/** Options of {@link sendFileRequest}. */
export interface FileExchangeOptions {
  /** The run's send options (transport, fetch, observers). */
  send: SendOptions;
  /** Ctrl-C and the request's timeout. */
  signal?: AbortSignal;
  /** The run's cookie jar, unless `# @no-cookie-jar`. */
  cookies?: CookieJar;
  /** Where an event stream's events go. */
  streams: StreamOptions;
  /** Whether the request ran only because another refers to it. */
  dependency: boolean;
  /** Told of the exchange, with the body read. */
  onExchange?: (event: ExchangeEvent) => void | Promise<void>;
}

/**
 * Sends a file request and reads its response.
 *
 * @param fileRequest the built request
 * @param options send options, signal, cookies, observers
 * @returns what handlers and request variables see
 * @throws {DialError} transport, timeout, auth errors
 */
export async function sendFileRequest(
  fileRequest: FileRequest,
  options: FileExchangeOptions,
): Promise<Outcome> {
  const base = options.send;
  const exchange = await send(fileRequest.spec, {
    ...base,
    follow: fileRequest.follow,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.cookies ? { cookies: options.cookies } : {}),
    ...(fileRequest.connectTimeoutMs !== undefined && !base.fetch
      ? { transport: { ...base.transport, connectTimeoutMs: fileRequest.connectTimeoutMs } }
      : {}),
  });
  const { response } = exchange;
  const requestHeaders: [string, string][] = exchange.request.headers.map((h) => [
    h.name,
    reveal(h.value),
  ]);
  const head = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  };
  const { dependency } = options;
  let body: Uint8Array<ArrayBuffer>;
  let text: string;
  if (/^text\/event-stream/i.test(response.headers.get("content-type") ?? "") && response.body) {
    // Shown as it streams: the head first, then each event's data.
    await options.onExchange?.({
      fileRequest,
      exchange: { ...exchange, response: new Response(null, head) },
      body: new Uint8Array(),
      dependency,
      streamed: true,
    });
    text = (await readEventStreamData(response.body, options.streams)).join("\n");
    body = new TextEncoder().encode(text);
  } else if (!needsBody(fileRequest)) {
    // Nothing reads it later (no handler, name or >> file): the body streams to the caller, as
    // dial GET streams it, however large.
    await options.onExchange?.({
      fileRequest,
      exchange,
      body: new Uint8Array(),
      dependency,
      streamed: false,
    });
    await response.body?.cancel().catch(() => {});
    body = new Uint8Array();
    text = "";
  } else {
    body = new Uint8Array(await response.arrayBuffer());
    text = new TextDecoder().decode(body);
    const shown = new Response(nullBodyStatus(response.status) ? null : body, head);
    await options.onExchange?.({
      fileRequest,
      exchange: { ...exchange, response: shown },
      body,
      dependency,
      streamed: false,
    });
  }
  return {
    bytes: body,
    status: response.status,
    headers: [...response.headers],
    body: text,
    requestHeaders,
    url: exchange.request.url.href,
  };
}

/** Whether anything after the exchange reads the response body. */
function needsBody(fileRequest: FileRequest): boolean {
  const { request } = fileRequest;
  return request.handlers.length > 0 || request.name !== undefined || request.outputs.length > 0;
}
