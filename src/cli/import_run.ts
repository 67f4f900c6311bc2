/**
 * `dial import`'s implementation: read the sources, lay out the files, write them (never over
 * existing ones without --force), and report what was not carried.
 * @module
 */
import { DialError, ErrorCode, ExitCode, UsageError } from "../errors/mod.ts";
import { migrationReport } from "../import/import_report.ts";
import { movedSecrets } from "../import/import_secrets.ts";
import { readImport } from "../import/read_import.ts";
import { type ImportFile, importFiles } from "../import/write_import.ts";
import { shown } from "../output/terminal.ts";
import type { CliContext } from "./context.ts";
import { importReader, isUrlSource, MAX_IMPORT_BYTES } from "./import_fetch.ts";
import { insideFolder } from "../import/openapi_refs.ts";
import type { ImportFlagValues } from "./interchange.ts";
import { parseTransportFlags } from "./transport_flags.ts";

/**
 * Runs `dial import`.
 *
 * @param sources the source paths (`-` for stdin)
 * @param flags the flag values
 * @param context the run's output, input and environment
 * @returns the exit code
 */
export async function runImport(
  sources: readonly string[],
  flags: ImportFlagValues,
  context: CliContext,
): Promise<number> {
  const reader = importReader(context, {
    transport: await parseTransportFlags(flags, context),
    timeoutMs: flags.timeout,
  });
  const texts = [];
  for (const name of sources) {
    const folder = name !== "-" && !isUrlSource(name) && await isDirectory(name);
    if (folder) texts.push({ name, text: "", files: await readCollectionFolder(name) });
    else texts.push({ name, ...await reader.source(name) });
  }
  const result = await readImport(texts, {
    load: reader.load,
    allowFile: insideFolder,
  });
  const files = importFiles(result);
  const dir = flags.out ?? ".";
  if (flags.dryRun) {
    for (const f of files) await context.stdout.write(`==> ${f.name} <==\n${f.text}\n`);
  } else await writeImportFiles(dir, files, flags.force);
  const count = result.requests.length;
  const c = result.counts;
  const lines = [
    `${flags.dryRun ? "Would import" : "Imported"} ${count} request${
      count === 1 ? "" : "s"
    } from ${result.format} into ${dir}: ${files.map((f) => f.name).join(", ")}`,
    `Carried: ${count} of ${c.requests} requests, ${c.scriptsCarried} of ${c.scripts} scripts, ${c.assertionsCarried} of ${c.assertions} assertions; ${result.losses.length} not carried`,
  ];
  if (flags.reportFile !== undefined) {
    await Deno.writeTextFile(
      flags.reportFile,
      `${JSON.stringify(migrationReport(result, files), null, 2)}\n`,
    )
      .catch((error) => {
        throw new DialError(
          `Cannot write the report to ${flags.reportFile}: ${(error as Error).message}`,
          ErrorCode.Output,
          { cause: error },
        );
      });
  }
  if (files.some((f) => f.mode === 0o600)) {
    lines.push(
      "Secrets are in http-client.private.env.json (0600): keep it out of version control.",
    );
  }
  const moved = movedSecrets(result.moved);
  if (moved.length) {
    lines.push(`Moved to http-client.private.env.json (${result.moved.length}):`);
    for (const line of moved) lines.push(`  ${line}`);
  }
  if (result.losses.length) {
    lines.push(`Not carried (${result.losses.length}):`);
    for (const loss of result.losses) lines.push(`  ${loss.where}: ${loss.what}`);
  }
  await context.stderr.write(shown(context.stderr, `${lines.join("\n")}\n`));
  return ExitCode.OK;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * A collection folder's files (Bruno's `.bru`, OpenCollection `.yml`, `bruno.json`) by path
 * relative to it: symbolic links are not followed, hidden folders and `node_modules` skipped,
 * at most {@link MAX_IMPORT_BYTES} in all.
 */
async function readCollectionFolder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  let total = 0;
  const walk = async (sub: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(`${dir}/${sub}`)) entries.push(entry);
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isSymlink || entry.name.startsWith(".") || entry.name === "node_modules") continue;
      if (entry.isDirectory) await walk(rel);
      else if (entry.isFile && /(\.bru|\.ya?ml|^bruno\.json)$/.test(entry.name)) {
        const text = await Deno.readTextFile(`${dir}/${rel}`);
        total += text.length;
        if (total > MAX_IMPORT_BYTES) {
          throw new UsageError(`Cannot import ${dir}: its files are larger than 50 MiB`);
        }
        files.set(rel, text);
      }
    }
  };
  await walk("");
  return files;
}

/**
 * Writes the files into a directory, all or none: an existing file stops it before anything
 * is written, unless `force`.
 *
 * @param dir where
 * @param files the import's files
 * @param force replace existing files
 */
export async function writeImportFiles(
  dir: string,
  files: readonly ImportFile[],
  force: boolean,
): Promise<void> {
  if (!force) {
    const existing: string[] = [];
    for (const f of files) {
      try {
        await Deno.lstat(`${dir}/${f.name}`);
        existing.push(f.name);
      } catch { /* free */ }
    }
    if (existing.length) {
      throw new UsageError(
        `Not overwriting ${existing.map((n) => `"${n}"`).join(", ")} in ${dir}`,
        { hint: "give --force to replace them, or --out another directory" },
      );
    }
  }
  await Deno.mkdir(dir, { recursive: true });
  for (const f of files) {
    const path = `${dir}/${f.name}`;
    if (f.name.includes("/")) {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    }
    await Deno.writeTextFile(path, f.text, { mode: f.mode });
    await Deno.chmod(path, f.mode);
  }
}
