/**
 * `-D/--dump-header FILE`: every response head (each redirect hop) written to a file as it
 * arrives, or to stdout before the body with `-D -`.
 * @module
 */
import { outputError, UsageError } from "../errors/mod.ts";
import { formatResponseHead } from "../output/http.ts";
import type { Sink } from "../output/terminal.ts";

/** Where -D writes. */
export interface DumpHeader {
  /** Writes one response head. */
  write(response: Response): Promise<void>;
  /** Closes the file. */
  close(): Promise<void>;
}

/**
 * @param path the -D value: a file (replaced) or `-` for stdout
 * @param out stdout
 * @returns the writer
 * @throws {UsageError} when the file cannot be created
 */
export async function openDumpHeader(path: string, out: Sink): Promise<DumpHeader> {
  if (path === "-") {
    return {
      write: async (response) => await out.write(formatResponseHead(response, out)),
      close: async () => {},
    };
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, create: true, truncate: true });
  } catch (error) {
    throw new UsageError(`Cannot write -D file "${path}": ${(error as Error).message}`);
  }
  const plain = { color: false, isTerminal: false };
  const encoder = new TextEncoder();
  let closed = false;
  return {
    write: async (response) => {
      try {
        const bytes = encoder.encode(formatResponseHead(response, plain));
        for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
      } catch (error) {
        throw outputError(error) ?? error;
      }
    },
    close: () => {
      if (!closed) file.close();
      closed = true;
      return Promise.resolve();
    },
  };
}
