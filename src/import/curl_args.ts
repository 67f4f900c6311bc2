/**
 * A curl command line read as curl reads it: the flags people paste from API documentation,
 * turned into one plain request description. Shared by `dial curl`, `dial import` and the UI's
 * paste. Nothing is read from disk here: file references stay references.
 *
 * @see https://curl.se/docs/manpage.html
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** One multipart field of `-F`/`--form-string`. */
export type CurlFormField =
  | { name: string; value: string }
  | { name: string; path: string; filename?: string; type?: string }
  | { name: string; valueFrom: string };

/** One piece of `-d`/`--data*`/`--json`, kept apart so files are read only when sending. */
export type CurlDataPart =
  /** Text sent as written. */
  | { kind: "text"; text: string }
  /** `@file` of `-d`: the file with CR and LF removed (curl's rule). */
  | { kind: "file-stripped"; path: string }
  /** `@file` of `--data-binary` and `--json`: the file's bytes. */
  | { kind: "file"; path: string }
  /** `--data-urlencode`: a name (possibly empty) and content or a file to encode. */
  | { kind: "urlencode"; name?: string; text?: string; path?: string };

/** What a curl command line asks for. */
export interface CurlRequest {
  /** The method: `-X`, or implied (HEAD for `-I`, POST with data, GET). */
  method: string;
  /** The URL as given (`--url` or the operand); curl adds `http://` when there is no scheme. */
  url: string;
  /** `-H` headers in order, and those `-A`, `-e`, `--json` and `-b name=value` imply. */
  headers: Array<{ name: string; value: string }>;
  /** `-d`/`--data*` pieces, joined with `&` (`--json` pieces are joined without one). */
  data: CurlDataPart[];
  /** Whether the data came from `--json`. */
  json: boolean;
  /** `-F`/`--form-string` fields. */
  form: CurlFormField[];
  /** `-T FILE`: upload this file (PUT). */
  upload?: string;
  /** `-G`: data goes into the query string. */
  get: boolean;
  /** `-u user:password` (split by the reader of the credential). */
  user?: string;
  /** `--oauth2-bearer TOKEN`. */
  bearer?: string;
  /** `-b FILE`: a cookie file to read. */
  cookieFile?: string;
  /** `-c FILE`: a cookie jar to write. */
  cookieJar?: string;
  /** `-k`. */
  insecure: boolean;
  /** `-L`. */
  follow: boolean;
  /** `--max-redirs N`. */
  maxRedirects?: number;
  /** `--compressed` (dial always asks for compressed bodies and decodes them). */
  compressed: boolean;
  /** `-m`/`--max-time` seconds. */
  maxTime?: number;
  /** `--connect-timeout` seconds. */
  connectTimeout?: number;
  /** `-x`/`--proxy`. */
  proxy?: string;
  /** `--noproxy`. */
  noproxy?: string;
  /** `--cacert`, `--cert`, `--key`. */
  cacert?: string;
  /** `--cert`. */
  cert?: string;
  /** `--key`. */
  key?: string;
  /** `-o FILE`. */
  output?: string;
  /** `-i`/`-I`: print the head. */
  include: boolean;
  /** `-v`. */
  verbose: boolean;
  /** `-f`/`--fail`. */
  fail: boolean;
  /** `--fail-with-body`: as `-f`, and the error body is still written. */
  failWithBody: boolean;
  /** `--digest`: `-u` answers a Digest challenge. */
  digest: boolean;
  /** `--aws-sigv4 provider1[:provider2[:region[:service]]]`. */
  awsSigv4?: string;
  /** `-n`/`--netrc`/`--netrc-optional`: credentials from `~/.netrc` (curl reads none without). */
  netrc: boolean;
  /** `--netrc-file FILE`. */
  netrcFile?: string;
  /** `-C`/`--continue-at`: `-` or a byte offset. */
  continueAt?: string;
  /** `--proxy-user user:password`: the proxy's login (curl's flag; dial's is in the proxy URL). */
  proxyUser?: string;
  /** Flags that were read but have no effect on the request (progress, colour…). */
  ignored: string[];
  /**
   * Flags dial's request command takes with curl's meaning, given on as they are:
   * `--resolve`, `--connect-to`, `--unix-socket`, `--retry…`, `-w`, `-D`.
   */
  passthrough: string[];
}

type Handler = (request: CurlRequest, value: string) => void;

const header = (name: string) => (r: CurlRequest, value: string) =>
  void r.headers.push({ name, value });
const data = (kind: "ascii" | "raw" | "binary") => (r: CurlRequest, value: string) => {
  if (kind !== "raw" && value.startsWith("@")) {
    r.data.push({ kind: kind === "binary" ? "file" : "file-stripped", path: value.slice(1) });
  } else r.data.push({ kind: "text", text: value });
};
const seconds = (flag: string, value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    throw new UsageError(`Invalid curl ${flag} value "${value}": expected seconds`);
  }
  return n;
};

/** curl's flags that take a value, by every spelling dial understands. */
const WITH_VALUE: Record<string, Handler> = {
  "-X": (r, v) => void (r.method = v),
  "--request": (r, v) => void (r.method = v),
  "-H": (r, v) => addHeader(r, v),
  "--header": (r, v) => addHeader(r, v),
  "-d": data("ascii"),
  "--data": data("ascii"),
  "--data-ascii": data("ascii"),
  "--data-raw": data("raw"),
  "--data-binary": data("binary"),
  "--data-urlencode": (r, v) => r.data.push(urlencodePart(v)),
  "--json": (r, v) => {
    r.json = true;
    data("binary")(r, v);
  },
  "-F": (r, v) => r.form.push(formField(v, false)),
  "--form": (r, v) => r.form.push(formField(v, false)),
  "--form-string": (r, v) => r.form.push(formField(v, true)),
  "-u": (r, v) => void (r.user = v),
  "--user": (r, v) => void (r.user = v),
  "--oauth2-bearer": (r, v) => void (r.bearer = v),
  "-b": (r, v) => addCookie(r, v),
  "--cookie": (r, v) => addCookie(r, v),
  "-c": (r, v) => void (r.cookieJar = v),
  "--cookie-jar": (r, v) => void (r.cookieJar = v),
  "-A": header("User-Agent"),
  "--user-agent": header("User-Agent"),
  "-e": (r, v) => header("Referer")(r, v.replace(/;auto$/, "")),
  "--referer": (r, v) => header("Referer")(r, v.replace(/;auto$/, "")),
  "--url": (r, v) => void (r.url = v),
  "-T": (r, v) => void (r.upload = v),
  "--upload-file": (r, v) => void (r.upload = v),
  "--max-redirs": (r, v) => void (r.maxRedirects = seconds("--max-redirs", v)),
  "-m": (r, v) => void (r.maxTime = seconds("--max-time", v)),
  "--max-time": (r, v) => void (r.maxTime = seconds("--max-time", v)),
  "--connect-timeout": (r, v) => void (r.connectTimeout = seconds("--connect-timeout", v)),
  "-x": (r, v) => void (r.proxy = v),
  "--proxy": (r, v) => void (r.proxy = v),
  "--noproxy": (r, v) => void (r.noproxy = v),
  "--socks5": (r, v) => void (r.proxy = `socks5://${v}`),
  "--socks5-hostname": (r, v) => void (r.proxy = `socks5h://${v}`),
  "-U": (r, v) => void (r.proxyUser = v),
  "--proxy-user": (r, v) => void (r.proxyUser = v),
  "--aws-sigv4": (r, v) => void (r.awsSigv4 = v),
  "--netrc-file": (r, v) => void (r.netrcFile = v),
  "-C": (r, v) => void (r.continueAt = v),
  "--continue-at": (r, v) => void (r.continueAt = v),
  "--cacert": (r, v) => void (r.cacert = v),
  "-E": (r, v) => void (r.cert = v),
  "--cert": (r, v) => void (r.cert = v),
  "--key": (r, v) => void (r.key = v),
  "-o": (r, v) => void (r.output = v),
  "--output": (r, v) => void (r.output = v),
  ...Object.fromEntries(
    [
      "--resolve",
      "--connect-to",
      "--unix-socket",
      "--retry",
      "--retry-delay",
      "--retry-max-time",
      "-w",
      "--write-out",
      "-D",
      "--dump-header",
    ].map((flag): [string, Handler] => [flag, (r, v) => void r.passthrough.push(flag, v)]),
  ),
};

/** curl's switches that turn on one field of the request, with each field's spellings. */
const TURNS_ON: ReadonlyArray<[Switch, string[]]> = [
  ["insecure", ["-k", "--insecure"]],
  ["follow", ["-L", "--location"]],
  ["compressed", ["--compressed"]],
  ["get", ["-G", "--get"]],
  ["include", ["-i", "--include"]],
  ["verbose", ["-v", "--verbose"]],
  ["fail", ["-f", "--fail"]],
  ["failWithBody", ["--fail-with-body"]],
  ["digest", ["--digest"]],
  ["netrc", ["-n", "--netrc", "--netrc-optional"]],
];

/** The request's fields a switch turns on. */
type Switch =
  | "insecure"
  | "follow"
  | "compressed"
  | "get"
  | "include"
  | "verbose"
  | "fail"
  | "failWithBody"
  | "digest"
  | "netrc";

const head: Handler = (r) => {
  r.method = "HEAD";
  r.include = true;
};

/** curl's switches (no value) dial understands or may ignore. */
const SWITCHES: Record<string, Handler> = {
  ...Object.fromEntries(
    TURNS_ON.flatMap(([field, flags]) =>
      flags.map((flag): [string, Handler] => [flag, (r) => void (r[field] = true)])
    ),
  ),
  "-I": head,
  "--head": head,
  "--retry-all-errors": (r) => void r.passthrough.push("--retry-all-errors"),
};

/** Switches that change only curl's own display or globbing: read and set aside. */
const DISPLAY_ONLY = new Set([
  "-s",
  "--silent",
  "-S",
  "--show-error",
  "-g",
  "--globoff",
  "-#",
  "--progress-bar",
  "--no-progress-meter",
  "-N",
  "--no-buffer",
  "--http1.1",
  "--http2",
]);

/**
 * Reads a curl command's arguments (the words after `curl`).
 *
 * @param args the words, already split as a shell would
 * @returns the request they describe
 * @throws {UsageError} on a flag dial does not carry, a missing value or no URL
 * @example
 * ```ts
 * const request = parseCurlArgs(["-X", "POST", "https://api.test/users", "-d", "a=1"]);
 * // request.method === "POST", request.data[0] is { kind: "text", text: "a=1" }
 * ```
 */
export function parseCurlArgs(args: readonly string[]): CurlRequest {
  const request: CurlRequest = {
    method: "",
    url: "",
    headers: [],
    data: [],
    json: false,
    form: [],
    get: false,
    insecure: false,
    follow: false,
    compressed: false,
    include: false,
    verbose: false,
    fail: false,
    failWithBody: false,
    digest: false,
    netrc: false,
    ignored: [],
    passthrough: [],
  };
  const operands: string[] = [];
  const words = [...args];
  if (words[0] === "curl") words.shift();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      operands.push(word);
      continue;
    }
    // --name=value is not curl's syntax, but a cluster like -sSL or -XPOST is.
    const { flag, inline, rest } = splitWord(word);
    const withValue = WITH_VALUE[flag];
    if (withValue) {
      const value = inline ?? words[++i];
      if (value === undefined) {
        throw new UsageError(`curl flag ${flag} needs a value`);
      }
      withValue(request, value);
    } else if (SWITCHES[flag]) SWITCHES[flag]!(request, "");
    else if (DISPLAY_ONLY.has(flag)) request.ignored.push(flag);
    else throw new UsageError(`curl flag ${flag} is not supported by dial curl`);
    if (rest) words.splice(i + 1, 0, `-${rest}`);
  }
  if (operands.length === 0 && request.url === "") {
    throw new UsageError("The curl command has no URL");
  }
  if (request.url === "") request.url = operands.shift()!;
  if (operands.length > 0) {
    throw new UsageError(`The curl command has more than one URL: "${operands[0]}"`);
  }
  if (request.json) {
    addDefault(request, "Content-Type", "application/json");
    addDefault(request, "Accept", "application/json");
  }
  if (request.method === "") {
    request.method = request.upload !== undefined
      ? "PUT"
      : (request.data.length > 0 && !request.get) || request.form.length > 0
      ? "POST"
      : "GET";
  }
  return request;
}

/**
 * @param request a parsed curl command
 * @returns the flags of {@link CurlRequest.passthrough} without their values, for a report of
 *   what an import or a pasted tab does not carry
 */
export function passthroughFlags(request: CurlRequest): string[] {
  const flags: string[] = [];
  for (let i = 0; i < request.passthrough.length; i++) {
    const flag = request.passthrough[i]!;
    flags.push(flag);
    if (WITH_VALUE[flag]) i++;
  }
  return flags;
}

/** Splits `-XPOST` into `-X` and `POST`, `-sSL` into `-s` and `SL`; long flags stay whole. */
function splitWord(word: string): { flag: string; inline?: string; rest?: string } {
  if (word.startsWith("--") || word.length <= 2) return { flag: word };
  const flag = word.slice(0, 2);
  const tail = word.slice(2);
  if (WITH_VALUE[flag]) return { flag, inline: tail };
  return { flag, rest: tail };
}

function addHeader(request: CurlRequest, line: string): void {
  if (line.startsWith("@")) {
    throw new UsageError(`curl -H ${line} (headers from a file) is not supported by dial curl`);
  }
  // curl: "Name;" sends an empty header, "Name:" removes one; dial has no headers to remove.
  const semi = /^([^:;\s]+);\s*$/.exec(line);
  if (semi) return void request.headers.push({ name: semi[1]!, value: "" });
  const colon = line.indexOf(":");
  if (colon <= 0) throw new UsageError(`Cannot parse curl header "${line}": missing ":"`);
  const name = line.slice(0, colon).trim();
  const value = line.slice(colon + 1).trim();
  if (value === "") return; // curl removes the header: nothing to send
  request.headers.push({ name, value });
}

function addDefault(request: CurlRequest, name: string, value: string): void {
  const lower = name.toLowerCase();
  if (!request.headers.some((h) => h.name.toLowerCase() === lower)) {
    request.headers.push({ name, value });
  }
}

function addCookie(request: CurlRequest, value: string): void {
  if (value.includes("=")) request.headers.push({ name: "Cookie", value });
  else request.cookieFile = value;
}

/**
 * A `--data-urlencode` part as curl sends it: the content percent-encoded, spaces as `+`, after
 * `name=` when the part has a name. The one encoding of `dial curl`, `dial import` and the UI's
 * curl paste.
 *
 * @param part the part (its name)
 * @param content its text, or the file's text
 * @returns the encoded piece of the body
 */
export function urlencodedPiece(part: { name?: string }, content: string): string {
  const encoded = encodeURIComponent(content).replace(/%20/g, "+");
  return part.name ? `${part.name}=${encoded}` : encoded;
}

/** curl's `--data-urlencode` forms: `content`, `=content`, `name=content`, `@file`, `name@file`. */
function urlencodePart(value: string): CurlDataPart {
  const eq = value.indexOf("=");
  const at = value.indexOf("@");
  if (eq === 0) return { kind: "urlencode", text: value.slice(1) };
  if (eq > 0 && (at < 0 || eq < at)) {
    return { kind: "urlencode", name: value.slice(0, eq), text: value.slice(eq + 1) };
  }
  if (at === 0) return { kind: "urlencode", path: value.slice(1) };
  if (at > 0) return { kind: "urlencode", name: value.slice(0, at), path: value.slice(at + 1) };
  return { kind: "urlencode", text: value };
}

/** curl's `-F name=value`, `name=@file;type=…;filename=…`, `name=<file`. */
function formField(spec: string, literal: boolean): CurlFormField {
  const eq = spec.indexOf("=");
  if (eq <= 0) throw new UsageError(`Cannot parse curl form field "${spec}": expected name=value`);
  const name = spec.slice(0, eq);
  const value = spec.slice(eq + 1);
  if (literal) return { name, value };
  if (value.startsWith("<")) return { name, valueFrom: value.slice(1) };
  if (!value.startsWith("@")) return { name, value: value.replace(/;type=[^;]*$/, "") };
  const [pathPart, ...params] = splitFormParams(value.slice(1));
  const field: CurlFormField = { name, path: unquote(pathPart!) };
  for (const param of params) {
    const [key, ...rest] = param.split("=");
    const v = unquote(rest.join("="));
    if (key === "type") field.type = v;
    else if (key === "filename") field.filename = v;
  }
  return field;
}

/** Splits at `;` outside double quotes. */
function splitFormParams(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && quoted && i + 1 < text.length) current += c + text[++i];
    else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === ";" && !quoted) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function unquote(text: string): string {
  return /^".*"$/s.test(text) ? text.slice(1, -1).replace(/\\(.)/g, "$1") : text;
}
