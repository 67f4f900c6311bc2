/**
 * Writes the libraries of the script sandbox into dial's (`deno task libraries`): the ones
 * Postman's sandbox offers, lodash 3 (Postman's deprecated `_`), lodash 4 (`require("lodash")`)
 * and moment (`require("moment")`), at the versions Newman 6.2.2's sandbox has; and
 * @xmldom/xmldom, whose `DOMParser` makes httpyac's `response.parsedBody` of an XML or HTML
 * response, at the version dial's own `?? xpath` uses (httpyac 6.16.7 asks for `^0.9.5`: the
 * newest 0.9 is 0.9.12), and xpath 0.0.34 (httpyac's `^0.0.34`, dial's `?? xpath`'s): both are
 * what httpyac's blocks `require`. All are pinned in `tests/deno.json`. Each becomes
 * `src/files/library_NAME.ts`, the package's file as one string (xmldom's CommonJS files in one
 * module map), loaded (`load.library…()` in src/load.ts) only when a script needs it and
 * evaluated inside QuickJS. `tests/e2e/sandbox_libraries_test.ts` checks that the committed
 * files are what this makes of these packages' files, byte for byte.
 *
 * ```sh
 * deno task libraries
 * ```
 * @module
 */

/**
 * The sandbox's libraries: the tests/deno.json import, the file (or the folder of CommonJS files
 * and the one the package's `main` is), what scripts call it.
 */
export const LIBRARIES: ReadonlyArray<
  & { name: string; use: string; where?: string }
  & (
    | { file: string }
    | { dir: string; main: string }
  )
> = [
  { name: "lodash3", file: "index.js", use: "Postman's `_` (deprecated there)" },
  { name: "lodash", file: "lodash.min.js", use: '`require("lodash")`' },
  { name: "moment", file: "min/moment.min.js", use: '`require("moment")`' },
  {
    name: "@xmldom/xmldom",
    dir: "lib",
    main: "index",
    use: "httpyac's `response.parsedBody` of an XML or HTML response",
  },
  { name: "xpath", file: "xpath.js", use: '`require("xpath")`', where: "httpyac's `{{ }}` blocks" },
];

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
      if ("file" in library) {
        const text = await Deno.readTextFile(`${pkg.localPath}/${library.file}`);
        modules.set(
          `src/files/library_${library.name}.ts`,
          [
            "/**",
            ` * ${library.name}@${version}'s ${library.file} (MIT licence), as one string: ${library.use} in`,
            ` * ${
              library.where ?? "`# @postman` scripts"
            }, evaluated inside the sandbox when a script first uses it. Written by`,
            " * scripts/gen_sandbox_libraries.ts (`deno task libraries`); do not edit.",
            " * @module",
            " */",
            "",
            `/** The file's text. */`,
            `export const SOURCE: string =\n  ${JSON.stringify(text)};`,
            "",
          ].join("\n"),
        );
        continue;
      }
      const text = await moduleMap(`${pkg.localPath}/${library.dir}`, library.main);
      modules.set(
        `src/files/library_${library.name.replace(/^@[^/]+\//, "")}.ts`,
        [
          "/**",
          ` * ${library.name}@${version}'s ${library.dir}/*.js (MIT licence) in one module map, as one string:`,
          ` * ${library.use},`,
          " * evaluated inside the sandbox when a script first reads it. Written by",
          " * scripts/gen_sandbox_libraries.ts (`deno task libraries`); do not edit.",
          " * @module",
          " */",
          "",
          `/** The files' text, in a script that sets \`module.exports\` to the package's exports. */`,
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

/**
 * A package's CommonJS files (one folder, `require("./name")` of each other only) as one script
 * that sets `module.exports` to the main file's exports: each file's text unchanged inside a
 * function of `module`, `exports` and `require`, in the order of their names.
 *
 * @param dir the folder of the files
 * @param main the main file's name, without `.js`
 * @returns the script
 */
async function moduleMap(dir: string, main: string): Promise<string> {
  const names = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) names.push(entry.name.slice(0, -3));
  }
  names.sort();
  let text = "var files = {\n";
  for (const name of names) {
    const file = await Deno.readTextFile(`${dir}/${name}.js`);
    for (const [, , wanted] of file.matchAll(/\brequire\((['"])([^'"]*)\1\)/g)) {
      if (!names.includes(wanted!.replace(/^\.\//, ""))) {
        throw new Error(`${dir}/${name}.js requires ${wanted}, which is not one of the files`);
      }
    }
    text += `${JSON.stringify(`./${name}`)}: function (module, exports, require) {\n${file}\n},\n`;
  }
  return text + `};
var loaded = {};
function load(name) {
  if (!Object.prototype.hasOwnProperty.call(loaded, name)) {
    var one = loaded[name] = { exports: {} };
    files[name].call(one.exports, one, one.exports, load);
  }
  return loaded[name].exports;
}
module.exports = load(${JSON.stringify(`./${main}`)});
`;
}

if (import.meta.main) {
  for (const [path, text] of await libraryModules()) {
    await Deno.writeTextFile(new URL(path, ROOT), text);
    Deno.stderr.writeSync(new TextEncoder().encode(`${path}: ${text.length} characters\n`));
  }
}
