/**
 * How a page of `dial ui` finds its session: it trades a launch token from the URL fragment
 * (then removes it from the address bar and history, and registers this browser's key), reuses
 * the one this tab already holds (sessionStorage), or, for a tab opened on the bare address,
 * proves this browser's key (`browser_key.ts`). The page's inline bootstrap (`boot.ts`) runs
 * this once, as the page starts, and the app takes over its result ({@link bootedSession}):
 * the launch token is one-time, and the session is never put anywhere else.
 * @module
 */
import {
  type ErrorJson,
  LAUNCH_PARAM,
  NO_SESSION_HINT,
  readErrorResponse,
  SESSION_STORAGE_KEY,
  type SessionAnswer,
  type SessionRequest,
} from "../session_protocol.ts";
import {
  keepBrowserKey,
  newBrowserKey,
  sessionFromBrowserKey,
  withKeyLock,
} from "./browser_key.ts";

/**
 * A page's session (with the shell's list when a launch's trade asked for it), or why it has
 * none (with the HTTP status of the refusal, 0 unreachable).
 */
export type SessionStart =
  | { session: string; shell?: string }
  | { problem: ErrorJson; status: number };

/** Where the bootstrap leaves its start for the app (a property of the page's global). */
const BOOT_KEY = "dialSessionStart";

/**
 * Starts the page's session. A link's trade answers once the server gave the session (and the
 * shell's list, when asked: `shell`). It asks
 * for the key lock at once (bare tabs opened from then on queue behind it) but does not wait for
 * it (a new browser context grants it tens to hundreds of ms later): this browser's key is kept
 * under it, after the trade.
 *
 * @param shell whether a link's trade asks for the shell's list too
 * @returns the session, or why there is none
 */
export function startSession(shell = false): Promise<SessionStart> {
  const launch = new URLSearchParams(location.hash.slice(1)).get(LAUNCH_PARAM);
  if (launch === null) return reuseSession();
  history.replaceState(null, "", location.pathname);
  return new Promise((resolve) => {
    const trade = (async () => {
      const key = await newBrowserKey();
      const response = await fetch("/api/session", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(
          { launch, ...(key ? { key: key.jwk } : {}), shell } satisfies SessionRequest,
        ),
      });
      // A used link must not fall back on an older session of this tab, nor keep its key.
      if (!response.ok) return resolve(await refusal(response));
      const answer: SessionAnswer = await response.json();
      sessionStorage.setItem(SESSION_STORAGE_KEY, answer.session);
      resolve(answer);
      return key;
    })();
    trade.catch(() => resolve(UNREACHABLE));
    // Bare tabs opened meanwhile wait for this lock, then prove the key it kept.
    void withKeyLock("exclusive", async () => {
      const key = await trade.catch(() => undefined);
      if (key) await keepBrowserKey(key);
    });
  });
}

const UNREACHABLE: SessionStart = {
  problem: {
    code: "unreachable",
    message: "Cannot reach the dial server: is `dial ui` still running?",
  },
  status: 0,
};

async function reuseSession(): Promise<SessionStart> {
  const kept = sessionStorage.getItem(SESSION_STORAGE_KEY);
  if (kept) return { session: kept };
  const session = await withKeyLock("shared", sessionFromBrowserKey);
  if (session) {
    sessionStorage.setItem(SESSION_STORAGE_KEY, session);
    return { session };
  }
  return {
    problem: {
      code: "unauthorized",
      message: "This page has no session of dial ui",
      hint: NO_SESSION_HINT,
    },
    status: 401,
  };
}

async function refusal(response: Response): Promise<SessionStart> {
  return { problem: await readErrorResponse(response), status: response.status };
}

/**
 * The bootstrap's side: starts the session and leaves the start where the app finds it.
 *
 * @param shell whether a link's trade asks for the shell's list too
 * @returns the start
 */
export function bootSession(shell: boolean): Promise<SessionStart> {
  const started = startSession(shell);
  Object.defineProperty(globalThis, BOOT_KEY, { value: started, configurable: true });
  return started;
}

/**
 * The app's side: the session the bootstrap started (taken once: the page's global no longer
 * holds it), or, on a page without the bootstrap, a start of its own.
 *
 * @returns the start
 */
export function bootedSession(): Promise<SessionStart> {
  const started = (globalThis as Record<string, unknown>)[BOOT_KEY] as
    | Promise<SessionStart>
    | undefined;
  delete (globalThis as Record<string, unknown>)[BOOT_KEY];
  return started ?? startSession();
}
