/**
 * What `dial test` will run, decided before anything runs: the files (directories walked in
 * name order), each file's root for `run` lines, the iterations (`--repeat` × `--data` rows),
 * the name filter, the jobs and the status a request without tests fails at. Usage errors here
 * are found before anything is sent.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { type DataRow, parseDataRows } from "../files/data_rows.ts";
import { dirOf } from "./file_setup.ts";
import type { TestFlagValues } from "./file_test.ts";

/** One file to run once: with a data row, in a repetition. */
export interface TestUnit {
  /** The request file. */
  path: string;
  /** The folder its `run` lines are confined to. */
  root: string;
  /** 1-based iteration (repetition × row), when there are several. */
  iteration?: number;
  /** The data row of the iteration (`--data`). */
  row?: DataRow;
}

/** The plan of one `dial test`. */
export interface TestPlan {
  /** Units in report order. */
  units: TestUnit[];
  /** `--name`: only requests whose name matches. */
  filter?: RegExp;
  /** Files run at once (`--jobs`). */
  jobs: number;
  /** A request without tests fails from this status. */
  failStatus: number;
  /** Iterations of the run (`--repeat` × `--data` rows; 1 without them). */
  iterations: number;
  /**
   * How the reports name a file: a collection run (`dial test c.json`) names the files it
   * imported into a temporary folder after the collection and its folders (`c.json › Auth`).
   */
  fileName?: (path: string) => string;
}

/**
 * Plans a run from the arguments and flags (reads the file tree and the data file).
 *
 * @param paths files and directories
 * @param flags the flag values
 * @returns the plan
 * @throws {UsageError} for a bad pattern, a missing file, an empty folder, a bad data file
 */
export async function testPlan(paths: string[], flags: TestFlagValues): Promise<TestPlan> {
  if (!paths.length) {
    throw new UsageError("Missing request files", {
      hint: "dial test api.http or dial test tests/",
    });
  }
  let filter: RegExp | undefined;
  if (flags.name !== undefined) {
    try {
      filter = new RegExp(flags.name);
    } catch (error) {
      throw new UsageError(`Invalid --name "${flags.name}": ${(error as Error).message}`);
    }
  }
  const files = await collectFiles(paths);
  const rows = flags.data === undefined ? [undefined] : await readRows(flags.data);
  const repeat = flags.repeat ?? 1;
  const several = rows.length * repeat > 1;
  const units: TestUnit[] = [];
  let iteration = 0;
  for (let r = 0; r < repeat; r++) {
    for (const row of rows) {
      iteration++;
      for (const file of files) {
        units.push({ ...file, ...(several ? { iteration } : {}), ...(row ? { row } : {}) });
      }
    }
  }
  return {
    units,
    ...(filter ? { filter } : {}),
    jobs: flags.jobs ?? 1,
    failStatus: flags.checkStatus ? 400 : 500,
    iterations: iteration,
  };
}

async function readRows(path: string): Promise<DataRow[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    throw new UsageError(`Cannot read data file ${path}: no such file`);
  }
  const rows = parseDataRows(text, path);
  if (!rows.length) throw new UsageError(`Data file ${path} has no rows`);
  return rows;
}

/**
 * Files, and the .http/.rest files below directories in name order, each with the folder its
 * `run` lines are confined to (the directory given, or the file's own).
 */
export async function collectFiles(
  paths: string[],
): Promise<{ path: string; root: string }[]> {
  const files: { path: string; root: string }[] = [];
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      // Asked at once (no trip to the runtime's thread pool): nothing else runs yet.
      info = Deno.statSync(path);
    } catch {
      throw new UsageError(`Cannot read ${path}: no such file or directory`);
    }
    if (!info.isDirectory) {
      files.push({ path, root: dirOf(path) });
      continue;
    }
    const found: string[] = [];
    const walk = async (dir: string) => {
      const entries: Deno.DirEntry[] = [];
      for await (const entry of Deno.readDir(dir)) entries.push(entry);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const child = `${dir.replace(/\/$/, "")}/${entry.name}`;
        if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
          await walk(child);
        } else if (entry.isFile && /\.(http|rest)$/.test(entry.name)) found.push(child);
      }
    };
    await walk(path);
    if (!found.length) throw new UsageError(`No .http or .rest files in ${path}`);
    files.push(...found.map((file) => ({ path: file, root: path })));
  }
  return files;
}
