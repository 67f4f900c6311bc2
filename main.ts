/** dial's command-line entry point: parse argv, run, exit with the code. */
import { run } from "./src/cli/run_cli.ts";

Deno.exit(await run(Deno.args));
