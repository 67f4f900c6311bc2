/**
 * The body that request items give, combined with the body flags: JSON by default (HTTPie's
 * nested paths), `application/x-www-form-urlencoded` with a bare `--form`, multipart when a
 * file item or a `-F` field is given. An item body with `-d`, `--json` or `-T` is a conflict.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { newBoundary } from "../http/body.ts";
import type { FormField } from "../http/request_spec.ts";
import type { ParsedBody } from "./body_flags.ts";
import { buildNestedJson } from "./nested_json.ts";
import { formEncode, type ParsedItems } from "./request_items.ts";

/** The `Accept` that a JSON body asks for unless the user gave one (HTTPie's). */
export const JSON_ACCEPT = "application/json, */*;q=0.5";

/** The body flags the items are combined with. */
export interface BodyFlagsGiven {
  /** `-d` was given. */
  data: boolean;
  /** `--json` was given. */
  json: boolean;
  /** `-T` was given. */
  upload: boolean;
  /** A bare `--form`: data items are form fields. */
  formMode: boolean;
}

/**
 * @param items the parsed request items
 * @param given which body flags were given
 * @param flagsBody the body of the body flags (a `-F` form is extended)
 * @returns the body to send
 * @throws {UsageError} when an item body meets another body flag
 */
export function itemsBody(
  items: ParsedItems,
  given: BodyFlagsGiven,
  flagsBody: ParsedBody,
): ParsedBody {
  const first = items.firstBodyItem;
  if (first === undefined) return flagsBody;
  const other = given.data ? "-d" : given.json ? "--json" : given.upload ? "-T" : undefined;
  if (other) {
    throw new UsageError(
      `Conflicting request item "${shortItem(first)}" and ${other}: both give the request body`,
      { hint: "give the body one way" },
    );
  }
  const form = flagsBody.body?.kind === "form" ? flagsBody.body : undefined;
  if (form || items.files.length > 0) {
    const fields: FormField[] = [...(form?.fields ?? [])];
    for (const field of items.data) {
      fields.push({
        name: field.key,
        value: field.raw ? JSON.stringify(field.value) : String(field.value),
      });
    }
    for (const file of items.files) {
      fields.push({
        name: file.name,
        path: file.path,
        filename: file.path.split(/[\\/]/).pop() ?? file.path,
        contentType: file.contentType,
      });
    }
    return {
      body: { kind: "form", fields, boundary: form?.boundary ?? newBoundary() },
      headers: [],
    };
  }
  if (given.formMode) {
    const text = items.data.map((field) => {
      const value = field.raw ? JSON.stringify(field.value) : String(field.value);
      return `${formEncode(field.key)}=${formEncode(value)}`;
    }).join("&");
    return {
      body: { kind: "text", text, contentType: "application/x-www-form-urlencoded; charset=utf-8" },
      headers: [],
    };
  }
  return {
    body: {
      kind: "text",
      text: JSON.stringify(buildNestedJson(items.data)),
      contentType: "application/json",
    },
    headers: [{ name: "Accept", value: JSON_ACCEPT }],
  };
}

/** An item's name part, for messages: values may be secrets. */
function shortItem(text: string): string {
  const at = text.search(/[:=@;]/);
  return at < 0 ? text : `${text.slice(0, at + 1)}…`;
}
