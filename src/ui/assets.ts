/**
 * The bundled frontend, built ahead: `deno task bundle` (`scripts/bundle_ui.ts`) writes
 * `src/ui/web/dist/` (git-ignored), and `deno task test` and `deno task compile` run it first;
 * `deno compile --include src/ui/web/dist` embeds it so a binary needs no files beside it.
 * `dial ui` only reads the bundle: it never builds it.
 * @module
 */
import { DialError, ErrorCode, ExitCode } from "../errors.ts";

/** The frontend files the server serves. */
export interface UiAssets {
  /** The JavaScript bundle. */
  js: string;
  /** The style sheet. */
  css: string;
}

/** Where the bundle is read from. */
export interface AssetOptions {
  /** The bundle's directory (default: `src/ui/web/dist/`). */
  dist?: URL;
}

const DIST = new URL("./web/dist/", import.meta.url);

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
    };
  } catch (error) {
    throw new DialError(
      "The UI bundle is missing",
      ErrorCode.UiBundle,
      ExitCode.Failure,
      { hint: "run `deno task bundle`", cause: error },
    );
  }
}
