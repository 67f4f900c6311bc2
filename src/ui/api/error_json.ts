/**
 * Errors as the browser sees them: one shape ({@link ErrorJson}) for every answer and event,
 * and messages and hints worded for the UI ({@link uiHint}, {@link uiMessage} in `ui_words.ts`).
 * @module
 */
import { DialError, ErrorCode, ExitCode, UsageError } from "../../errors.ts";
import { StatusError } from "../../stream/status_error.ts";
import { redactUrlsInText } from "../../redact_url.ts";
import type { ErrorJson } from "../protocol.ts";
import { uiHint, uiMessage } from "./ui_words.ts";

/** A request body over the limit: answered with 413. */
export class TooLargeError extends DialError {
  /** @param message what was too large */
  constructor(message: string) {
    super(message, ErrorCode.TooLarge, ExitCode.Usage);
    this.name = "TooLargeError";
  }
}

/**
 * @param error anything thrown
 * @returns its code, message, UI hint and status
 */
export function errorJson(error: unknown): ErrorJson {
  if (error instanceof DialError) {
    const hint = uiHint(error.hint);
    return {
      code: error.code,
      message: uiMessage(error.message),
      ...(hint ? { hint } : {}),
      ...(error instanceof StatusError ? { status: error.status } : {}),
    };
  }
  // Not a DialError: it may quote a URL with keys or userinfo.
  const message = error instanceof Error ? error.message : String(error);
  return { code: "internal", message: uiMessage(redactUrlsInText(message)) };
}

/**
 * @param error what a handler threw
 * @returns the HTTP status of the answer: 400 bad input, 413 too large, 502 the target or the
 * token endpoint failed, 500 anything else
 */
export function errorStatus(error: unknown): number {
  if (error instanceof TooLargeError) return 413;
  if (error instanceof UsageError) return 400;
  return error instanceof DialError ? 502 : 500;
}
