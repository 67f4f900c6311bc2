/**
 * Starting the system browser for the authorization-code login.
 * @module
 */
import { writeHandover } from "../../handover.ts";
import { processEnv } from "../../env.ts";

/**
 * The command that opens a URL: `$BROWSER` when set (the first entry of a colon-separated
 * list; `%s` is replaced by the URL, else the URL is appended; words split on spaces), else
 * `xdg-open` (Linux, BSD), `open` (macOS) or `cmd /c start` (Windows).
 *
 * @param url the URL to open
 * @param browser the value of `$BROWSER`, if any
 * @param os the operating system
 * @returns the program and its arguments
 */
export function browserCommand(
  url: URL,
  browser: string | undefined = processEnv("BROWSER"),
  os: typeof Deno.build.os = Deno.build.os,
): string[] {
  const configured = browser?.split(os === "windows" ? ";" : ":").find((s) => s.trim() !== "");
  if (configured) {
    const words = configured.trim().split(/\s+/);
    return words.some((w) => w.includes("%s"))
      ? words.map((w) => w.replaceAll("%s", url.href))
      : [...words, url.href];
  }
  if (os === "darwin") return ["open", url.href];
  // cmd treats & as a command separator; ^ escapes it. The empty title keeps start from
  // taking the URL as the window title.
  if (os === "windows") return ["cmd", "/c", "start", '""', url.href.replaceAll("&", "^&")];
  return ["xdg-open", url.href];
}

/**
 * Starts the system browser on a URL without waiting for it to exit. The URL itself never
 * appears in the browser's command line (where any local user can read it: an authorization
 * URL carries the login's `state`): the browser opens a private handover file that redirects
 * to it ({@link writeHandover}).
 *
 * @param url the URL to open
 * @param done when it settles (the login's callback arrived or the login ended), the handover
 *   file is removed; without it, the file is removed when the process exits
 * @param browser the value of `$BROWSER`, if any (default: the process's)
 * @returns whether the browser command could be started
 */
export async function openSystemBrowser(
  url: URL,
  done?: Promise<unknown>,
  browser: string | undefined = processEnv("BROWSER"),
): Promise<boolean> {
  const handover = await writeHandover(url);
  if (done) done.then(handover.remove, handover.remove);
  else globalThis.addEventListener("unload", handover.remove);
  const [program, ...args] = browserCommand(handover.fileUrl, browser);
  const started = program !== undefined && startDetached(program, args);
  if (!started) handover.remove();
  return started;
}

/**
 * Starts a program detached from our stdio, without waiting for it.
 *
 * @param program the program
 * @param args its arguments
 * @returns whether it could be started
 */
export function startDetached(program: string, args: string[]): boolean {
  try {
    const child = new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    // Reap it when it exits quickly (xdg-open does) so it leaves no zombie.
    child.status.catch(() => {});
    return true;
  } catch {
    return false;
  }
}
