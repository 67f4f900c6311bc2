/**
 * File access of the UI's workspace API, confined to the workspace folder: a path from the
 * browser is relative, has no `..`, and resolves (symlinks followed, at every level) inside the
 * folder's real path, or it is refused before anything is read or written. A file is replaced
 * by writing a temporary file beside it and renaming it over the old name, so a symlink planted
 * after the check is replaced, not followed.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { Confinement } from "../files/trust_rule.ts";

/** A path the workspace API refuses; answered 400 with its message. */
export class OutsideWorkspaceError extends UsageError {
  /** @param path the path as the browser gave it */
  constructor(path: string) {
    super(`Refused "${path}": it is outside the workspace`, {
      hint: "open files of the workspace folder only",
    });
  }
}

/**
 * A path of the workspace where there is no file (any more): said without the folder's absolute
 * path, as a usage error (a 400 the page can tell from a server in trouble).
 */
export class MissingFileError extends UsageError {
  /** @param path the path as the browser gave it */
  constructor(path: string) {
    super(`"${path}" is not in the workspace (renamed, moved or deleted)`, {
      hint: "Save as… puts a tab's request in a file again",
    });
  }
}

/** The workspace folder, by its real path. */
export class Workspace {
  /** The folder's real path (symlinks resolved). */
  readonly root: string;
  /**
   * What the workspace's request and environment files may read and write when they run (▶
   * Run, Send): the folder and `dial ui --allow-path`, by the trust rule of `src/files/trust_rule.ts`.
   */
  readonly confinement: Confinement;

  /**
   * @param root the folder's real path ({@link openWorkspace})
   * @param allowed the real paths of the folders `--allow-path` added
   */
  constructor(root: string, allowed: readonly string[] = []) {
    this.root = root;
    this.confinement = new Confinement([root, ...allowed], "the workspace");
  }

  /**
   * Checks a browser-supplied path and resolves it.
   *
   * @param path relative to the workspace, `/`-separated
   * @param options `create`: the file may not exist yet (its folder must)
   * @returns the absolute path inside the workspace
   * @throws {OutsideWorkspaceError} when it is absolute, climbs out, or resolves outside
   */
  async resolve(path: string, options: { create?: boolean } = {}): Promise<string> {
    const parts = path.split(/[\\/]/);
    if (
      path === "" || path.includes("\0") || /^[a-zA-Z]:/.test(path) || path.startsWith("/") ||
      path.startsWith("\\") || parts.some((p) => p === ".." || p === "")
    ) {
      throw new OutsideWorkspaceError(path);
    }
    const full = `${this.root}/${parts.filter((p) => p !== ".").join("/")}`;
    let real: string;
    try {
      real = await Deno.realPath(full);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) || !options.create) throw error;
      // A new file: its folder must exist and be inside; the name itself is not a link.
      const dir = full.slice(0, full.lastIndexOf("/"));
      real = `${await Deno.realPath(dir)}/${full.slice(full.lastIndexOf("/") + 1)}`;
    }
    if (!this.contains(real)) throw new OutsideWorkspaceError(path);
    return real;
  }

  /**
   * {@link resolve} for a request file a tab or a run names: one that is not there (any more) is
   * a {@link MissingFileError}, said without the folder's absolute path.
   *
   * @param path relative to the workspace, `/`-separated
   * @returns the absolute path inside the workspace
   */
  async resolveFile(path: string): Promise<string> {
    return await this.resolve(path).catch((error) => {
      throw error instanceof Deno.errors.NotFound ? new MissingFileError(path) : error;
    });
  }

  /**
   * @param real an absolute, resolved path
   * @returns whether it is the workspace or inside it
   */
  contains(real: string): boolean {
    return real === this.root || real.startsWith(`${this.root}/`);
  }

  /**
   * @param real an absolute path inside the workspace
   * @returns it relative to the workspace, `/`-separated
   */
  relative(real: string): string {
    return real.slice(this.root.length + 1);
  }

  /**
   * The runner names a file by the real path it read it from (it resolves includes beside it);
   * the page names it relative to the workspace, as the sidebar does.
   *
   * @param text a message that may name the workspace's files by their real paths
   * @returns it with those paths relative to the workspace
   */
  shown(text: string): string {
    return text.replaceAll(`${this.root}/`, "");
  }

  /**
   * Replaces a file's text atomically (temporary file, then rename).
   *
   * @param path relative to the workspace
   * @param text the new text
   * @param fixedMode the file's mode (default: the old file's, or 0644 for a new one)
   * @returns the file's new modification time (ms)
   */
  async write(path: string, text: string, fixedMode?: number): Promise<number> {
    const real = await this.resolve(path, { create: true });
    const temporary = `${real}.${crypto.randomUUID()}.tmp`;
    const mode = fixedMode ??
      await Deno.stat(real).then((s) => s.mode ?? 0o644, () => 0o644);
    await Deno.writeTextFile(temporary, text, { createNew: true, mode: mode & 0o777 });
    try {
      await Deno.rename(temporary, real);
    } catch (error) {
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
    return (await Deno.stat(real)).mtime?.getTime() ?? 0;
  }
}

/**
 * @param dir the workspace folder as given
 * @param allowed `--allow-path` folders
 * @returns the workspace by its real path
 */
export async function openWorkspace(
  dir: string,
  allowed: readonly string[] = [],
): Promise<Workspace> {
  const confinement = await Confinement.of(dir, allowed);
  return new Workspace(confinement.roots[0]!, confinement.roots.slice(1));
}
