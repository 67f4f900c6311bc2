/**
 * Errors as the browser sees them: one shape ({@link ErrorJson}) for every answer and event,
 * and hints worded for the UI. Core and CLI hints name command-line flags; a browser user is
 * told which field or control to change instead, and a hint that still names a flag is dropped.
 * @module
 */
import { DialError, ExitCode, UsageError } from "../../errors.ts";
import { StatusError } from "../../stream/status_error.ts";
import { redactUrlsInText } from "../../redact_url.ts";
import type { ErrorJson } from "../protocol.ts";

/** A request body over the limit: answered with 413. */
export class TooLargeError extends DialError {
  /** @param message what was too large */
  constructor(message: string) {
    super(message, "too_large", ExitCode.Usage);
    this.name = "TooLargeError";
  }
}

/** Hints about CLI flags, and what to say in the UI instead. */
const UI_HINTS: ReadonlyArray<[RegExp, string]> = [
  [/credentials \(-u, -B/, "check the auth panel and the headers you added"],
  [/--init-payload/, "check the credentials in the auth panel"],
  [/token URL in --oauth2/, "check the Token URL in the auth panel"],
  [/--oauth2-port/, "pick another Callback port in the auth panel"],
  [/--oauth2-timeout/, "log in in the tab that opened, then press Get token again"],
  [/--max-redirects/, "untick Follow redirects to see the redirect"],
  [/--subprotocol/, "check Subprotocols against what the server supports"],
  [/--timeout/, "raise Timeout in the tab"],
  // TLS trust is chosen when dial ui starts: those flags are dial ui's own.
  [
    /--cacert/,
    "start dial ui with --cacert file.pem to trust its CA, or with -k to skip verification (insecure)",
  ],
  [/^write -H/, "write the header as Name in one column and the value in the other"],
];

/** A flag such as `-u` or `--oauth2-port` (in a hint not rewritten above). */
const FLAG = /(^|[\s(,`"'])--?[A-Za-z][\w-]*/;

/**
 * @param hint a hint from the core or the CLI's value parsers
 * @returns the same advice naming the UI's controls, or undefined when it only makes sense
 * on the command line
 */
export function uiHint(hint: string | undefined): string | undefined {
  if (hint === undefined) return undefined;
  for (const [pattern, text] of UI_HINTS) if (pattern.test(hint)) return text;
  return FLAG.test(hint) ? undefined : hint;
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
      message: error.message,
      ...(hint ? { hint } : {}),
      ...(error instanceof StatusError ? { status: error.status } : {}),
    };
  }
  // Not a DialError: it may quote a URL with keys or userinfo.
  const message = error instanceof Error ? error.message : String(error);
  return { code: "internal", message: redactUrlsInText(message) };
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
