/**
 * Errors for a stream endpoint that answered with the wrong HTTP status or content.
 * @module
 */
import { DialError, type DialErrorOptions, ExitCode, type ExitCodeValue } from "../errors.ts";
import { isRedirectStatus, statusExitCode } from "../http/status.ts";

/** A streaming endpoint refused: the status it answered with decides the exit code. */
export class StatusError extends DialError {
  /** The HTTP status, e.g. 401. */
  readonly status: number;

  /**
   * Creates the error.
   *
   * @param message names the status and the host
   * @param status the HTTP status
   * @param options hint and cause
   */
  constructor(message: string, status: number, options: DialErrorOptions = {}) {
    super(message, "http_status", exitCodeForStatus(status), options);
    this.name = "StatusError";
    this.status = status;
  }
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
