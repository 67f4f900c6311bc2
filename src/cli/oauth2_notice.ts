/**
 * What the CLI does with the token cache's notices: one stderr line each, kept in the run's
 * notices (a failed cache write makes the run exit non-zero). Kept apart from the OAuth 2.0
 * code so `run_cli.ts` loads none.
 * @module
 */
import type { OAuth2Notice } from "../auth/oauth2/parse_value.ts";
import { warn } from "../output/report.ts";
import type { CliContext } from "./context.ts";

/**
 * @param context the run: its notices and stderr
 * @returns what shows a token-cache notice on stderr and records it
 */
export function oauth2NoticeReporter(context: CliContext): (notice: OAuth2Notice) => void {
  return (notice) => {
    context.notices.push(notice);
    void warn(context.stderr, notice.message);
  };
}
