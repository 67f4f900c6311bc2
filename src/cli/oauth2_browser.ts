/**
 * How the CLI shows the OAuth 2.0 authorization URL: printed to stderr, then the browser.
 * @module
 */
import { openSystemBrowser } from "../auth/oauth2/browser.ts";
import { stderr } from "../output/terminal.ts";

/**
 * Prints the authorization URL to stderr (for headless machines) and starts the browser.
 *
 * @param url the authorization URL
 * @param done settles when the login ends (the browser's handover file is removed then)
 */
export async function showAuthorizationUrl(url: URL, done?: Promise<unknown>): Promise<void> {
  const err = stderr();
  const opened = await openSystemBrowser(url, done);
  await err.write(
    `${
      opened
        ? "Opening the browser to log in. If it does not open, visit"
        : "Open this URL to log in"
    }:\n  ${url.href}\n`,
  );
}
