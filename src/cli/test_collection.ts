/**
 * Newman's command line on `dial test`: a collection file given as a path (`dial test c.json`)
 * is imported, as `dial import` would, into a temporary folder that the run then tests and
 * removes; `-e`/`--environment` and `-g`/`--globals` name a Postman environment and globals
 * file (read with the collection, or beside an already imported folder as environment files);
 * `--folder NAME` runs only that folder of the collection (repeatable, as Newman's);
 * `-n`/`--iteration-count` runs n iterations as Newman does (with `-d`, iteration i takes row
 * i, the last row past the end, where `--repeat` runs every row n times); `-d` is `--data`
 * under Newman's letter (declared in `file_test.ts`).
 * So `newman run c.json -e e.json -d rows.csv -n 2` is `dial test c.json -e e.json -d rows.csv
 * -n 2`.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { parseDataRows } from "../files/data_rows.ts";
import type { ImportResult } from "../import/import_model.ts";
import { readImport } from "../import/read_import.ts";
import { slug } from "../import/import_names.ts";
import { importFiles } from "../import/write_import.ts";
import type { TestFlagValues } from "./file_test.ts";
import { writeImportFiles } from "./import_run.ts";

/** What `dial test` runs instead of its arguments: paths, flags, and the folder to remove. */
export interface CollectionRun {
  paths: string[];
  flags: TestFlagValues;
  /**
   * How the reports name a file: one imported from a collection by the collection's path and
   * the folder its requests are in, as Newman names them (`c.json › Auth / Users`).
   */
  fileName(path: string): string;
  /** Removes the temporary folder. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Imports the collection files among the paths (with `-e`/`-g`) into a temporary folder, or
 * turns `-e`/`-g` into environment files for imported folders, and narrows the run to
 * `--folder`s.
 *
 * @param paths `dial test`'s arguments
 * @param flags its flags
 * @returns the run to make; dispose it when the run is done
 * @throws {UsageError} for an unreadable file, a file that is no collection, a folder the
 *   collection does not have
 */
export async function collectionRun(
  paths: readonly string[],
  flags: TestFlagValues,
): Promise<CollectionRun> {
  const tmp = await Deno.makeTempDir({ prefix: "dial-collection-" });
  const dispose = () => Deno.remove(tmp, { recursive: true }).catch(() => {});
  try {
    const extra = [flags.environment, flags.globals].filter((p): p is string => p !== undefined);
    const sides = await Promise.all(extra.map(readSource));
    const out: string[] = [];
    let environment: string | undefined;
    let n = 0;
    const names = new Map<string, string>();
    for (const path of paths) {
      if (!/\.json$/i.test(path)) {
        out.push(...await folderFiles(path, flags.folder));
        continue;
      }
      const result = await readImport([await readSource(path), ...sides]);
      if (!result.requests.length) {
        throw new UsageError(`Cannot run ${path}: it holds no requests`, {
          hint: "give a Postman, Insomnia, Bruno, Hoppscotch or Yaak collection file",
        });
      }
      narrow(result, flags.folder, path);
      const dir = `${tmp}/${++n}`;
      const files = importFiles(result);
      await writeImportFiles(dir, files, false);
      for (const file of files) {
        if (!file.folder) continue;
        names.set(
          `${dir}/${file.name}`,
          [path, file.folder.join(" / ")].filter(Boolean).join(" › "),
        );
      }
      environment ??= Object.keys(result.environments).find((name) => name !== "$shared");
      out.push(dir);
    }
    const envFiles = [...flags.envFile];
    if (extra.length && paths.every((p) => !/\.json$/i.test(p))) {
      // Only imported folders: the environment and globals as environment files of the run.
      const result = await readImport(sides);
      const dir = `${tmp}/env`;
      await writeImportFiles(dir, importFiles(result), false);
      for (const name of ["http-client.env.json", "http-client.private.env.json"]) {
        if (await exists(`${dir}/${name}`)) envFiles.push(`${dir}/${name}`);
      }
      environment = Object.keys(result.environments).find((name) => name !== "$shared");
    }
    const iterations = await newmanIterations(flags, tmp);
    return {
      paths: out,
      flags: {
        ...flags,
        ...iterations,
        envFile: envFiles,
        // Shared scripts and bodies sit at the top of an imported folder.
        allowPath: [...flags.allowPath, tmp, ...paths.filter((p) => !/\.json$/i.test(p))],
        ...(flags.env === undefined && environment !== undefined ? { env: environment } : {}),
      },
      fileName: (file) => names.get(file.replaceAll(/\/+/g, "/")) ?? file,
      [Symbol.asyncDispose]: dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Newman's `-n`: as `--repeat`, or with `-d` a data file of exactly n rows. */
async function newmanIterations(
  flags: TestFlagValues,
  tmp: string,
): Promise<Partial<Pick<TestFlagValues, "data" | "repeat">>> {
  const n = flags.iterationCount;
  if (n === undefined) return {};
  if (flags.repeat !== undefined) {
    throw new UsageError("Give -n (Newman's iteration count) or --repeat, not both");
  }
  if (flags.data === undefined) return { repeat: n };
  const rows = parseDataRows((await readSource(flags.data)).text, flags.data);
  if (!rows.length) throw new UsageError(`Data file ${flags.data} has no rows`);
  const data = `${tmp}/iterations.json`;
  const picked = Array.from({ length: n }, (_, i) => rows[Math.min(i, rows.length - 1)]);
  await Deno.writeTextFile(data, JSON.stringify(picked));
  return { data };
}

async function readSource(path: string): Promise<{ name: string; text: string }> {
  try {
    return { name: path, text: await Deno.readTextFile(path) };
  } catch {
    throw new UsageError(`Cannot read ${path}: no such file`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Newman's `--folder`: the requests below a folder of that name (or named so), in order. */
function narrow(result: ImportResult, folders: readonly string[], path: string): void {
  if (!folders.length) return;
  for (const name of folders) {
    if (!result.requests.some((r) => r.folder.includes(name) || r.name === name)) {
      throw new UsageError(`No folder "${name}" in ${path}`);
    }
  }
  result.requests = result.requests.filter((r) =>
    folders.some((name) => r.folder.includes(name) || r.name === name)
  );
}

/**
 * An imported folder, or the files of its `--folder`s: the numbered files and folders the
 * import wrote for them (`03-users.http`, `02-admin/`), matched by name.
 */
async function folderFiles(path: string, folders: readonly string[]): Promise<string[]> {
  if (!folders.length) return [path];
  const wanted = new Set(folders.map(slug));
  const found: string[] = [];
  const walk = async (dir: string) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) entries.push(entry);
    } catch {
      throw new UsageError(`Cannot read ${dir}: no such directory`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = entry.name.replace(/^\d+-/, "").replace(/\.(http|rest)$/, "");
      const child = `${dir.replace(/\/$/, "")}/${entry.name}`;
      if (wanted.has(name) && (entry.isDirectory || /\.(http|rest)$/.test(entry.name))) {
        found.push(child);
      } else if (entry.isDirectory && !entry.name.startsWith(".")) await walk(child);
    }
  };
  await walk(path);
  if (!found.length) {
    throw new UsageError(`No folder ${folders.map((f) => `"${f}"`).join(", ")} in ${path}`);
  }
  return found;
}
