/**
 * The bundled frontend. `scripts/bundle_ui.ts` writes `src/ui/web/dist/` (git-ignored);
 * `deno compile --include src/ui/web/dist` embeds it so a binary needs no files beside it.
 * Run from a checkout, a missing or stale bundle is rebuilt first.
 * @module
 */
import { DialError, ExitCode } from "../errors.ts";

/** The frontend files the server serves. */
export interface UiAssets {
  /** The JavaScript bundle. */
  js: string;
  /** The style sheet. */
  css: string;
}

const DIST = new URL("./web/dist/", import.meta.url);
const BUNDLER = new URL("../../scripts/bundle_ui.ts", import.meta.url);

/**
 * Loads the bundle, building it first when running from a checkout and it is missing or older
 * than the sources.
 *
 * @param options `onBuild` is called before a build, to tell the user why they wait
 * @returns the assets
 */
export async function loadAssets(options: { onBuild?: () => void } = {}): Promise<UiAssets> {
  // A compiled binary serves what `deno compile --include` embedded; only a checkout builds.
  if (!Deno.build.standalone && await isFile(BUNDLER) && await needsBuild()) {
    options.onBuild?.();
    const { bundleUi } = await import("../../scripts/bundle_ui.ts");
    await bundleUi();
  }
  try {
    return {
      js: await Deno.readTextFile(new URL("app.js", DIST)),
      css: await Deno.readTextFile(new URL("app.css", DIST)),
    };
  } catch (error) {
    throw new DialError(
      "The UI bundle is missing",
      "ui_bundle",
      ExitCode.Failure,
      { hint: "run `deno task bundle`", cause: error },
    );
  }
}

async function isFile(url: URL): Promise<boolean> {
  try {
    return (await Deno.stat(url)).isFile;
  } catch {
    return false;
  }
}

/** Whether any source the bundle includes is newer than the bundle. */
async function needsBuild(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(new URL("app.js", DIST))).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  const src = new URL("../", import.meta.url);
  return await newerThan(src, built) || await newerThan(new URL("../deno.json", src), built);
}

async function newerThan(url: URL, time: number): Promise<boolean> {
  const info = await Deno.stat(url);
  if (info.isFile) return (info.mtime?.getTime() ?? 0) > time;
  for await (const entry of Deno.readDir(url)) {
    if (entry.name === "dist") continue;
    const child = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, url);
    if (await newerThan(child, time)) return true;
  }
  return false;
}
