/**
 * Loading a command's implementation when it runs, out of sight of Deno's start-up graph.
 *
 * Deno builds the module graph of `main.ts` before running it and walks every dynamic
 * `import("./literal.ts")` too: it reads those files and resolves their npm packages
 * (graphql, graphql-ws, meros, eventsource-parser, oauth4webapi), which costs several ms on
 * every run, `dial GET` included. A computed specifier is loaded only when the line runs.
 * `deno compile` cannot see these modules either: scripts/compile.ts embeds
 * {@link LAZY_MODULES} with `--include`.
 * @module
 */

/** The modules loaded through {@link load}, relative to the project root. */
export const LAZY_MODULES = [
  "src/cli/graphql_run.ts",
  "src/cli/ws_run.ts",
  "src/cli/sse_run.ts",
  "src/cli/run_files.ts",
  "src/cli/test_files.ts",
  "src/cli/save_http.ts",
  "src/cli/auth_actions.ts",
  "src/cli/completion/script.ts",
  "src/ui/run.ts",
  "src/auth/oauth2/access_token.ts",
  // Imported by access_token.ts with computed specifiers (not through load), so that a cached
  // token never makes Deno resolve oauth4webapi; listed here for compile's --include.
  "src/auth/oauth2/token_request.ts",
  "src/auth/oauth2/login.ts",
] as const;

/**
 * Imports one of {@link LAZY_MODULES}.
 *
 * @param path its path from the project root
 * @returns the module; give its type as `load<typeof import("…")>(…)`
 */
export function load<M>(path: typeof LAZY_MODULES[number]): Promise<M> {
  return import(new URL(`../../${path}`, import.meta.url).href);
}
