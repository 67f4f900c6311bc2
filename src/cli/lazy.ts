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
 * a chunk of the build; the core's own lazy modules are in src/load.ts, in the same form. The
 * build refuses any other computed import. Each entry imports once (`memoised`, src/load.ts).
 * @module
 */
import { memoised } from "../load.ts";

/** The lazily loaded implementations of the commands, and the CLI's optional modules. */
export const lazy = memoised({
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
  /** `dial test c.json` and Newman's flags. */
  testCollection: (): Promise<typeof import("./test_collection.ts")> =>
    import(new URL("./test_collection.ts", import.meta.url).href),
  /** `--save FILE.http`. */
  saveHttp: (): Promise<typeof import("./save_http.ts")> =>
    import(new URL("./save_http.ts", import.meta.url).href),
  /** `dial … --export FORMAT`. */
  requestExport: (): Promise<typeof import("./request_export.ts")> =>
    import(new URL("./request_export.ts", import.meta.url).href),
  /** `dial … --export`, `--curl`, `--offline`: the request printed instead of sent. */
  requestPrint: (): Promise<typeof import("./request_print.ts")> =>
    import(new URL("./request_print.ts", import.meta.url).href),
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
  /** `--openapi SPEC`, `# @openapi`: the contract checks (the JSON Schema validator). */
  openapiChecks: (): Promise<typeof import("./openapi_checks.ts")> =>
    import(new URL("./openapi_checks.ts", import.meta.url).href),
  /** `dial mcp`. */
  mcpRun: (): Promise<typeof import("./mcp_run.ts")> =>
    import(new URL("./mcp_run.ts", import.meta.url).href),
  /** `--filter 'JSONPATH'` (its JSONPath package stays out of `dial GET`). */
  jsonFilter: (): Promise<typeof import("../output/json_filter.ts")> =>
    import(new URL("../output/json_filter.ts", import.meta.url).href),
  /** `dial ui`: the only way the CLI reaches the UI. */
  ui: (): Promise<typeof import("../ui/run.ts")> =>
    import(new URL("../ui/run.ts", import.meta.url).href),
  /** an error's remedy in flags. */
  cliRemedies: (): Promise<typeof import("./cli_remedies.ts")> =>
    import(new URL("./cli_remedies.ts", import.meta.url).href),
  /** the user's config file. */
  config: (): Promise<typeof import("./config.ts")> =>
    import(new URL("./config.ts", import.meta.url).href),
  /** -b and -c. */
  cookieFlags: (): Promise<typeof import("./cookie_flags.ts")> =>
    import(new URL("./cookie_flags.ts", import.meta.url).href),
  /** @exec: credential helpers. */
  credentialHelper: (): Promise<typeof import("./credential_helper.ts")> =>
    import(new URL("./credential_helper.ts", import.meta.url).href),
  /** curl's body flags (-d, --data-*, -F). */
  curlBody: (): Promise<typeof import("./curl_body.ts")> =>
    import(new URL("./curl_body.ts", import.meta.url).href),
  /** `dial curl`. */
  curlRun: (): Promise<typeof import("./curl_run.ts")> =>
    import(new URL("./curl_run.ts", import.meta.url).href),
  /** -D. */
  dumpHeader: (): Promise<typeof import("./dump_header.ts")> =>
    import(new URL("./dump_header.ts", import.meta.url).href),
  /** --help. */
  help: (): Promise<typeof import("./help.ts")> =>
    import(new URL("./help.ts", import.meta.url).href),
  /** a body from request items. */
  itemsBody: (): Promise<typeof import("./items_body.ts")> =>
    import(new URL("./items_body.ts", import.meta.url).href),
  /** the --oauth2* flags. */
  oauth2Flags: (): Promise<typeof import("./oauth2_flags.ts")> =>
    import(new URL("./oauth2_flags.ts", import.meta.url).href),
  /** asking for a secret on a terminal. */
  prompt: (): Promise<typeof import("./prompt.ts")> =>
    import(new URL("./prompt.ts", import.meta.url).href),
  /** HTTPie-style request items. */
  requestItems: (): Promise<typeof import("./request_items.ts")> =>
    import(new URL("./request_items.ts", import.meta.url).href),
  /** the request command (`dial GET …`). */
  requestRun: (): Promise<typeof import("./request_run.ts")> =>
    import(new URL("./request_run.ts", import.meta.url).href),
  /** --save. */
  requestSave: (): Promise<typeof import("./request_save.ts")> =>
    import(new URL("./request_save.ts", import.meta.url).href),
  /** --retry. */
  retryRun: (): Promise<typeof import("./retry_run.ts")> =>
    import(new URL("./retry_run.ts", import.meta.url).href),
  /** --session. */
  sessionRun: (): Promise<typeof import("./session_run.ts")> =>
    import(new URL("./session_run.ts", import.meta.url).href),
  /** --aws-sigv4. */
  sigv4Flags: (): Promise<typeof import("./sigv4_flags.ts")> =>
    import(new URL("./sigv4_flags.ts", import.meta.url).href),
  /** -w after the response. */
  writeOutRun: (): Promise<typeof import("./write_out_run.ts")> =>
    import(new URL("./write_out_run.ts", import.meta.url).href),
});
