/**
 * The browser's only link: JSON calls to the local server (same origin, secret cookie).
 * @module
 */

/** An error the server reported, in words. */
export class ApiError extends Error {
  /** The HTTP status of the API call. */
  readonly status: number;
  /** A hint, when the server gave one. */
  readonly hint: string | undefined;

  /**
   * @param message the server's message
   * @param status the API call's status
   * @param hint a hint
   */
  constructor(message: string, status: number, hint?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.hint = hint;
  }
}

/**
 * @param value anything
 * @returns whether it is a plain object
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * @param response a failed API response
 * @returns the error it describes
 */
export async function apiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const message = typeof error.message === "string"
    ? error.message
    : `The dial server answered ${response.status}`;
  return new ApiError(
    message,
    response.status,
    typeof error.hint === "string" ? error.hint : undefined,
  );
}

/**
 * POSTs JSON to the local server.
 *
 * @param path e.g. `/api/http`
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
 * @param signal aborts the call
 * @returns the successful response
 * @throws {ApiError} when the server answers with an error
 */
export async function post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError("Cannot reach the dial server: is `dial ui` still running?", 0);
  }
  if (!response.ok) throw await apiError(response);
  return response;
}

/**
 * Reads newline-delimited JSON from a streamed response.
 *
 * @param response the response
 * @yields each parsed line
 */
export async function* ndjson(response: Response): AsyncGenerator<unknown> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
  if (buffer.trim()) yield JSON.parse(buffer);
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
