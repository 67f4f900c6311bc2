/**
 * Pieces of the file runner: what scripts see of an exchange and the `.env` file.
 * @module
 */
import { DialError, ErrorCode, UsageError } from "../errors/mod.ts";
import { reveal } from "../secret.ts";
import type { FileRequest } from "./file_request.ts";
import type { HttpFile, HttpRequest } from "./http_file_types.ts";
import { substitute, type VariableScope } from "./substitute.ts";
import { type Confinement, whenResolved } from "./trust_rule.ts";

/**
 * Phases of one exchange, in milliseconds. `firstByteMs` and `totalMs` count from the start of
 * the send (redirects included); the phases are those of the final hop, as dial's client
 * measured them (absent for a response that did not come through it, such as `--offline`).
 */
export interface Timings {
  /** Until the final response's head arrived. */
  firstByteMs: number;
  /** Until its body was read (or streamed to the screen) to the end. */
  totalMs: number;
  /** The final hop's phases, each a duration. */
  phases?: Phases;
}

/**
 * The phases of one hop as durations in milliseconds (curl's `-w` times, differenced). The name
 * lookup is a phase of its own when the transport timed it apart (`measureLookup`); otherwise
 * Deno resolves the name inside its connect and `connectMs` holds it.
 */
export interface Phases {
  /** Before the hop: earlier hops (redirects, a Digest challenge) and the credential step. */
  blockedMs: number;
  /**
   * The host name's lookup (0 for an IP address or a kept-alive connection); absent when the
   * runtime's connect resolved it, then `connectMs` holds it.
   */
  dnsMs?: number;
  /** TCP connect, and the name lookup when `dnsMs` is absent (0 on a kept-alive connection). */
  connectMs: number;
  /** TLS handshake and proxy tunnel (0 for plain HTTP and a kept-alive connection). */
  tlsMs: number;
  /** Writing the request until the first byte of the response. */
  waitMs: number;
  /** Whether the hop reused a kept-alive connection. */
  reused: boolean;
}

/** What handlers, assertions and request variables see of a response. */
export interface Outcome {
  status: number;
  headers: [string, string][];
  /** The body as text: its first {@link HANDLER_BODY_LIMIT} bytes. */
  body: string;
  /** Whether the body was longer than what `body` holds. */
  truncated?: boolean;
  /** When the response's head and its end arrived (HTTP exchanges). */
  timings?: Timings;
  /** The protocol version (`HTTP/1.1`) and reason phrase, where dial's client read them. */
  version?: string;
  reason?: string;
  requestHeaders: [string, string][];
  url: string;
}

/**
 * The most of one response body kept in memory for its handlers, assertions and request
 * variables (16 MiB); the rest streams to the screen and to `>>` files only.
 */
export const HANDLER_BODY_LIMIT = 16 * 1024 * 1024;

/** A WebSocket or subscription: its messages as a JSON array (parsed when they are JSON). */
export function streamOutcome(
  fileRequest: FileRequest,
  status: number,
  messages: string[],
): Outcome {
  const values = messages.map((m) => {
    try {
      return JSON.parse(m) as unknown;
    } catch {
      return m;
    }
  });
  const body = JSON.stringify(values);
  return {
    status,
    headers: [["Content-Type", "application/json"]],
    body,
    requestHeaders: fileRequest.spec.headers.map((h) => [h.name, reveal(h.value)]),
    url: fileRequest.spec.url.href,
  };
}

/**
 * The `.env` of `{{$dotenv NAME}}` in a folder: it must resolve, symlinks followed, inside the
 * run's folders (a `.env` linked to `~/.aws/credentials` is not read).
 *
 * @param dir the folder (a request file's; a UI tab in no file: the workspace's top)
 * @param confinement the run's folders
 * @param of what it is the `.env` of, for messages ("api.http")
 * @returns its `NAME=value` lines; empty when there is none
 */
export async function confinedDotenv(
  dir: string,
  confinement: Confinement,
  of: string,
): Promise<Map<string, string>> {
  const path = await confinement.reading(`${dir}/.env`, {
    what: `the .env file of ${of}`,
    written: ".env",
  });
  return await readDotenv(path);
}

/** The files that make a folder httpyac's project root (its configuration files). */
const HTTPYAC_CONFIG_FILES = [
  ".httpyac.js",
  ".httpyac.cjs",
  ".httpyac.config.js",
  ".httpyac.config.cjs",
  "httpyac.config.js",
  "httpyac.config.cjs",
  ".httpyac.json",
  "httpyac.config.json",
];

/**
 * httpyac's project root of a folder, as httpyac finds it: the nearest folder up with one of its
 * configuration files, else the nearest with a `package.json` or an `env` folder; else none.
 */
function httpyacRoot(dir: string, inside: (dir: string) => boolean): string | undefined {
  for (const markers of [HTTPYAC_CONFIG_FILES, ["package.json", "env"]]) {
    for (let at = dir; inside(at);) {
      if (markers.some((name) => exists(`${at}/${name}`))) return at;
      const parent = at.slice(0, at.lastIndexOf("/")) || "/";
      if (parent === at) break;
      at = parent;
    }
  }
  return undefined;
}

/**
 * httpyac's default variables: the `.env` and `env/.env` files from a folder up to httpyac's
 * project root (the nearest folder with an httpyac configuration file, `package.json` or `env`
 * folder), else up to the top of the run's folders; a nearer one's values over a farther one's
 * (one outside the run's folders, or linked out of them, is not read).
 *
 * @param dir the request file's folder (a real path)
 * @param confinement the run's folders
 * @returns the `NAME=value` lines; empty when there is none
 */
export async function httpyacDotenv(
  dir: string,
  confinement: Confinement,
): Promise<Map<string, string>> {
  const found: Map<string, string>[] = [];
  const inside = (at: string) => confinement.roots.some((root) => at.startsWith(root));
  const top = httpyacRoot(dir, inside);
  for (let at = dir; inside(at);) {
    for (const candidate of [`${at}/env/.env`, `${at}/.env`]) {
      // Most folders have neither: asked without a trip to the runtime's thread pool, which
      // cost each iteration of a `--repeat` or `--data` run ~1 ms.
      if (!exists(candidate)) continue;
      try {
        const path = await confinement.reading(candidate, {
          what: "httpyac's .env",
          written: candidate,
        });
        found.push(await readDotenv(path));
      } catch {
        // Outside the run's folders: not read.
      }
    }
    const parent = at.slice(0, at.lastIndexOf("/")) || "/";
    if (parent === at || at === top) break;
    at = parent;
  }
  // The farthest first, so that nearer values win.
  return new Map(found.reverse().flatMap((values) => [...values]));
}

/** Whether anything (a link too) is at the path. */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A `.env` file's `NAME=value` lines (quotes removed); empty when there is none. */
async function readDotenv(path: string): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return values;
  }
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    values.set(match[1]!, match[2]!.replace(/^(["'])(.*)\1$/, "$2"));
  }
  return values;
}

export function nullBodyStatus(status: number): boolean {
  return status === 101 || status === 103 || status === 204 || status === 205 || status === 304;
}

/**
 * The requests a run selects: by name or 1-based number, in that order, or all; then those
 * whose label matches the filter.
 *
 * @param file the file
 * @param names names or numbers (all when empty)
 * @param filter a pattern on labels
 * @returns the requests
 * @throws {UsageError} for a name the file does not have
 */
export function selectRequests(
  file: HttpFile,
  names: readonly string[] | undefined,
  filter: RegExp | undefined,
): HttpRequest[] {
  let requests = file.requests;
  if (names?.length) {
    requests = names.map((name) => {
      const found = file.requests.find((r) => r.name === name) ??
        (/^\d+$/.test(name) ? file.requests[Number(name) - 1] : undefined);
      if (!found) {
        const known = file.requests.map((r) => r.name).filter((n) => n !== undefined);
        throw new UsageError(`No request named "${name}" in ${file.path}`, {
          details: { choices: known },
          remedy: { choose: "request" },
        });
      }
      return found;
    });
  }
  return filter ? requests.filter((r) => filter.test(labelOf(r))) : requests;
}

/**
 * Names a request for reports.
 *
 * @param request a parsed request
 * @returns its name, else `METHOD url` as written
 */
export function labelOf(request: HttpRequest): string {
  return request.name ?? `${request.method} ${request.url}`;
}

/** A `>> path` file being written as the body streams. */
export interface OutputFile {
  /** The file written (`name_1.ext` when `name.ext` existed). */
  path: string;
  /** Appends a chunk of the body. */
  write(chunk: Uint8Array): Promise<void>;
  /** Ends the file. */
  close(): Promise<void>;
}

/**
 * Opens the file for `>> path` (a new file: `name_1.ext`, `name_2.ext` … when it exists, never
 * one that appears meanwhile) or `>>! path` (replaced).
 *
 * @param path the file, relative paths already resolved
 * @param overwrite `>>!`
 * @returns the open file
 * @throws {DialError} when it cannot be written
 */
export async function openOutput(path: string, overwrite: boolean): Promise<OutputFile> {
  let target = path;
  let file: Deno.FsFile | undefined;
  for (let n = 1; !file; n++) {
    try {
      file = await Deno.open(
        target,
        overwrite
          ? { write: true, create: true, truncate: true }
          : { write: true, createNew: true },
      );
    } catch (error) {
      if (overwrite || !(error instanceof Deno.errors.AlreadyExists)) {
        throw outputFailure(target, error);
      }
      const dot = path.lastIndexOf(".");
      const slash = path.lastIndexOf("/");
      target = dot > slash + 1 ? `${path.slice(0, dot)}_${n}${path.slice(dot)}` : `${path}_${n}`;
    }
  }
  const open = file;
  const written = target;
  return {
    path: written,
    async write(chunk) {
      try {
        for (let bytes = chunk; bytes.length;) bytes = bytes.subarray(await open.write(bytes));
      } catch (error) {
        throw outputFailure(written, error);
      }
    },
    close() {
      open.close();
      return Promise.resolve();
    },
  };
}

function outputFailure(path: string, error: unknown): DialError {
  const reason = error instanceof Deno.errors.NotFound
    ? `the folder ${path.slice(0, path.lastIndexOf("/")) || "/"} does not exist`
    : error instanceof Deno.errors.PermissionDenied
    ? "permission denied"
    : (error as Error).message;
  return new DialError(
    `Cannot save the response to ${path}: ${reason}`,
    ErrorCode.Output,
    { cause: error },
  );
}

/**
 * The files of a request's `>> path` outputs (paths may hold variables; relative ones are
 * beside the request file), each checked to be inside the run's folders: found before the
 * request is sent, so that a refused one sends nothing.
 *
 * @param request the request
 * @param where the scope, the request file, its directory and the run's folders
 * @returns the real paths to write, with `>>!`
 * @throws {import("../errors/mod.ts").UsageError} for a path outside the folders
 */
export async function outputPaths(
  request: HttpRequest,
  where: { scope: VariableScope; path: string; dir: string; confinement: Confinement },
): Promise<{ path: string; overwrite: boolean }[]> {
  if (!request.outputs.length) return [];
  const written = await whenResolved(() =>
    request.outputs.map((output) => {
      const place = {
        what: "the output file",
        path: where.path,
        line: output.span.line,
        column: 1,
      };
      return substitute(output.path, where.scope, place).text;
    })
  );
  const paths: { path: string; overwrite: boolean }[] = [];
  for (const [i, output] of request.outputs.entries()) {
    const text = written[i]!;
    const path = text.startsWith("/") ? text : `${where.dir}/${text.replace(/^\.\//, "")}`;
    const real = await where.confinement.writing(path, {
      what: `the output file of ${where.path}:${output.span.line}`,
      written: text,
    });
    paths.push({ path: real, overwrite: output.overwrite });
  }
  return paths;
}

/**
 * Joins a relative path to a folder, `.` and `..` segments resolved where they can be (for
 * messages and reports: `api/../auth.http` reads `auth.http`).
 *
 * @param dir a folder
 * @param relative a path relative to it (an absolute one is returned as it is)
 * @returns the joined path
 */
export function joinPath(dir: string, relative: string): string {
  if (relative.startsWith("/")) return relative;
  const parts = dir === "." ? [] : dir.split("/");
  for (const part of relative.split("/")) {
    if (part === "." || part === "") continue;
    if (part === ".." && parts.length && parts.at(-1) !== ".." && parts.at(-1) !== "") parts.pop();
    else parts.push(part);
  }
  return parts.join("/") || ".";
}
