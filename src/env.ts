/**
 * The process's environment, read in one place: the default of the library's options (proxy
 * variables, the cache directory, `$BROWSER`) and what mirrors the runtime's own reading of it.
 * The CLI passes its own lookup (`CliContext.env`), so a run in a test sees only what the test
 * gave it.
 * @module
 */

/** Reads an environment variable; tests and the CLI pass their own. */
export type EnvLookup = (name: string) => string | undefined;

/** The process's environment: `Deno.env.get`, undefined when env access is denied. */
export const processEnv: EnvLookup = (name) => {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
};
