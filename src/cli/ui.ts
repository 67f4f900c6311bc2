/**
 * `dial ui`: the desktop app, a local server on loopback opened in a browser window.
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import type { CliContext } from "./context.ts";
import { parsePort } from "./values.ts";

const EXAMPLES = `
Examples:
  dial ui                      open the app in a Chrome/Chromium/Edge app window or the browser
  dial ui --no-open            only print the URL (open it yourself)
  dial ui --port 8080          listen on a fixed port

The URL carries a secret for this launch; the server answers only requests that hold it and
listens on 127.0.0.1. Stop it with Ctrl-C.`;

/**
 * @param context shared exit code and Ctrl-C signal
 * @returns the `ui` command
 */
export function uiCommand(context: CliContext) {
  return new Command("ui")
    .description("Open the desktop app (HTTP, GraphQL, WebSocket and SSE tabs)")
    .option("--port <port>", "port to listen on (default: a free one)")
    .option("--host <address>", "listen on this address instead of 127.0.0.1 (not recommended)")
    .option("--no-open", "do not open a browser, only print the URL")
    .addHelpText("after", EXAMPLES)
    .action(async (flags) => {
      const port = flags.port === undefined ? 0 : parsePort(flags.port, "--port");
      const { runUi } = await import("../ui/run.ts");
      await runUi({
        port,
        open: flags.open,
        ...(flags.host !== undefined ? { hostname: flags.host } : {}),
        signal: context.signal,
      });
    });
}
