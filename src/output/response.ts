/**
 * Printing a response: head and body, pretty on a terminal, byte for byte otherwise.
 * @module
 */
import { load } from "../load.ts";
import { undecodedEncoding } from "../http/content_encoding.ts";
import { hasBody } from "../http/direct_body.ts";
import { headerText } from "../http/wire.ts";
import { formatResponseHead } from "./http.ts";
import type { JsonSyntaxError } from "./json_stream.ts";
import { warn } from "./report.ts";
import { escapeControls, pipeToSink, type Sink } from "./terminal.ts";

/** Options for {@link printResponse}. */
export interface PrintResponseOptions {
  /** `-i`: print the status line and headers even when piped. */
  include?: boolean;
  /** `-s`: no head on a terminal, no notes. */
  silent?: boolean;
  /** `-o`: write the body to this file (with a progress bar when `err` is a terminal). */
  outputFile?: string;
  /**
   * `--pretty`, as HTTPie: `all` formats and colours, `format` re-indents JSON, `colors`
   * colours it as sent, `none` prints the body as sent. Default: `all` on a terminal (colours
   * as the terminal allows), `none` piped (byte for byte). Anything but `none` shows control
   * characters escaped, as on a terminal, so `--pretty all | less -R` is safe.
   */
  pretty?: Pretty;
  /** Standard output, or a test buffer. */
  out: Sink;
  /** Where notes go. */
  err: Sink;
}

/** `--pretty` values. */
export type Pretty = "all" | "colors" | "format" | "none";

/** JSON by its type: `application/json`, `text/json`, any `…+json`. */
const JSON_TYPE = /^[\w.+-]+\/(?:[\w.+-]+\+)?json\b/i;
/** Types whose bodies are shown as JSON when they turn out to be JSON (as HTTPie does). */
const SNIFFED_TYPE = /^(?:text\/|application\/(?:x-)?javascript\b)/i;
const TEXT_TYPE =
  /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:xml|javascript|x-www-form-urlencoded|yaml|x-ndjson|graphql)\b)/i;

/**
 * Prints a response. On a terminal: status line, headers, and the body (JSON pretty-printed
 * and coloured; binary bodies are not dumped). Piped: the body only, streamed byte for byte.
 *
 * @param response the response; its body is consumed
 * @param options include, silent, output file and sinks
 * @throws what reading the body throws, after printing what arrived
 */
export async function printResponse(
  response: Response,
  options: PrintResponseOptions,
): Promise<void> {
  const { out, err } = options;
  const toTerminal = out.isTerminal && !options.outputFile;
  const pretty = options.pretty ?? (toTerminal ? "all" : "none");
  // Shown to a person: on a terminal, or styled on purpose for a pager.
  const display = !options.outputFile && (toTerminal || pretty !== "none");
  const color = pretty === "all" || pretty === "colors"
    ? (options.pretty !== undefined || out.color)
    : false;
  const view: Sink = { write: (data) => out.write(data), isTerminal: out.isTerminal, color };
  if (options.include || (toTerminal && !options.silent)) {
    await out.write(formatResponseHead(response, display ? view : out));
  }
  // Piped: byte for byte, an identity body straight from the connection.
  if (!options.outputFile && !display) return await pipeToSink(response, out);
  if (options.outputFile) {
    if (!hasBody(response)) return;
    // Loaded only for -o, with its progress bar; an identity body goes straight from the
    // connection into the file, without a stream.
    const { saveReplacing } = await load.saveFile();
    await saveReplacing(response, options.outputFile, { err, silent: options.silent ?? false });
    return;
  }
  const body = response.body;
  if (!body) return;
  const encoding = undecodedEncoding(response.headers);
  if (encoding !== undefined) {
    const size = await drain(body);
    const named = escapeControls(headerText(response.headers.get("content-encoding")!.trim()));
    await out.write(
      `(body of ${size} bytes in Content-Encoding "${named}", which dial does not decode, not shown on a terminal: use -o <file> or a pipe)\n`,
    );
    return;
  }
  const contentType = response.headers.get("content-type") ?? "";
  const decoder = await textDecoder(contentType, err, options);
  const text = decoder.encoding === "utf-8" ? body : transcode(body, decoder);
  await printForPeople(text, contentType, decoder.encoding !== "utf-8", view, err, {
    ...options,
    pretty,
  });
}

/**
 * @param contentType a Content-Type value
 * @returns its `charset` parameter, lower-cased, if any
 */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const value = (match?.[1] ?? match?.[2] ?? "").trim().toLowerCase();
  return value || undefined;
}

/** A decoder for the body's charset (UTF-8 when none is named or the name is unknown). */
async function textDecoder(
  contentType: string,
  err: Sink,
  options: PrintResponseOptions,
): Promise<TextDecoder> {
  const charset = charsetOf(contentType);
  if (charset === undefined) return new TextDecoder();
  try {
    return new TextDecoder(charset);
  } catch {
    if (!options.silent) await warn(err, `Unknown charset "${charset}": showing the body as UTF-8`);
    return new TextDecoder();
  }
}

/** Re-encodes text in another charset as UTF-8, for the terminal only. */
function transcode(
  body: ReadableStream<Uint8Array>,
  decoder: TextDecoder,
): ReadableStream<Uint8Array> {
  return body
    .pipeThrough(new TextDecoderStream(decoder.encoding))
    .pipeThrough(new TextEncoderStream());
}

async function drain(body: ReadableStream<Uint8Array>): Promise<number> {
  let size = 0;
  for await (const chunk of body) size += chunk.length;
  return size;
}

async function printForPeople(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  declaredText: boolean,
  out: Sink,
  err: Sink,
  options: PrintResponseOptions,
): Promise<void> {
  const pretty = options.pretty ?? "all";
  const reader = body.getReader();
  let pending = await reader.read();
  if (pretty !== "none") {
    if (JSON_TYPE.test(contentType)) return await printJson(reader, pending, out, err, options);
    if (SNIFFED_TYPE.test(contentType) && !pending.done && /^\s*[[{]/.test(head(pending.value))) {
      return await printJson(reader, pending, out, err, { ...options, sniffed: true });
    }
  }
  const decoder = new TextDecoder();
  let first = true;
  let size = 0;
  let endsWithNewline = true;
  for (;; pending = await reader.read()) {
    const { done, value } = pending;
    if (done) break;
    size += value.length;
    if (first && !declaredText && !TEXT_TYPE.test(contentType) && value.includes(0)) {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        size += next.value.length;
      }
      await out.write(
        `(binary body of ${size} bytes not shown on a terminal: use -o <file> or a pipe)\n`,
      );
      return;
    }
    first = false;
    // Only for a terminal: control sequences from the server are shown, not obeyed.
    const text = escapeControls(decoder.decode(value, { stream: true }));
    if (text) {
      await out.write(text);
      endsWithNewline = text.endsWith("\n");
    }
  }
  const rest = escapeControls(decoder.decode());
  if (rest) await out.write(rest);
  if (size > 0 && !endsWithNewline && !rest.endsWith("\n")) await out.write("\n");
}

/** The start of a chunk as text, for sniffing JSON. */
function head(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes.subarray(0, 64));
}

/** Formatted output is held back up to this size, so that a small invalid body prints as sent. */
const HOLD_BYTES = 64 * 1024;

/**
 * Streams a JSON body through the re-indenter. A body that turns out not to be JSON is
 * printed as it came when little has been shown yet, or continued raw from the fault
 * otherwise, and then reported.
 */
async function printJson(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: ReadableStreamReadResult<Uint8Array>,
  out: Sink,
  err: Sink,
  options: PrintResponseOptions & { sniffed?: boolean },
): Promise<void> {
  // Loaded only for a person's terminal or --pretty: piped output is never re-indented.
  const { JsonPrettyPrinter, JsonSyntaxError } = await load.jsonStream();
  const printer = new JsonPrettyPrinter({
    color: out.color,
    reformat: options.pretty !== "colors",
    decodeEscapes: out.isTerminal,
  });
  let pending: ReadableStreamReadResult<Uint8Array> | undefined = first;
  // Until the first write: the raw input and the formatted output, either of which may be shown.
  let raw: Uint8Array[] | undefined = [];
  let held: Uint8Array[] = [];
  let heldSize = 0;
  let size = 0;
  let last = 0x0a;
  // Only for a terminal: control characters are shown escaped. Valid JSON cannot hold a raw
  // C0 control, so the coloured output keeps its own ESC; raw (invalid) input keeps none.
  const prettyText = new TextDecoder();
  const rawText = new TextDecoder();
  const write = async (bytes: Uint8Array, raw = false) => {
    if (bytes.length === 0) return;
    last = bytes[bytes.length - 1]!;
    const text = raw
      ? escapeControls(rawText.decode(bytes, { stream: true }))
      : escapeControls(prettyText.decode(bytes, { stream: true }), out.color);
    await out.write(text);
  };
  const flush = async () => {
    for (const bytes of held) await write(bytes);
    held = [];
    raw = undefined;
  };
  let syntax: JsonSyntaxError | undefined;
  try {
    for (;;) {
      const { done, value } = pending ?? await reader.read();
      pending = undefined;
      if (done) break;
      size += value.length;
      raw?.push(value);
      const pretty = printer.push(value);
      if (raw) {
        held.push(pretty);
        heldSize += pretty.length;
        if (heldSize >= HOLD_BYTES) await flush();
      } else {
        await write(pretty);
      }
    }
    if (size === 0) return;
    const tail = printer.end();
    if (raw) {
      held.push(tail);
      await flush();
    } else {
      await write(tail);
    }
    if (last !== 0x0a) await write(NEWLINE);
    return;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) {
      // Reading failed: show what arrived, then report the failure.
      for (const bytes of raw ?? []) await write(bytes, true);
      if (size > 0 && last !== 0x0a) await write(NEWLINE);
      throw error;
    }
    syntax = error;
  }
  if (syntax) {
    if (raw) {
      for (const bytes of raw) await write(bytes, true);
    } else {
      await write(syntax.partial);
      await write(syntax.rest, true);
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await write(value, true);
    }
    if (last !== 0x0a) await write(NEWLINE);
    if (!options.silent && !options.sniffed) {
      await warn(err, `Response body is not valid JSON: ${syntax.message}`);
    }
  }
}

const NEWLINE = new Uint8Array([0x0a]);
