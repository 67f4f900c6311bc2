/**
 * Running main.ts as a long-lived child, for tests that interrupt it or talk to it over time.
 * @module
 */
import { testHome } from "../_helpers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * Spawns `deno run -A main.ts …args` with the same clean environment as `dial()`.
 *
 * @param args the arguments after `dial`
 * @returns the child, stdin piped
 */
export function spawnDial(args: string[]): Deno.ChildProcess {
  const home = testHome();
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CACHE_HOME: `${home}/.cache`,
      XDG_CONFIG_HOME: `${home}/.config`,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      NO_COLOR: "1",
    },
  }).spawn();
}

/** @returns the path of main.ts, for commands run through `script` */
export function mainPath(): string {
  return MAIN;
}
