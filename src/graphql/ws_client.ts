/**
 * GraphQL over WebSocket (the graphql-transport-ws protocol) with the `graphql-ws` client.
 * The handshake carries dial's auth: headers and `-K` keys from a GET request built by
 * `buildRequest`, handed to Deno's WebSocket, which accepts handshake headers.
 * @module
 */
import { hostPort } from "../http/authority.ts";
import { createClient } from "graphql-ws";
import { DialError, ErrorCode, StatusError } from "../errors/mod.ts";
import { requestHeaders, requestUrl } from "../http/build_request.ts";
import { transportFetch, type TransportOptions } from "../http/client.ts";
import { DialWebSocket } from "../http/websocket.ts";
import { authorize } from "../http/credentials.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import { answersChallenge, handshakeError, toWebSocketUrl } from "../stream/ws_handshake.ts";
import { type GraphQLResult, parseEnvelope } from "./envelope.ts";
import type { GraphQLEndpoint, GraphQLRequest } from "./http_client.ts";

/** Options for {@link subscribeWs}. */
export interface WsOptions {
  /** The `connection_init` payload (`--init-payload`). */
  initPayload?: Record<string, unknown>;
  /** Ends the operation cleanly (a `complete` message) and closes the socket. */
  signal?: AbortSignal;
  /** The fetch used for OAuth 2.0 token requests. */
  fetch?: typeof fetch;
  /** CA certificates, client certificate, `-k`, proxy, connect timeout. */
  transport?: TransportOptions;
}

/**
 * Runs one operation over graphql-transport-ws and yields its results until the server
 * completes it, the signal aborts, or the caller stops iterating (which completes the
 * operation and closes the socket). A handshake refused with 401 while using a cached OAuth
 * 2.0 token is retried once with a fresh token; one refused with a Digest challenge is sent
 * once more with the answer.
 *
 * @param endpoint URL (http(s) or ws(s)), auth and headers
 * @param request the operation
 * @param options init payload, signal, fetch
 * @returns the results
 * @throws {DialError} when the handshake is refused or the socket closes abnormally
 * @see https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md
 */
export async function* subscribeWs(
  endpoint: GraphQLEndpoint,
  request: GraphQLRequest,
  options: WsOptions = {},
): AsyncGenerator<GraphQLResult> {
  const authorized = await authorize(
    { method: "GET", url: endpoint.url, headers: endpoint.headers, auth: endpoint.auth },
    {
      fetch: options.fetch ?? transportFetch(options.transport),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  let prepared = authorized.request;
  let answered = false;
  for (;;) {
    let received = false;
    const refused: { refusal?: Response } = {};
    try {
      for await (const result of attempt(prepared, request, options, refused)) {
        received = true;
        yield result;
      }
      return;
    } catch (error) {
      // A Digest challenge in the refused upgrade is answered once, as curl does.
      if (!received && !answered && answersChallenge(prepared, error, refused.refusal)) {
        answered = true;
        continue;
      }
      // The one 401 rule (credentials.ts), before any result was handed out.
      const retry = !received && authorized.renewable && error instanceof StatusError &&
        error.status === 401;
      if (!retry) throw error;
      prepared = await authorized.renew();
    }
  }
}

async function* attempt(
  built: PreparedRequest,
  request: GraphQLRequest,
  options: WsOptions,
  refused: { refusal?: Response },
): AsyncGenerator<GraphQLResult> {
  const prepared = built.signer ? await built.signer.sign(built) : built;
  const url = toWebSocketUrl(requestUrl(prepared));
  const headers = requestHeaders(prepared);
  const target = hostPort(url);
  let failure: DialError | undefined;
  let socket: DialWebSocket | undefined;
  const transport = options.transport ?? {};
  class HandshakeWebSocket extends DialWebSocket {
    constructor(_address: string | URL, protocols?: string | string[]) {
      super(url, {
        protocols: protocols === undefined ? [] : [protocols].flat(),
        headers,
      }, transport);
      socket = this;
      this.addEventListener("error", (event) => {
        if (this.refusal) refused.refusal = this.refusal;
        failure ??= this.failure ?? handshakeError(event, target);
      });
    }
  }
  const client = createClient({
    url: url.href,
    webSocketImpl: HandshakeWebSocket,
    lazy: true,
    retryAttempts: 0,
    ...(options.initPayload ? { connectionParams: options.initPayload } : {}),
  });
  const results = client.iterate({
    query: request.query,
    ...(request.variables ? { variables: request.variables } : {}),
    ...(request.operationName ? { operationName: request.operationName } : {}),
  });
  const stop = () => void results.return?.();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await results.next();
      } catch (error) {
        if (Array.isArray(error)) {
          // The server answered the operation with an `error` message.
          const text = JSON.stringify({ errors: error });
          yield parseEnvelope(text);
          return;
        }
        throw failure ?? closeError(error, target);
      }
      if (next.done) return;
      yield parseEnvelope(JSON.stringify(next.value));
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
    await results.return?.();
    await client.dispose();
    await closed(socket);
  }
}

/** Waits (at most a second) for the closing handshake, so the server sees a clean close. */
async function closed(socket: DialWebSocket | undefined): Promise<void> {
  if (!socket || socket.readyState === WebSocket.CLOSED) return;
  if (socket.readyState !== WebSocket.CLOSING) socket.close(1000, "Normal Closure");
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    socket.addEventListener("close", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

function closeError(error: unknown, target: string): DialError {
  if (error instanceof DialError) return error;
  if (error instanceof CloseEvent) {
    const reason = error.reason ? ` ${error.reason}` : "";
    return new DialError(
      `GraphQL WebSocket closed by ${target}: code ${error.code}${reason}`,
      ErrorCode.GraphQLWsClosed,
      error.code === 4403 || error.code === 4401
        ? { remedy: { check: "init_payload" } as const }
        : {},
    );
  }
  if (error instanceof Event) return handshakeError(error, target);
  const message = error instanceof Error ? error.message : String(error);
  return new DialError(
    `GraphQL WebSocket with ${target} failed: ${message}`,
    ErrorCode.GraphQLWs,
    {
      cause: error,
    },
  );
}
