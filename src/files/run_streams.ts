/**
 * The streaming requests of a file: JetBrains `WEBSOCKET` requests (messages separated by
 * `===`, `=== wait-for-server` waiting for the server), `GRAPHQL` subscriptions over
 * WebSocket (graphql-transport-ws), and responses that are event streams (SSE). Each runs on
 * the session dial's `ws`, `graphql` and `sse` commands use; received messages are handed to
 * the caller as they arrive.
 * @module
 */
import { load } from "../load.ts";
import { DialError, ErrorCode } from "../errors/mod.ts";
import type { TransportOptions } from "../http/client.ts";
import type { FileRequest } from "./file_request.ts";

/** Options of the streaming runs. */
export interface StreamOptions {
  /** CA certificates, client certificate, `-k`, proxy. */
  transport?: TransportOptions;
  /** Ends the stream (Ctrl-C, `# @timeout`). */
  signal?: AbortSignal;
  /** Told of each message received, in order. */
  onMessage?: (text: string) => void | Promise<void>;
  /** Ends an event stream when it settles (httpyac's `{{@streaming` blocks are done). */
  until?: Promise<unknown>;
}

/**
 * Runs a `WEBSOCKET` request: connects, sends the messages in order (waiting for a server
 * message at each `=== wait-for-server`), then closes.
 *
 * @param request the built request (`messages` set)
 * @param options transport, signal, observer
 * @returns the messages received, in order
 * @throws {DialError} when the handshake fails or the connection is lost
 */
export async function runWebSocketRequest(
  request: FileRequest,
  options: StreamOptions = {},
): Promise<string[]> {
  const received: string[] = [];
  const waiting: PromiseWithResolvers<void>[] = [];
  let failure: DialError | undefined;
  const closed = Promise.withResolvers<void>();
  const { WebSocketSession } = await load.wsSession();
  const session = new WebSocketSession(request.spec, {
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let delivering = Promise.resolve();
  session.events.subscribe((event) => {
    if (event.type === "message" && event.direction === "in") {
      const text = typeof event.data === "string"
        ? event.data
        : new TextDecoder().decode(event.data);
      received.push(text);
      delivering = delivering.then(() => options.onMessage?.(text));
      waiting.shift()?.resolve();
    } else if (event.type === "error") {
      failure = event.error;
    } else if (event.type === "close") {
      closed.resolve();
      for (const wait of waiting.splice(0)) wait.resolve();
    }
  });
  await session.connect();
  let consumed = 0;
  for (const message of request.messages ?? []) {
    if (message !== null) {
      session.send(message);
      continue;
    }
    // `=== wait-for-server`: one message from the server (one that came early counts).
    if (received.length <= consumed) {
      const wait = Promise.withResolvers<void>();
      waiting.push(wait);
      await Promise.race([wait.promise, closed.promise]);
      if (received.length <= consumed) break;
    }
    consumed++;
  }
  await session.close();
  await delivering;
  if (failure) throw failure;
  return received;
}

/**
 * Tells a subscription from a query or mutation.
 *
 * @param query a GraphQL document
 * @returns whether its (first) operation is a subscription
 */
export function isSubscription(query: string): boolean {
  const code = query.replace(/#[^\n]*/g, "").trimStart();
  return /^subscription\b/.test(code);
}

/**
 * Runs a `GRAPHQL` subscription over WebSocket (graphql-transport-ws) until the server
 * completes it or the signal ends it.
 *
 * @param request the built request (`graphql` set)
 * @param options transport, signal, observer
 * @returns the results' JSON texts, in order
 * @throws {DialError} when the handshake is refused or the socket closes abnormally
 */
export async function runGraphQLSubscription(
  request: FileRequest,
  options: StreamOptions = {},
): Promise<string[]> {
  const { subscribeWs } = await load.wsClient();
  const results: string[] = [];
  const graphql = request.graphql!;
  const endpoint = {
    url: request.spec.url,
    auth: request.spec.auth,
    headers: request.spec.headers,
  };
  const operation = {
    query: graphql.query,
    ...(graphql.variables ? { variables: graphql.variables } : {}),
  };
  try {
    for await (
      const result of subscribeWs(endpoint, operation, {
        ...(options.transport ? { transport: options.transport } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      })
    ) {
      results.push(result.text);
      await options.onMessage?.(result.text);
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
  return results;
}

/**
 * Reads an event-stream response, handing each event's data over as it arrives, until the
 * server ends it, the signal aborts or `until` settles.
 *
 * @param body the response body
 * @param options signal and observer
 * @returns the events' data, in order
 */
export async function readEventStreamData(
  body: ReadableStream<Uint8Array>,
  options: StreamOptions = {},
): Promise<string[]> {
  const data: string[] = [];
  let delivering = Promise.resolve();
  const { readEventStream } = await load.readEventStream();
  const ended = new AbortController();
  options.until?.finally(() => ended.abort());
  const source = options.until
    ? body.pipeThrough(new TransformStream(), { signal: ended.signal })
    : body;
  try {
    await readEventStream(source, {
      onEvent: (event) => {
        data.push(event.data);
        delivering = delivering.then(() => options.onMessage?.(event.data));
      },
    });
  } catch (error) {
    if (!options.signal?.aborted && !ended.signal.aborted) {
      throw error instanceof DialError ? error : new DialError(
        `The event stream broke: ${(error as Error).message}`,
        ErrorCode.Transport,
        { cause: error },
      );
    }
  }
  await delivering;
  return data;
}
