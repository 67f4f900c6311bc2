/**
 * A request of a `.http` file as the HTTP tab edits it, and back: {@link draftOfRequest} reads
 * a parsed request into the tab's fields, {@link saveInPlace} writes the tab's fields back into
 * the file's text, replacing only the request line, headers and body of that request. Its
 * comments, directives, scripts and response handlers, and every other request of the file,
 * stay byte for byte. Pure: the parser and writer are the request files' own (`src/files/`).
 * @module
 */
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { writeHttpRequest } from "../../../files/write_http_file.ts";
import type { FileJson } from "../../protocol.ts";

/** The HTTP tab's fields. */
export interface HttpDraft {
  method: string;
  url: string;
  headers: Array<{ name: string; value: string; enabled: boolean }>;
  bodyKind: "none" | "json" | "text" | "form";
  body: string;
  form: Array<{ name: string; value: string; enabled: boolean; file?: FileJson }>;
}

/**
 * @param request a parsed request
 * @returns the tab's fields for it (`{{variables}}` kept as written)
 */
export function draftOfRequest(request: HttpRequest): HttpDraft {
  const body = request.body.map((part) =>
    part.kind === "text" ? part.text : `<${part.substitute ? "@" : ""} ${part.path}`
  ).join("\n");
  const type = request.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
  const bodyKind = body === ""
    ? "none"
    : /json/i.test(type) || (type === "" && /^\s*[[{]/.test(body))
    ? "json"
    : "text";
  return {
    method: request.method,
    url: request.url,
    headers: request.headers.map((h) => ({ name: h.name, value: h.value, enabled: true })),
    bodyKind,
    body,
    form: [],
  };
}

/**
 * Writes the tab's fields into the file's text in place of the request's own.
 *
 * @param source the file's text, as `request` was parsed from
 * @param request the request
 * @param draft the tab's fields
 * @returns the new text of the file
 * @throws {import("../../../errors.ts").UsageError} when the fields cannot be written so they
 * read back the same (a multipart form, a body line that reads as request syntax)
 */
export function saveInPlace(source: string, request: HttpRequest, draft: HttpDraft): string {
  const before = draftOfRequest(request);
  const sameBody = before.bodyKind === draft.bodyKind && before.body === draft.body;
  return replaceInPlace(source, request, draft, sameBody);
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
  const headEnd = request.headers.at(-1)?.span.end ?? request.requestLine.end;
  const end = request.bodySpan?.end ?? headEnd;
  const text = sameBody
    ? writeDraft({ ...draft, bodyKind: "none" }) + source.slice(headEnd, end)
    : writeDraft(draft);
  return source.slice(0, start) + text + source.slice(end);
}

/**
 * @param draft the tab's fields
 * @param name the request's name, for a new request (`### name` and `# @name name`)
 * @returns the request as `.http` text
 */
export function writeDraft(draft: HttpDraft, name?: string): string {
  if (draft.bodyKind === "form" && draft.form.some((row) => row.enabled)) {
    throw new Error("A multipart form cannot be saved in a request file yet");
  }
  const body = draft.bodyKind === "json" || draft.bodyKind === "text" ? draft.body : "";
  return writeHttpRequest({
    ...(name ? { name } : {}),
    method: draft.method.trim().toUpperCase() || "GET",
    url: draft.url.trim(),
    headers: draft.headers.filter((h) => h.enabled && h.name.trim() !== "")
      .map((h) => ({ name: h.name.trim(), value: h.value })),
    ...(body !== "" ? { body } : {}),
  });
}
