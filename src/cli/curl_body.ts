/**
 * curl's data habits: `--data-urlencode` (encoded as curl does), `--data-raw` (text, a leading
 * `@` included), their order beside `-d`, `-G` (the data goes in the query of a GET) and `-T`
 * (a file or stdin as the body of a PUT).
 * @see https://curl.se/docs/manpage.html#--data-urlencode
 * @module
 */
import type { CliContext } from "./context.ts";
import type { FlagUse } from "./declare.ts";
import { UsageError } from "../errors/mod.ts";
import type { BodySource } from "../http/request_spec.ts";
import { claimStdin } from "./secret_ref.ts";

/** The flags read here. */
export interface CurlDataFlags {
  /** `-d`, `--data-raw` and `--data-urlencode`, in the order given. */
  data: DataPart[];
  /** `-G`. */
  get: boolean;
  /** `-T`. */
  uploadFile?: string | undefined;
}

/** One of curl's data flags as given: `-d` (also `--data-binary`), `--data-raw`, `--data-urlencode`. */
export interface DataPart {
  /** The flag's long name. */
  flag: "data" | "data-raw" | "data-urlencode";
  /** Its value as typed. */
  value: string;
}

/**
 * @param order every flag given, in order (from the parser)
 * @returns the data flags among them, in that order
 */
export function dataParts(order: readonly FlagUse[]): DataPart[] {
  return order.flatMap(({ long, value }) =>
    long === "data" || long === "data-raw" || long === "data-urlencode"
      ? [{ flag: long, value: value === true ? "" : value }]
      : []
  );
}

/** What the curl data flags give. */
export interface CurlData {
  /** Text for the query (with `-G`). */
  query?: string;
  /** A body that replaces `-d`'s (urlencoded pairs, or `-T`'s file). */
  body?: BodySource;
  /** Whether `-d` was used up here (so it is not a body of its own). */
  tookData: boolean;
}

/**
 * curl joins its data flags with `&` in the order they were given, whatever their kind
 * (`-d a=1 --data-urlencode 'b=x y' -d c=3` is `a=1&b=x+y&c=3`), in the body or with `-G` in
 * the query.
 *
 * @param flags -d, --data-raw, --data-urlencode (in order), -G, -T
 * @param context the run: its stdin
 * @returns the query text and body they give
 * @throws {UsageError} for unreadable files, or a stdin -d that must be joined
 */
export async function curlData(flags: CurlDataFlags, context: CliContext): Promise<CurlData> {
  const upload = flags.uploadFile;
  if (upload !== undefined) {
    if (upload === "-") {
      claimStdin(context, "-T -");
      return { body: { kind: "stdin", stream: context.stdin.readable }, tookData: false };
    }
    await checkFile(upload, "-T");
    return { body: { kind: "file", path: upload }, tookData: false };
  }
  const plain = flags.data.every((part) => part.flag === "data");
  if (!flags.get && plain) return { tookData: false };
  const parts: string[] = [];
  for (const { flag, value } of flags.data) {
    parts.push(
      flag === "data"
        ? await dataText(value, context)
        : flag === "data-raw"
        ? value
        : await urlencodeItem(value, context),
    );
  }
  const text = parts.join("&");
  if (flags.get) return { query: text, tookData: true };
  return {
    body: { kind: "text", text, contentType: "application/x-www-form-urlencoded" },
    tookData: true,
  };
}

/** `-d` joined with other data: its text, a file's text without line breaks (as curl). */
async function dataText(value: string, context: CliContext): Promise<string> {
  if (value === "@-") {
    throw new UsageError("Cannot join -d @- with -G, --data-raw or --data-urlencode", {
      hint: "give the data from a file (-d @file) or as text",
    });
  }
  if (!value.startsWith("@")) return value;
  return (await readFile(value.slice(1), "-d", context)).replace(/[\r\n]/g, "");
}

/**
 * One `--data-urlencode` value, as curl reads it: `content`, `=content`, `name=content`,
 * `@file`, `name@file`; the content is percent-encoded (all but letters, digits and `-._~`).
 */
async function urlencodeItem(item: string, context: CliContext): Promise<string> {
  const at = item.search(/[=@]/);
  if (at < 0) return curlEscape(item);
  const name = item.slice(0, at);
  const content = item[at] === "@"
    ? await readFile(item.slice(at + 1), "--data-urlencode", context)
    : item.slice(at + 1);
  return name === "" ? curlEscape(content) : `${name}=${curlEscape(content)}`;
}

/**
 * @param text text
 * @returns it encoded as curl's --data-urlencode does: letters, digits and `-._~` kept, space
 *   as `+`, every other UTF-8 byte as `%xx` in lower case
 */
export function curlEscape(text: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9._~-]/.test(char)) out += char;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

async function readFile(path: string, flag: string, context: CliContext): Promise<string> {
  if (path === "-") {
    claimStdin(context, `${flag} @-`);
    return await new Response(context.stdin.readable).text();
  }
  await checkFile(path, flag);
  return await Deno.readTextFile(path);
}

async function checkFile(path: string, flag: string): Promise<void> {
  if (path === "") throw new UsageError(`Missing file name after ${flag}`);
  try {
    if ((await Deno.stat(path)).isDirectory) {
      throw new UsageError(`Cannot read file "${path}" for ${flag}: a directory`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const why = error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read file "${path}" for ${flag}: ${why}`);
  }
}
