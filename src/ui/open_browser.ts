/**
 * Opening the app: as an app window (`--app=<url>`) when Chrome, Chromium or Edge is
 * installed, else the default browser (`$BROWSER`, xdg-open, open, start).
 * @module
 */
import { processEnv } from "../env.ts";
import { browserCommand, startDetached } from "../auth/oauth2/browser.ts";

/** A way to start a program; tests pass a recorder. */
export type Spawn = (program: string, args: string[]) => Promise<boolean>;

const APP_BROWSERS: Record<string, string[]> = {
  linux: [
    "google-chrome",
    "google-chrome-stable",
    "chromium",
    "chromium-browser",
    "microsoft-edge",
    "microsoft-edge-stable",
  ],
  darwin: [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
  ],
  windows: [
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
    "C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe",
  ],
};

/**
 * Finds an executable by name on PATH, or checks an absolute path.
 *
 * @param name a program name or absolute path
 * @returns the path, or undefined
 */
export function findExecutable(name: string): string | undefined {
  const isWindows = Deno.build.os === "windows";
  const candidates = name.includes("/") || name.includes("\\")
    ? [name]
    : (processEnv("PATH") ?? "").split(isWindows ? ";" : ":").filter(Boolean)
      .map((dir) => `${dir}/${name}`);
  for (const path of candidates) {
    try {
      const info = Deno.statSync(path);
      if (info.isFile && (isWindows || ((info.mode ?? 0o111) & 0o111) !== 0)) return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

const spawnDetached: Spawn = (program, args) => Promise.resolve(startDetached(program, args));

/**
 * Opens a URL for the user.
 *
 * @param url the app URL
 * @param options `spawn` to start programs (tests); `app` false to skip the app window
 * @returns how it was opened (`"app"`, `"browser"`), or undefined when nothing worked
 */
export async function openBrowser(
  url: string,
  options: { spawn?: Spawn; app?: boolean } = {},
): Promise<"app" | "browser" | undefined> {
  const spawn = options.spawn ?? spawnDetached;
  if (options.app !== false) {
    for (const name of APP_BROWSERS[Deno.build.os] ?? []) {
      const path = findExecutable(name);
      if (path && await spawn(path, [`--app=${url}`])) return "app";
    }
  }
  // The same default browser the OAuth login uses ($BROWSER, xdg-open, open, start).
  const [program, ...args] = browserCommand(new URL(url));
  if (program !== undefined && await spawn(program, args)) return "browser";
  return undefined;
}
