/**
 * Where the npm packages dial imports live on disk, for the build (`scripts/build_cli.ts`) to
 * bundle them into its chunks: Deno resolves and downloads them (`deno info`, with the root
 * `deno.json` and its lockfile, so the versions and checksums are the ones dial runs with from
 * source), and this module maps an import to the package's file, reading its `package.json`
 * as Node's ESM resolution does (`exports` with the conditions `deno`, `import`, `module`,
 * `default`; else `module`, then `main`).
 * @module
 */

const ROOT = new URL("../", import.meta.url);

/** One package of Deno's resolution, as `deno info --json` reports it. */
interface NpmPackage {
  name: string;
  version: string;
  /** Package ids (`graphql@16.15.0`) of its dependencies. */
  dependencies: string[];
  /** Its folder in Deno's npm cache. */
  localPath: string;
}

/** The conditions of `exports` the build picks, in the order Node would meet them. */
const CONDITIONS = new Set(["deno", "import", "module", "default"]);

/** Resolves the npm imports of dial's sources and of the packages themselves to files. */
export class NpmPackages {
  readonly #byId: Map<string, NpmPackage>;
  /** Bare names of deno.json's imports → package ids. */
  readonly #roots: Map<string, string>;

  private constructor(byId: Map<string, NpmPackage>, roots: Map<string, string>) {
    this.#byId = byId;
    this.#roots = roots;
  }

  /**
   * Asks Deno for the packages of deno.json's imports (downloading any that are missing).
   *
   * @param imports deno.json's `imports`
   * @returns the resolver
   */
  static async resolve(imports: Record<string, string>): Promise<NpmPackages> {
    const dir = await Deno.makeTempDir({ prefix: "dial-build-npm-" });
    try {
      const names = Object.keys(imports).filter((name) => imports[name]!.startsWith("npm:"));
      await Deno.writeTextFile(`${dir}/npm.ts`, names.map((n) => `import "${n}";\n`).join(""));
      const output = await new Deno.Command(Deno.execPath(), {
        args: [
          "info",
          "--json",
          "--frozen",
          "--config",
          new URL("deno.json", ROOT).pathname,
          "npm.ts",
        ],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!output.success) {
        throw new Error(`deno info failed:\n${new TextDecoder().decode(output.stderr)}`);
      }
      const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
        npmPackages: Record<string, NpmPackage>;
      };
      const byId = new Map(Object.entries(info.npmPackages));
      const roots = new Map<string, string>();
      for (const name of names) {
        const { name: pkg, version } = parseNpm(imports[name]!);
        const ids = [...byId].filter(([, p]) => p.name === pkg && p.version === version);
        if (ids.length !== 1) throw new Error(`deno info: ${ids.length} packages for ${name}`);
        roots.set(name, ids[0]![0]);
      }
      return new NpmPackages(byId, roots);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }

  /**
   * @param module a path from the project root, or `npm:<package>/<path in the package>`
   * @param root the project root
   * @returns its file
   */
  file(module: string, root: string): string {
    if (!module.startsWith("npm:")) return `${root}${module}`;
    const { name, subpath } = splitBare(module.slice(4));
    const pkg = [...this.#byId.values()].find((p) => p.name === name);
    if (pkg === undefined) throw new Error(`${module}: not among dial's npm packages`);
    return `${pkg.localPath}/${subpath.slice(2)}`;
  }

  /** @returns the name of the npm package a file belongs to, if it does */
  packageOf(path: string): string | undefined {
    return this.#owner(path)?.name;
  }

  /**
   * @param source an import as written, e.g. `meros/browser`
   * @param importer the importing file
   * @returns the file it names, or undefined when it is not an npm import
   * @throws {Error} when it names a package the importer cannot see, or a subpath the
   *   package does not offer
   */
  resolve(source: string, importer: string | undefined): string | undefined {
    if (/^(\.|\/|node:|file:)/.test(source)) return undefined;
    const { name, subpath } = splitBare(source.replace(/^npm:/, ""));
    const owner = importer === undefined ? undefined : this.#owner(importer);
    let id: string | undefined;
    if (owner === undefined) {
      id = this.#roots.get(name) ?? this.#roots.get(source);
    } else if (name === owner.name) {
      // A package importing itself by name (`pkg/sub` from inside pkg).
      return entry(owner, subpath);
    } else {
      id = owner.dependencies.find((d) => this.#byId.get(d)?.name === name);
    }
    if (id === undefined) {
      const from = owner ? `${owner.name}@${owner.version}` : "dial";
      throw new Error(`${from} imports "${source}", which is not among its npm packages`);
    }
    const target = this.#byId.get(id)!;
    return entry(target, subpath);
  }

  #owner(path: string): NpmPackage | undefined {
    for (const p of this.#byId.values()) if (path.startsWith(`${p.localPath}/`)) return p;
    return undefined;
  }
}

/** @returns name and version of `npm:name@version` */
function parseNpm(specifier: string): { name: string; version: string } {
  const match = /^npm:(@?[^@/]+(?:\/[^@/]+)?)@([^/]+)/.exec(specifier);
  if (!match) throw new Error(`not a pinned npm: specifier: ${specifier}`);
  return { name: match[1]!, version: match[2]! };
}

/**
 * `@scope/name/sub/path` → name `@scope/name`, subpath `./sub/path` (`.` for none); a version
 * (`name@1.2.3/sub`, as in `npm:` specifiers) is dropped: deno.json pins it.
 */
function splitBare(source: string): { name: string; subpath: string } {
  const parts = source.split("/");
  const length = source.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, length).join("/").replace(/(.)@[^/]*$/, "$1");
  const rest = parts.slice(length).join("/");
  return { name, subpath: rest ? `./${rest}` : "." };
}

/** @returns the file of a package's subpath */
function entry(pkg: NpmPackage, subpath: string): string {
  const manifest = JSON.parse(Deno.readTextFileSync(`${pkg.localPath}/package.json`));
  let target: string | undefined;
  if (manifest.exports !== undefined) {
    const exports = typeof manifest.exports === "string" || Array.isArray(manifest.exports) ||
        !Object.keys(manifest.exports).some((k) => k.startsWith("."))
      ? { ".": manifest.exports }
      : manifest.exports;
    target = conditional(exports[subpath] ?? patternExport(exports, subpath));
  } else if (subpath === ".") {
    target = manifest.module ?? manifest.main ?? "index.js";
  } else {
    target = subpath;
  }
  if (target === undefined) {
    throw new Error(`${pkg.name}@${pkg.version} has no ESM export "${subpath}"`);
  }
  return `${pkg.localPath}/${target.replace(/^\.\//, "")}`;
}

/**
 * A subpath pattern export (`"./array/*": "./dist/array/*.js"`): the matching key with the
 * longest prefix, its target with `*` replaced by what the star matched (Node's rules).
 */
function patternExport(exports: Record<string, unknown>, subpath: string): unknown {
  let best: { key: string; star: string } | undefined;
  for (const key of Object.keys(exports)) {
    const star = key.indexOf("*");
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!subpath.startsWith(prefix) || !subpath.endsWith(suffix)) continue;
    if (subpath.length < prefix.length + suffix.length) continue;
    if (best && best.key.indexOf("*") >= star) continue;
    best = { key, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
  }
  if (!best) return undefined;
  const replace = (value: unknown): unknown =>
    typeof value === "string"
      ? value.replaceAll("*", best!.star)
      : value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]))
      : value;
  return replace(exports[best.key]);
}

/** Picks the first branch of a conditional export whose condition the build uses. */
function conditional(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = conditional(v);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [condition, branch] of Object.entries(value)) {
    if (!CONDITIONS.has(condition)) continue;
    const found = conditional(branch);
    if (found !== undefined) return found;
  }
  return undefined;
}
