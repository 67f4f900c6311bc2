/**
 * `--session` on the request command: the session's headers and auth become flags of the run
 * (the command line's win), its cookies the run's jar; after the exchange it is written back.
 * @module
 */
import { lazy } from "./lazy.ts";
import type { CliContext } from "./context.ts";
import { defaultConfigDir } from "../cache.ts";
import { reveal } from "../secret.ts";
import { CookieJar } from "../http/cookies.ts";
import { parseUrl } from "../http/values.ts";
import { warn } from "../output/report.ts";
import type { Sink } from "../output/terminal.ts";
import type { BuiltRequest } from "./request_build.ts";
import type { RequestFlagValues } from "./request.ts";
import type { Words } from "./request_target.ts";
import { openSession, saveSession, type Session, sessionFlags, sessionJar } from "./session.ts";

/** A session in use for one run. */
export interface SessionRun {
  /** The flags with the session's headers and auth added. */
  flags: RequestFlagValues;
  /** Merges the session's cookies into the run's jar; returns the jar to send with. */
  jar(built: BuiltRequest): CookieJar;
  /** Writes the session back after the exchange. */
  save(built: BuiltRequest, jar: CookieJar, err: Sink): Promise<void>;
}

/**
 * @param name the --session or --session-read-only value
 * @param words the split positional words
 * @param flags the flag values
 * @returns the session's run
 */
export async function useSession(
  name: string,
  words: Words,
  flags: RequestFlagValues,
  context: CliContext,
): Promise<SessionRun> {
  const url = parseUrl(words.urlWord, undefined, true);
  const session: Session = await openSession(
    name,
    url,
    flags.sessionReadOnly !== undefined,
    defaultConfigDir(context.env),
  );
  const itemNames = words.items.length > 0
    ? (await lazy.requestItems()).headerNames(words.items)
    : [];
  const headerNames = new Set([
    ...flags.header.map((h) => h.slice(0, Math.max(0, h.indexOf(":"))).trim().toLowerCase()),
    ...itemNames,
    ...(flags.userAgent !== undefined ? ["user-agent"] : []),
    ...(flags.referer !== undefined ? ["referer"] : []),
  ]);
  const givenAuth = flags.auth !== undefined || flags.bearer !== undefined ||
    flags.oauth2 !== undefined || headerNames.has("authorization");
  const added = sessionFlags(session, { headerNames, auth: givenAuth });
  const withSession: RequestFlagValues = {
    ...flags,
    header: [...added.headers, ...flags.header],
    ...(added.auth?.flag === "-u" ? { auth: added.auth.value, netrc: false } : {}),
    ...(added.auth?.flag === "-B" ? { bearer: added.auth.value, netrc: false } : {}),
  };
  return {
    flags: withSession,
    jar(built) {
      const jar = built.cookies.jar ?? new CookieJar();
      const stored = sessionJar(session);
      if (stored) jar.load(stored.serialize());
      return jar;
    },
    async save(built, jar, err) {
      const notes = await saveSession(session, {
        headers: built.ownHeaders
          .filter((h) => !added.headers.some((line) => sameName(line, h.name)))
          .map((h) => `${h.name}: ${reveal(h.value)}`),
        user: flags.auth,
        bearer: flags.bearer,
        jar,
      });
      if (!flags.silent) { for (const note of notes) await warn(err, note); }
    },
  };
}

function sameName(line: string, name: string): boolean {
  return line.slice(0, line.indexOf(":")).trim().toLowerCase() === name.toLowerCase();
}
