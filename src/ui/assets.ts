/**
 * The bundled frontend, read from `web/dist/` beside this module. In a checkout that is
 * `src/ui/web/dist/` (git-ignored), which `scripts/bundle_ui.ts` writes: `dial ui` run from
 * the sources builds it when it is missing or stale ({@link bundleFromSource}), as
 * `deno task test` does. In the build (`deno task build`, what `deno task install` installs
 * and `deno task compile` embeds) this module is a chunk at the top of `dist/cli/` and the
 * build copies the bundle to `dist/cli/web/dist/`: it never needs the checkout.
 * @module
 */
import { DialError, ErrorCode } from "../errors/mod.ts";

/** The frontend files the server serves. */
export interface UiAssets {
  /** The JavaScript bundle. */
  js: string;
  /** The style sheet. */
  css: string;
  /** The response viewer's worker, formatting large JSON bodies (tests' servers go without). */
  worker?: string;
  /** The page's inline bootstrap, which starts the session (tests' servers go without). */
  boot?: string;
}

/** Where the bundle is read from. */
export interface AssetOptions {
  /** The bundle's directory (default: `src/ui/web/dist/`). */
  dist?: URL;
}

const DIST = new URL("./web/dist/", import.meta.url);
/** The script that builds the bundle, when this module runs from the sources (not a chunk). */
const BUNDLE_SCRIPT = /^file:.*\.ts$/.test(import.meta.url)
  ? new URL("../../scripts/bundle_ui.ts", import.meta.url)
  : undefined;

/**
 * From the sources, builds the bundle when it is missing or older than a source file; in the
 * build, does nothing (the bundle travels with it).
 *
 * @returns when the bundle is up to date
 * @throws {DialError} `ui_bundle` when the bundle step fails
 */
export async function bundleFromSource(): Promise<void> {
  if (BUNDLE_SCRIPT === undefined) return;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", BUNDLE_SCRIPT.pathname, "--if-stale"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new DialError(
      `Cannot build the UI bundle: ${new TextDecoder().decode(output.stderr).trim()}`,
      ErrorCode.UiBundle,
      { hint: "run `deno task bundle` in dial's checkout to see the whole error" },
    );
  }
}

/**
 * Loads the bundle built by `deno task bundle`.
 *
 * @param options where to read it
 * @returns the assets
 * @throws {DialError} `ui_bundle` when the bundle is missing, with a hint to build it
 */
export async function loadAssets(options: AssetOptions = {}): Promise<UiAssets> {
  const dist = options.dist ?? DIST;
  try {
    return {
      js: await Deno.readTextFile(new URL("app.js", dist)),
      css: await Deno.readTextFile(new URL("app.css", dist)),
      worker: await Deno.readTextFile(new URL("json_worker.js", dist)),
      boot: await Deno.readTextFile(new URL("boot.js", dist)),
    };
  } catch (error) {
    throw new DialError(
      "The UI bundle is missing",
      ErrorCode.UiBundle,
      {
        hint: BUNDLE_SCRIPT
          ? "run `deno task bundle` in dial's checkout"
          : "this build of dial is incomplete: run `deno task install` in dial's checkout again",
        cause: error,
      },
    );
  }
}
