/**
 * Full response bodies of the HTTP tab, kept on disk so "Save" can stream all of a body the
 * page only previews (5 MiB). Files live in a private temporary directory (0700, files 0600),
 * only the last few are kept, and the directory is removed when the server stops.
 * @module
 */
import { UsageError } from "../../errors.ts";

const KEEP = 8;

/** Where the HTTP tab's full bodies are spooled. */
export class BodyStore {
  #dir: Promise<string> | undefined;
  #ids: string[] = [];

  /**
   * Reads a body through to a new file, handing the first `limit` bytes to the caller.
   *
   * @param body the response body
   * @param limit how many bytes to keep in memory
   * @returns the kept bytes, the full size and the body's id
   */
  async spool(
    body: ReadableStream<Uint8Array> | null,
    limit: number,
  ): Promise<{ bytes: Uint8Array; size: number; id: string }> {
    const dir = await (this.#dir ??= Deno.makeTempDir({ prefix: "dial-ui-bodies-" }));
    const id = crypto.randomUUID();
    const file = await Deno.open(`${dir}/${id}`, { write: true, createNew: true, mode: 0o600 });
    const chunks: Uint8Array[] = [];
    let kept = 0;
    let size = 0;
    try {
      for await (const chunk of body ?? []) {
        size += chunk.length;
        if (kept < limit) {
          const part = chunk.subarray(0, limit - kept);
          chunks.push(part);
          kept += part.length;
        }
        for (let written = 0; written < chunk.length;) {
          written += await file.write(chunk.subarray(written));
        }
      }
    } catch (error) {
      // Cancelled or cut off: a partial body is never offered to Save.
      file.close();
      await Deno.remove(`${dir}/${id}`).catch(() => {});
      throw error;
    }
    file.close();
    this.#ids.push(id);
    for (const old of this.#ids.splice(0, Math.max(0, this.#ids.length - KEEP))) {
      await Deno.remove(`${dir}/${old}`).catch(() => {});
    }
    const bytes = new Uint8Array(kept);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return { bytes, size, id };
  }

  /**
   * @param id a body's id
   * @returns the whole body as a stream
   * @throws {UsageError} when the body is no longer kept
   */
  async open(id: string): Promise<ReadableStream<Uint8Array>> {
    if (!this.#ids.includes(id) || !this.#dir) {
      throw new UsageError("That response body is no longer kept: send the request again");
    }
    const file = await Deno.open(`${await this.#dir}/${id}`, { read: true });
    return file.readable;
  }

  /** Removes every kept body. */
  async close(): Promise<void> {
    const dir = this.#dir;
    this.#dir = undefined;
    this.#ids = [];
    if (dir) await Deno.remove(await dir, { recursive: true }).catch(() => {});
  }
}
