/**
 * The trust rule, in one place for every face (CLI, UI, runner): files that come with a
 * repository (`.http` files, `http-client.env.json`, imported collections) are data. What they
 * may do is decided by the person who runs them, on the command line, never by the file.
 *
 * - A shared file cannot run commands: `@exec:` (and `@-`, standard input) is honoured only from
 *   the command line, the user's own config and the user's own environment files (the private
 *   env file and `--env-file`, unless git tracks them: then they came with the repository too).
 *   A shared `@exec:` is refused when the environment is loaded, before anything is sent.
 * - References (`@exec:`, `@env:`, `@path`) are resolved lazily: a {@link Reference} resolves
 *   when a request that uses it is about to be sent ({@link whenResolved}), never because it
 *   exists in an environment.
 * - Every path a shared file names (an env file's `@path`, `<` includes, `>>` outputs, handler
 *   scripts) must resolve, symlinks followed, inside the run's root folders
 *   ({@link Confinement}); the person running dial widens them (`--allow-path`).
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import type { HttpFile } from "./http_file_types.ts";

/**
 * Whose a value is: `shared` (it came with a repository: it is data) or `own` (the person's:
 * the command line, their config, their private env file).
 */
export type Trust = "shared" | "own";

/** Where a reference was written. */
export interface ReferenceSource {
  /** The file (or `--var` for the command line). */
  file: string;
  /** The variable or setting, for messages. */
  key: string;
  /** Whose it is. */
  trust: Trust;
  /** The folder a relative `@path` is read from (the env file's). */
  dir: string;
}

/**
 * Reads one reference whose trust was checked: `@exec:COMMAND`, `@-`, `@env:NAME` or
 * `@/absolute/real/path` (relative paths are made absolute and confined before it is called).
 * Each face gives its own (the CLI runs credential helpers, the UI refuses them).
 */
export type ReferenceReader = (value: string, where: string) => Promise<string>;

/** How references of one load are read, and what a shared file may reach. */
export interface ReferencePolicy {
  /** The face's reader. */
  read: ReferenceReader;
  /** The run's folders: a shared `@path` must resolve inside them. */
  confinement?: Confinement;
  /**
   * Whether a shared file's `@env:NAME` is read. The CLI: yes (like `{{$processEnv}}` in every
   * peer). The UI: no, a page could aim it at any host; there it comes only from the private file.
   */
  sharedEnv?: boolean;
}

/** Whether a value is a reference rather than a literal (`@@` escapes a literal `@`). */
export function isReferenceText(value: string): boolean {
  return /^@(?!@)./s.test(value);
}

/**
 * Writes a value that came from someone else's file (an imported collection or environment)
 * into an environment file as the literal it was: a leading `@` is doubled, so that it is never
 * read as a reference (`@exec:`, `@env:`, `@path`), even in the private env file.
 *
 * @param value the value as the source had it
 * @returns the value to write
 */
export function literalValue(value: string): string {
  return value.startsWith("@") ? `@${value}` : value;
}

/**
 * Checks a value of a shared file when it is loaded: it must not run a command nor read
 * standard input. Runs nothing.
 *
 * @param value the value as written
 * @param source where it is written
 * @throws {UsageError} naming the file and the key, for `@exec:` or `@-` in a shared file
 */
export function checkSharedValue(value: string, source: ReferenceSource): void {
  if (source.trust !== "shared") return;
  if (value.startsWith("@exec:") || value === "@-") {
    throw new UsageError(
      `Refused "${source.key}" in ${source.file}: a shared file cannot run commands (${
        value === "@-" ? "@-" : "@exec:"
      })`,
      { details: { path: source.file, name: source.key }, remedy: { use: "private_env" } },
    );
  }
}

/** A reference asked for before it was resolved (caught by {@link whenResolved}). */
class PendingReference {
  constructor(readonly reference: Reference) {}
}

/**
 * A reference of an environment (`@exec:`, `@env:`, `@path`): a {@link Secret} whose value is
 * read when first needed. Until then {@link Reference.reveal} asks {@link whenResolved} to read
 * it; nothing is run or read because it exists.
 */
export class Reference extends Secret {
  /** The value as written (`@env:TOKEN`). */
  readonly text: string;
  /** Where it is written. */
  readonly source: ReferenceSource;
  readonly #policy: ReferencePolicy;
  #value?: string;
  #reading?: Promise<string>;

  /**
   * Keeps a reference to read later; a shared `@exec:` or `@-` is refused here, at once.
   *
   * @param text the value as written
   * @param source where
   * @param policy how it is read
   */
  constructor(text: string, source: ReferenceSource, policy: ReferencePolicy) {
    super("");
    checkSharedValue(text, source);
    this.text = text;
    this.source = source;
    this.#policy = policy;
  }

  /** Whether it has been read. */
  get resolved(): boolean {
    return this.#value !== undefined;
  }

  /**
   * Reads it (once), with the trust rule.
   *
   * @returns its value
   */
  resolve(): Promise<string> {
    this.#reading ??= readReference(this.text, this.source, this.#policy).then((value) => {
      this.#value = value;
      return value;
    });
    return this.#reading;
  }

  /**
   * The value, once read; before, a signal that {@link whenResolved} catches to read it.
   *
   * @returns the value once read
   */
  override reveal(): string {
    if (this.#value === undefined) throw new PendingReference(this);
    return this.#value;
  }
}

async function readReference(
  text: string,
  source: ReferenceSource,
  policy: ReferencePolicy,
): Promise<string> {
  const where = `"${source.key}" of ${source.file}`;
  checkSharedValue(text, source);
  if (text.startsWith("@exec:") || text === "@-") return await policy.read(text, where);
  if (text.startsWith("@env:")) {
    if (source.trust === "shared" && policy.sharedEnv === false) {
      throw new UsageError(
        `Refused "${source.key}" in ${source.file}: environment variables (@env:) are read only from the private env file here`,
        { details: { path: source.file, name: source.key }, remedy: { use: "private_env" } },
      );
    }
    return await policy.read(text, where);
  }
  const written = text.slice(1);
  const path = written.startsWith("/") ? written : `${source.dir || "."}/${written}`;
  const real = source.trust === "shared" && policy.confinement
    ? await policy.confinement.reading(path, { what: where, written })
    : path;
  return await policy.read(`@${real}`, where);
}

/**
 * Runs work that reads variables, reading each reference it needs when it asks for one, then
 * running it again: only references a request uses are ever read. The work must not have
 * effects before its last variable is read (building a request, substituting an output path).
 *
 * @param work the work
 * @returns its result
 */
export async function whenResolved<T>(work: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof PendingReference)) throw error;
      await error.reference.resolve();
    }
  }
}

/**
 * Reads the references a piece of work would use, ignoring its other failures (they are
 * reported when the work runs for real): for callers that substitute synchronously afterwards.
 *
 * @param work substitutions to try
 */
export async function resolveUsed(work: () => void): Promise<void> {
  await whenResolved(() => {
    try {
      work();
    } catch (error) {
      if (error instanceof PendingReference) throw error;
    }
  });
}

/**
 * @param value a variable's value
 * @returns whether it is a reference not read yet
 */
export function isUnresolved(value: unknown): value is Reference {
  return value instanceof Reference && !value.resolved;
}

/** What a path is, for messages: `body include "../x" (api.http:4)`. */
export interface PathPlace {
  /** What names it, e.g. `the body file of api.http:4`. */
  what: string;
  /** The path as written. */
  written: string;
}

/**
 * The folders a run's shared files may read and write: the run's root (the directory given to
 * `dial test` or `dial ui`, or the folder of `dial run FILE`) and the folders the person allowed,
 * by their real paths. A path is checked after symlinks are resolved.
 */
export class Confinement {
  /** The real paths of the folders. */
  readonly roots: readonly string[];
  /** What the first folder is called in messages: "the run's folder", "the workspace". */
  readonly label: string;

  /**
   * The folders, by real paths.
   *
   * @param roots real paths ({@link Confinement.of})
   * @param label what the first is called in messages
   */
  constructor(roots: readonly string[], label = "the run's folder") {
    this.roots = roots;
    this.label = label;
  }

  /**
   * The folders of a run, resolved to real paths.
   *
   * @param root the run's root folder
   * @param allowed more folders the person allowed
   * @returns the confinement, by real paths
   * @throws {UsageError} for an allowed folder that does not exist
   */
  static of(root: string, allowed: readonly string[] = []): Promise<Confinement> {
    const roots: string[] = [];
    for (const dir of [root, ...allowed]) {
      try {
        // Resolved at once (no trip to the runtime's thread pool): a run asks before it starts.
        roots.push(Deno.realPathSync(dir || "."));
      } catch {
        return Promise.reject(
          new UsageError(`Cannot allow ${dir}: no such folder`, { details: { path: dir } }),
        );
      }
    }
    return Promise.resolve(new Confinement(roots));
  }

  /**
   * Whether a real path is inside.
   *
   * @param real an absolute real path
   * @returns whether it is one of the folders or inside one
   */
  contains(real: string): boolean {
    return this.roots.some((root) =>
      real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`)
    );
  }

  /**
   * Checks a file to read (a body include, a script, an env file's `@path`).
   *
   * @param path the path (relative to the working directory, or absolute)
   * @param place what names it, for messages
   * @returns its real path, to read
   * @throws {UsageError} when it resolves outside the folders, or does not exist
   */
  async reading(path: string, place: PathPlace): Promise<string> {
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        // A link to nowhere could be followed anywhere by a write: refused.
        const link = await Deno.lstat(path).then((s) => s.isSymlink, () => false);
        // A missing file is reported by its reader; one outside is refused first.
        const absolute = await absolutePath(path);
        if (link) throw this.outside(place, absolute);
        if (!this.contains(absolute)) throw this.outside(place, absolute);
        return absolute;
      }
      throw error;
    }
    if (!this.contains(real)) throw this.outside(place, real);
    return real;
  }

  /**
   * Checks a file to write (`>> out.json`): its folder, and the file itself when it exists
   * (a symlink is followed), must resolve inside.
   *
   * @param path the path
   * @param place what names it
   * @returns the real path to write
   * @throws {UsageError} when it resolves outside the folders
   */
  async writing(path: string, place: PathPlace): Promise<string> {
    return await this.reading(path, place);
  }

  /**
   * The refusal of a path outside.
   *
   * @param place what names the path
   * @param real where it resolves
   * @returns the refusal: a usage error whose remedy is to allow the folder
   */
  outside(place: PathPlace, real: string): UsageError {
    const allowed = this.roots.length > 1 ? ` and the allowed folders` : "";
    return new UsageError(
      `Refused ${place.what}: "${place.written}" is outside ${this.label}${allowed} (${
        this.roots.join(", ")
      })`,
      { details: { path: real }, remedy: { allow: "path" } },
    );
  }
}

/**
 * Checks a script file a request file names (`> ./handler.js`, `< ./pre.js`): a `.js` file (no
 * other file is read, nor quoted in an error) inside the folders.
 *
 * @param written the path as written
 * @param where the request file, its folder, the line, and the folders
 * @returns the real path to read
 * @throws {UsageError} for a file that is not `.js`, or one outside
 */
export async function scriptFile(
  written: string,
  where: { path: string; dir: string; line: number; confinement: Confinement },
): Promise<string> {
  if (!/\.[mc]?js$/i.test(written)) {
    throw new UsageError(
      `${where.path}:${where.line}:1: The script file "${written}" is not a JavaScript file (.js)`,
      { remedy: { check: "file_format" } },
    );
  }
  return await where.confinement.reading(
    written.startsWith("/") ? written : `${where.dir}/${written.replace(/^\.\//, "")}`,
    { what: `the script file of ${where.path}:${where.line}`, written },
  );
}

/**
 * Checks every path a request file writes as it is (`<` includes, script files, `>>` outputs
 * without variables, `run ./other.http` lines, `proto <` files and their `includeDirs`) before any of its requests runs, so that a file reaching outside the
 * folders sends nothing. Outputs with `{{variables}}` are checked when their request is built.
 *
 * @param file the parsed file
 * @param confinement the run's folders
 * @throws {UsageError} for the first path outside, or a script file that is not `.js`
 */
export async function checkFilePaths(file: HttpFile, confinement: Confinement): Promise<void> {
  const slash = file.path.lastIndexOf("/");
  const dir = slash < 0 ? "." : file.path.slice(0, slash) || "/";
  const at = (written: string) => written.startsWith("/") ? written : `${dir}/${written}`;
  // Indexed loops: a file of 1,000 requests is looked through before its first request, cold.
  const requests = file.requests;
  const protos = [...file.protos ?? []];
  for (let r = 0; r < requests.length; r++) {
    const request = requests[r]!;
    if (request.protos) protos.push(...request.protos);
    for (let i = 0; i < request.body.length; i++) {
      const part = request.body[i]!;
      // A path with `{{…}}` is confined when the request is built, its variables known.
      if (part.kind !== "file" || part.path.includes("{{")) continue;
      await confinement.reading(at(part.path), {
        what: `the body file of ${file.path}:${part.span.line}`,
        written: part.path,
      });
    }
    for (let i = 0; i < request.preScripts.length + request.handlers.length; i++) {
      const script = i < request.preScripts.length
        ? request.preScripts[i]!
        : request.handlers[i - request.preScripts.length]!;
      if (script.kind !== "file") continue;
      await scriptFile(script.path, { path: file.path, dir, line: script.span.line, confinement });
    }
    for (let i = 0; i < request.outputs.length; i++) {
      const output = request.outputs[i]!;
      if (output.path.includes("{{")) continue;
      await confinement.writing(at(output.path), {
        what: `the output file of ${file.path}:${output.span.line}`,
        written: output.path,
      });
    }
  }
  for (const proto of protos) {
    const what = `of ${file.path}:${proto.span.line}`;
    await confinement.reading(at(proto.path), {
      what: `the .proto file ${what}`,
      written: proto.path,
    });
    for (const dir of proto.importPaths) {
      await confinement.reading(at(dir), { what: `the includeDirs folder ${what}`, written: dir });
    }
  }
  for (const run of file.runs) {
    if (run.target.kind !== "file") continue;
    await confinement.reading(at(run.target.path), {
      what: `the file run by ${file.path}:${run.span.line}`,
      written: run.target.path,
    });
  }
  for (const line of file.imports ?? []) {
    await confinement.reading(at(line.path), {
      what: `the file imported by ${file.path}:${line.span.line}`,
      written: line.path,
    });
  }
}

async function absolutePath(path: string): Promise<string> {
  const parts = (path.startsWith("/") ? path : `${Deno.cwd()}/${path}`).split("/");
  // The longest existing prefix, resolved; the rest normalised.
  const out: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  let known = "/";
  let rest = [...out];
  for (let i = out.length; i > 0; i--) {
    try {
      known = await Deno.realPath(`/${out.slice(0, i).join("/")}`);
      rest = out.slice(i);
      break;
    } catch {
      // not there yet
    }
  }
  return [known.replace(/\/$/, ""), ...rest].join("/") || "/";
}

/**
 * Whether a file the person names as theirs (the private env file, `--env-file`) is theirs: it
 * belongs to this user, nobody else may write it, and git does not track it (then it came with
 * the repository, whatever its name says).
 *
 * @param path the file
 * @returns whether its values are the person's own
 */
export async function ownFile(path: string): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info) return false;
  const uid = Deno.uid();
  if (uid !== null && info.uid !== null && info.uid !== uid) return false;
  if (info.mode !== null && (info.mode & 0o002) !== 0) return false;
  return !await gitTracks(path);
}

/**
 * Whether git tracks a file (then it came with the repository, whatever its name says). No git,
 * or no repository: not tracked.
 *
 * @param path the file
 * @returns whether `git ls-files` knows it
 */
export async function gitTracks(path: string): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  const dir = slash < 0 ? "." : path.slice(0, slash) || "/";
  try {
    const { code, stdout } = await new Deno.Command("git", {
      args: ["-C", dir, "ls-files", "-z", "--", path.slice(slash + 1)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return code === 0 && stdout.byteLength > 0;
  } catch {
    return false;
  }
}
