/**
 * `deno task compile`: standalone `dial` binaries for every supported platform: `deno compile`
 * of the self-contained build (`scripts/build_cli.ts`, into `<out-dir>/cli/`), with every chunk
 * and the UI bundle embedded (`--include` of the build's folder: the chunks are loaded through
 * computed specifiers, which `deno compile` cannot follow by itself).
 *
 * `deno compile` needs the small Deno runtime (`denort`) of each target, which it downloads
 * from Deno's servers on first use and caches in `$DENO_DIR/dl`. Without network access, set
 * `DENORT_BIN` to a denort binary you fetched elsewhere and build its one target:
 *
 * ```sh
 * deno task compile                                   # all five targets, into dist/
 * deno task compile --target linux-x64 --target macos-arm64 --out-dir build
 * deno task compile --build dist/cli                  # compile an existing build
 * DENORT_BIN=$HOME/denort deno task compile --target linux-x64
 * ```
 * @module
 */

/**
 * The V8 flags the installed and compiled dial runs with (`deno task install`, the Dockerfile,
 * `deno task compile`; tests/unit/release_files_test.ts keeps them one).
 *
 * - `--liftoff-only`: V8 runs QuickJS's WebAssembly (the request-file scripts' sandbox) as its
 *   baseline compiler makes it and never optimises it with TurboFan, whose compiling costs a
 *   run of up to about 2,500 JetBrains handlers or 1,500 Postman scripts more CPU than it saves;
 *   longer runs cost more (docs/benchmarks.md). dial runs no other WebAssembly.
 * - `--invocation-count-for-maglev=50`, `--minimum-invocations-after-ic-update=20`: V8
 *   optimises a JavaScript function with Maglev after 50 calls (its default: 400, and 500 more
 *   after any change of what the function saw), so a `dial test` of 1,000 requests runs its
 *   per-request code optimised for most of the run rather than interpreted for half of it:
 *   ~10 % less CPU for a chain of 1,000 requests, with or without handlers; a single request
 *   costs the same (docs/benchmarks.md, session 15).
 */
export const V8_FLAGS =
  "--v8-flags=--liftoff-only,--invocation-count-for-maglev=50,--minimum-invocations-after-ic-update=20";

/** The targets dial ships, by friendly name: the Rust target triple `deno compile` wants. */
export const TARGETS = {
  "linux-x64": "x86_64-unknown-linux-gnu",
  "linux-arm64": "aarch64-unknown-linux-gnu",
  "macos-x64": "x86_64-apple-darwin",
  "macos-arm64": "aarch64-apple-darwin",
  "windows-x64": "x86_64-pc-windows-msvc",
} as const;

/** A friendly target name. */
export type TargetName = keyof typeof TARGETS;

/** What to build. */
export interface CompilePlan {
  /** Targets, in order. */
  targets: TargetName[];
  /** Where the binaries go. */
  outDir: string;
  /** An existing build to compile; default: build into `<outDir>/cli/` first. */
  build?: string;
}

/** A failure with a message for people; the script prints it and exits 1 (2 for usage). */
export class CompileError extends Error {
  /** A second line telling the user what to do. */
  readonly hint?: string;
  /** The exit code. */
  readonly exitCode: number;

  /**
   * @param message what went wrong
   * @param options hint and exit code
   */
  constructor(message: string, options: { hint?: string; exitCode?: number } = {}) {
    super(message);
    this.name = "CompileError";
    if (options.hint !== undefined) this.hint = options.hint;
    this.exitCode = options.exitCode ?? 1;
  }
}

const ROOT = new URL("../", import.meta.url);
const BUILD_SCRIPT = "scripts/build_cli.ts";
const BUILD_CONFIG = "scripts/build/deno.json";

/**
 * @param args the script's arguments
 * @returns the plan
 * @throws {CompileError} on an unknown flag or target
 */
export function parseCompileArgs(args: string[]): CompilePlan {
  const targets: TargetName[] = [];
  let outDir = "dist";
  let build: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new CompileError(`Missing value after ${arg}`, { exitCode: 2 });
      return next;
    };
    if (arg === "--target") targets.push(targetName(value()));
    else if (arg === "--out-dir") outDir = value();
    else if (arg === "--build") build = value().replace(/\/+$/, "");
    else {
      throw new CompileError(`Unknown argument "${arg}"`, {
        hint: "deno task compile [--target NAME]… [--out-dir DIR] [--build DIR]",
        exitCode: 2,
      });
    }
  }
  const all = Object.keys(TARGETS) as TargetName[];
  return {
    targets: targets.length > 0 ? targets : all,
    outDir,
    ...(build !== undefined ? { build } : {}),
  };
}

function targetName(text: string): TargetName {
  const byTriple = Object.entries(TARGETS).find(([, triple]) => triple === text)?.[0];
  const name = byTriple ?? text;
  if (name in TARGETS) return name as TargetName;
  throw new CompileError(`Unknown target "${text}"`, {
    hint: `one of ${Object.keys(TARGETS).join(", ")}`,
    exitCode: 2,
  });
}

/**
 * @param target a target
 * @param outDir the output directory
 * @returns e.g. `dist/dial-windows-x64.exe`
 */
export function outputPath(target: TargetName, outDir: string): string {
  return `${outDir}/dial-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

/**
 * The `deno compile` arguments for one target. The binary gets the same permissions as
 * `deno task dial` (all), since dial reads and writes files the user names, talks to any host,
 * reads its environment and opens a browser. It compiles the build, without the project's
 * configuration (the build needs none), embedding the build's whole folder.
 *
 * @param target the target
 * @param options the output directory and the build's folder
 * @returns the arguments after `deno`
 */
export function compileArgs(
  target: TargetName,
  options: { outDir: string; build: string },
): string[] {
  return [
    "compile",
    "--allow-all",
    "--no-config",
    V8_FLAGS,
    "--target",
    TARGETS[target],
    "--output",
    outputPath(target, options.outDir),
    "--include",
    options.build,
    `${options.build}/dial.js`,
  ];
}

/**
 * Explains a failed `deno compile` run.
 *
 * @param target the target
 * @param stderr what deno printed
 * @param denortBin the DENORT_BIN in effect, if any
 * @returns the error to report
 */
export function compileFailure(
  target: TargetName,
  stderr: string,
  denortBin?: string,
): CompileError {
  // deno prints a chain of causes, then a backtrace; the last cause is the most specific.
  // deno-lint-ignore no-control-regex
  const text = stderr.replace(/\x1b\[[0-9;]*m/g, "").split("Stack backtrace:")[0]!;
  const causes = [...text.matchAll(/^\s+\d+: (.+)$/gm)].map((m) => m[1]!.trim());
  const cause = causes.at(-1) ?? text.trim().split("\n").at(-1) ?? "";
  const runtime = /denort|base binary/i.test(text);
  if (!runtime) {
    return new CompileError(`deno compile failed for ${target}: ${cause}`);
  }
  if (denortBin !== undefined) {
    return new CompileError(
      `Cannot use DENORT_BIN "${denortBin}" for ${target}: ${cause}`,
      { hint: `DENORT_BIN must be the denort binary of ${TARGETS[target]}` },
    );
  }
  return new CompileError(
    `Cannot get the Deno runtime (denort) for ${target}: ${cause}`,
    {
      hint: `deno compile downloads denort-${TARGETS[target]}.zip for the running Deno version ` +
        `(${Deno.version.deno}) and this machine cannot fetch it. Run "deno task compile" on a ` +
        `machine with network access, or unzip that file elsewhere and run ` +
        `DENORT_BIN=/path/to/denort deno task compile --target ${target}`,
    },
  );
}

/**
 * Checks DENORT_BIN against the plan.
 *
 * @param plan the plan
 * @param denortBin the variable's value
 * @throws {CompileError} when it is missing or would be used for several targets
 */
export async function checkDenortBin(plan: CompilePlan, denortBin: string): Promise<void> {
  if (plan.targets.length !== 1) {
    throw new CompileError("DENORT_BIN names one runtime, but several targets were asked for", {
      hint: "pick its target, e.g. DENORT_BIN=… deno task compile --target linux-x64",
      exitCode: 2,
    });
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(denortBin);
  } catch {
    throw new CompileError(`Cannot find DENORT_BIN "${denortBin}": no such file`, {
      hint: "set DENORT_BIN to an unzipped denort binary, or unset it to download",
    });
  }
  if (!info.isFile) throw new CompileError(`DENORT_BIN "${denortBin}" is not a file`);
}

/**
 * Runs deno in the project's folder.
 *
 * @param args its arguments
 * @param inherit whether its stdout goes to ours
 * @returns whether it succeeded, and what it printed on stderr
 */
export async function deno(
  args: string[],
  inherit: boolean,
): Promise<{ ok: boolean; stderr: string }> {
  // An empty DENORT_BIN means unset to us; deno compile would take it as a path.
  const env = Deno.env.toObject();
  if (!env.DENORT_BIN) delete env.DENORT_BIN;
  const output = await new Deno.Command(Deno.execPath(), {
    clearEnv: true,
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: inherit ? "inherit" : "null",
    stderr: "piped",
    env: { ...env, NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  return { ok: output.success, stderr };
}

function say(text: string): void {
  writeSync("stderr", text);
}

/**
 * Runs the build.
 *
 * @param args the script's arguments
 * @returns the exit code
 */
export async function main(args: string[]): Promise<number> {
  try {
    const plan = parseCompileArgs(args);
    const denortBin = Deno.env.get("DENORT_BIN") || undefined;
    if (denortBin !== undefined) await checkDenortBin(plan, denortBin);
    let build = plan.build;
    if (build === undefined) {
      build = `${plan.outDir}/cli`;
      say(`Building ${build}/ (${BUILD_SCRIPT})\n`);
      const built = await deno(
        ["run", "-A", "--config", BUILD_CONFIG, BUILD_SCRIPT, "--out-dir", build],
        true,
      );
      if (!built.ok) throw new CompileError(`The build failed:\n${built.stderr.trim()}`);
    }
    for (const target of plan.targets) {
      say(`Compiling ${outputPath(target, plan.outDir)} (${TARGETS[target]})\n`);
      const result = await deno(compileArgs(target, { outDir: plan.outDir, build }), false);
      if (!result.ok) throw compileFailure(target, result.stderr, denortBin);
      // deno compile's own report: the files it embedded (every chunk, web/* for the UI).
      say(result.stderr.replace(/^Compile .*\n/, ""));
    }
    say(
      `Done: ${plan.targets.length} binar${
        plan.targets.length === 1 ? "y" : "ies"
      } in ${plan.outDir}/\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    say(`error: ${error.message}\n`);
    if (error.hint) say(`hint: ${error.hint}\n`);
    return error.exitCode;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));

/** Writes text to the process's stdout or stderr at once (before an exit). */
function writeSync(stream: "stdout" | "stderr", text: string): void {
  const file = stream === "stdout" ? Deno.stdout : Deno.stderr;
  let bytes = new TextEncoder().encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
}
