/**
 * `$ref` resolution of an OpenAPI description: local references (`#/components/…`) and, when the
 * caller gives a loader, references to other documents (`schemas.yaml#/Pet`,
 * `https://…/common.json#/…`), JSON or YAML. Each document is read once. A reference cycle keeps
 * its `$ref` where it closes (a recursive schema); a chain deeper than {@link MAX_REF_DEPTH} or
 * more than {@link MAX_DOCUMENTS} documents stop there, reported.
 *
 * Which documents may be read: those in the description's own folder or below it (a file
 * source), or on its origin (a URL source). A description is data from someone else: it must
 * not make dial read `~/.ssh/…` into an example body that ends up in a request file, nor make
 * dial reach other hosts (the intranet behind a public description). Anything else is left as
 * a `$ref` and reported in the loss report.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#reference-object
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2 (relative references)
 * @module
 */
import { parse as parseYaml } from "yaml";
import type { ImportLoss } from "./import_model.ts";
import { isObject, type Json } from "./json_read.ts";

/** The longest chain of references followed. */
export const MAX_REF_DEPTH = 64;
/** The most documents read besides the description. */
export const MAX_DOCUMENTS = 100;

/** Reads a referenced document's text (`file:` or `http(s):` URL). */
export type DocumentLoader = (url: URL) => Promise<string>;

/** Options of {@link resolveRefs}. */
export interface ResolveRefsOptions {
  /** Where the description was read from: relative references resolve against it. */
  base?: URL;
  /** Reads other documents; without it, references to them are reported, not read. */
  load?: DocumentLoader;
  /**
   * A last check of a file about to be read (the CLI compares real paths, so that a symbolic
   * link cannot lead out of the folder).
   */
  allowFile?: (url: URL, base: URL) => Promise<boolean>;
  /** Where losses are reported. */
  losses: ImportLoss[];
}

/**
 * The description with its `$ref`s replaced by what they point to. A target whose resolution
 * closes no cycle is resolved once and shared by every `$ref` to it (GitHub's description: 1,223
 * operations, its targets copied once each were 47 MB of JSON), so the result is a graph that
 * may share objects: treat it as read-only. It reads the same as the tree of copies.
 *
 * @param root the description
 * @param options the base URL, the loader and the loss list
 * @returns the resolved description
 */
export async function resolveRefs(root: Json, options: ResolveRefsOptions): Promise<Json> {
  const resolver = new RefResolver(root, options);
  // The walk is synchronous; meeting a document not read yet, it stops, the document is read
  // and the walk starts again (the targets already resolved are kept, losses are reported once).
  for (;;) {
    try {
      return resolver.resolve(root, { url: options.base, root }, [], {
        cut: false,
        height: 0,
      }) as Json;
    } catch (error) {
      if (!(error instanceof Unread)) throw error;
      await resolver.read(error.url);
    }
  }
}

/** A document being resolved: where it came from (for relative `$ref`s) and its root value. */
interface Doc {
  url: URL | undefined;
  root: unknown;
}

/** What the resolution of one `$ref` target found below it. */
interface Frame {
  /** A cycle or the depth limit left a `$ref` in place: the result depends on the path to it. */
  cut: boolean;
  /** The longest chain of `$ref`s followed below it, itself included. */
  height: number;
}

/** A document read (its parsed root) or not readable (why). */
type Read = { root: unknown } | { error: Error };

/** Thrown by the walk when it needs a document not read yet. */
class Unread {
  constructor(readonly url: URL) {}
}

/** Follows the `$ref`s of one description: documents read once, losses reported once each. */
class RefResolver {
  readonly #documents = new Map<string, Read>();
  /** Resolved targets by ref key, with the height of their chains; only those with no cut. */
  readonly #resolved = new Map<string, { value: unknown; height: number }>();
  readonly #options: ResolveRefsOptions;

  constructor(root: Json, options: ResolveRefsOptions) {
    this.#options = options;
    if (options.base) this.#documents.set(withoutHash(options.base), { root });
  }

  /**
   * The value with every `$ref` below it replaced; `stack` holds the refs being followed,
   * `frame` gathers what the walk met.
   */
  resolve(value: unknown, doc: Doc, stack: readonly string[], frame: Frame): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, doc, stack, frame));
    if (!isObject(value)) return value;
    const ref = value.$ref;
    if (typeof ref !== "string") {
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.resolve(v, doc, stack, frame);
      return out;
    }
    const found = this.#target(ref, doc);
    if (!found) return value;
    // A cycle (a recursive schema) keeps its $ref where it closes.
    if (stack.includes(found.key)) {
      frame.cut = true;
      return value;
    }
    if (stack.length >= MAX_REF_DEPTH) {
      this.#report(`a $ref chain deeper than ${MAX_REF_DEPTH}: ${ref}`);
      frame.cut = true;
      return value;
    }
    const pointed = at(found.doc.root, found.pointer);
    if (pointed === undefined) {
      this.#report(`a $ref to nothing: ${ref}`);
      return value;
    }
    // A target resolved with no cut reads the same from any path that does not reach the depth
    // limit: none of the refs below it can be on the stack (that would have been a cycle).
    const done = this.#resolved.get(found.key);
    if (done && stack.length + done.height <= MAX_REF_DEPTH) {
      frame.height = Math.max(frame.height, done.height);
      return done.value;
    }
    const inner: Frame = { cut: false, height: 0 };
    const out = this.resolve(pointed, found.doc, [...stack, found.key], inner);
    const height = inner.height + 1;
    frame.height = Math.max(frame.height, height);
    if (inner.cut) frame.cut = true;
    else this.#resolved.set(found.key, { value: out, height });
    return out;
  }

  /** Reads the document at `url` (its hash aside), or records why it cannot be read. */
  async read(url: URL): Promise<void> {
    const key = withoutHash(url);
    const { allowFile, load, base } = this.#options;
    try {
      if (url.protocol === "file:" && allowFile && base && !(await allowFile(url, base))) {
        throw new Error("outside the description's folder");
      }
      this.#documents.set(key, { root: parseDocument(await load!(new URL(key))) });
    } catch (error) {
      this.#documents.set(key, { error: error as Error });
    }
  }

  /** The document and pointer a `$ref` names, or undefined (reported) when it cannot be read. */
  #target(ref: string, doc: Doc): { doc: Doc; pointer: string; key: string } | undefined {
    if (ref.startsWith("#")) {
      const pointer = decodePointer(ref.slice(1));
      return { doc, pointer, key: `${doc.url ? withoutHash(doc.url) : ""}${ref}` };
    }
    if (!this.#options.load) {
      this.#report(`a $ref to another document: ${ref}`);
      return undefined;
    }
    let url: URL;
    try {
      url = new URL(ref, doc.url);
    } catch {
      this.#report(`a $ref that is not a URL or path: ${ref}`);
      return undefined;
    }
    const refused = this.#refused(url);
    if (refused) {
      this.#report(`a $ref ${refused}: ${ref}`);
      return undefined;
    }
    const read = this.#documentAt(url);
    if ("error" in read) {
      this.#report(`a $ref that could not be read (${read.error.message}): ${ref}`);
      return undefined;
    }
    const pointer = decodePointer(url.hash.slice(1));
    return { doc: { url, root: read.root }, pointer, key: `${withoutHash(url)}#${pointer}` };
  }

  #report(what: string): void {
    const losses = this.#options.losses;
    if (!losses.some((l) => l.what === what)) losses.push({ where: "description", what });
  }

  /** Why a document may not be read from `url`, or undefined when it may. */
  #refused(url: URL): string | undefined {
    const base = this.#options.base;
    if (!base) return "no folder or origin to resolve it from";
    if (base.protocol === "file:") {
      if (url.protocol !== "file:") return "outside the description's folder, not fetched";
      const folder = base.pathname.slice(0, base.pathname.lastIndexOf("/") + 1);
      return url.pathname.startsWith(folder) ? undefined : "outside the description's folder";
    }
    return url.origin === base.origin ? undefined : "on another origin, not fetched";
  }

  /** The document at `url` (its hash aside); throws {@link Unread} when not read yet. */
  #documentAt(url: URL): Read {
    const found = this.#documents.get(withoutHash(url));
    if (found) return found;
    if (this.#documents.size > MAX_DOCUMENTS) {
      return { error: new Error(`more than ${MAX_DOCUMENTS} documents`) };
    }
    throw new Unread(url);
  }
}

/**
 * The check that a file an OpenAPI description refers to is inside the description's folder
 * once symbolic links are followed (`dial import`, `--openapi` and the UI read descriptions
 * alike): an {@link ResolveRefsOptions.allowFile}.
 *
 * @param url the referenced file
 * @param base the description's URL
 * @returns whether the file's real path is inside the description's real folder
 */
export async function insideFolder(url: URL, base: URL): Promise<boolean> {
  if (base.protocol !== "file:") return false;
  const [folder, real] = await Promise.all([realPathOf(new URL(".", base)), realPathOf(url)]);
  return folder !== undefined && real !== undefined && real.startsWith(`${folder}/`);
}

/** The real path of a `file:` URL, or undefined when it does not exist. */
async function realPathOf(url: URL): Promise<string | undefined> {
  try {
    return await Deno.realPath(decodeURIComponent(url.pathname));
  } catch {
    return undefined;
  }
}

/** The value at a JSON pointer (RFC 6901), `""` being the whole document. */
function at(root: unknown, pointer: string): unknown {
  let target = root;
  if (pointer === "") return target;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    target = isObject(target) || Array.isArray(target)
      ? (target as Record<string, unknown>)[key]
      : undefined;
  }
  return target;
}

function decodePointer(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function withoutHash(url: URL): string {
  const copy = new URL(url);
  copy.hash = "";
  return copy.href;
}

function parseDocument(text: string): unknown {
  const clean = text.replace(/^\uFEFF/, "");
  try {
    return JSON.parse(clean);
  } catch {
    return parseYaml(clean);
  }
}
