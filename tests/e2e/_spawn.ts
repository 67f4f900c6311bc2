/**
 * Running main.ts as a long-lived child, for tests that interrupt it or talk to it over time.
 * @module
 */
import { dialEnv } from "../_helpers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * Spawns `deno run -A main.ts …args` with the same clean environment as `dial()`.
 *
 * @param args the arguments after `dial`
 * @returns the child, stdin piped
 */
export function spawnDial(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: dialEnv(),
  }).spawn();
}

/** @returns the path of main.ts, for commands run through `script` */
export function mainPath(): string {
  return MAIN;
}
