/**
 * Where `dial import` reads its sources and the documents an OpenAPI description refers to: a
 * file, stdin, or an http(s) URL fetched through dial's own transport (so `--cacert`, `-k`,
 * `--proxy` … apply), bounded in size and time.
 * @module
 */
import { readBounded } from "../bytes.ts";
import { StatusError, TimeoutError, TooLargeError, UsageError } from "../errors/mod.ts";
import { type Exchange, send } from "../http/send.ts";
import type { TransportOptions } from "../http/plan.ts";
import { redactUrl } from "../redact_url.ts";
import type { CliContext } from "./context.ts";

const ACCEPT = "application/json, application/yaml, text/yaml, text/plain, */*";

/** The largest source or referenced document read: a large real description is a few MB. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/** Options of {@link importReader}. */
export interface ImportReaderOptions {
  /** The transport of the flags. */
  transport: TransportOptions;
  /** The time one fetch may take, in ms. */
  timeoutMs: number;
  /** The most bytes one source may hold. */
  maxBytes?: number;
}

/** Reads sources by name (path, `-`, URL) and documents by URL. */
export interface ImportReader {
  /** A source as given on the command line, and the URL it is read from. */
  source(name: string): Promise<{ text: string; url?: URL }>;
  /** A document a description refers to (`file:` or `http(s):`). */
  load(url: URL): Promise<string>;
}

/**
 * @param name a source as given
 * @returns whether it is an http(s) URL
 */
export function isUrlSource(name: string): boolean {
  return /^https?:\/\//i.test(name);
}

/**
 * Creates the reader of one `dial import` run.
 *
 * @param context the run's stdin, signal and environment
 * @param options the transport and the bounds
 * @returns the reader
 */
export function importReader(context: CliContext, options: ImportReaderOptions): ImportReader {
  const maxBytes = options.maxBytes ?? MAX_IMPORT_BYTES;
  const fetchText = async (url: URL): Promise<{ text: string; url: URL }> => {
    const shown = redactUrl(url);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([context.signal, timeout]);
    let exchange: Exchange;
    try {
      exchange = await send({
        method: "GET",
        url,
        headers: [{ name: "Accept", value: ACCEPT }],
        auth: { queryKeys: [] },
      }, { transport: options.transport, follow: true, signal });
    } catch (error) {
      if (timeout.aborted) throw timedOut(shown, options.timeoutMs, error);
      throw error;
    }
    const { response } = exchange;
    if (!response.ok) {
      await response.body?.cancel();
      throw new StatusError(
        `Cannot import ${shown}: HTTP ${response.status} ${response.statusText}`.trimEnd(),
        response.status,
      );
    }
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw tooLarge(shown, maxBytes);
    }
    try {
      return { text: await readText(response.body, maxBytes, shown), url: exchange.request.url };
    } catch (error) {
      if (timeout.aborted) throw timedOut(shown, options.timeoutMs, error);
      throw error;
    }
  };
  const readFile = async (path: string, name: string): Promise<string> => {
    try {
      const info = await Deno.stat(path);
      if (info.isFile && info.size > maxBytes) throw tooLarge(name, maxBytes);
      return await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof TooLargeError) throw error;
      const why = error instanceof Deno.errors.NotFound
        ? "no such file"
        : error instanceof Deno.errors.IsADirectory
        ? "it is a directory"
        : (error as Error).message;
      throw new UsageError(`Cannot read "${name}": ${why}`);
    }
  };
  return {
    async source(name) {
      if (name === "-") {
        return { text: await readText(context.stdin.readable, maxBytes, "stdin") };
      }
      if (isUrlSource(name)) {
        let url: URL;
        try {
          url = new URL(name);
        } catch {
          throw new UsageError(`Invalid URL "${name}"`);
        }
        // References resolve against where the description was found (after redirects).
        return await fetchText(url);
      }
      const absolute = name.startsWith("/") ? name : `${Deno.cwd()}/${name}`;
      const text = await readFile(name, name);
      return { text, url: new URL(`file://${encodeURI(absolute).replaceAll("#", "%23")}`) };
    },
    async load(url) {
      if (url.protocol === "http:" || url.protocol === "https:") {
        const fetched = await fetchText(url);
        if (fetched.url.origin !== url.origin) {
          throw new UsageError(`redirected to another origin, ${fetched.url.origin}`);
        }
        return fetched.text;
      }
      if (url.protocol !== "file:") throw new UsageError(`Cannot read "${url.href}"`);
      return await readFile(decodeURIComponent(url.pathname), decodeURIComponent(url.pathname));
    },
  };
}

/** The text of a body of at most `maxBytes`. */
async function readText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  name: string,
): Promise<string> {
  return new TextDecoder().decode(
    await readBounded(body, maxBytes, () => tooLarge(name, maxBytes)),
  );
}

function tooLarge(name: string, maxBytes: number): TooLargeError {
  return new TooLargeError(
    `Cannot import ${name}: it is larger than ${maxBytes / 1024 / 1024} MiB`,
  );
}

function timedOut(name: string, ms: number, cause: unknown): TimeoutError {
  return new TimeoutError(`Timed out after ${ms / 1000} s reading ${name}`, { cause });
}
