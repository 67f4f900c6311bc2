/**
 * JSON-RPC 2.0 as MCP's stdio transport frames it: one message per line (UTF-8, `\n`, an
 * optional `\r` before it), no batches. A line that is not a message is answered with the
 * JSON-RPC error for it, and reading goes on.
 * @module
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 * @see https://www.jsonrpc.org/specification
 */

/** A request id. */
export type RequestId = string | number;

/** JSON-RPC's error codes (and MCP's own). */
export const RpcError = {
  /** The line is not JSON. */
  ParseError: -32700,
  /** JSON, but not a request or notification. */
  InvalidRequest: -32600,
  /** No such method. */
  MethodNotFound: -32601,
  /** The method's params are wrong. */
  InvalidParams: -32602,
  /** The server failed. */
  InternalError: -32603,
  /** MCP: no resource with that URI. */
  ResourceNotFound: -32002,
} as const;

/** A request (it has an id and wants an answer). */
export interface RpcRequest {
  /** Its id. */
  id: RequestId;
  /** The method. */
  method: string;
  /** Its params: an object, or absent. */
  params: Record<string, unknown>;
}

/** A notification (no id, no answer). */
export interface RpcNotification {
  /** The method. */
  method: string;
  /** Its params: an object, or absent. */
  params: Record<string, unknown>;
}

/** What one line is. */
export type Incoming =
  | { kind: "request"; request: RpcRequest }
  | { kind: "notification"; notification: RpcNotification }
  /** A response to something the server asked (the server asks nothing: ignored). */
  | { kind: "response" }
  /** Not a message: answer with this error. */
  | { kind: "invalid"; id: RequestId | null; code: number; message: string };

/**
 * Reads one line.
 *
 * @param line the line, without its line break
 * @returns what it is
 */
export function parseLine(line: string): Incoming {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    return {
      kind: "invalid",
      id: null,
      code: RpcError.ParseError,
      message: `Parse error: ${(error as Error).message}`,
    };
  }
  if (!isObject(data)) {
    return {
      kind: "invalid",
      id: null,
      code: RpcError.InvalidRequest,
      message: Array.isArray(data)
        ? "Invalid request: batches are not part of MCP"
        : "Invalid request: expected a JSON-RPC 2.0 object",
    };
  }
  const id = typeof data.id === "string" || (typeof data.id === "number" && isFinite(data.id))
    ? data.id
    : undefined;
  const invalid = (message: string): Incoming => ({
    kind: "invalid",
    id: id ?? null,
    code: RpcError.InvalidRequest,
    message: `Invalid request: ${message}`,
  });
  if (data.jsonrpc !== "2.0") return invalid(`"jsonrpc" must be "2.0"`);
  if (data.method === undefined && id !== undefined && ("result" in data || "error" in data)) {
    return { kind: "response" };
  }
  if (typeof data.method !== "string") return invalid(`"method" must be a string`);
  if ("id" in data && id === undefined) return invalid(`"id" must be a string or a number`);
  if (data.params !== undefined && !isObject(data.params)) {
    return invalid(`"params" must be an object`);
  }
  const params = (data.params ?? {}) as Record<string, unknown>;
  if (id === undefined) {
    return { kind: "notification", notification: { method: data.method, params } };
  }
  return { kind: "request", request: { id, method: data.method, params } };
}

/**
 * @param id the request's id
 * @param result its result
 * @returns the response line's text
 */
export function resultMessage(id: RequestId, result: unknown): Record<string, unknown> {
  return { jsonrpc: "2.0", id, result };
}

/**
 * @param id the request's id (null when it could not be read)
 * @param code the error code
 * @param message what went wrong
 * @returns the error response
 */
export function errorMessage(
  id: RequestId | null,
  code: number,
  message: string,
): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/**
 * Splits a byte stream into lines (UTF-8), the last one even without a line break.
 *
 * @param input the stream
 * @param signal stops the reading (the stream is cancelled)
 * @yields each line, without `\n` or `\r\n`
 */
export async function* lines(
  input: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const reader = input.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  const decoder = new TextDecoder();
  let pending = "";
  try {
    while (!signal?.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = pending.indexOf("\n")) >= 0) {
        yield pending.slice(0, newline).replace(/\r$/, "");
        pending = pending.slice(newline + 1);
      }
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    reader.releaseLock();
  }
  pending += decoder.decode();
  if (pending.trim() && !signal?.aborted) yield pending.replace(/\r$/, "");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
