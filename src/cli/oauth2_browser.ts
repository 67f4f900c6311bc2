/**
 * How the CLI shows the OAuth 2.0 authorization URL: printed to stderr, then the browser.
 * @module
 */
import { openSystemBrowser } from "../auth/oauth2/browser.ts";
import type { CliContext } from "./context.ts";

/**
 * @param context the run: its stderr and `$BROWSER`
 * @returns what prints the authorization URL to stderr (for headless machines) and starts the
 * browser; `done` settles when the login ends (the browser's handover file is removed then)
 */
export function authorizationUrlShower(
  context: CliContext,
): (url: URL, done?: Promise<unknown>) => Promise<void> {
  return async (url, done) => {
    const opened = await openSystemBrowser(url, done, context.env("BROWSER"));
    await context.stderr.write(
      `${
        opened
          ? "Opening the browser to log in. If it does not open, visit"
          : "Open this URL to log in"
      }:\n  ${url.href}\n`,
    );
  };
}
