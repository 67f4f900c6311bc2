/**
 * The request command's words and flags to the parts of a request spec: method and URL,
 * request items, the body flags and curl's data flags, auth, cookies and headers. Everything
 * here is checked before anything is sent.
 * @module
 */
import { lazy } from "./lazy.ts";
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import type { BodySource, HeaderField } from "../http/request_spec.ts";
import { parseAuthFlags, type ParsedAuth } from "./auth_flags.ts";
import { parseBodyFlags } from "./body_flags.ts";
import type { RequestFlagValues } from "./request.ts";
import type { FlagUse } from "./declare.ts";
import type { CurlData } from "./curl_body.ts";
import type { ParsedItems } from "./request_items.ts";
import { requestTarget, type Words } from "./request_target.ts";

/** The cookie flags' module and what it read. */
type CookieFlags = typeof import("./cookie_flags.ts");
type ParsedCookies =
  | import("./cookie_flags.ts").ParsedCookies
  | { headers: HeaderField[]; jar: undefined; files: Record<never, never>; saveTo: undefined };

/** A request's parts, from the command line. */
export interface BuiltRequest {
  /** The method. */
  method: string;
  /** The URL, query items and `-G` data added. */
  url: URL;
  /** Auth and the `-H` headers. */
  auth: ParsedAuth;
  /** Every header, in order: `-H`, items, `-A`, `-e`, cookies, the body's. */
  headers: HeaderField[];
  /** The headers the user gave: `-H`, items, `-A`, `-e` (what a session keeps). */
  ownHeaders: HeaderField[];
  /** The body. */
  body?: BodySource;
  /** What `-b`/`-c` read. */
  cookies: ParsedCookies;
  /** The cookie flags' module, when `-b` or `-c` was given. */
  cookieFlags?: CookieFlags;
}

/**
 * @param words the split positional words
 * @param flags the flag values
 * @param context the run: its stdin
 * @param order every flag as given, in order
 * @returns the request's parts
 * @throws {UsageError} on anything that cannot be sent as asked
 */
export async function buildSpec(
  words: Words,
  flags: RequestFlagValues,
  context: CliContext,
  order: readonly FlagUse[],
): Promise<BuiltRequest> {
  checkUserValue(flags.auth);
  const { items, itemModule, data, body } = await bodyOf(words, flags, context, order);
  const target = requestTarget(words, flags, body.body !== undefined);
  const url = withQuery(target.url, [
    ...items.query.map(([name, value]) =>
      `${itemModule!.formEncode(name)}=${itemModule!.formEncode(value)}`
    ),
    ...(data.query ? [data.query] : []),
  ]);
  const auth = await parseAuthFlags(flags, url, context, items.headers);
  const named = namedHeaders(flags, auth);
  const { cookies, cookieFlags } = await cookiesOf(flags, auth);
  // A GET or HEAD with a body goes as curl and HTTPie send it (Elasticsearch's `GET _search`).
  const own = [...auth.headers, ...named];
  return {
    method: target.method,
    url,
    auth,
    headers: headerList(own, cookies.headers, body.headers, items.unset),
    ownHeaders: own,
    ...(body.body ? { body: body.body } : {}),
    cookies,
    ...(cookieFlags ? { cookieFlags } : {}),
  };
}

/** The request items, curl's data flags and the body flags, and the body they make. */
async function bodyOf(
  words: Words,
  flags: RequestFlagValues,
  context: CliContext,
  order: readonly FlagUse[],
) {
  // Items and curl's data flags load their modules only when given.
  const itemModule = words.items.length > 0 ? await lazy.requestItems() : undefined;
  const items: ParsedItems = await itemModule?.parseItems(words.items, words.itemPosition) ??
    { headers: [], unset: [], query: [], data: [], files: [] };
  const curlBody = flags.uploadFile !== undefined || flags.get ||
      flags.dataUrlencode.length > 0 || flags.dataRaw.length > 0
    ? await lazy.curlBody()
    : undefined;
  const data: CurlData = curlBody
    ? await curlBody.curlData({ ...flags, data: curlBody.dataParts(order) }, context)
    : { tookData: false };
  const formMode = flags.form.includes("");
  const flagsBody = await parseBodyFlags({
    ...flags,
    data: data.tookData ? [] : flags.data,
    form: flags.form.filter((field) => field !== ""),
  }, context);
  const base = data.body ? { body: data.body, headers: [] } : flagsBody;
  const body = items.firstBodyItem === undefined
    ? base
    : (await lazy.itemsBody()).itemsBody(items, {
      data: flags.data.length > 0 || flags.dataUrlencode.length > 0 || flags.dataRaw.length > 0,
      json: flags.json !== undefined,
      upload: flags.uploadFile !== undefined,
      formMode,
    }, base);
  return { items, itemModule, data, body };
}

/** `-A` and `-e` as headers, refused beside an `-H` of the same name. */
function namedHeaders(flags: RequestFlagValues, auth: ParsedAuth): HeaderField[] {
  const named = [
    ...(flags.userAgent !== undefined ? [{ name: "User-Agent", value: flags.userAgent }] : []),
    ...(flags.referer !== undefined ? [{ name: "Referer", value: flags.referer }] : []),
  ];
  for (const header of named) {
    if (auth.headers.some((h) => h.name.toLowerCase() === header.name.toLowerCase())) {
      const flag = header.name === "Referer" ? "-e" : "-A";
      throw new UsageError(
        `Conflicting flags ${flag} and a "${header.name}" header: both set ${header.name}`,
        { hint: "use only one of them" },
      );
    }
  }
  return named;
}

/** What `-b` and `-c` read (their module loads only when given), refused beside `-H Cookie:`. */
async function cookiesOf(
  flags: RequestFlagValues,
  auth: ParsedAuth,
): Promise<{ cookies: ParsedCookies; cookieFlags: CookieFlags | undefined }> {
  const cookieFlags = flags.cookie !== undefined || flags.cookieJar !== undefined
    ? await lazy.cookieFlags()
    : undefined;
  const cookies: ParsedCookies = await cookieFlags?.parseCookieFlags(flags) ??
    { headers: [], jar: undefined, files: {}, saveTo: undefined };
  if (cookies.headers.length && auth.headers.some((h) => h.name.toLowerCase() === "cookie")) {
    throw new UsageError('Conflicting flags -b and -H "Cookie: …": both set the Cookie header', {
      hint: "use only one of them",
    });
  }
  return { cookies, cookieFlags };
}

/**
 * Every header in order: the user's, the cookies', then the body's where the user set none of
 * that name (a body's Accept gives way to the user's); HTTPie's `Name:` items remove a header
 * given earlier and dial's default of that name.
 */
function headerList(
  own: HeaderField[],
  cookies: HeaderField[],
  body: HeaderField[],
  unset: string[],
): HeaderField[] {
  const implied = body.filter((h) =>
    !own.some((o) => o.name.toLowerCase() === h.name.toLowerCase())
  );
  let headers = [...own, ...cookies, ...implied];
  for (const name of unset) {
    headers = headers.filter((h) => h.name.toLowerCase() !== name.toLowerCase());
    headers.push({ name, value: "", remove: true });
  }
  return headers;
}

/**
 * `-a -T file URL` (curl's `--append`, a switch) takes the next flag as `-a`'s user name.
 *
 * @param text the value of `-u`/`-a`
 * @throws {UsageError} when it is a flag rather than a user name
 */
function checkUserValue(text: string | undefined): void {
  if (text === undefined || !/^--?[A-Za-z]/.test(text) || text.includes(":")) return;
  throw new UsageError(`Missing user name after -u/-a: "${text}" is a flag`, {
    hint:
      "-u and HTTPie's -a take USER[:PASSWORD]; curl's -a (--append) appends on FTP/SFTP only, over HTTP leave it out",
  });
}

/** Appends encoded `name=value` pairs to a URL's query, keeping what it has. */
function withQuery(url: URL, pairs: string[]): URL {
  if (pairs.length === 0) return url;
  const result = new URL(url);
  const added = pairs.filter((p) => p !== "").join("&");
  if (added === "") return result;
  result.search = result.search.length > 1 ? `${result.search}&${added}` : `?${added}`;
  return result;
}
