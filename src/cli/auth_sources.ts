/**
 * Where the CLI's credentials come from besides literal flag values: `-H @PATH` header files,
 * references in `-u`/`-K`, and netrc.
 * @module
 */
import { bareHost } from "../http/authority.ts";
import { UsageError } from "../errors/mod.ts";
import type { Authorization, QueryKey } from "../auth/auth_spec.ts";
import { netrcLookup, parseNetrc } from "../auth/netrc.ts";
import type { HeaderField } from "../http/request_spec.ts";
import { warn } from "../output/report.ts";
import type { CliContext } from "./context.ts";
import { Secret } from "../secret.ts";
import { type FlagReference, type FlagReferences, isReference } from "./secret_ref.ts";
import { parseHeaderFlag, parseQueryKey } from "./flag_values.ts";

/**
 * @param values the `-H` values
 * @returns those that name a file of header lines (`@PATH`, `@-`, `@exec:…`)
 */
export function headerReferences(values: readonly string[]): FlagReference[] {
  return values.filter(isHeaderFile).map((value) => ({ flag: "-H", value, headerLines: true }));
}

/**
 * @param value a `-H` value
 * @returns whether it names a file of header lines (`-H @env:NAME` is not a file: it is read
 * as a header line as it is written)
 */
export function isHeaderFile(value: string): boolean {
  return isReference(value) && !value.startsWith("@env:");
}

/**
 * Parses `-H` values: `Name: value`, or `@PATH` / `@-` for a file of header lines (blank
 * lines and `#` comments skipped), as curl reads them.
 *
 * @param values the `-H` values
 * @param references the command line's references, read (see {@link headerReferences})
 * @returns the headers; credential-named values wrapped as secrets
 */
export function parseHeaderFlags(values: string[], references: FlagReferences): HeaderField[] {
  const headers: HeaderField[] = [];
  for (const value of values) {
    if (!isHeaderFile(value)) {
      headers.push(parseHeaderFlag(value.startsWith("@@") ? value.slice(1) : value));
      continue;
    }
    const lines = references.text(value, "-H").split(/\r?\n/);
    for (const [index, line] of lines.entries()) {
      const trimmed = line.trim();
      if (trimmed === "" || trimmed.startsWith("#")) continue;
      try {
        headers.push(parseHeaderFlag(trimmed));
      } catch {
        // The line may hold a secret: name the place, not the text.
        throw new UsageError(`Cannot parse line ${index + 1} of -H ${value}`, {
          hint: 'each line must be "Name: value"',
        });
      }
    }
  }
  return headers;
}

/**
 * @param texts the `-K name=value` values
 * @returns their values, which may be references
 */
export function queryKeyReferences(texts: readonly string[]): FlagReference[] {
  return texts.map((text) => {
    const key = parseQueryKey(text);
    return { flag: `-K ${key.name}=`, value: key.value.reveal() };
  });
}

/**
 * @param text a `-K name=value` value; the value may be a reference
 * @param references the command line's references, read (see {@link queryKeyReferences})
 * @returns the query key
 */
export function parseQueryKeyFlag(text: string, references: FlagReferences): QueryKey {
  const key = parseQueryKey(text);
  const value = references.text(key.value.reveal(), `-K ${key.name}=`);
  return { name: key.name, value: new Secret(value) };
}

/**
 * @param text the `-u` value as written
 * @returns the reference in it: the whole value (`-u @env:CREDS`) or the part after the first
 * colon (`-u ann:@env:PW`)
 */
export function userReferences(text: string): FlagReference[] {
  if (isReference(text)) return [{ flag: "-u", value: text }];
  const value = text.startsWith("@@") ? text.slice(1) : text;
  const colon = value.indexOf(":");
  return colon > 0 ? [{ flag: "-u USER:", value: value.slice(colon + 1) }] : [];
}

/**
 * Splits a `-u` value after resolving references: the whole value (`-u @env:CREDS`) or the
 * part after the first colon (`-u ann:@env:PW`).
 *
 * @param text the `-u` value as written
 * @param references the command line's references, read (see {@link userReferences})
 * @returns the user, the password when given, and how to name the value in messages
 */
export function splitUserFlag(
  text: string,
  references: FlagReferences,
): { username: string; password?: Secret; label: string } {
  const whole = isReference(text);
  const value = references.text(text, "-u");
  const label = whole ? `-u ${text}` : `-u "${value.split(":")[0]}"`;
  const colon = value.indexOf(":");
  if (colon === 0) throw new UsageError(`Cannot parse ${label}: missing user name`);
  if (colon < 0) return { username: value, label };
  const password = whole
    ? value.slice(colon + 1)
    : references.text(value.slice(colon + 1), "-u USER:");
  return { username: value.slice(0, colon), password: new Secret(password), label };
}

/** The netrc flags. */
export interface NetrcFlags {
  /** False with `--no-netrc`. */
  netrc?: boolean | undefined;
  /** `--netrc-file PATH`. */
  netrcFile?: string | undefined;
}

/**
 * Basic credentials from netrc for a request that sets no Authorization itself: `--netrc-file`,
 * else `$NETRC`, else `~/.netrc` (`%USERPROFILE%\_netrc` on Windows). A file readable by group
 * or others is used with a warning.
 *
 * @param flags `--no-netrc` and `--netrc-file`
 * @param url the request URL
 * @param context the run: its environment and stderr
 * @returns Basic credentials for the URL's host, if the file has them
 * @throws {UsageError} when `--netrc-file` names a file that cannot be read
 */
export async function netrcAuthorization(
  flags: NetrcFlags,
  url: URL,
  context: CliContext,
): Promise<Authorization | undefined> {
  if (flags.netrc === false) return undefined;
  const explicit = flags.netrcFile;
  const path = explicit ?? context.env("NETRC") ?? defaultNetrcPath(context.env);
  if (path === undefined) return undefined;
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new Deno.errors.NotFound();
    text = await Deno.readTextFile(path);
    if (info.mode !== null && (info.mode & 0o077) !== 0 && Deno.build.os !== "windows") {
      await warn(context.stderr, `netrc file ${path} is readable by others; run chmod 600 ${path}`);
    }
  } catch (error) {
    if (explicit === undefined) return undefined;
    const reason = error instanceof Deno.errors.NotFound ? "no such file" : "cannot read it";
    throw new UsageError(`Cannot read --netrc-file ${explicit}: ${reason}`);
  }
  const entry = netrcLookup(parseNetrc(text), bareHost(url.hostname));
  if (!entry) return undefined;
  return { kind: "basic", username: entry.login, password: entry.password };
}

function defaultNetrcPath(env: CliContext["env"]): string | undefined {
  if (Deno.build.os === "windows") {
    const home = env("USERPROFILE");
    return home === undefined ? undefined : `${home}\\_netrc`;
  }
  const home = env("HOME");
  return home === undefined ? undefined : `${home}/.netrc`;
}
