/**
 * `dial ui`'s action: start the server, print a launch URL, open another through a handover
 * file (no secret in the browser's command line), wait for Ctrl-C.
 * @module
 */
import type { Sink } from "../output/terminal.ts";
import { UsageError } from "../errors/mod.ts";
import { warn } from "../output/report.ts";
import { openBrowser } from "./open_browser.ts";
import { startUiServer } from "./server.ts";
import { bundleFromSource } from "./assets.ts";
import type { TransportOptions } from "../http/client.ts";
import { type Handover, writeHandover } from "../handover.ts";

/** Options for {@link runUi}. */
export interface RunUiOptions {
  /** The port (0: a free one). */
  port: number;
  /** The interface; default 127.0.0.1. */
  hostname?: string;
  /** Whether to open a browser. */
  open: boolean;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** `--cacert`, `--cert`, `-k`, `--proxy`… for the requests the app sends. */
  transport?: TransportOptions;
  /** The workspace folder, where the app's state is kept (`.dial/`). */
  workspace?: string;
  /** `--allow-path`: folders the workspace's files may reach besides the workspace. */
  allowPaths?: readonly string[];
  /** Where the app's URL is printed. */
  out: Sink;
  /** Where warnings go. */
  err: Sink;
}

/** The workspace's real path, or a usage error naming it. */
async function workspaceDir(dir: string): Promise<string> {
  try {
    const path = await Deno.realPath(dir);
    if ((await Deno.stat(path)).isDirectory) return path;
  } catch {
    // worded below
  }
  throw new UsageError(`Cannot use "${dir}" as the workspace: not a folder`, {
    hint: "give an existing folder, or none for the current one",
  });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * Runs the desktop app until the signal aborts.
 *
 * @param options port, interface, open, signal (aborted on Ctrl-C, SIGTERM and SIGHUP, which
 *   so remove the kept response bodies too)
 */
export async function runUi(options: RunUiOptions): Promise<void> {
  const { err } = options;
  const hostname = options.hostname === "localhost" ? "127.0.0.1" : options.hostname;
  if (hostname !== undefined && !LOOPBACK.has(hostname)) {
    await warn(
      err,
      `Listening on ${hostname}, not only on loopback: anyone who can reach it and learns the URL can send requests through dial`,
    );
  }
  await bundleFromSource();
  const workspace = options.workspace === undefined
    ? undefined
    : await workspaceDir(options.workspace);
  const server = await startUiServer({
    port: options.port,
    ...(workspace !== undefined ? { workspace } : {}),
    ...(options.allowPaths?.length ? { allowPaths: options.allowPaths } : {}),
    ...(hostname !== undefined ? { hostname } : {}),
    signal: options.signal,
    ...(options.transport ? { transport: options.transport } : {}),
  });
  // Printed for the user (stdout is theirs, not the process table); each link works once.
  await options.out.write(`${server.url.href}\n`);
  let handover: Handover | undefined;
  if (options.open) {
    let redeemed = false;
    const launch = server.launchUrl(() => {
      redeemed = true;
      handover?.remove();
    });
    handover = await writeHandover(launch);
    if (redeemed) handover.remove();
    const how = await openBrowser(handover.fileUrl.href);
    if (!how) await warn(err, "Could not open a browser: open the URL above yourself");
  }
  await err.write("dial ui is running; press Ctrl-C to stop\n");
  try {
    await server.finished;
  } finally {
    handover?.remove();
  }
}
