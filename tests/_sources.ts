/**
 * dial's own source files, for the tests that check rules over the code (one module per rule,
 * error codes, file names, which face imports what).
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/**
 * The TypeScript files under a folder of the repository, as paths from its root.
 *
 * @param dir the folder, e.g. `src`
 * @param skip folders left out, e.g. `src/ui/web/dist` (the browser bundle's output)
 * @returns the paths, in the order the folders list them
 */
export async function sourceFiles(
  dir: string,
  skip: readonly string[] = ["src/ui/web/dist"],
): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !skip.includes(path)) files.push(...await sourceFiles(path, skip));
    if (entry.isFile && /\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

/**
 * @param path a file's path from the repository's root
 * @returns its text without block comments and line comments, so that prose does not count
 */
export async function codeOf(path: string): Promise<string> {
  const text = await Deno.readTextFile(new URL(path, ROOT));
  return text.replace(/^\s*\/\*[\s\S]*?\*\//gm, "").replace(/^\s*\/\/.*$/gm, "");
}
