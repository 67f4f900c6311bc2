/**
 * A request file's `multipart/form-data` body as form fields, and back (JetBrains HTTP Client
 * spec: parts separated by `--boundary` lines, each with its `Content-Disposition` header, a
 * blank line and its content, which may be a `< ./file` include; `--boundary--` ends it). The
 * runner sends such a body as written (line breaks as CRLF); the UI reads it into its form
 * table with {@link readMultipartBody} and writes the table back with
 * {@link multipartBodyParts}, for `writeHttpRequest`. Pure: no I/O.
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/** One field of a form: text, or a file included by its path. */
export interface MultipartField {
  name: string;
  /** The text of a text field. */
  value?: string;
  /** A file field's path, as written after `<` (relative to the request file). */
  file?: string;
  /** A file field's `filename` (default: the path's last part). */
  filename?: string;
  /** The part's own Content-Type. */
  contentType?: string;
}

/** The boundary JetBrains' examples use. */
export const DEFAULT_BOUNDARY = "WebAppBoundary";

/**
 * @param contentType a Content-Type header value
 * @returns the boundary of a `multipart/form-data` type, else undefined
 */
export function multipartBoundary(contentType: string): string | undefined {
  if (!/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Reads a multipart body as written in a request file.
 *
 * @param text the body (a `< path` include as its own line)
 * @param boundary the Content-Type's boundary
 * @returns the fields, or undefined when the body is not a plain list of form-data parts
 */
export function readMultipartBody(text: string, boundary: string): MultipartField[] | undefined {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const fields: MultipartField[] = [];
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  if (lines[i] !== `--${boundary}`) return undefined;
  while (i < lines.length && lines[i] === `--${boundary}`) {
    i++;
    const headers = new Map<string, string>();
    for (; i < lines.length && lines[i] !== ""; i++) {
      const colon = lines[i]!.indexOf(":");
      if (colon <= 0) return undefined;
      headers.set(
        lines[i]!.slice(0, colon).trim().toLowerCase(),
        lines[i]!.slice(colon + 1).trim(),
      );
    }
    i++;
    const content: string[] = [];
    for (; i < lines.length && !lines[i]!.startsWith(`--${boundary}`); i++) content.push(lines[i]!);
    const disposition = headers.get("content-disposition") ?? "";
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined || !/^form-data\b/i.test(disposition)) return undefined;
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    const include = content.length === 1 ? /^<\s+(\S.*)$/.exec(content[0]!) : null;
    const type = headers.get("content-type");
    fields.push({
      name,
      ...(include ? { file: include[1]!.trim() } : { value: content.join("\n") }),
      ...(filename !== undefined ? { filename } : {}),
      ...(type !== undefined ? { contentType: type } : {}),
    });
    if (lines[i] === `--${boundary}--`) {
      return lines.slice(i + 1).every((l) => l.trim() === "") ? fields : undefined;
    }
  }
  return undefined;
}

/**
 * Writes form fields as a multipart body that {@link readMultipartBody} reads back.
 *
 * @param fields the fields in order
 * @param boundary the boundary (it must appear in no value)
 * @returns the body's parts: text (line breaks as `\n`; the runner sends CRLF) and the files'
 *   `< path` includes, as `writeHttpRequest` takes them
 * @throws {UsageError} when a name or file name holds a quote or line break, or a value the
 *   boundary
 */
export function multipartBodyParts(
  fields: readonly MultipartField[],
  boundary = DEFAULT_BOUNDARY,
): Array<string | { file: string }> {
  const parts: Array<string | { file: string }> = [];
  let lines: string[] = [];
  const quoted = (text: string, what: string) => {
    if (/["\r\n]/.test(text)) throw new UsageError(`Cannot write the ${what} "${text}" in a form`);
    return text;
  };
  for (const field of fields) {
    const name = quoted(field.name, "field name");
    lines.push(`--${boundary}`);
    if (field.file !== undefined) {
      const filename = quoted(field.filename ?? field.file.split("/").at(-1)!, "file name");
      lines.push(`Content-Disposition: form-data; name="${name}"; filename="${filename}"`);
      if (field.contentType) lines.push(`Content-Type: ${field.contentType}`);
      lines.push("");
      parts.push(lines.join("\n"), { file: field.file });
      lines = [];
    } else {
      const value = field.value ?? "";
      if (value.includes(`--${boundary}`)) {
        throw new UsageError(`Cannot write the form field "${field.name}": it holds the boundary`);
      }
      lines.push(`Content-Disposition: form-data; name="${name}"`);
      if (field.contentType) lines.push(`Content-Type: ${field.contentType}`);
      lines.push("", value);
    }
  }
  lines.push(`--${boundary}--`);
  parts.push(lines.join("\n"));
  return parts;
}
