/**
 * Writing request files: a request model to `.http` text that {@link parseHttpFile} reads
 * back to the same request, and in-place edits of one request in a file's text (the rest of
 * the file, comments and blank lines included, is kept byte for byte).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import type { HttpRequest, HttpyacScript } from "./http_file_types.ts";
import { parseHttpFile } from "./parse_http_file.ts";
import { isGraphqlQueryLine } from "./_http_productions.ts";

/** A request to write; every value may hold `{{variables}}`. */
export interface RequestModel {
  /** Written as `### NAME` and `# @name NAME` (JetBrains and REST Client both read it). */
  name?: string;
  /** Comment lines above the request line. */
  comments?: string[];
  /** Directives, e.g. `{ name: "no-redirect" }` or `{ name: "timeout", value: "5" }`. */
  directives?: { name: string; value?: string }[];
  /** A `GRPC` request's `.proto` files (httpyac's `proto < path` and `includeDirs` lines). */
  protos?: { path: string; importPaths: string[] }[];
  /** The method, e.g. `POST`. */
  method: string;
  /** The URL (it may hold variables). */
  url: string;
  /** Headers in order. */
  headers?: { name: string; value: string }[];
  /**
   * The body: text written in place, a file included with `< path`, or parts in order, text
   * lines and `< path` includes (a multipart body's files).
   */
  body?: string | { file: string } | { parts: ReadonlyArray<string | { file: string }> };
  /** Pre-request scripts (`< {% … %}`, `< ./script.js`), written above the request line. */
  preScripts?: ScriptModel[];
  /** Response handlers (`> {% … %}`, `> ./handler.js`), written after the body. */
  handlers?: ScriptModel[];
  /** `>> path` / `>>! path` lines: where the response body is saved (`!` overwrites). */
  outputs?: { path: string; overwrite: boolean }[];
  /** `?? …` assertion lines (httpyac's), as written without `??`, after everything else. */
  assertions?: string[];
}

/** A script of a request: its code (between `{%` and `%}`) or a file it names. */
export type ScriptModel = { code: string; httpyac?: HttpyacScript } | { file: string };

/**
 * Writes one request as `.http` text, ending with a line break.
 *
 * @param model the request
 * @returns the text, without a leading `###` unless the request is named
 * @throws {UsageError} when a value cannot be written so that it reads back the same (a
 *   line break in the URL or a header, a body line that reads as a separator or a handler)
 * @example
 * ```ts
 * writeHttpRequest({ name: "me", method: "GET", url: "{{base}}/me" });
 * // "### me\n# @name me\nGET {{base}}/me\n"
 * ```
 */
export function writeHttpRequest(model: RequestModel): string {
  const lines: string[] = [];
  const single = (text: string, what: string) => {
    if (/[\r\n]/.test(text)) throw new UsageError(`Cannot write ${what} with a line break`);
    return text;
  };
  if (model.name !== undefined) lines.push(...nameLines(model.name));
  for (const comment of model.comments ?? []) {
    for (const line of comment.split(/\r?\n/)) lines.push(`# ${line}`.trimEnd());
  }
  for (const d of model.directives ?? []) {
    // The name is written above; a `name` directive carried from the source file is the same line.
    if (d.name === "name" && model.name !== undefined) continue;
    lines.push(
      `# @${single(d.name, "a directive")}${d.value ? ` ${single(d.value, "a directive")}` : ""}`,
    );
  }
  lines.push(...protoLines(model.protos ?? []));
  for (const script of model.preScripts ?? []) lines.push(scriptBlock("<", script));
  const url = single(model.url, "a URL");
  // As the parser reads it: spaces only inside {{ … }} (`{{$processEnv KEY}}`).
  if (/\s/.test(url.replace(/\{\{[^{}]*\}\}/g, ""))) {
    throw new UsageError(`Cannot write the URL "${url}": it holds a space`);
  }
  lines.push(`${single(model.method, "a method").toUpperCase()} ${url}`);
  for (const h of model.headers ?? []) {
    lines.push(`${single(h.name, "a header name")}: ${single(h.value, `header "${h.name}"`)}`);
  }
  if (model.body !== undefined) lines.push("", ...bodyLines(model, model.body));
  const tail = [
    ...(model.handlers ?? []).map((script) => scriptBlock(">", script)),
    ...(model.outputs ?? []).map((o) => `>>${o.overwrite ? "!" : ""} ${single(o.path, "a path")}`),
    ...(model.assertions ?? []).map((a) => `?? ${single(a, "an assertion")}`),
  ];
  if (tail.length) lines.push("", ...tail);
  return lines.join("\n") + "\n";
}

/**
 * A request's body as its lines: text in place, `< path` for an included file.
 *
 * @throws {UsageError} for a line that would read as request syntax (a separator, a handler, a
 *   comment: a GraphQL query's `#` line only under a line of the query)
 */
function bodyLines(model: RequestModel, body: NonNullable<RequestModel["body"]>): string[] {
  const lines: string[] = [];
  const parts = typeof body === "string" ? [body] : "file" in body ? [body] : body.parts;
  // The body's text lines so far: a GraphQL query's `#` line is its own, not a comment.
  const above: string[] = [];
  // After an included file, a `#` line is a comment again (as the parser reads it).
  let included = false;
  for (const part of parts) {
    if (typeof part !== "string") {
      if (/[\r\n]/.test(part.file)) {
        throw new UsageError("Cannot write a file path with a line break");
      }
      lines.push(`< ${part.file}`);
      included = true;
      continue;
    }
    for (const line of part.replace(/\r\n/g, "\n").split("\n")) {
      const method = model.method.toUpperCase();
      const query = !included && isGraphqlQueryLine(method, model.headers ?? [], above, line);
      above.push(line);
      if (!query && /^(###|>\s|>\{%|<>\s|<@?[\w-]*\s|\s*#|\s*\/\/|\s*\?\?)/.test(line)) {
        const graphql = method === "GRAPHQL" && /^\s*#(?!##)/.test(line);
        throw new UsageError(
          graphql
            ? `Cannot write the GraphQL query in place: its line "${
              line.slice(0, 40)
            }" is above the query or after a blank line, where a request file (httpyac's and dial's) reads a comment, not sent: put it under a line of the query`
            : `Cannot write the body in place: its line "${
              line.slice(0, 40)
            }" would read as request syntax`,
          { remedy: { use: "body_include" } },
        );
      }
      lines.push(line);
    }
  }
  return lines;
}

/**
 * A new request's name as written above it: `### NAME` and `# @name NAME` (JetBrains and REST
 * Client both read it).
 *
 * @param name the name
 * @returns the two lines, without line breaks
 * @throws {UsageError} for a name with a line break
 */
export function nameLines(name: string): string[] {
  if (/[\r\n]/.test(name)) throw new UsageError("Cannot write a request name with a line break");
  const trimmed = name.trim();
  return [`### ${trimmed}`, `# @name ${trimmed}`];
}

/**
 * One script line or block. The code keeps its lines; the line break that follows `{%` and the
 * one before `%}` are the block's own, so a block read back and written again is the same text.
 */
function scriptBlock(mark: "<" | ">", script: ScriptModel): string {
  if ("file" in script) {
    if (/[\r\n]/.test(script.file) || !script.file.trim()) {
      throw new UsageError(`Cannot write the script path "${script.file}"`);
    }
    return `${mark} ${script.file}`;
  }
  if (script.httpyac) {
    // httpyac's block keeps its form: its code means httpyac's API, not JetBrains'.
    if (/^\s*\}\}\s*$/m.test(script.code)) {
      throw new UsageError('Cannot write an httpyac script block holding a "}}" line');
    }
    const { every, event } = script.httpyac;
    return `{{${every ? "+" : event ? "@" : ""}${event}\n${script.code}\n}}`;
  }
  const what = mark === "<" ? "pre-request script" : "handler";
  if (script.code.includes("%}")) throw new UsageError(`Cannot write a ${what} holding "%}"`);
  if (!/[\r\n]/.test(script.code)) return `${mark} {% ${script.code.trim()} %}`;
  const code = script.code.replace(/^[ \t]*\r?\n/, "").replace(/\r?\n[ \t]*$/, "");
  if (/^###/m.test(code)) throw new UsageError(`Cannot write a ${what} holding a "###" line`);
  return `${mark} {%\n${code}\n%}`;
}

/**
 * httpyac's `proto < path` lines, each with its `includeDirs` line (a JSON list).
 *
 * @param protos the `.proto` files and their import folders
 * @returns the lines
 * @throws {UsageError} for a path with a line break
 */
export function protoLines(protos: readonly { path: string; importPaths: string[] }[]): string[] {
  const lines: string[] = [];
  for (const proto of protos) {
    if (/[\r\n]/.test(proto.path) || !proto.path.trim()) {
      throw new UsageError(`Cannot write the .proto path "${proto.path}"`);
    }
    lines.push(`proto < ${proto.path}`);
    if (proto.importPaths.length) lines.push(`includeDirs: ${JSON.stringify(proto.importPaths)}`);
  }
  return lines;
}

/**
 * Replaces one request's text in a file's source, keeping everything else byte for byte.
 *
 * @param source the file's text
 * @param request the request, as parsed from `source`
 * @param text its new text (a trailing line break is added when the old text had one)
 * @returns the new source
 * @throws {UsageError} when `request` was not parsed from this source
 */
export function replaceRequest(source: string, request: HttpRequest, text: string): string {
  const { start, end } = request.span;
  if (end > source.length || start > end) {
    throw new UsageError(
      `Cannot edit request ${request.index}: the file changed since it was read`,
    );
  }
  const old = source.slice(start, end);
  const lineBreak = /\r\n$/.test(old) ? "\r\n" : /[\r\n]$/.test(old) ? old.at(-1)! : "";
  const body = lineBreak && !/[\r\n]$/.test(text) ? text + lineBreak : text;
  return source.slice(0, start) + body + source.slice(end);
}

/**
 * Appends a request to a file's text, with a `###` separator when the file already holds a
 * request and the new text does not start with one.
 *
 * @param source the file's text (may be empty)
 * @param text the request's text, e.g. from {@link writeHttpRequest}
 * @returns the new source
 */
export function appendRequest(source: string, text: string): string {
  let prefix = source;
  if (prefix !== "" && !prefix.endsWith("\n")) prefix += "\n";
  const hasRequest = prefix.trim() !== "" && parseHttpFile(prefix).requests.length > 0;
  const separator = hasRequest && !text.startsWith("###") ? "###\n" : "";
  const gap = prefix.trim() !== "" ? "\n" : "";
  return prefix + gap + separator + text;
}

/**
 * Removes one request from a file's text, with the blank lines after it, keeping the rest byte
 * for byte.
 *
 * @param source the file's text
 * @param request the request, as parsed from `source`
 * @returns the new source
 */
export function removeRequest(source: string, request: HttpRequest): string {
  const { start, end } = request.span;
  const rest = source.slice(end).replace(/^(?:[ \t]*\r?\n)+/, "");
  return source.slice(0, start) + rest;
}

/**
 * Finds the request at a place in the file (an editor's cursor).
 *
 * @param requests the file's requests, as parsed
 * @param offset a UTF-16 offset into the source
 * @returns the request whose span holds the offset, else the last one that starts before it
 */
export function requestAt(
  requests: readonly HttpRequest[],
  offset: number,
): HttpRequest | undefined {
  let found: HttpRequest | undefined;
  for (const request of requests) {
    if (request.span.start > offset) break;
    found = request;
  }
  return found;
}
