/**
 * Full response bodies of the HTTP tab, kept on disk so "Save" can stream all of a body the
 * page only previews (5 MiB). Files live in a private temporary directory (0700, files 0600);
 * a body over {@link MAX_KEPT_BODY} keeps only its preview, the kept ones stay under
 * {@link MAX_KEPT_BODIES} and eight together (the oldest go first), and the directory is removed
 * when the server stops (Ctrl-C, SIGTERM, SIGHUP).
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import { MAX_KEPT_BODIES, MAX_KEPT_BODY } from "../protocol.ts";

const KEEP = 8;

/** The limits of a {@link BodyStore} (tests lower them). */
export interface BodyStoreLimits {
  /** The largest body kept; default {@link MAX_KEPT_BODY}. */
  perBody?: number;
  /** All kept bodies together; default {@link MAX_KEPT_BODIES}. */
  total?: number;
}

/** What {@link BodyStore.spool} read. */
export interface Spooled {
  /** The first bytes, for the preview. */
  bytes: Uint8Array;
  /** The full size. */
  size: number;
  /** The id for Save, when the whole body is kept. */
  id?: string;
}

/** Where the HTTP tab's full bodies are spooled. */
export class BodyStore {
  #dir: Promise<string> | undefined;
  #kept: Array<{ id: string; size: number }> = [];
  readonly #perBody: number;
  readonly #total: number;

  /** @param limits per body and in total */
  constructor(limits: BodyStoreLimits = {}) {
    this.#perBody = limits.perBody ?? MAX_KEPT_BODY;
    this.#total = Math.max(limits.total ?? MAX_KEPT_BODIES, this.#perBody);
  }

  /**
   * Reads a body through, writing it to a new file while it stays within the per-body limit,
   * and hands the first `limit` bytes to the caller.
   *
   * @param body the response body
   * @param limit how many bytes to keep in memory
   * @returns the kept bytes, the full size and, when the whole body is kept, its id
   */
  async spool(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Spooled> {
    const dir = await (this.#dir ??= Deno.makeTempDir({ prefix: "dial-ui-bodies-" }));
    const id = crypto.randomUUID();
    const path = `${dir}/${id}`;
    let file: Deno.FsFile | undefined = await Deno.open(path, {
      write: true,
      createNew: true,
      mode: 0o600,
    });
    const drop = async () => {
      file?.close();
      file = undefined;
      await Deno.remove(path).catch(() => {});
    };
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
        if (file && size > this.#perBody) await drop();
        for (let written = 0; file && written < chunk.length;) {
          written += await file.write(chunk.subarray(written));
        }
      }
    } catch (error) {
      // Cancelled or cut off: a partial body is never offered to Save.
      await drop();
      throw error;
    }
    const whole = file !== undefined;
    file?.close();
    if (whole) await this.#keep(id, size);
    const bytes = new Uint8Array(kept);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return { bytes, size, ...(whole ? { id } : {}) };
  }

  async #keep(id: string, size: number): Promise<void> {
    this.#kept.push({ id, size });
    let total = this.#kept.reduce((sum, body) => sum + body.size, 0);
    while (this.#kept.length > KEEP || total > this.#total) {
      const old = this.#kept.shift()!;
      total -= old.size;
      await Deno.remove(`${await this.#dir}/${old.id}`).catch(() => {});
    }
  }

  /**
   * Writes a file the page attached to a form into the private directory, for one send.
   *
   * @param bytes the file's bytes
   * @returns its path, and removal (also done when the server stops)
   */
  async upload(bytes: Uint8Array): Promise<{ path: string } & AsyncDisposable> {
    const dir = await (this.#dir ??= Deno.makeTempDir({ prefix: "dial-ui-bodies-" }));
    const path = `${dir}/upload-${crypto.randomUUID()}`;
    await Deno.writeFile(path, bytes, { createNew: true, mode: 0o600 });
    return { path, [Symbol.asyncDispose]: () => Deno.remove(path).catch(() => {}) };
  }

  /**
   * @param id a body's id
   * @returns the whole body as a stream
   * @throws {UsageError} when the body is no longer kept
   */
  async open(id: string): Promise<ReadableStream<Uint8Array>> {
    if (!this.#kept.some((body) => body.id === id) || !this.#dir) {
      throw new UsageError("That response body is no longer kept: send the request again");
    }
    const file = await Deno.open(`${await this.#dir}/${id}`, { read: true });
    return file.readable;
  }

  /** @returns the directory bodies are kept in, once one was made */
  directory(): Promise<string> | undefined {
    return this.#dir;
  }

  /** Removes every kept body. */
  async close(): Promise<void> {
    const dir = this.#dir;
    this.#dir = undefined;
    this.#kept = [];
    if (dir) await Deno.remove(await dir, { recursive: true }).catch(() => {});
  }
}
