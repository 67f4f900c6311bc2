/**
 * What the CLI does with the token cache's notices: one stderr line each, and a failed cache
 * write makes the run exit non-zero. Kept apart from the OAuth 2.0 code so `run_cli.ts` loads none.
 * @module
 */
import type { OAuth2Notice } from "../auth/oauth2/parse_value.ts";
import { warn } from "../output/report.ts";
import { stderr } from "../output/terminal.ts";

let cacheFailed = false;

/**
 * Shows a token-cache notice on stderr; a failed cache write makes the run exit non-zero
 * (see {@link oauth2CacheFailed}).
 *
 * @param notice what happened
 */
export function reportOAuth2Notice(notice: OAuth2Notice): void {
  if (notice.kind === "cache_write") cacheFailed = true;
  void warn(stderr(), notice.message);
}

/** @returns whether a token could not be saved during this run */
export function oauth2CacheFailed(): boolean {
  return cacheFailed;
}
