/**
 * Running main.ts as a long-lived child, for tests that interrupt it or talk to it over time.
 * @module
 */
import { dialEnv } from "../_helpers.ts";
import { type ProgramResult, runProgram } from "../_process.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Options for {@link spawnDial}. */
export interface SpawnOptions {
  /** `piped` (the default) to write to the child, `null` for none. */
  stdin?: "piped" | "null";
  /** Working directory. */
  cwd?: string;
  /** Deno's own flags before the script (`--no-npm`). */
  denoFlags?: string[];
  /** Another copy of main.ts to run. */
  main?: string;
  /** Variables to add to the clean environment (HOME moves the XDG folders along). */
  env?: Record<string, string>;
}

/**
 * Spawns `deno run -A main.ts …args` with the same clean environment as `dial()`.
 *
 * @param args the arguments after `dial`
 * @param options stdin, working directory, Deno's flags, the main.ts to run, variables
 * @returns the child, stdout and stderr piped
 */
export function spawnDial(args: string[], options: SpawnOptions = {}): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ...options.denoFlags ?? [], options.main ?? MAIN, ...args],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdin: options.stdin ?? "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: dialEnv(options.env),
  }).spawn();
}

/** @returns the path of main.ts, for commands run through `script` */
export function mainPath(): string {
  return MAIN;
}

/**
 * Runs `dial … | <reader>` under `set -o pipefail`, as a script would: the exit code is dial's.
 *
 * @param reader the command reading dial's stdout, e.g. `head -1`
 * @param args the arguments after `dial`
 * @returns dial's exit code, what the reader printed, and dial's stderr
 */
export async function dialIntoHead(
  reader: string,
  args: string[],
): Promise<ProgramResult> {
  const script = `set -o pipefail; "$0" run -A --quiet "$@" | ${reader}`;
  return await runProgram("bash", ["-c", script, Deno.execPath(), MAIN, ...args], {
    clearEnv: true,
    env: dialEnv(),
  });
}
