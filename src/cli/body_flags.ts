/**
 * The body flags: `-d`, `--json`, `-F`. Files are checked before anything is sent.
 * @module
 */
import { load } from "../load.ts";
import type { CliContext } from "./context.ts";
import { claimStdin } from "./secret_ref.ts";
import { UsageError } from "../errors/mod.ts";
import { guessContentType, newBoundary, STDIN_PATH } from "../http/body.ts";
import { parseJsonText } from "../http/values.ts";
import type { BodySource, FormField, HeaderField } from "../http/request_spec.ts";
import { flags, type FlagValues } from "./declare.ts";

/** The `-d` flag. */
export const DATA_FLAG = {
  long: "data",
  short: "d",
  aliases: ["data-binary", "data-ascii"],
  value: "text|@file|@-",
  repeatable: true,
  help: "raw request body (form-urlencoded type by default); repeated values are joined with &",
} as const;

/** The `-F` flag. */
export const FORM_FLAG = {
  long: "form",
  short: "F",
  value: "name=value|name=@file|name=@-[;filename=…][;type=…]",
  repeatable: true,
  optionalValue: true,
  valueShape: /=/,
  help: "multipart form field (repeatable); bare --form: name=value items are a urlencoded form",
} as const;

/** The body flags of a request. */
export const BODY_FLAGS = flags([
  DATA_FLAG,
  {
    long: "json",
    value: "json|@file|@-",
    help: "JSON request body, validated; sets Content-Type and Accept",
  },
  FORM_FLAG,
]);

/** The parsed values of the body flags. */
export type BodyFlagValues = FlagValues<typeof BODY_FLAGS>;

/** A parsed body and the headers it implies. */
export interface ParsedBody {
  /** The body, if a body flag was given. */
  body?: BodySource;
  /** Extra headers, e.g. `Accept` for `--json`. */
  headers: HeaderField[];
}

/**
 * @param values the flag values
 * @param context the run: its stdin
 * @returns the body source
 * @throws {UsageError} on two body flags, invalid JSON, or an unreadable file
 */
export async function parseBodyFlags(
  values: BodyFlagValues,
  context: CliContext,
): Promise<ParsedBody> {
  const given = [
    values.data.length > 0 && "-d",
    values.json !== undefined && "--json",
    values.form.length > 0 && "-F",
  ].filter(Boolean);
  if (given.length > 1) {
    throw new UsageError(`Conflicting flags ${given.join(" and ")}: give one request body`);
  }
  if (values.data.length > 1) return { body: await joinedData(values.data, context), headers: [] };
  if (values.data.length === 1) {
    const data = values.data[0]!;
    const contentType = "application/x-www-form-urlencoded";
    if (data === "@-") {
      claimStdin(context, "-d @-");
      return { body: { kind: "stdin", stream: context.stdin.readable, contentType }, headers: [] };
    }
    if (data.startsWith("@")) {
      const path = await checkFile(data.slice(1), "-d");
      return { body: { kind: "file", path, contentType }, headers: [] };
    }
    return { body: { kind: "text", text: data, contentType }, headers: [] };
  }
  if (values.json !== undefined) {
    const headers = [{ name: "Accept", value: "application/json, */*;q=0.5" }];
    if (values.json.startsWith("@") && values.json !== "@-") {
      // Checked as it streams from disk and sent from the file: memory stays flat.
      const path = await checkFile(values.json.slice(1), "--json");
      await checkJsonFile(path);
      return { body: { kind: "file", path, contentType: "application/json" }, headers };
    }
    const text = await jsonText(values.json, context);
    return { body: { kind: "text", text, contentType: "application/json" }, headers };
  }
  if (values.form.length > 0) {
    const fields: FormField[] = [];
    for (const item of values.form) fields.push(await parseFormField(item, context));
    const stdin = fields.some((field) => "path" in field && field.path === STDIN_PATH);
    return {
      body: {
        kind: "form",
        fields,
        boundary: newBoundary(),
        ...(stdin ? { stdin: context.stdin.readable } : {}),
      },
      headers: [],
    };
  }
  return { headers: [] };
}

/**
 * Repeated `-d` values joined with `&`, as curl joins them; `@file` and `@-` values are read
 * (as they are, byte for byte) into the one body.
 */
async function joinedData(values: string[], context: CliContext): Promise<BodySource> {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const [i, value] of values.entries()) {
    if (i > 0) parts.push(encoder.encode("&"));
    if (value === "@-") {
      claimStdin(context, "-d @-");
      parts.push(await new Response(context.stdin.readable).bytes());
    } else if (value.startsWith("@")) {
      parts.push(await Deno.readFile(await checkFile(value.slice(1), "-d")));
    } else parts.push(encoder.encode(value));
  }
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { kind: "bytes", bytes, contentType: "application/x-www-form-urlencoded" };
}

/** Validates a JSON file chunk by chunk (RFC 8259, as JSON.parse would judge it). */
async function checkJsonFile(path: string): Promise<void> {
  const { JsonPrettyPrinter, JsonSyntaxError } = await load.jsonStream();
  const validator = new JsonPrettyPrinter({ validateOnly: true });
  const where = `--json file "${path}"`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch (error) {
    throw new UsageError(`Cannot read file "${path}" for --json: ${(error as Error).message}`);
  }
  try {
    let first = true;
    for await (const chunk of file.readable) {
      // A UTF-8 byte order mark before the text is allowed, as reading the file as text skips it.
      const bom = first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
      validator.push(bom ? chunk.subarray(3) : chunk);
      first = false;
    }
    validator.end();
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new UsageError(`Invalid JSON in ${where}: ${error.message}`);
  }
}

async function jsonText(value: string, context: CliContext): Promise<string> {
  let text = value;
  let source = "--json";
  if (value === "@-") {
    claimStdin(context, "--json @-");
    text = await new Response(context.stdin.readable).text();
    source = "--json from stdin";
  }
  try {
    parseJsonText(text, `JSON in ${source}`);
  } catch (error) {
    // HTTPie's --json is a switch: `--json name=joe` meant a request item.
    const item = source === "--json" && /^[\w.[\]-]+(?::=|==|=)/.test(value);
    if (!item || !(error instanceof UsageError)) throw error;
    throw new UsageError(error.message, {
      hint: "request items need no flag: write name=value after the URL (JSON by default)",
    });
  }
  return text;
}

async function parseFormField(item: string, context: CliContext): Promise<FormField> {
  const eq = item.indexOf("=");
  if (eq <= 0) {
    throw new UsageError(
      `Cannot parse form field "${item}": expected <name>=<value> or <name>=@<file>`,
    );
  }
  const name = item.slice(0, eq);
  const value = item.slice(eq + 1);
  if (!value.startsWith("@")) return { name, value };
  const [pathText, ...params] = splitFileField(value.slice(1), item);
  const stdin = pathText === STDIN_PATH;
  if (stdin) claimStdin(context, `-F ${name}=@-`);
  const path = stdin ? STDIN_PATH : await checkFile(pathText ?? "", "-F");
  // curl names a part read from stdin "-" too.
  let filename = path.split(/[\\/]/).pop() ?? path;
  let contentType: string | undefined;
  for (const param of params) {
    const [key, text] = param;
    if (key === "filename") filename = text;
    else if (key === "type") contentType = text;
    else {
      throw new UsageError(`Cannot parse form field "${item}": unknown parameter "${key}"`, {
        hint: "a file field takes ;filename=NAME and ;type=MEDIA/TYPE",
      });
    }
  }
  return { name, path, filename, contentType: contentType ?? guessContentType(filename) };
}

/**
 * Splits a file field as curl does: `path;filename=name;type=media/type`, where the path and
 * the values may be in double quotes (with backslash escapes) to hold `;`.
 */
function splitFileField(text: string, item: string): [string, ...Array<[string, string]>] {
  let at = 0;
  const word = (): string => {
    if (text[at] !== '"') {
      const end = text.indexOf(";", at);
      const out = text.slice(at, end < 0 ? text.length : end);
      at = end < 0 ? text.length : end;
      return out;
    }
    let out = "";
    for (at++; at < text.length && text[at] !== '"'; at++) {
      if (text[at] === "\\" && at + 1 < text.length) at++;
      out += text[at];
    }
    if (text[at] !== '"') throw new UsageError(`Cannot parse form field "${item}": unclosed quote`);
    at++;
    return out;
  };
  const path = word();
  const params: Array<[string, string]> = [];
  while (at < text.length) {
    if (text[at] !== ";") throw new UsageError(`Cannot parse form field "${item}": expected ";"`);
    at++;
    const eq = text.indexOf("=", at);
    if (eq < 0) throw new UsageError(`Cannot parse form field "${item}": expected key=value`);
    const key = text.slice(at, eq).trim();
    at = eq + 1;
    params.push([key, word()]);
  }
  return [path, ...params];
}

async function checkFile(path: string, flag: string): Promise<string> {
  if (path === "") throw new UsageError(`Missing file name after "@" in ${flag}`);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read file "${path}" for ${flag}: ${why}`);
  }
  if (info.isDirectory) throw new UsageError(`Cannot read file "${path}" for ${flag}: a directory`);
  return path;
}
