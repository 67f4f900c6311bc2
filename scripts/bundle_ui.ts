/**
 * Bundles the desktop UI (`deno task bundle`): `src/ui/web/main.tsx` → `src/ui/web/dist/app.js`
 * with `deno bundle --platform browser`, and the style sheet → `dist/app.css`. The UI server
 * reads these files; `deno compile --include src/ui/web/dist` embeds them.
 * @module
 */

const WEB = new URL("../src/ui/web/", import.meta.url);
const DIST = new URL("dist/", WEB);

/**
 * Builds the bundle.
 *
 * @param options `minify` (default true)
 * @returns when the files are written
 */
export async function bundleUi(options: { minify?: boolean } = {}): Promise<void> {
  await Deno.mkdir(DIST, { recursive: true });
  // Written under temporary names, then renamed: two processes may build at once.
  const suffix = `${Deno.pid}.${crypto.randomUUID()}.tmp`;
  const args = [
    "bundle",
    "--quiet",
    "--platform",
    "browser",
    ...(options.minify === false ? [] : ["--minify"]),
    "--output",
    new URL(`app.js.${suffix}`, DIST).pathname,
    new URL("main.tsx", WEB).pathname,
  ];
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "piped",
    stderr: "piped",
    cwd: new URL("../", import.meta.url).pathname,
  }).output();
  if (!output.success) {
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(output.stderr)}`);
  }
  await Deno.copyFile(new URL("styles.css", WEB), new URL(`app.css.${suffix}`, DIST));
  await Deno.rename(new URL(`app.css.${suffix}`, DIST), new URL("app.css", DIST));
  await Deno.rename(new URL(`app.js.${suffix}`, DIST), new URL("app.js", DIST));
}

if (import.meta.main) await bundleUi();
