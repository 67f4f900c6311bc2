/**
 * Errors as the browser sees them: one shape ({@link ErrorJson}) for every answer and event,
 * remedies worded for the UI (`ui_remedies.ts`), and without the runtime's own words after a
 * reason dial named (they say nothing more to a person; the CLI keeps them for bug reports).
 * @module
 */
import { DialError, StatusError, TooLargeError, UsageError, wordRemedy } from "../../errors/mod.ts";
import { redactUrlsInText } from "../../redact_url.ts";
import type { ErrorJson } from "../protocol.ts";
import type { Workspace } from "../workspace_path.ts";
import { UI_REMEDIES } from "./ui_remedies.ts";

/**
 * @param error anything thrown
 * @param workspace the UI's workspace: its files are named relative to it
 * @returns its code, message, UI hint and status
 */
export function errorJson(error: unknown, workspace?: Workspace): ErrorJson {
  const shown = (text: string) => workspace ? workspace.shown(text) : text;
  if (error instanceof DialError) {
    const hint = error.hint ?? wordRemedy(error.remedy, error.details, UI_REMEDIES);
    return {
      code: error.code,
      message: shown(withoutRuntimeWords(error)),
      ...(hint ? { hint: shown(hint) } : {}),
      ...(error instanceof StatusError ? { status: error.status } : {}),
    };
  }
  // Not a DialError: it may quote a URL with keys or userinfo.
  const message = error instanceof Error ? error.message : String(error);
  return { code: "internal", message: shown(redactUrlsInText(message)) };
}

function withoutRuntimeWords(error: DialError): string {
  const suffix = error.details.runtime === undefined ? undefined : ` (${error.details.runtime})`;
  return suffix && error.message.endsWith(suffix)
    ? error.message.slice(0, -suffix.length)
    : error.message;
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
