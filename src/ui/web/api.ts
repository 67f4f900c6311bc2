/**
 * The browser's only link: JSON calls to the local server (same origin), each carrying the
 * session secret in the `X-Dial-Session` header. The secret comes from a one-time launch token
 * in the URL fragment, traded once by the page's bootstrap (a tab opened on the bare address
 * proves this browser's key instead: `session_start.ts`); it lives in memory and in this tab's
 * sessionStorage (per origin, port included), never in a cookie, so no other server on the
 * machine receives it.
 * @module
 */
import {
  DEFAULT_TIMEOUT_MS,
  type ErrorJson,
  isRecord,
  MAX_TIMEOUT_MS,
  readErrorJson,
  readErrorResponse,
  SESSION_HEADER,
} from "../protocol.ts";

export { isRecord };
export { ndjson, nextTask } from "./ndjson_reader.ts";

/** An error the server reported, in words. */
export class ApiError extends Error {
  /** The HTTP status of the API call (0 when the server could not be reached). */
  readonly status: number;
  /** The error code. */
  readonly code: string;
  /** A hint, when the server gave one. */
  readonly hint: string | undefined;

  /**
   * @param message the server's message
   * @param status the API call's status
   * @param hint a hint
   * @param code the error code
   */
  constructor(message: string, status: number, hint?: string, code = "internal") {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.hint = hint;
  }

  /**
   * @param error an error in the protocol's shape
   * @param status the API call's status
   * @returns it as an ApiError
   */
  static from(error: ErrorJson, status: number): ApiError {
    return new ApiError(error.message, status, error.hint, error.code);
  }
}

/**
 * @param error anything caught
 * @returns it as an ApiError
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(error instanceof Error ? error.message : String(error), 0);
}

let session = "";

/**
 * Takes over the page's session (`session_start.ts`: the bootstrap started it).
 *
 * @param secret the session secret
 */
export function useSession(secret: string): void {
  session = secret;
}

/** @returns the session secret, for the stream bridge's first message */
export function sessionSecret(): string {
  return session;
}

/**
 * @param response a failed API response
 * @returns the error it describes
 */
export async function apiError(response: Response): Promise<ApiError> {
  return ApiError.from(await readErrorResponse(response), response.status);
}

/**
 * POSTs JSON to the local server.
 *
 * @param path e.g. `/api/auth/state`
 * @param body any JSON value
 * @param signal aborts the call
 * @returns the parsed JSON answer (unknown: validate before use)
 * @throws {ApiError} with the server's message when it answers with an error
 */
export async function postJson(
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const response = await post(path, body, signal);
  return await response.json();
}

/**
 * POSTs JSON and returns the raw response (for streams).
 *
 * @param path the API path
 * @param body any JSON value
 * @param signal aborts the call (the server then aborts its upstream request)
 * @returns the successful response
 * @throws {ApiError} when the server answers with an error
 */
export async function post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", [SESSION_HEADER]: session },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(
      "Cannot reach the dial server: is `dial ui` still running?",
      0,
      undefined,
      "unreachable",
    );
  }
  if (!response.ok) throw await apiError(response);
  return response;
}

/**
 * @param text a tab's Timeout (seconds) field
 * @returns the timeout in ms (empty: the default; 0: none)
 * @throws {ApiError} naming the field when it is not a number of seconds up to a day
 */
export function timeoutMs(text: string): number {
  const trimmed = text.trim();
  const seconds = trimmed === "" ? DEFAULT_TIMEOUT_MS / 1000 : Number(trimmed);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds * 1000 > MAX_TIMEOUT_MS) {
    throw new ApiError(
      `Invalid timeout "${trimmed}"`,
      0,
      "set Timeout in seconds, e.g. 30; 0 waits without limit",
      "usage",
    );
  }
  return Math.round(seconds * 1000);
}

/**
 * @param event an NDJSON event
 * @returns the ApiError of an `{type: "error", error}` event, or undefined
 */
export function ndjsonError(event: unknown): ApiError | undefined {
  if (!isRecord(event) || event.type !== "error") return undefined;
  return ApiError.from(readErrorJson(event.error), 0);
}

/**
 * @param bytes a size
 * @returns e.g. `1.2 KB`
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
