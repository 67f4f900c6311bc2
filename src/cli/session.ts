/**
 * `--session NAME|path` and `--session-read-only`, as HTTPie's sessions: headers, cookies and
 * auth kept per host between runs, in a 0600 JSON file. A NAME lives under
 * `$XDG_CONFIG_HOME/dial/sessions/<host_port>/NAME.json`; a path (holding `/` or ending in
 * `.json`) is used as it is and is bound to the origin it was first used with.
 *
 * Safer than HTTPie: credentials are kept only as references (`-u ann:@env:PW`, `-B @file`);
 * a literal password, token or credential-named header is used for the run but not written
 * (stderr says so). Cookies are kept, as `-c` keeps them (0600).
 * @see https://httpie.io/docs/cli/sessions
 * @module
 */
import { joinPath, writePrivateFile } from "../cache.ts";
import { isCredentialName } from "../credential_name.ts";
import { UsageError } from "../errors/mod.ts";
import { CookieJar } from "../http/cookies.ts";
import { parseHeader } from "../http/values.ts";
import { isReference } from "./secret_ref.ts";

/** A session file's content. */
export interface SessionData {
  /** The origin the session belongs to. */
  origin: string;
  /** Headers as `Name: value`, sent before the command line's. */
  headers: string[];
  /** Auth as typed: `-u` or `-B` with a reference. */
  auth?: { flag: "-u" | "-B"; value: string };
  /** Cookies in the Netscape format (curl's cookie file). */
  cookies: string;
}

/** An open session. */
export interface Session {
  /** The file. */
  path: string;
  /** What it held (or an empty session). */
  data: SessionData;
  /** Whether it applies: a path session used with another origin holds nothing for it. */
  sameOrigin: boolean;
  /** Whether it is written back. */
  readOnly: boolean;
  /** dial's configuration directory, which holds named sessions. */
  configDir: string;
}

/** Headers HTTPie does not keep in a session: they describe one request. */
const ONE_REQUEST = /^(content-|if-)/i;

/**
 * @param value the --session or --session-read-only value
 * @param url the request URL
 * @param readOnly whether to keep the file as it is
 * @param configDir dial's configuration directory (named sessions live there)
 * @returns the session (empty when its file does not exist yet)
 * @throws {UsageError} for a bad name or an unreadable file
 */
export async function openSession(
  value: string,
  url: URL,
  readOnly: boolean,
  configDir: string,
): Promise<Session> {
  const isPath = value.includes("/") || value.includes("\\") || value.endsWith(".json");
  if (!isPath && !/^[\w.-]+$/.test(value)) {
    throw new UsageError(`Invalid session name "${value}": use letters, digits, ".", "_" or "-"`, {
      hint: "or give a path to a .json file",
    });
  }
  const host = url.host.replace(/[^\w.-]/g, "_");
  const path = isPath ? value : joinPath(configDir, "sessions", host, `${value}.json`);
  let text: string | undefined;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new UsageError(`Cannot read session "${path}": ${(error as Error).message}`);
    }
  }
  const data = text === undefined
    ? { origin: url.origin, headers: [], cookies: "" }
    : parseSession(text, path);
  return { path, data, sameOrigin: data.origin === url.origin, readOnly, configDir };
}

function parseSession(text: string, path: string): SessionData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`Invalid session "${path}": not JSON`);
  }
  const bad = () => new UsageError(`Invalid session "${path}": not a dial session file`);
  if (typeof value !== "object" || value === null) throw bad();
  const record = value as Record<string, unknown>;
  const { origin, headers, auth, cookies } = record;
  if (typeof origin !== "string" || typeof cookies !== "string") throw bad();
  if (!Array.isArray(headers) || !headers.every((h) => typeof h === "string")) throw bad();
  let kept: SessionData["auth"];
  if (auth !== undefined) {
    const a = auth as Record<string, unknown>;
    if ((a.flag !== "-u" && a.flag !== "-B") || typeof a.value !== "string") throw bad();
    kept = { flag: a.flag, value: a.value };
  }
  return { origin, headers, cookies, ...(kept ? { auth: kept } : {}) };
}

/** The flags a session adds to a run. */
export interface SessionFlags {
  /** Session headers whose names the command line does not give, as -H values. */
  headers: string[];
  /** Stored auth, when the command line gives none. */
  auth?: { flag: "-u" | "-B"; value: string };
}

/**
 * @param session the open session
 * @param given header names the command line gives (lower-case), and whether it gives auth
 * @returns what to add to the run
 */
export function sessionFlags(
  session: Session,
  given: { headerNames: Set<string>; auth: boolean },
): SessionFlags {
  if (!session.sameOrigin) return { headers: [] };
  const headers = session.data.headers.filter((line) =>
    !given.headerNames.has(line.slice(0, line.indexOf(":")).trim().toLowerCase())
  );
  return { headers, ...(session.data.auth && !given.auth ? { auth: session.data.auth } : {}) };
}

/** What a run gave that a session may keep. */
export interface SessionUpdate {
  /** The command line's headers, `Name: value`. */
  headers: string[];
  /** The command line's `-u`, as typed. */
  user?: string | undefined;
  /** The command line's `-B`, as typed. */
  bearer?: string | undefined;
  /** The run's cookies after the exchange. */
  jar?: CookieJar | undefined;
}

/**
 * Writes the session back (unless read-only): new headers replace those of the same name,
 * auth given as a reference replaces the stored one, the cookies are the run's jar.
 *
 * @param session the open session
 * @param update what the run gave
 * @returns notes for stderr: what was not kept, and why
 */
export async function saveSession(session: Session, update: SessionUpdate): Promise<string[]> {
  if (session.readOnly) return [];
  if (!session.sameOrigin) {
    return [
      `Session "${session.path}" belongs to ${session.data.origin}: not used or changed for another origin`,
    ];
  }
  const notes: string[] = [];
  const base = session.data;
  const headers = new Map(base.headers.map((line) => [nameOf(line), line]));
  for (const line of update.headers) {
    const { name } = parseHeader(line);
    if (ONE_REQUEST.test(name)) continue;
    if (isCredentialName(name)) {
      notes.push(
        `Session: header "${name}" not kept (a credential; sessions keep references only)`,
      );
      continue;
    }
    headers.set(name.toLowerCase(), line);
  }
  let auth = base.auth;
  const given = update.user !== undefined
    ? { flag: "-u" as const, value: update.user }
    : update.bearer !== undefined
    ? { flag: "-B" as const, value: update.bearer }
    : undefined;
  if (given) {
    const password = given.flag === "-u" && !isReference(given.value)
      ? given.value.slice(given.value.indexOf(":") + 1)
      : given.value;
    if (isReference(password) && password !== "@-") auth = given;
    else {
      notes.push(
        `Session: ${given.flag} not kept (give it as @env:NAME or @file to keep a reference)`,
      );
    }
  }
  const data: SessionData = {
    origin: base.origin,
    headers: [...headers.values()],
    ...(auth ? { auth } : {}),
    cookies: update.jar ? update.jar.serialize() : base.cookies,
  };
  await writeSession(session.path, JSON.stringify(data, null, 2) + "\n", session.configDir);
  return notes;
}

function nameOf(line: string): string {
  return line.slice(0, line.indexOf(":")).trim().toLowerCase();
}

/** The session's cookies in a jar, for this run (none from another origin's path session). */
export function sessionJar(session: Session): CookieJar | undefined {
  if (!session.sameOrigin || session.data.cookies === "") return undefined;
  const jar = new CookieJar();
  jar.load(session.data.cookies);
  return jar;
}

async function writeSession(path: string, text: string, configDir: string): Promise<void> {
  if (path.startsWith(configDir)) return await writePrivateFile(path, text);
  // A path the user named: atomic and 0600, its directory left as it is.
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    if (Deno.build.os !== "windows") await Deno.chmod(temp, 0o600);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw new UsageError(`Cannot write session "${path}": ${(error as Error).message}`);
  }
}
