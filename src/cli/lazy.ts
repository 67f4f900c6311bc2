/**
 * The commands' implementations, loaded when a command runs, out of sight of Deno's start-up
 * graph: one typed entry per module, so a call site names its module once
 * (`const { runWs } = await lazy.wsRun();`).
 *
 * Deno builds the module graph of `main.ts` before running it and walks every dynamic
 * `import("./literal.ts")` too: it reads those files and resolves their npm packages
 * (graphql, graphql-ws, meros, eventsource-parser, oauth4webapi), which costs several ms on
 * every run, `dial GET` included. A computed specifier is loaded only when the line runs.
 * Every entry is written `import(new URL("./x.ts", import.meta.url).href)`, the one form
 * scripts/build_cli.ts resolves (a Rollup `resolveDynamicImport` hook), so each entry becomes
 * a chunk of the build; the core's own lazy imports (the OAuth 2.0 token request and login)
 * use the same form. The build refuses any other computed import.
 * @module
 */

/** The lazily loaded implementations of the commands. */
export const lazy = {
  /** `dial graphql`. */
  graphqlRun: (): Promise<typeof import("./graphql_run.ts")> =>
    import(new URL("./graphql_run.ts", import.meta.url).href),
  /** `dial grpc`. */
  grpcRun: (): Promise<typeof import("./grpc_run.ts")> =>
    import(new URL("./grpc_run.ts", import.meta.url).href),
  /** `dial ws`. */
  wsRun: (): Promise<typeof import("./ws_run.ts")> =>
    import(new URL("./ws_run.ts", import.meta.url).href),
  /** `dial sse`. */
  sseRun: (): Promise<typeof import("./sse_run.ts")> =>
    import(new URL("./sse_run.ts", import.meta.url).href),
  /** `dial run`. */
  runFiles: (): Promise<typeof import("./run_files.ts")> =>
    import(new URL("./run_files.ts", import.meta.url).href),
  /** `dial test`. */
  testFiles: (): Promise<typeof import("./test_files.ts")> =>
    import(new URL("./test_files.ts", import.meta.url).href),
  /** `--save FILE.http`. */
  saveHttp: (): Promise<typeof import("./save_http.ts")> =>
    import(new URL("./save_http.ts", import.meta.url).href),
  /** `dial … --export FORMAT`. */
  requestExport: (): Promise<typeof import("./request_export.ts")> =>
    import(new URL("./request_export.ts", import.meta.url).href),
  /** `dial import`. */
  importRun: (): Promise<typeof import("./import_run.ts")> =>
    import(new URL("./import_run.ts", import.meta.url).href),
  /** `dial export`. */
  exportRun: (): Promise<typeof import("./export_run.ts")> =>
    import(new URL("./export_run.ts", import.meta.url).href),
  /** `dial auth token|status|logout`. */
  authActions: (): Promise<typeof import("./auth_actions.ts")> =>
    import(new URL("./auth_actions.ts", import.meta.url).href),
  /** `dial completions`. */
  completionScript: (): Promise<typeof import("./completion/script.ts")> =>
    import(new URL("./completion/script.ts", import.meta.url).href),
  /** `--filter 'JSONPATH'` (its JSONPath package stays out of `dial GET`). */
  jsonFilter: (): Promise<typeof import("../output/json_filter.ts")> =>
    import(new URL("../output/json_filter.ts", import.meta.url).href),
  /** `dial ui`: the only way the CLI reaches the UI. */
  ui: (): Promise<typeof import("../ui/run.ts")> =>
    import(new URL("../ui/run.ts", import.meta.url).href),
};
