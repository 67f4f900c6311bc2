/**
 * `dial ui`: the desktop app, a local server on loopback opened in a browser window.
 * @module
 */
import { ExitCode } from "../errors/mod.ts";
import { lazy } from "./lazy.ts";
import { command, flag, flags } from "./declare.ts";
import { parseTransportFlags, TRANSPORT_FLAGS } from "./transport_flags.ts";
import { ALLOW_PATH_FLAG } from "./file_flags.ts";

const EPILOG = `
Examples:
  dial ui                      open the app in a Chrome/Chromium/Edge app window or the browser
  dial ui ./api                use ./api as the workspace (default: the current directory)
  dial ui --no-open            only print the URL (open it yourself)
  dial ui --port 8080          listen on a fixed port

The URL carries a secret for this launch; the server answers only requests that hold it and
listens on 127.0.0.1. Stop it with Ctrl-C. The app's drafts, history and selected tab are kept
in the workspace's .dial/ folder (git-ignored, no secrets), so a restart on any port restores them.`;

/** The flags of `dial ui`: where it listens, and how the app's requests connect. */
const UI_FLAGS = flags([
  flag.value("port", "port", "port to listen on (default: a free one)", { kind: "port" }),
  flag.value("host", "address", "listen on this address instead of 127.0.0.1 (not recommended)"),
  { long: "no-open", help: "do not open a browser, only print the URL" },
  ...ALLOW_PATH_FLAG,
  ...TRANSPORT_FLAGS,
]);

/** `dial ui`. */
export const uiCommand = command({
  name: "ui",
  summary: "Open the desktop app (HTTP, GraphQL, WebSocket and SSE tabs)",
  args: [{ name: "dir", help: "the workspace folder (default: the current directory)" }],
  flags: UI_FLAGS,
  epilog: EPILOG,
  run: async ({ args, flags }, context) => {
    const { runUi } = await lazy.ui();
    await runUi({
      transport: await parseTransportFlags(flags, context),
      out: context.stdout,
      err: context.stderr,
      port: flags.port ?? 0,
      open: flags.open,
      workspace: args.dir ?? ".",
      allowPaths: flags.allowPath,
      ...(flags.host !== undefined ? { hostname: flags.host } : {}),
      signal: context.signal,
    });
    return ExitCode.OK;
  },
});
