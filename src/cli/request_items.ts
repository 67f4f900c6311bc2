/**
 * HTTPie's request items (the syntax xh shares), after the URL:
 *
 * | item            | meaning                                                      |
 * | --------------- | ------------------------------------------------------------ |
 * | `Header:value`  | a header; `Header:` removes one given earlier                |
 * | `Header;`       | a header with an empty value                                 |
 * | `Header:@file`  | a header whose value is the file's text                      |
 * | `name==value`   | a query parameter (`name==@file`: its value from a file)     |
 * | `name=value`    | a JSON string field (a form field with `--form`)             |
 * | `name:=json`    | a raw JSON field (`name:=@file`: JSON from a file)           |
 * | `name=@file`    | a string field holding the file's text                       |
 * | `name@file`     | a file field: the body becomes multipart (`;type=` after it) |
 *
 * `\` before `:`, `;`, `=` or `@` makes it part of the name; JSON field names are paths
 * (`a[b][0]`, see nested_json.ts).
 * @see https://httpie.io/docs/cli/request-items
 * @module
 */
import { jsonErrorReason } from "../errors/runtime_messages.ts";
import { UsageError } from "../errors/mod.ts";
import { guessContentType } from "../http/body.ts";
import type { HeaderField } from "../http/request_spec.ts";
import { parseHeader } from "../http/values.ts";

/** The separators, longest first at a position (HTTPie picks the first, then the longest). */
const SEPARATORS = [":=@", "==@", ":=", "==", "=@", ":@", "=", ":", ";", "@"] as const;
type Separator = typeof SEPARATORS[number];
const SPECIAL = new Set([":", ";", "=", "@"]);

/** One request item, split but not yet read. */
export interface RequestItem {
  /** The name: a header name, query or field name, or a JSON path (escapes of `[` kept). */
  key: string;
  /** The separator that classified it. */
  separator: Separator;
  /** The value after the separator. */
  value: string;
  /** The item as written, for messages. */
  text: string;
}

/**
 * Splits an item at its first separator (the longest one there), as HTTPie does: `\` before
 * a separator character keeps that character in the name.
 *
 * @param text an item as typed
 * @returns the item, or undefined when it holds no separator
 */
export function splitItem(text: string): RequestItem | undefined {
  // Tokens: plain runs and escaped characters (which never separate).
  const tokens: Array<{ text: string; escaped: boolean }> = [{ text: "", escaped: false }];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "\\" && i + 1 < text.length && SPECIAL.has(text[i + 1]!)) {
      tokens.push({ text: text[++i]!, escaped: true }, { text: "", escaped: false });
    } else tokens[tokens.length - 1]!.text += char;
  }
  for (const [index, token] of tokens.entries()) {
    if (token.escaped) continue;
    let best: { at: number; separator: Separator } | undefined;
    for (const separator of SEPARATORS) {
      const at = token.text.indexOf(separator);
      if (at >= 0 && (!best || at < best.at)) best = { at, separator };
    }
    if (!best) continue;
    const before = tokens.slice(0, index).map((t) => t.text).join("");
    const after = tokens.slice(index + 1).map((t) => t.text).join("");
    return {
      key: before + token.text.slice(0, best.at),
      separator: best.separator,
      value: token.text.slice(best.at + best.separator.length) + after,
      text,
    };
  }
  return undefined;
}

/**
 * @param items the words after the URL
 * @returns the lower-case names of the headers they give or remove
 */
export function headerNames(items: readonly string[]): string[] {
  return items.map(splitItem)
    .filter((item) => item && [":", ";", ":@"].includes(item.separator))
    .map((item) => item!.key.toLowerCase());
}

/** A data field: a JSON value (or form text) under a key path. */
export interface DataField {
  /** The key path as written. */
  key: string;
  /** The value: a string, or parsed JSON for `:=`. */
  value: unknown;
  /** Whether the value is raw JSON (`:=`), which a form sends as its JSON text. */
  raw: boolean;
}

/** A file field (`name@file`). */
export interface FileField {
  /** The field name. */
  name: string;
  /** The file. */
  path: string;
  /** Its media type: `;type=` or guessed from the name. */
  contentType: string;
}

/** What the items of a command line ask for. */
export interface ParsedItems {
  /** Headers, in order. */
  headers: HeaderField[];
  /** Header names given as `Name:`, lower-case: remove them. */
  unset: string[];
  /** Query parameters, in order. */
  query: Array<[string, string]>;
  /** Data fields, in order. */
  data: DataField[];
  /** File fields, in order. */
  files: FileField[];
  /** The first item that gives a body (a data or file field), for conflict messages. */
  firstBodyItem?: string;
}

/**
 * Reads the items: classifies them and reads `@file` values.
 *
 * @param items the words after the URL
 * @param position the argument number of the first item, for messages
 * @returns headers, query, fields and files
 * @throws {UsageError} on a word that is not an item, bad JSON, or an unreadable file
 */
export async function parseItems(items: readonly string[], position = 3): Promise<ParsedItems> {
  const parsed: ParsedItems = { headers: [], unset: [], query: [], data: [], files: [] };
  for (const [index, text] of items.entries()) {
    const item = splitItem(text);
    // The word is not echoed: an unquoted `-H Authorization: Bearer …` spills a token here.
    if (!item || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
      throw new UsageError(
        `Argument ${position + index} is not a request item${item ? ": it is a second URL" : ""}`,
        {
          hint:
            "after the URL come items: Header:value, name=value, name:=json, name==value, name@file (quote values with spaces)",
        },
      );
    }
    await addItem(parsed, item);
  }
  return parsed;
}

async function addItem(parsed: ParsedItems, item: RequestItem): Promise<void> {
  const { key, separator, value, text } = item;
  const body = () => parsed.firstBodyItem ??= text;
  switch (separator) {
    case ":":
    case ":@":
    case ";":
      return await addHeaderItem(parsed, item);
    case "==":
    case "==@":
      parsed.query.push([
        key,
        separator === "==@" ? trimNewline(await readText(value, `${key}==@`)) : value,
      ]);
      return;
    case "=":
    case "=@":
      body();
      parsed.data.push({
        key,
        value: separator === "=@" ? await readText(value, `${key}=@`) : value,
        raw: false,
      });
      return;
    case ":=":
    case ":=@": {
      body();
      const json = separator === ":=@" ? await readText(value, `${key}:=@`) : value;
      parsed.data.push({ key, value: parseJson(json, key, separator), raw: true });
      return;
    }
    case "@":
      body();
      return await addFileItem(parsed, item);
  }
}

/** `Name:value`, `Name:@file`, `Name:` (removes the header) and `Name;` (an empty one). */
async function addHeaderItem(parsed: ParsedItems, item: RequestItem): Promise<void> {
  const { key, separator, value, text } = item;
  if (separator === ";") {
    if (value !== "") {
      throw new UsageError(`Cannot parse request item "${key};…": text after ";"`, {
        hint: `write ${key}; for an empty header, ${key}:value for a value`,
      });
    }
    parsed.headers.push(itemHeader(key, "", text));
  } else if (separator === ":" && value === "") {
    parsed.unset.push(checkedHeaderName(key, text));
  } else {
    const headerValue = separator === ":@"
      ? trimNewline(await readText(value, `${key}${separator}`))
      : value;
    parsed.headers.push(itemHeader(key, headerValue, text));
  }
}

/** `name@path[;type=…]`: a file field, its type guessed from the name unless given. */
async function addFileItem(parsed: ParsedItems, item: RequestItem): Promise<void> {
  const { key, value } = item;
  const at = value.lastIndexOf(";type=");
  const path = at < 0 ? value : value.slice(0, at);
  await checkReadable(path, `${key}@`);
  const name = path.split(/[\\/]/).pop() ?? path;
  parsed.files.push({
    name: key,
    path,
    contentType: at < 0 ? guessContentType(name) : value.slice(at + 6),
  });
}

function itemHeader(name: string, value: string, text: string): HeaderField {
  const label = `request item "${checkedHeaderName(name, text)}"`;
  return parseHeader(`${name}:${value}`, { label, example: `"Name:value"` });
}

function checkedHeaderName(name: string, text: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
    // The value may be a credential: the message names the item by its name only.
    const shown = /^[\x21-\x7e]{1,64}$/.test(name) ? ` "${name}"` : "";
    throw new UsageError(`Cannot parse request item${shown}: not a header name`, {
      hint: text.includes("=")
        ? "a field is name=value; escape a literal colon in its name as \\:"
        : "a header is Name:value, with no spaces in the name",
    });
  }
  return name;
}

/** `JSON.rawJSON` (V8): a number serialised as the text it was written with. */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

function parseJson(text: string, key: string, separator: string): unknown {
  try {
    // Numbers keep the text the user wrote (`id:=1234567890123456789`, `x:=1e400`), as HTTPie
    // sends them: a double would round the first and make the second null.
    return JSON.parse(
      text,
      (_key, value, context?: { source?: string }) =>
        typeof value === "number" && context?.source !== undefined
          ? rawJson(context.source)
          : value,
    );
  } catch (error) {
    const why = jsonErrorReason(error);
    throw new UsageError(`Invalid JSON in request item "${key}${separator}…": ${why}`, {
      hint: `a string field is ${key}=text; ${key}:=json takes JSON (quote it for the shell)`,
    });
  }
}

/** A header's or query value's file loses its trailing line breaks (as in HTTPie). */
function trimNewline(text: string): string {
  return text.replace(/\n+$/, "");
}

async function readText(path: string, name: string): Promise<string> {
  await checkReadable(path, name);
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new UsageError(
      `Cannot read file "${path}" for request item "${name}…": ${(error as Error).message}`,
    );
  }
}

/** `name` is the item up to its `@`, e.g. `photo@` or `data:=@`. */
async function checkReadable(path: string, name: string): Promise<void> {
  if (path === "") throw new UsageError(`Missing file name after "@" in request item "${name}"`);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read file "${path}" for request item "${name}…": ${why}`);
  }
  if (info.isDirectory) {
    throw new UsageError(`Cannot read file "${path}" for request item "${name}…": a directory`);
  }
}

/**
 * Encodes a query or form component as Python's `urlencode` does (HTTPie, requests): space as
 * `+`, everything but letters, digits and `_.-~` percent-encoded.
 *
 * @param text a name or value
 * @returns it encoded
 */
export function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll("%20", "+");
}
