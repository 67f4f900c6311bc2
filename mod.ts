/**
 * dial as a library for Deno scripts: build and send requests with the same auth rules as
 * the `dial` command line.
 *
 * @example
 * ```ts
 * import { send, Secret } from "./mod.ts";
 * const { response } = await send({
 *   method: "GET",
 *   url: new URL("https://api.example.com/me"),
 *   headers: [],
 *   auth: { authorization: { kind: "bearer", token: new Secret(Deno.env.get("TOKEN")!) }, queryKeys: [] },
 * });
 * console.log(response.status);
 * ```
 * @module
 */
export { type Exchange, send, type SendOptions, sendPrepared } from "./src/http/send.ts";
export type { BodySource, HeaderField, PreparedRequest, RequestSpec } from "./src/http/spec.ts";
export {
  buildRequest,
  isCredentialHeader,
  redirectRequest,
  requestUrl,
  withQueryKeys,
} from "./src/http/build_request.ts";
export type { Authorization, AuthSpec, QueryKey } from "./src/auth/spec.ts";
export { authorizationHeader, basicAuthorization } from "./src/auth/authorize.ts";
export {
  DEFAULT_CALLBACK_PORT,
  DEFAULT_CALLBACK_TIMEOUT,
  OAUTH2_FLOWS,
  parseOAuth2Value,
} from "./src/auth/oauth2/parse_value.ts";
export type {
  OAuth2ClientAuth,
  OAuth2Flow,
  OAuth2Options,
  OAuth2Value,
} from "./src/auth/oauth2/parse_value.ts";
export {
  isFresh,
  oauth2Authorization,
  type OAuth2Token,
  oauth2Token,
} from "./src/auth/oauth2/authorize.ts";
export {
  listOAuth2Tokens,
  oauth2TokenState,
  removeOAuth2Tokens,
  type TokenFilter,
  type TokenState,
} from "./src/auth/oauth2/token_state.ts";
export { defaultCacheDir } from "./src/cache.ts";
export { browserCommand, openSystemBrowser } from "./src/auth/oauth2/browser.ts";
export { Secret } from "./src/secret.ts";
export * from "./src/errors.ts";
export {
  denoWebSocket,
  type WebSocketCloseInfo,
  type WebSocketFactory,
  WebSocketSession,
  type WebSocketSessionEvent,
  type WebSocketSessionOptions,
  type WebSocketState,
} from "./src/stream/ws_session.ts";
export {
  DEFAULT_RETRY_MS,
  SseSession,
  type SseSessionEvent,
  type SseSessionOptions,
  type SseState,
} from "./src/stream/sse_session.ts";
export {
  type EventStreamHandlers,
  readEventStream,
  type ServerSentEvent,
} from "./src/stream/read_event_stream.ts";
export { EventChannel, type Listener } from "./src/stream/event_channel.ts";
export { StatusError } from "./src/stream/status_error.ts";
export {
  schemaFromIntrospection,
  SchemaModel,
  type SchemaNode,
  type SchemaNodeKind,
} from "./src/graphql/schema_model.ts";
export { ancestorPaths, argumentPath, parentPath, parsePath } from "./src/graphql/paths.ts";
export {
  type BuilderState,
  emptyState,
  enableArgument,
  isSelected,
  type OperationKind,
  printState,
  selectField,
  setArgument,
  setOperationName,
  unselectField,
  type VariableSpec,
} from "./src/graphql/query_builder.ts";
export { type ParsedQuery, parseQuery } from "./src/graphql/query_parse.ts";
export { type SearchHit, SearchIndex, type SearchResult } from "./src/graphql/search_index.ts";
export {
  parseVariablesJson,
  validateVariables,
  type VariableProblem,
  variablesTemplate,
} from "./src/graphql/variables.ts";
export { type DocumentSyntaxError, parseDocument } from "./src/graphql/document.ts";
export {
  ACCEPT,
  type GraphQLEndpoint,
  type GraphQLRequest,
  graphqlRequestSpec,
  NotGraphQLError,
  readResults,
} from "./src/graphql/http_client.ts";
export {
  type GraphQLErrorEntry,
  type GraphQLResult,
  parseEnvelope,
} from "./src/graphql/envelope.ts";
export {
  cachedIntrospection,
  introspect,
  type Introspection,
  type IntrospectOptions,
} from "./src/graphql/introspection.ts";
export { subscribeWs, type WsOptions } from "./src/graphql/ws_client.ts";
