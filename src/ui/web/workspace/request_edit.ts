/**
 * A request of a `.http` file as the HTTP tab edits it, and back: {@link draftOfRequest} reads
 * a parsed request into the tab's fields, {@link saveInPlace} writes the tab's fields back into
 * the file's text, replacing only the request line, headers and body of that request. Its
 * comments, directives, scripts and response handlers, and every other request of the file,
 * stay byte for byte. Pure: the parser and writer are the request files' own (`src/files/`).
 * @module
 */
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { nameLines, writeHttpRequest } from "../../../files/write_http_file.ts";
import {
  DEFAULT_BOUNDARY,
  multipartBodyParts,
  multipartBoundary,
  type MultipartField,
  readMultipartBody,
} from "../../../files/multipart_body.ts";
import type { FileJson } from "../../protocol.ts";

/** The HTTP tab's fields. */
export interface HttpDraft {
  method: string;
  url: string;
  headers: Array<{ name: string; value: string; enabled: boolean }>;
  bodyKind: "none" | "json" | "text" | "form";
  body: string;
  form: Array<{ name: string; value: string; enabled: boolean; file?: FileJson }>;
  /** Its `??` assertion lines, after `??` (none: absent); a save adds those the file lacks. */
  assertions?: string[];
}

/**
 * @param request a parsed request
 * @returns the tab's fields for it (`{{variables}}` kept as written)
 */
export function draftOfRequest(request: HttpRequest): HttpDraft {
  const lines = request.assertions.map((a) => a.text);
  const assertions = lines.length ? { assertions: lines } : {};
  const body = bodyText(request);
  const type = contentTypeOf(request);
  const bodyKind = body === ""
    ? "none"
    : /json/i.test(type) || (type === "" && /^\s*[[{]/.test(body))
    ? "json"
    : "text";
  const headers = request.headers.map((h) => ({ name: h.name, value: h.value, enabled: true }));
  // A multipart/form-data body is the form table; its Content-Type comes back when written.
  const fields = formStyleOf(request)?.fields;
  if (fields) {
    return {
      method: request.method,
      url: request.url,
      headers: headers.filter((h) => h.name.toLowerCase() !== "content-type"),
      bodyKind: "form",
      body: "",
      form: fields.map((f) => ({
        name: f.name,
        value: f.file !== undefined ? `< ${f.file}` : f.value ?? "",
        enabled: true,
      })),
      ...assertions,
    };
  }
  return {
    method: request.method,
    url: request.url,
    headers,
    bodyKind,
    body,
    form: [],
    ...assertions,
  };
}

function bodyText(request: HttpRequest): string {
  return request.body.map((part) =>
    part.kind === "text" ? part.text : `<${part.substitute ? "@" : ""} ${part.path}`
  ).join("\n");
}

function contentTypeOf(request: HttpRequest): string {
  return request.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
}

/**
 * How a file writes a request's form: its Content-Type as written (the boundary its parts use)
 * and the parts, whose file names and own Content-Types the form table does not show.
 */
export interface FormStyle {
  contentType: string;
  boundary: string;
  fields: MultipartField[];
}

/**
 * @param request a parsed request
 * @returns how its multipart/form-data body is written, or undefined when it has none
 */
export function formStyleOf(request: HttpRequest): FormStyle | undefined {
  const contentType = contentTypeOf(request);
  const boundary = multipartBoundary(contentType);
  const fields = boundary === undefined
    ? undefined
    : readMultipartBody(bodyText(request), boundary);
  return boundary !== undefined && fields ? { contentType, boundary, fields } : undefined;
}

/** A form's rows as they are written and compared (attached files by name only). */
function formRows(draft: HttpDraft): string {
  return JSON.stringify(
    draft.bodyKind !== "form"
      ? []
      : draft.form.map((r) => [r.name, r.value, r.enabled, r.file?.name ?? null]),
  );
}

/**
 * Writes the tab's fields into the file's text in place of the request's own, and after them
 * the `??` lines the tab has and the file does not.
 *
 * @param source the file's text, as `request` was parsed from
 * @param request the request
 * @param draft the tab's fields
 * @returns the new text of the file
 * @throws {import("../../../errors/mod.ts").UsageError} when the fields cannot be written so they
 * read back the same (a file attached in the browser, a body line that reads as request syntax)
 */
export function saveInPlace(source: string, request: HttpRequest, draft: HttpDraft): string {
  const text = replaceInPlace(source, request, draft, sameHttpBody(request, draft));
  const have = new Set(request.assertions.map((a) => a.text));
  const added = (draft.assertions ?? []).filter((line) => !have.has(line));
  if (!added.length) return text;
  // After the request's body (or its head) and its own `??` lines, which stay as they are.
  const headEnd = request.headers.at(-1)?.span.end ?? request.requestLine.end;
  const after = Math.max(
    request.bodySpan?.end ?? headEnd,
    ...request.assertions.map((a) => a.span.end),
  );
  const at = after + text.length - source.length;
  const head = text.slice(0, at);
  const lines = added.map((line) => `?? ${line}\n`).join("");
  return `${head}${head.endsWith("\n") ? "" : "\n"}${lines}${text.slice(at)}`;
}

/** Whether the HTTP tab's body means what the request's does (then the file's text is kept). */
function sameHttpBody(request: HttpRequest, draft: HttpDraft): boolean {
  const before = draftOfRequest(request);
  return before.bodyKind === draft.bodyKind && before.body === draft.body &&
    formRows(before) === formRows(draft);
}

/**
 * Writes fields into the file's text in place of the request's request line, headers and
 * body; an unchanged body keeps its own text (a `< file` include, its blank lines, its
 * formatting).
 *
 * @param source the file's text, as `request` was parsed from
 * @param request the request
 * @param draft the fields to write
 * @param sameBody whether the body means what the file's does (then it is kept as written)
 * @returns the new text of the file
 */
export function replaceInPlace(
  source: string,
  request: HttpRequest,
  draft: HttpDraft,
  sameBody: boolean,
): string {
  const start = request.requestLine.start;
  const end = request.bodySpan?.end ??
    request.headers.at(-1)?.span.end ?? request.requestLine.end;
  return source.slice(0, start) + ownText(source, request, draft, sameBody) + source.slice(end);
}

/**
 * The tab's request as written over a request of a file, the one writer of a save in place,
 * "Keep both" and the "Yours" of a conflict: the fields' request line, headers and body, then
 * their `??` lines, each line the fields did not change kept as the file has it
 * (`Content-Type:   application/json` stays so).
 *
 * @param source the file's text
 * @param request the request as the file has it now (parsed from `source`); none when the
 *   file no longer has it: then the fields are written anew
 * @param draft the tab's fields
 * @param options `name`: a new request's name (`### name` and `# @name name` above it);
 *   `sameBody`: whether the body means the request's (its text is kept; default: the HTTP
 *   tab's rule)
 * @returns the request's text, ending with a line break
 * @throws {import("../../../errors/mod.ts").UsageError} when the fields cannot be written so
 *   they read back the same
 */
export function writeOver(
  source: string,
  request: HttpRequest | undefined,
  draft: HttpDraft,
  options: { name?: string | undefined; sameBody?: boolean } = {},
): string {
  if (!request) return writeDraft(draft, options.name);
  const own = ownText(source, request, draft, options.sameBody ?? sameHttpBody(request, draft));
  return [
    ...options.name === undefined ? [] : nameLines(options.name).map((line) => `${line}\n`),
    own.endsWith("\n") ? own : `${own}\n`,
    ...(draft.assertions ?? []).map((line) => `?? ${line}\n`),
  ].join("");
}

/**
 * The fields' request line, headers and body in place of the request's own (its `??` lines
 * left out: they are the file's own, a save adds the new ones after them).
 */
function ownText(
  source: string,
  request: HttpRequest,
  draft: HttpDraft,
  sameBody: boolean,
): string {
  const { assertions: _, ...fields } = draft;
  draft = fields;
  const headEnd = request.headers.at(-1)?.span.end ?? request.requestLine.end;
  const end = request.bodySpan?.end ?? headEnd;
  // A form keeps the file's boundary and its parts' file names and Content-Types.
  const style = formStyleOf(request);
  const bare = writeDraft({ ...draft, headers: headersOf(draft, style), bodyKind: "none" })
    .replace(/\n$/, "");
  const head = keepUnchangedLines(source, request, bare);
  let text: string;
  if (sameBody) text = `${head}\n${source.slice(headEnd, end)}`;
  else {
    // The body as written after the head (the head's own lines kept where unchanged), and the
    // comment lines between the head and the body kept.
    const full = writeDraft(draft, undefined, style);
    const comments = source.slice(headEnd, request.bodySpan?.start ?? end).split(/\r?\n/)
      .filter((line) => /^\s*(#|\/\/)/.test(line));
    const kept = comments.map((line) => `\n${line}`).join("");
    text = full.startsWith(bare) ? head + kept + full.slice(bare.length) : full;
  }
  return text;
}

/**
 * The request line and headers as written for the fields, with each line the fields did not
 * change kept as the file has it (`Content-Type:   application/json` stays so; a URL continued
 * over several lines stays so), and the comment lines between them (`# X-Debug: 1`, a note)
 * kept: each before the header it preceded in the file (an edited header in the same place
 * counts as that header), or at the end of the head when that header is gone.
 *
 * @param source the file's text
 * @param request the request as parsed from it
 * @param written the fields' request line and headers, as {@link writeDraft} writes them
 *   (without the last line break)
 * @returns the head to write (without the last line break)
 */
function keepUnchangedLines(source: string, request: HttpRequest, written: string): string {
  const lines = written.split("\n");
  const [first, ...headerLines] = lines;
  const requestLine = `${request.method} ${request.url}`;
  const asWritten = source.slice(request.requestLine.start, request.requestLine.end)
    .replace(/\r?\n$/, "");
  const out = [
    first === requestLine || first === `${requestLine} ${request.httpVersion ?? ""}`.trim()
      ? asWritten
      : continuedRequestLine(asWritten, first!),
  ];
  // The text before each header in the file that is neither the request line nor a header:
  // its comment lines.
  const gaps = request.headers.map((h, i) =>
    source.slice(i === 0 ? request.requestLine.end : request.headers[i - 1]!.span.end, h.span.start)
      .replace(/\r?\n$/, "")
  );
  const used = new Set<number>();
  const gapsUpTo = (index: number) => {
    for (let i = 0; i <= index; i++) {
      if (!used.has(i) && gaps[i]) out.push(gaps[i]!);
      used.add(i);
    }
  };
  const unused = [...request.headers.keys()];
  headerLines.forEach((line, row) => {
    let at = unused.findIndex((i) => {
      const h = request.headers[i]!;
      return `${h.name}: ${h.value}` === line;
    });
    const kept = at >= 0;
    // An edited header in its place stands where the file's was.
    if (!kept) {
      at = unused.findIndex((i) =>
        i === row && line.toLowerCase().startsWith(`${request.headers[i]!.name.toLowerCase()}:`)
      );
    }
    if (at < 0) {
      out.push(line);
      return;
    }
    const [index] = unused.splice(at, 1);
    gapsUpTo(index!);
    const header = request.headers[index!]!;
    out.push(
      kept ? source.slice(header.span.start, header.span.end).replace(/\r?\n$/, "") : line,
    );
  });
  gapsUpTo(request.headers.length - 1);
  return out.join("\n");
}

const QUERY_CONTINUATION = /^(\s*)([?&])(\S.*?)(\s+HTTP\/\d+(?:\.\d+)?)?\s*$/;

/**
 * A changed request line written over lines as the file wrote its URL (REST Client's
 * `    ?page=1` / `    &size=20` continuations): the file's continuation lines whose query
 * parameters the edit left alone stay byte for byte, each other parameter gets a line of its own
 * with the file's indent, and the version ending the last line stays there.
 *
 * @param asWritten the file's request line and its continuation lines
 * @param written the new request line, on one line (`METHOD url`)
 * @returns the request line to write: `written` when the file wrote the URL on one line, or
 *   continued it in another way (its path, not its query)
 */
function continuedRequestLine(asWritten: string, written: string): string {
  const [firstLine, ...rest] = asWritten.split(/\r?\n/);
  const continued = rest.map((line) => QUERY_CONTINUATION.exec(line));
  const query = written.indexOf("?");
  if (!rest.length || query < 0 || continued.some((m, i) => !m || (m[4] && i < rest.length - 1))) {
    return written;
  }
  const base = written.slice(0, query);
  const fileLines = continued.map((m) => ({ indent: m![1]!, params: m![3]!.split("&") }));
  const params = written.slice(query + 1).split("&");
  const out = [firstLine!.trim() === base ? firstLine! : base];
  for (let i = 0; i < params.length;) {
    const at = fileLines.findIndex((line) =>
      line.params.every((param, k) => params[i + k] === param)
    );
    const [kept] = at < 0 ? [] : fileLines.splice(at, 1);
    const indent = kept?.indent ?? continued[0]![1]!;
    const own = kept?.params ?? [params[i]!];
    out.push(`${indent}${i === 0 ? "?" : "&"}${own.join("&")}`);
    i += own.length;
  }
  const version = continued.at(-1)![4];
  return `${out.join("\n")}${version ?? ""}`;
}

/**
 * The headers to write: a form's multipart Content-Type in place of any other (the file's own,
 * with its boundary, when it has one).
 */
function headersOf(draft: HttpDraft, style?: FormStyle): HttpDraft["headers"] {
  if (draft.bodyKind !== "form" || !draft.form.some((row) => row.enabled)) return draft.headers;
  return [
    ...draft.headers.filter((h) => h.name.trim().toLowerCase() !== "content-type"),
    {
      name: "Content-Type",
      value: style?.contentType ?? `multipart/form-data; boundary=${DEFAULT_BOUNDARY}`,
      enabled: true,
    },
  ];
}

/**
 * @param text a request file's text
 * @param request one of its requests, as parsed from `text`
 * @returns the request's own text in it: request line, headers and body (what a save replaces)
 */
export function requestText(text: string, request: HttpRequest): string {
  const headEnd = request.headers.at(-1)?.span.end ?? request.requestLine.end;
  return text.slice(request.requestLine.start, request.bodySpan?.end ?? headEnd);
}

/**
 * @param draft the tab's fields
 * @param name the request's name, for a new request (`### name` and `# @name name`)
 * @param style how the file writes the request's form (its boundary, its parts' extras)
 * @returns the request as `.http` text
 * @throws {Error} when a form row holds a file attached in the browser (a request file names
 *   its files by path: `< ./file`)
 */
export function writeDraft(draft: HttpDraft, name?: string, style?: FormStyle): string {
  const rows = draft.bodyKind === "form"
    ? draft.form.filter((row) => row.enabled && row.name.trim() !== "")
    : [];
  if (rows.some((row) => row.file)) {
    throw new Error(
      "A file attached in the browser cannot be saved in a request file: give its path as the row's value instead, < ./file (beside the request file)",
    );
  }
  // A part the file has (same name, same file or a text) keeps its file name and Content-Type.
  const unused = [...style?.fields ?? []];
  const form = rows.length === 0 ? undefined : multipartBodyParts(
    rows.map((row) => {
      const include = /^<\s+(\S.*)$/.exec(row.value.trim());
      const field: MultipartField = include
        ? { name: row.name.trim(), file: include[1]! }
        : { name: row.name.trim(), value: row.value };
      const at = unused.findIndex((f) => f.name === field.name && f.file === field.file);
      const [was] = at < 0 ? [] : unused.splice(at, 1);
      return {
        ...field,
        ...(was?.filename !== undefined && field.file !== undefined
          ? { filename: was.filename }
          : {}),
        ...(was?.contentType !== undefined ? { contentType: was.contentType } : {}),
      };
    }),
    style?.boundary,
  );
  const text = draft.bodyKind === "json" || draft.bodyKind === "text" ? draft.body : "";
  const body = form ? { parts: form } : text !== "" ? text : undefined;
  const written = writeHttpRequest({
    ...(name ? { name } : {}),
    method: draft.method.trim().toUpperCase() || "GET",
    url: draft.url.trim(),
    headers: headersOf(draft, style).filter((h) => h.enabled && h.name.trim() !== "")
      .map((h) => ({ name: h.name.trim(), value: h.value })),
    ...(body !== undefined ? { body } : {}),
  });
  return written + (draft.assertions ?? []).map((line) => `?? ${line}\n`).join("");
}
