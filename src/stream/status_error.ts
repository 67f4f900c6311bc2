/**
 * Errors for a stream endpoint that answered with the wrong HTTP status or content.
 * @module
 */
import {
  DialError,
  type DialErrorOptions,
  ErrorCode,
  ExitCode,
  type ExitCodeValue,
} from "../errors.ts";
import { isRedirectStatus, statusExitCode } from "../http/status.ts";

/** A streaming endpoint refused: the status it answered with decides the exit code. */
export class StatusError extends DialError {
  /** The HTTP status, e.g. 401. */
  readonly status: number;
  /** How long the server asked to wait before trying again (`Retry-After`), in ms. */
  readonly retryAfterMs: number | undefined;

  /**
   * Creates the error.
   *
   * @param message names the status and the host
   * @param status the HTTP status
   * @param options hint, cause, and the response headers (for `Retry-After`)
   */
  constructor(
    message: string,
    status: number,
    options: DialErrorOptions & { headers?: Headers } = {},
  ) {
    const { headers, ...rest } = options;
    super(message, ErrorCode.HttpStatus, exitCodeForStatus(status), rest);
    this.name = "StatusError";
    this.status = status;
    this.retryAfterMs = headers ? retryAfterMs(headers.get("retry-after")) : undefined;
  }

  /**
   * Whether trying again may help: 408, 429 and 5xx. Any other refusal (401, 403, 404, 405,
   * 410 …) is final, as the EventSource standard fails a connection at once on it.
   */
  get retryable(): boolean {
    return this.status === 408 || this.status === 429 || (this.status >= 500 && this.status < 600);
  }
}

/**
 * @param value a `Retry-After` value: delay-seconds or an HTTP-date
 * @param now the current time in ms
 * @returns the delay in ms (0 for a past date), or undefined when absent or unreadable
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Maps a refusing status to the request command's exit codes.
 *
 * @param status an HTTP status
 * @returns 3, 4 or 5 for 3xx, 4xx, 5xx; 1 otherwise
 */
export function exitCodeForStatus(status: number): ExitCodeValue {
  const code = statusExitCode(status);
  return code === ExitCode.OK ? ExitCode.Failure : code;
}

/**
 * @param status an HTTP status
 * @returns a hint for the statuses people most often meet on streaming endpoints
 */
export function statusHint(status: number): string | undefined {
  if (status === 401) return "check the credentials (-u, -B, -K, -H, --oauth2)";
  if (status === 403) return "the credentials were accepted but do not allow this endpoint";
  if (isRedirectStatus(status)) {
    return "streaming endpoints are not redirected; use the final URL";
  }
  return undefined;
}
