/**
 * The built CLI (`scripts/build_cli.ts`), built once per test process into a temporary folder
 * outside the checkout, and installed from there as `deno task install` installs it.
 * @module
 */
import { buildCli } from "../../scripts/build_cli.ts";
import { V8_FLAGS } from "../../scripts/compile.ts";

/** A build: its folder, and the files it holds relative to that folder. */
export interface Build {
  /** The folder, without a trailing slash. */
  dir: string;
  /** `dial.js`, the chunks, and the copied files (`web/dist/app.js` …). */
  files: string[];
  /** The source modules of each chunk, by file name (absolute paths). */
  modules: Map<string, string[]>;
}

let built: Promise<Build> | undefined;
let installed: Promise<string> | undefined;

/** @returns the build, made on first use */
export function builtCli(): Promise<Build> {
  return built ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "dial-built-" });
    const { chunks, files } = await buildCli(`${dir}/`);
    return {
      dir,
      files: [...chunks.map((c) => c.fileName), ...files],
      modules: new Map(chunks.map((c) => [c.fileName, c.moduleIds])),
    };
  })();
}

/**
 * Installs the build with `deno install -g --no-config` (what `deno task install` runs) into a
 * temporary root.
 *
 * @returns the installed `dial` command's path
 */
export function installedDial(): Promise<string> {
  return installed ??= (async () => {
    const { dir } = await builtCli();
    const root = await Deno.makeTempDir({ prefix: "dial-install-" });
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["install", "-g", "-A", "-f", "--no-config", V8_FLAGS, "--root", root, "-n", "dial"]
        .concat(`${dir}/dial.js`),
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
    return `${root}/bin/dial`;
  })();
}
