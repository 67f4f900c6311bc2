/**
 * `-b/--cookie` and `-c/--cookie-jar` flag values to a cookie jar and headers, as curl reads
 * them: `-b 'a=1; b=2'` sends those cookies, `-b FILE` reads a Netscape cookie file,
 * `-c FILE` reads the file when it exists and writes the jar back after the exchange (0600).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { CookieJar } from "../http/cookies.ts";
import type { HeaderField } from "../http/request_spec.ts";
import { Secret } from "../secret.ts";

/** The values of `-b` and `-c` (declared with the request flags). */
export type CookieFlagValues = { cookie?: string | undefined; cookieJar?: string | undefined };

/** Cookies parsed from flags. */
export interface ParsedCookies {
  /** The run's jar, loaded from `-b FILE` and `-c FILE`. */
  jar: CookieJar;
  /** `Cookie` from `-b 'name=value; …'` (sent like `-H Cookie:`, never to another origin). */
  headers: HeaderField[];
  /** Where to write the jar after the exchange (`-c`). */
  saveTo?: string;
  /** The cookie files, for `--curl`: `-b FILE` and `-c FILE`. */
  files: { read?: string; write?: string };
}

/**
 * @param values the flag values
 * @returns the jar, headers and the file to save to
 * @throws {UsageError} on a malformed cookie string or an unreadable `-b` file
 */
export async function parseCookieFlags(values: CookieFlagValues): Promise<ParsedCookies> {
  const jar = new CookieJar();
  const headers: HeaderField[] = [];
  const files: ParsedCookies["files"] = {};
  const given = values.cookie;
  if (given !== undefined && given.includes("=")) {
    const pairs = given.split(";").map((p) => p.trim()).filter((p) => p !== "");
    for (const pair of pairs) {
      if (pair.indexOf("=") <= 0 || /[\r\n]/.test(pair)) {
        throw new UsageError(`Cannot parse cookie "${pair}" in -b: expected name=value`, {
          hint: `write -b "name=value; other=value", or -b FILE for a cookie file`,
        });
      }
    }
    headers.push({ name: "Cookie", value: new Secret(pairs.join("; ")) });
  } else if (given !== undefined) {
    jar.load(await readCookieFile(given, "-b", false));
    files.read = given;
  }
  if (values.cookieJar !== undefined) files.write = values.cookieJar;
  if (values.cookieJar !== undefined) jar.load(await readCookieFile(values.cookieJar, "-c", true));
  return {
    jar,
    headers,
    files,
    ...(values.cookieJar !== undefined ? { saveTo: values.cookieJar } : {}),
  };
}

async function readCookieFile(path: string, flag: string, mayBeMissing: boolean) {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (mayBeMissing && error instanceof Deno.errors.NotFound) return "";
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read cookie file "${path}" for ${flag}: ${why}`);
  }
}

/**
 * Writes the jar to its file atomically (a temporary file in the same directory, renamed)
 * with mode 0600: cookies are credentials.
 *
 * @param jar the jar
 * @param path the `-c` file
 */
export async function saveCookieJar(jar: CookieJar, path: string): Promise<void> {
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, jar.serialize(), { mode: 0o600, createNew: true });
    if (Deno.build.os !== "windows") await Deno.chmod(temp, 0o600);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
