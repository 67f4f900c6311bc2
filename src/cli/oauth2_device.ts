/**
 * How the CLI shows the device flow's code: the verification URI and the user code on stderr,
 * and the browser only with `--oauth2-browser`.
 * @module
 */
import { openSystemBrowser } from "../auth/oauth2/browser.ts";
import type { DeviceCodePrompt } from "../auth/oauth2/device_prompt.ts";
import { shown } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";

/**
 * @param openBrowser whether to open the verification page (`--oauth2-browser`); a prompt may
 * ask for it too (a request file's `"Open Complete URI"`)
 * @param context the run: its stderr and `$BROWSER`
 * @returns the `showDeviceCode` callback of the OAuth 2.0 options
 */
export function deviceCodePrinter(
  openBrowser: boolean,
  context: CliContext,
): (prompt: DeviceCodePrompt) => Promise<void> {
  return async (prompt) => {
    const err = context.stderr;
    // Strings from the provider: escaped on a terminal like any other server text.
    const safe = (text: string) => shown(err, text);
    const complete = prompt.verificationUriComplete;
    const minutes = Math.max(1, Math.round(prompt.expiresIn / 60));
    const lines = [
      `To log in, visit ${safe(prompt.verificationUri)} and enter the code ${
        safe(prompt.userCode)
      }`,
      ...(complete ? [`  (or open ${safe(complete)})`] : []),
    ];
    const page = browsable(complete ?? prompt.verificationUri);
    if ((openBrowser || prompt.openPage) && page) {
      const opened = await openSystemBrowser(page, undefined, context.env("BROWSER"));
      if (opened) lines.push("Opened the page in the browser.");
    }
    lines.push(`Waiting for the login (the code expires in ${minutes} min)…`);
    await err.write(lines.join("\n") + "\n");
  };
}

/** Only http(s) pages are handed to the browser, never another scheme a provider sends. */
function browsable(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}
