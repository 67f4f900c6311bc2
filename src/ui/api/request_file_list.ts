/**
 * The workspace's request files (`.http`, `.rest`), as the sidebar, the page's served list
 * (`src/ui/page.ts`) and the request index list them. A listing is kept while none of its
 * folders has changed: a folder's modification and change times move whenever an entry is
 * added, removed or renamed in it (the change time also when a tool sets the modification time
 * back), so a launch asks one `stat` per folder instead of reading every folder's entries (for
 * 100 files in one folder: one call, not a hundred entries).
 * @module
 */
import type { Workspace } from "../workspace_path.ts";

/** Request files the sidebar lists. */
export const REQUEST_FILE = /\.(http|rest)$/i;
/** Folders never listed or watched. */
export const SKIPPED = new Set([".git", "node_modules", ".dial", "dist", ".cache"]);
/** The most files listed, and entries looked at (a home folder given by mistake stays quick). */
const MAX_FILES = 2000;
const MAX_ENTRIES = 50_000;
/**
 * How long before a listing a folder's time must lie for the listing to be kept (as git's
 * "racily clean" entries): a change within the same tick of a coarse clock (1 s on some file
 * systems) would leave the time as it was.
 */
const SETTLED_MS = 2_000;

/** A listing and the times of the folders it read. */
interface Listing {
  files: readonly string[];
  folders: ReadonlyMap<string, string>;
}

const kept = new WeakMap<Workspace, Listing>();

/**
 * Lists the request files under the workspace, sorted by path: the folders' entries only, no
 * file is opened or asked for its times. Kept while no folder of it changed (see the module).
 *
 * @param workspace the workspace
 * @returns the files' paths, relative to the workspace, `/`-separated
 */
export async function listRequestFiles(workspace: Workspace): Promise<string[]> {
  const listing = kept.get(workspace);
  if (listing && await unchanged(listing.folders)) return [...listing.files];
  const started = Date.now();
  const { files, folders, links } = await walk(workspace);
  // A symbolic link's target may move without its folder changing: such a listing is not kept.
  const settled = [...folders.values()].every((times) =>
    times.split("/").every((time) => started - Number(time) >= SETTLED_MS)
  );
  if (settled && !links) kept.set(workspace, { files, folders });
  else kept.delete(workspace);
  return [...files];
}

/** @returns whether every folder still has the times it had */
async function unchanged(folders: ReadonlyMap<string, string>): Promise<boolean> {
  for (const [folder, times] of folders) {
    if (await timesOf(folder) !== times) return false;
  }
  return true;
}

/** @returns a folder's modification and change times, `ms/ms` (`NaN/NaN` when unknown) */
function timesOf(folder: string): Promise<string> {
  return Deno.stat(folder).then(
    (info) => `${info.mtime?.getTime() ?? NaN}/${info.ctime?.getTime() ?? NaN}`,
    () => "NaN/NaN",
  );
}

/** Reads the workspace's folders: the files, each folder's time (read first), any link seen. */
async function walk(
  workspace: Workspace,
): Promise<{ files: string[]; folders: Map<string, string>; links: boolean }> {
  const files: string[] = [];
  const folders = new Map<string, string>();
  let links = false;
  let seen = 0;
  const read = async (dir: string): Promise<void> => {
    // The times before the entries: a change between the two makes the next listing read again.
    folders.set(dir, await timesOf(dir));
    const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
    seen += entries.length;
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= MAX_FILES || seen > MAX_ENTRIES || SKIPPED.has(entry.name)) continue;
      // Hidden folders (.git, .idea, .venv …) hold no request files of the workspace.
      if (entry.isDirectory && entry.name.startsWith(".")) continue;
      const path = `${dir}/${entry.name}`;
      let isDirectory = entry.isDirectory;
      if (entry.isSymlink) {
        links = true;
        // A link is listed only when it resolves inside the workspace.
        const real = await Deno.realPath(path).catch(() => undefined);
        if (!real || !workspace.contains(real)) continue;
        isDirectory = (await Deno.stat(real)).isDirectory;
        if (isDirectory) continue; // no cycles through linked folders
      }
      if (isDirectory) await read(path);
      else if (REQUEST_FILE.test(entry.name)) files.push(workspace.relative(path));
    }
  };
  await read(workspace.root);
  return { files, folders, links };
}
