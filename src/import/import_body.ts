/**
 * The request bodies every importer writes, whatever the source's shape: `x-www-form-urlencoded`
 * forms, `multipart/form-data` forms (file parts as `< path` includes), GraphQL requests as
 * JSON, and the `Content-Type` that goes with each unless the source set its own.
 * @module
 */
import { multipartBodyParts, type MultipartField } from "../files/multipart_body.ts";
import type { ImportedRequest, ImportResult } from "./import_model.ts";

/** A request's headers as the importers build them, in order. */
export type ImportedHeaders = ImportedRequest["headers"];

/** The Content-Type of a text body by the language or mode an export names it with. */
const BODY_TYPES: Readonly<Record<string, string>> = {
  json: "application/json",
  xml: "application/xml",
  javascript: "application/javascript",
  html: "text/html",
  sparql: "application/sparql-query",
  formUrlEncoded: "application/x-www-form-urlencoded",
};

/**
 * A text body in a language or mode an export names (Postman's raw `language`, Bruno's body
 * mode: `json`, `xml`, `sparql` …), with the Content-Type the tool sends for it (`text/plain`
 * for any other) unless the source set one.
 *
 * @param headers the request's headers, changed in place
 * @param name the body's language or mode
 * @param text the body
 * @returns the body
 */
export function textBody(headers: ImportedHeaders, name: string, text: string): string {
  defaultContentType(headers, Object.hasOwn(BODY_TYPES, name) ? BODY_TYPES[name]! : "text/plain");
  return text;
}

/**
 * Sets `Content-Type` unless the request has one: the source's own header wins.
 *
 * @param headers the request's headers, changed in place
 * @param type the type its body has
 */
export function defaultContentType(headers: ImportedHeaders, type: string): void {
  if (!headers.some((h) => /^content-type$/i.test(h.name))) {
    headers.push({ name: "Content-Type", value: type });
  }
}

/**
 * Form-encodes text as Postman and browsers send `x-www-form-urlencoded` values, leaving
 * `{{variables}}` as they are (they are substituted, then sent as written).
 *
 * @param text a name or value
 * @returns the encoded text
 */
export function formEncode(text: string): string {
  return text.split(/(\{\{[^{}]*\}\})/).map((part, i) => i % 2 ? part : encodeURIComponent(part))
    .join("");
}

/** One part of a multipart form: a value, or a file included with `< path`. */
export type FormPart =
  | { name: string; value: string; contentType?: string }
  | { name: string; file: string; filename?: string; contentType?: string };

const BOUNDARY = "----dialImportBoundary";

/**
 * A `multipart/form-data` body in the request-file format, written by the request files' one
 * multipart writer (`multipartBodyParts`: each file part a `< path` include, read when the
 * request runs), with the `Content-Type` header set to match the boundary (replacing one the
 * source had without it).
 *
 * @param parts the form's parts in order
 * @param headers the request's headers, changed in place
 * @returns the body's parts
 */
export function multipartBody(
  parts: readonly FormPart[],
  headers: ImportedHeaders,
): { parts: Array<string | { file: string }> } {
  for (let i = headers.length - 1; i >= 0; i--) {
    if (headers[i]!.name.toLowerCase() === "content-type") headers.splice(i, 1);
  }
  headers.push({ name: "Content-Type", value: `multipart/form-data; boundary=${BOUNDARY}` });
  const fields: MultipartField[] = parts.map((p) => ({
    name: p.name,
    ...("file" in p
      ? { file: p.file, filename: p.filename ?? p.file.split(/[\\/]/).at(-1) ?? "" }
      : { value: p.value }),
    ...(p.contentType ? { contentType: p.contentType } : {}),
  }));
  return { parts: multipartBodyParts(fields, BOUNDARY) };
}

/**
 * An `x-www-form-urlencoded` body: the fields in order, each name and value form-encoded; with
 * the request's headers, its Content-Type too (unless the source set one).
 *
 * @param fields the form's fields
 * @param headers the request's headers, changed in place
 * @returns the body
 */
export function urlEncodedBody(
  fields: ReadonlyArray<{ name: string; value: string }>,
  headers?: ImportedHeaders,
): string {
  if (headers) defaultContentType(headers, "application/x-www-form-urlencoded");
  return fields.map((f) => `${formEncode(f.name)}=${formEncode(f.value)}`).join("&");
}

/**
 * A GraphQL request's JSON body (`{"query", "variables"}`), with `Content-Type:
 * application/json` unless the source set one; variables that are not JSON are left out and
 * reported.
 *
 * @param result the import being built (its report)
 * @param where the request, for the report
 * @param headers the request's headers, changed in place
 * @param query the query document
 * @param variables the variables as JSON text, or undefined when the source has none
 * @param indent the JSON's indent (default: none)
 * @returns the body
 */
export function graphqlBody(
  result: ImportResult,
  where: string,
  headers: ImportedHeaders,
  query: string,
  variables: string | undefined,
  indent?: number,
): string {
  defaultContentType(headers, "application/json");
  let parsed: unknown;
  try {
    parsed = variables !== undefined ? JSON.parse(variables) : undefined;
  } catch {
    result.losses.push({ where, what: "GraphQL variables that are not JSON" });
  }
  return JSON.stringify({ query, ...(parsed ? { variables: parsed } : {}) }, null, indent);
}
