/**
 * `dial import`'s implementation: read the sources, lay out the files, write them (never over
 * existing ones without --force), and report what was not carried.
 * @module
 */
import { ExitCode, UsageError } from "../errors.ts";
import { readImport } from "../import/read_import.ts";
import { importFiles, writeImportFiles } from "../import/write_import.ts";
import { escapeControls, stderr, writeSync } from "../output/terminal.ts";
import type { ImportFlagValues } from "./import.ts";

/**
 * Runs `dial import`.
 *
 * @param sources the source paths (`-` for stdin)
 * @param flags the flag values
 * @returns the exit code
 */
export async function runImport(
  sources: readonly string[],
  flags: ImportFlagValues,
): Promise<number> {
  const texts = await Promise.all(
    sources.map(async (name) => ({ name, text: await readSource(name) })),
  );
  const result = await readImport(texts, { harCookies: flags.harCookies });
  const files = importFiles(result);
  const dir = flags.out ?? ".";
  const err = stderr();
  const clean = (text: string) => err.isTerminal ? escapeControls(text) : text;
  if (flags.dryRun) {
    for (const f of files) writeSync("stdout", `==> ${f.name} <==\n${f.text}\n`);
  } else await writeImportFiles(dir, files, flags.force);
  const count = result.requests.length;
  const lines = [
    `${flags.dryRun ? "Would import" : "Imported"} ${count} request${
      count === 1 ? "" : "s"
    } from ${result.format} into ${dir}: ${files.map((f) => f.name).join(", ")}`,
  ];
  if (files.some((f) => f.mode === 0o600)) {
    lines.push(
      "Secrets are in http-client.private.env.json (0600): keep it out of version control.",
    );
  }
  if (result.losses.length) {
    lines.push(`Not carried (${result.losses.length}):`);
    for (const loss of result.losses) lines.push(`  ${loss.where}: ${loss.what}`);
  }
  await err.write(clean(`${lines.join("\n")}\n`));
  return ExitCode.OK;
}

async function readSource(name: string): Promise<string> {
  try {
    if (name === "-") return await new Response(Deno.stdin.readable).text();
    return await Deno.readTextFile(name);
  } catch (error) {
    throw new UsageError(`Cannot read "${name}": ${(error as Error).message}`);
  }
}
