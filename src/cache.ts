/**
 * dial's private cache directory and private file writes, shared by the OAuth 2.0 token
 * cache and the GraphQL introspection cache.
 * @module
 */
import { type EnvLookup, processEnv } from "./env.ts";

import { DialError, ErrorCode } from "./errors/mod.ts";

const SEP = Deno.build.os === "windows" ? "\\" : "/";

/**
 * Joins path parts with the platform's separator.
 *
 * @param parts path parts
 * @returns the joined path
 */
export function joinPath(...parts: string[]): string {
  return parts.join(SEP);
}

function parentDir(path: string): string {
  const i = path.lastIndexOf(SEP);
  return i <= 0 ? path : path.slice(0, i);
}

function isAbsolute(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * The directory dial caches in: `$XDG_CACHE_HOME/dial`, else `~/Library/Caches/dial` on
 * macOS, `%LOCALAPPDATA%\dial` on Windows and `~/.cache/dial` elsewhere. Without `HOME`, the
 * user's `$XDG_RUNTIME_DIR/dial`; never a directory relative to the working directory.
 *
 * @param env where to read `XDG_CACHE_HOME`, `HOME` … (default: the process's environment)
 * @returns an absolute path
 * @throws {DialError} `token_cache` when neither HOME nor an XDG directory is set
 */
export function defaultCacheDir(env: EnvLookup = processEnv): string {
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && isAbsolute(xdg)) return joinPath(xdg, "dial");
  if (Deno.build.os === "windows") {
    const local = env("LOCALAPPDATA") ?? joinPath(env("USERPROFILE") ?? ".", "AppData", "Local");
    return joinPath(local, "dial");
  }
  const home = env("HOME");
  if (!home || !isAbsolute(home)) {
    // Never the working directory (another user may own it, or have planted files there).
    const runtime = env("XDG_RUNTIME_DIR");
    if (runtime && isAbsolute(runtime)) return joinPath(runtime, "dial");
    throw new DialError(
      "Cannot find dial's cache directory: HOME is not set",
      ErrorCode.TokenCache,
      { remedy: { give: "home" } },
    );
  }
  if (Deno.build.os === "darwin") return joinPath(home, "Library", "Caches", "dial");
  return joinPath(home, ".cache", "dial");
}

/**
 * The directory dial reads its configuration from and keeps sessions in:
 * `$XDG_CONFIG_HOME/dial`, else `%APPDATA%\dial` on Windows and `~/.config/dial` elsewhere.
 *
 * @returns an absolute path (relative only without HOME)
 * @param env where to read `XDG_CONFIG_HOME`, `HOME` … (default: the process\'s environment)
 */
export function defaultConfigDir(env: EnvLookup = processEnv): string {
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg && isAbsolute(xdg)) return joinPath(xdg, "dial");
  if (Deno.build.os === "windows") {
    return joinPath(env("APPDATA") ?? env("USERPROFILE") ?? ".", "dial");
  }
  return joinPath(env("HOME") ?? ".", ".config", "dial");
}

/**
 * Creates a cache subdirectory and its parent (dial's cache directory) with mode 0700,
 * tightening them when they exist with wider modes.
 *
 * @param dir e.g. `<cache>/oauth2`
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  if (Deno.build.os === "windows") return;
  for (const path of [dir, parentDir(dir)]) {
    const info = await Deno.stat(path);
    if (info.mode !== null && (info.mode & 0o777) !== 0o700) await Deno.chmod(path, 0o700);
  }
}

/**
 * Writes a file atomically with mode 0600 (temp file + rename) in a 0700 directory, so a
 * reader never sees half a file and two writers never mix.
 *
 * @param path the file
 * @param text its content
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await ensurePrivateDir(parentDir(path));
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
