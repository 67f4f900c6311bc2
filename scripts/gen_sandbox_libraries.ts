/**
 * Writes the libraries Postman's script sandbox offers into dial's (`deno task libraries`):
 * lodash 3 (Postman's deprecated `_`), lodash 4 (`require("lodash")`) and moment
 * (`require("moment")`), at the versions Newman 6.2.2's sandbox has, pinned in
 * `tests/deno.json`. Each becomes `src/files/library_NAME.ts`, the package's file as one string,
 * loaded (`load.library…()` in src/load.ts) only when a `# @postman` script uses it and evaluated
 * inside QuickJS. `tests/unit/files/sandbox_libraries_test.ts` checks that the committed files
 * are these packages' files, byte for byte.
 *
 * ```sh
 * deno task libraries
 * ```
 * @module
 */

/** The sandbox's libraries: the tests/deno.json import, the file, what scripts call it. */
export const LIBRARIES = [
  { name: "lodash3", file: "index.js", use: "Postman's `_` (deprecated there)" },
  { name: "lodash", file: "lodash.min.js", use: '`require("lodash")`' },
  { name: "moment", file: "min/moment.min.js", use: '`require("moment")`' },
] as const;

const ROOT = new URL("../", import.meta.url);

/**
 * @returns each library's generated module text, by its path from the project root
 */
export async function libraryModules(): Promise<Map<string, string>> {
  const config = JSON.parse(await Deno.readTextFile(new URL("tests/deno.json", ROOT))) as {
    imports: Record<string, string>;
  };
  const dir = await Deno.makeTempDir({ prefix: "dial-libraries-" });
  try {
    await Deno.writeTextFile(
      `${dir}/libraries.ts`,
      LIBRARIES.map((l) => `import "${l.name}";\n`).join(""),
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "info",
        "--json",
        "--config",
        new URL("tests/deno.json", ROOT).pathname,
        "libraries.ts",
      ],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(`deno info failed: ${new TextDecoder().decode(output.stderr)}`);
    }
    const packages = Object.values(
      (JSON.parse(new TextDecoder().decode(output.stdout)) as {
        npmPackages: Record<string, { name: string; version: string; localPath: string }>;
      }).npmPackages,
    );
    const modules = new Map<string, string>();
    for (const library of LIBRARIES) {
      const specifier = config.imports[library.name]!;
      const version = /@([^@/]+)$/.exec(specifier)![1]!;
      const pkg = packages.find((p) => p.name === library.name && p.version === version);
      if (!pkg) throw new Error(`deno info did not resolve ${specifier}`);
      const text = await Deno.readTextFile(`${pkg.localPath}/${library.file}`);
      modules.set(
        `src/files/library_${library.name}.ts`,
        [
          "/**",
          ` * ${library.name}@${version}'s ${library.file} (MIT licence), as one string: ${library.use} in`,
          " * `# @postman` scripts, evaluated inside the sandbox when a script first uses it. Written by",
          " * scripts/gen_sandbox_libraries.ts (`deno task libraries`); do not edit.",
          " * @module",
          " */",
          "",
          `/** The file's text. */`,
          `export const SOURCE: string =\n  ${JSON.stringify(text)};`,
          "",
        ].join("\n"),
      );
    }
    return modules;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  for (const [path, text] of await libraryModules()) {
    await Deno.writeTextFile(new URL(path, ROOT), text);
    Deno.stderr.writeSync(new TextEncoder().encode(`${path}: ${text.length} characters\n`));
  }
}
