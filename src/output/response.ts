/**
 * Printing a response: head and body, pretty on a terminal, byte for byte otherwise.
 * @module
 */
import { formatResponseHead } from "./http.ts";
import { prettyJson } from "./json.ts";
import { warn } from "./report.ts";
import { pipeToFile, pipeToStdout, type Sink, stderr, stdout } from "./terminal.ts";

/** Options for {@link printResponse}. */
export interface PrintResponseOptions {
  /** `-i`: print the status line and headers even when piped. */
  include?: boolean;
  /** `-s`: no head on a terminal, no notes. */
  silent?: boolean;
  /** `-o`: write the body to this file. */
  outputFile?: string;
  /** Where stdout goes; tests may pass a buffer. */
  out?: Sink;
  /** Where notes go. */
  err?: Sink;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b|^application\/graphql-response\+json\b/i;
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
  options: PrintResponseOptions = {},
): Promise<void> {
  const out = options.out ?? stdout();
  const err = options.err ?? stderr();
  const toTerminal = out.isTerminal && !options.outputFile;
  if (options.include || (toTerminal && !options.silent)) {
    await out.write(formatResponseHead(response, out.color));
  }
  const body = response.body;
  if (!body) return;
  if (options.outputFile) {
    await pipeToFile(body, options.outputFile);
  } else if (!toTerminal) {
    if (options.out) { for await (const chunk of body) await out.write(chunk); }
    else await pipeToStdout(body);
  } else {
    await printForPeople(body, response.headers.get("content-type") ?? "", out, err, options);
  }
}

async function printForPeople(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  out: Sink,
  err: Sink,
  options: PrintResponseOptions,
): Promise<void> {
  const decoder = new TextDecoder();
  if (JSON_TYPE.test(contentType)) {
    let text = "";
    try {
      for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
      text += decoder.decode();
    } catch (error) {
      await out.write(text + "\n");
      throw error;
    }
    let pretty: string | undefined;
    try {
      JSON.parse(text);
      pretty = prettyJson(text, out.color);
    } catch (error) {
      await out.write(text.endsWith("\n") ? text : text + "\n");
      if (!options.silent) {
        await warn(err, `Response body is not valid JSON: ${(error as Error).message}`);
      }
      return;
    }
    await out.write(pretty + "\n");
    return;
  }
  const reader = body.getReader();
  let first = true;
  let size = 0;
  let endsWithNewline = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (first && !TEXT_TYPE.test(contentType) && value.includes(0)) {
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
    const text = decoder.decode(value, { stream: true });
    if (text) {
      await out.write(text);
      endsWithNewline = text.endsWith("\n");
    }
  }
  const rest = decoder.decode();
  if (rest) await out.write(rest);
  if (size > 0 && !endsWithNewline && !rest.endsWith("\n")) await out.write("\n");
}
