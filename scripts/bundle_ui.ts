/**
 * Bundles the desktop UI (`deno task bundle`): `src/ui/web/main.tsx` → `src/ui/web/dist/app.js`
 * , the response viewer's worker `json_worker.ts` → `dist/json_worker.js` and the page's inline
 * bootstrap `boot.ts` → `dist/boot.js`, each with
 * `deno bundle --platform browser` and the frontend's own `src/ui/web/deno.json` (Preact and
 * CodeMirror, which dial itself never loads), and the style sheet → `dist/app.css`. The UI server
 * reads these files; `deno compile --include src/ui/web/dist` embeds them. With `--if-stale`
 * (as `deno task test` runs it) the bundle is built only when it is missing or older than a
 * source it includes.
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
  for (const [entry, output, format] of ENTRIES) {
    const args = [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--config",
      new URL("deno.json", WEB).pathname,
      ...(options.minify === false ? [] : ["--minify"]),
      ...(format ? ["--format", format] : []),
      "--output",
      new URL(`${output}.${suffix}`, DIST).pathname,
      new URL(entry, WEB).pathname,
    ];
    const built = await new Deno.Command(Deno.execPath(), {
      args,
      stdout: "piped",
      stderr: "piped",
      cwd: new URL("../", import.meta.url).pathname,
    }).output();
    if (!built.success) {
      throw new Error(`deno bundle failed:\n${new TextDecoder().decode(built.stderr)}`);
    }
  }
  await Deno.copyFile(new URL("styles.css", WEB), new URL(`app.css.${suffix}`, DIST));
  await Deno.rename(new URL(`app.css.${suffix}`, DIST), new URL("app.css", DIST));
  // app.js last: its date says the whole bundle is built.
  for (const [, output] of [...ENTRIES].reverse()) {
    await Deno.rename(new URL(`${output}.${suffix}`, DIST), new URL(output, DIST));
  }
}

/**
 * The bundles: entry (in `src/ui/web/`) → file in `dist/`, and the bootstrap's format: a classic
 * script in one function's scope (it runs inline in the page: no module syntax, and nothing of
 * its own in the page's global scope).
 */
const ENTRIES: ReadonlyArray<readonly [string, string, string?]> = [
  ["main.tsx", "app.js"],
  ["json_worker.ts", "json_worker.js"],
  ["boot.ts", "boot.js", "iife"],
];

/**
 * Whether the bundle is missing or any source it includes (`src/`, with the frontend's
 * `deno.json` and `deno.lock`) is newer than it.
 *
 * @param dist the bundle's directory
 * @returns whether to build
 */
export async function bundleIsStale(dist: URL = DIST): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(new URL("app.js", dist))).mtime?.getTime() ?? 0;
    await Deno.stat(new URL("app.css", dist));
    await Deno.stat(new URL("json_worker.js", dist));
    await Deno.stat(new URL("boot.js", dist));
  } catch {
    return true;
  }
  return await newerThan(new URL("../src/", import.meta.url), built);
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

if (import.meta.main) {
  if (!Deno.args.includes("--if-stale") || await bundleIsStale()) await bundleUi();
}
