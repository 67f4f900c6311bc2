/**
 * The core's optional modules, loaded when first needed and out of sight of Deno's module
 * graph: one typed entry per module, so a call site names its module once
 * (`const { exchangeH2 } = await load.h2();`). The CLI's own lazy modules are in
 * src/cli/lazy.ts, in the same form.
 *
 * Deno builds the module graph of a program before running it and walks every dynamic
 * `import("./literal.ts")` too: it reads those files (and resolves their npm packages) on every
 * run, whether the line runs or not. A computed specifier is loaded only when the line runs.
 * Every entry is written `import(new URL("./x.ts", import.meta.url).href)`, the one form
 * scripts/build_cli.ts resolves into a chunk of the build. A literal dynamic import stays only
 * where its module is in the start-up graph anyway (to break an import cycle), and
 * tests/e2e/lazy_imports_test.ts checks that no module reaches `main.ts`'s graph through one.
 * Each entry imports once: later calls return the first call's promise (see {@link memoised}).
 * @module
 */

/**
 * A registry whose entries each import their module once. `import()` of a module already
 * loaded still costs ~4 µs (a promise, the specifier resolved again, the namespace looked up),
 * and a request of a kept-alive run calls several entries (`load.client()` in every send).
 *
 * @param entries the registry's entries, each `() => import(…)`
 * @returns the same object, each entry returning its first call's promise
 */
export function memoised<T extends Record<string, () => Promise<unknown>>>(entries: T): T {
  const registry = entries as Record<string, () => Promise<unknown>>;
  for (const [name, entry] of Object.entries(registry)) {
    let loaded: Promise<unknown> | undefined;
    registry[name] = () => loaded ??= entry();
  }
  return entries;
}

/** The core's lazily loaded modules. */
export const load = memoised({
  /** a gRPC call of a request file (and with it the gRPC packages). */
  grpcRequest: (): Promise<typeof import("./grpc/grpc_request.ts")> =>
    import(new URL("./grpc/grpc_request.ts", import.meta.url).href),
  /** lodash 3 for Postman scripts' `_` (src/files/library_lodash3.ts). */
  libraryLodash3: (): Promise<typeof import("./files/library_lodash3.ts")> =>
    import(new URL("./files/library_lodash3.ts", import.meta.url).href),
  /** lodash 4 for Postman scripts' `require("lodash")`. */
  libraryLodash: (): Promise<typeof import("./files/library_lodash.ts")> =>
    import(new URL("./files/library_lodash.ts", import.meta.url).href),
  /** moment for Postman scripts' `require("moment")`. */
  libraryMoment: (): Promise<typeof import("./files/library_moment.ts")> =>
    import(new URL("./files/library_moment.ts", import.meta.url).href),
  /** @xmldom/xmldom for httpyac's `parsedBody` of an XML or HTML response. */
  libraryXmldom: (): Promise<typeof import("./files/library_xmldom.ts")> =>
    import(new URL("./files/library_xmldom.ts", import.meta.url).href),
  /** xpath for httpyac blocks' `require("xpath")`. */
  libraryXpath: (): Promise<typeof import("./files/library_xpath.ts")> =>
    import(new URL("./files/library_xpath.ts", import.meta.url).href),
  /** a local OpenAPI description and its checker (the UI), with the JSON Schema validator. */
  readDescription: (): Promise<typeof import("./openapi/read_description.ts")> =>
    import(new URL("./openapi/read_description.ts", import.meta.url).href),
  /** `??` assertions (httpyac's, and dial's JSONPath form). */
  assertions: (): Promise<typeof import("./files/assertions.ts")> =>
    import(new URL("./files/assertions.ts", import.meta.url).href),
  /** `?? xpath` (and with it @xmldom/xmldom and xpath). */
  xpath: (): Promise<typeof import("./files/xpath_value.ts")> =>
    import(new URL("./files/xpath_value.ts", import.meta.url).href),
  /** the request-file parser. */
  parseHttpFile: (): Promise<typeof import("./files/parse_http_file.ts")> =>
    import(new URL("./files/parse_http_file.ts", import.meta.url).href),
  /** .proto files for dial grpc --proto. */
  protoFiles: (): Promise<typeof import("./grpc/proto_files.ts")> =>
    import(new URL("./grpc/proto_files.ts", import.meta.url).href),
  /** the code writers of export (curl, HTTPie, Python, fetch). */
  codeWriters: (): Promise<typeof import("./export/code_writers.ts")> =>
    import(new URL("./export/code_writers.ts", import.meta.url).href),
  /** a request as exported code sees it (secrets as environment lookups). */
  exportRequest: (): Promise<typeof import("./export/export_request.ts")> =>
    import(new URL("./export/export_request.ts", import.meta.url).href),
  /** HTTP Digest (the challenge and the response). */
  digest: (): Promise<typeof import("./auth/digest.ts")> =>
    import(new URL("./auth/digest.ts", import.meta.url).href),
  /** an OAuth 2.0 access token: from the cache, a refresh or a grant. */
  accessToken: (): Promise<typeof import("./auth/oauth2/access_token.ts")> =>
    import(new URL("./auth/oauth2/access_token.ts", import.meta.url).href),
  /** private_key_jwt client keys. */
  clientKey: (): Promise<typeof import("./auth/oauth2/client_key.ts")> =>
    import(new URL("./auth/oauth2/client_key.ts", import.meta.url).href),
  /** the OAuth 2.0 device authorization grant. */
  device: (): Promise<typeof import("./auth/oauth2/device.ts")> =>
    import(new URL("./auth/oauth2/device.ts", import.meta.url).href),
  /** OAuth 2.0 / OIDC discovery. */
  discovery: (): Promise<typeof import("./auth/oauth2/discovery.ts")> =>
    import(new URL("./auth/oauth2/discovery.ts", import.meta.url).href),
  /** fetching OAuth 2.0 / OIDC metadata. */
  discoveryFetch: (): Promise<typeof import("./auth/oauth2/discovery_fetch.ts")> =>
    import(new URL("./auth/oauth2/discovery_fetch.ts", import.meta.url).href),
  /** OAuth 2.0 DPoP proofs. */
  dpop: (): Promise<typeof import("./auth/oauth2/dpop.ts")> =>
    import(new URL("./auth/oauth2/dpop.ts", import.meta.url).href),
  /** an OAuth 2.0 flow's endpoints, given or discovered. */
  endpoints: (): Promise<typeof import("./auth/oauth2/endpoints.ts")> =>
    import(new URL("./auth/oauth2/endpoints.ts", import.meta.url).href),
  /** the OAuth 2.0 authorization code grant (callback server, browser). */
  login: (): Promise<typeof import("./auth/oauth2/login.ts")> =>
    import(new URL("./auth/oauth2/login.ts", import.meta.url).href),
  /** the token request, and with it oauth4webapi. */
  tokenRequest: (): Promise<typeof import("./auth/oauth2/token_request.ts")> =>
    import(new URL("./auth/oauth2/token_request.ts", import.meta.url).href),
  /** what the token cache holds for a flow. */
  tokenState: (): Promise<typeof import("./auth/oauth2/token_state.ts")> =>
    import(new URL("./auth/oauth2/token_state.ts", import.meta.url).href),
  /** AWS Signature Version 4. */
  sigv4: (): Promise<typeof import("./auth/sigv4.ts")> =>
    import(new URL("./auth/sigv4.ts", import.meta.url).href),
  /** the script sandbox's digests (node:crypto), loaded before a script that names crypto. */
  scriptDigests: (): Promise<typeof import("./files/script_digests.ts")> =>
    import(new URL("./files/script_digests.ts", import.meta.url).href),
  /** the request-file script sandbox (QuickJS). */
  scriptSandbox: (): Promise<typeof import("./files/script_sandbox.ts")> =>
    import(new URL("./files/script_sandbox.ts", import.meta.url).href),
  /** an environment's Security.Auth settings. */
  securityAuth: (): Promise<typeof import("./files/security_auth.ts")> =>
    import(new URL("./files/security_auth.ts", import.meta.url).href),
  /** GraphQL introspection and its cache. */
  introspection: (): Promise<typeof import("./graphql/introspection.ts")> =>
    import(new URL("./graphql/introspection.ts", import.meta.url).href),
  /** GraphQL over WebSocket (graphql-ws). */
  wsClient: (): Promise<typeof import("./graphql/ws_client.ts")> =>
    import(new URL("./graphql/ws_client.ts", import.meta.url).href),
  /** a WebSocket session (a file's WEBSOCKET requests). */
  wsSession: (): Promise<typeof import("./stream/ws_session.ts")> =>
    import(new URL("./stream/ws_session.ts", import.meta.url).href),
  /** an event stream's reader (a file's SSE responses). */
  readEventStream: (): Promise<typeof import("./stream/read_event_stream.ts")> =>
    import(new URL("./stream/read_event_stream.ts", import.meta.url).href),
  /** the HTTP client (HTTP/1.1 by dial, HTTP/2). */
  client: (): Promise<typeof import("./http/client.ts")> =>
    import(new URL("./http/client.ts", import.meta.url).href),
  /** the cookie jar. */
  cookies: (): Promise<typeof import("./http/cookies.ts")> =>
    import(new URL("./http/cookies.ts", import.meta.url).href),
  /** the system resolver, timed apart from connecting. */
  lookup: (): Promise<typeof import("./http/lookup.ts")> =>
    import(new URL("./http/lookup.ts", import.meta.url).href),
  /** HTTP/2 through node:http2. */
  h2: (): Promise<typeof import("./http/h2.ts")> =>
    import(new URL("./http/h2.ts", import.meta.url).href),
  /** TLS through node:tls (see the register in ARCHITECTURE.md). */
  nodeTls: (): Promise<typeof import("./http/node_tls.ts")> =>
    import(new URL("./http/node_tls.ts", import.meta.url).href),
  /** a SOCKS5 proxy's handshake. */
  socks: (): Promise<typeof import("./http/socks.ts")> =>
    import(new URL("./http/socks.ts", import.meta.url).href),
  /** the transport plan. */
  plan: (): Promise<typeof import("./http/plan.ts")> =>
    import(new URL("./http/plan.ts", import.meta.url).href),
  /** the connection pool (keep-alive). */
  pool: (): Promise<typeof import("./http/pool.ts")> =>
    import(new URL("./http/pool.ts", import.meta.url).href),
  /** proxy URLs. */
  proxy: (): Promise<typeof import("./http/proxy.ts")> =>
    import(new URL("./http/proxy.ts", import.meta.url).href),
  /** the public suffix list (cookies). */
  publicSuffix: (): Promise<typeof import("./http/public_suffix.ts")> =>
    import(new URL("./http/public_suffix.ts", import.meta.url).href),
  /** transport failures in words. */
  transportError: (): Promise<typeof import("./http/transport_error.ts")> =>
    import(new URL("./http/transport_error.ts", import.meta.url).href),
  /** TLS and proxy settings of the user's config. */
  transportSettings: (): Promise<typeof import("./http/transport_settings.ts")> =>
    import(new URL("./http/transport_settings.ts", import.meta.url).href),
  /** secrets an import moved to the private env file. */
  importSecrets: (): Promise<typeof import("./import/import_secrets.ts")> =>
    import(new URL("./import/import_secrets.ts", import.meta.url).href),
  /** reading a collection to import. */
  readImport: (): Promise<typeof import("./import/read_import.ts")> =>
    import(new URL("./import/read_import.ts", import.meta.url).href),
  /** writing imported requests as .http files. */
  writeImport: (): Promise<typeof import("./import/write_import.ts")> =>
    import(new URL("./import/write_import.ts", import.meta.url).href),
  /** a request as a curl command line. */
  curl: (): Promise<typeof import("./output/curl.ts")> =>
    import(new URL("./output/curl.ts", import.meta.url).href),
  /** the streaming JSON pretty-printer. */
  jsonStream: (): Promise<typeof import("./output/json_stream.ts")> =>
    import(new URL("./output/json_stream.ts", import.meta.url).href),
  /** writing a download to a file (temporary file, renamed when whole). */
  saveFile: (): Promise<typeof import("./output/save_file.ts")> =>
    import(new URL("./output/save_file.ts", import.meta.url).href),
  /** curl's -w format. */
  writeOut: (): Promise<typeof import("./output/write_out.ts")> =>
    import(new URL("./output/write_out.ts", import.meta.url).href),
});
