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

/**
 * Waits until the child has spent `cpuMs` more CPU time than when called (Linux's
 * /proc/PID/stat), or `wallMs` have passed: a sign that it is busy in a loop (a script's
 * `while (true)`), whatever the machine's load, and never longer than `wallMs`.
 *
 * @param child the process to watch
 * @param cpuMs the CPU time to wait for
 * @param wallMs the longest wait
 * @returns whether the child used that much CPU time (false: the wait ran out, or it ended)
 */
export async function busyFor(
  child: Deno.ChildProcess,
  cpuMs: number,
  wallMs: number,
): Promise<boolean> {
  const ticks = Number(
    new TextDecoder().decode(
      (await new Deno.Command("getconf", { args: ["CLK_TCK"] }).output()).stdout,
    ),
  );
  const cpu = () => {
    try {
      const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`);
      // utime and stime: fields 14 and 15, the 12th and 13th after the command's closing ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 1000 / ticks;
    } catch {
      return undefined;
    }
  };
  const start = cpu();
  const end = performance.now() + wallMs;
  while (start !== undefined && performance.now() < end) {
    const now = cpu();
    if (now === undefined) return false;
    if (now - start >= cpuMs) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
