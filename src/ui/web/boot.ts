/**
 * The page's inline bootstrap (`src/ui/page.ts` puts it at the top of the page, allowed by the
 * hash of its text in the page's Content-Security-Policy): it starts the session at once, while
 * the app's bundle downloads, and puts the workspace's first files, which a launch's trade
 * answers with the session (a tab that had its session asks for them), into the page's inert
 * picture of the app's first frame. The page itself carries no file name: it
 * is public to this machine, the names are not. The app takes over the session
 * (`session_start.ts`) and replaces the picture as it renders (`main.tsx`).
 * @module
 */
import { SESSION_HEADER, SHELL_META, type ShellListAnswer } from "../session_protocol.ts";
import { bootSession } from "./session_start.ts";

/** The page's stand-in for the sidebar's list, replaced by the server's list. */
const SLOT = "template[data-shell-list]";

/**
 * Starts the session; on a workspace's page (it says so in its head, parsed before this runs),
 * puts the first files in the picture as soon as they come.
 */
async function boot(): Promise<void> {
  const shell = document.querySelector(`meta[name="${SHELL_META}"]`) !== null;
  const started = await bootSession(shell);
  if (!shell || !("session" in started)) return;
  const html = started.shell ?? await shellList(started.session);
  if (html === undefined) return;
  // The page is parsed by now but for a slow tail (then wait for its end, not for the bundle).
  if (document.readyState === "loading") {
    await new Promise((resolve) =>
      document.addEventListener("readystatechange", resolve, { once: true })
    );
  }
  // The server escaped every name in it (`page.ts`); the app may have replaced the page by now.
  const slot = document.querySelector(SLOT);
  slot?.insertAdjacentHTML("afterend", html);
  slot?.remove();
}

/** @returns the shell's list, for a tab that had its session (a reload, a bare tab) */
async function shellList(session: string): Promise<string | undefined> {
  const response = await fetch("/api/workspace/shell", {
    method: "POST",
    headers: { "Content-Type": "application/json", [SESSION_HEADER]: session },
    body: "{}",
  });
  if (!response.ok) return undefined;
  return (await response.json() as ShellListAnswer).html;
}

// A classic script (run at once, above the style sheet; bundled as one function): no top-level
// await, no module syntax.
void boot();
