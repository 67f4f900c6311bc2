/**
 * GraphQL for Deno scripts: the HTTP client, introspection with its cache, the schema model,
 * checkbox query builder, search index, variables check and subscriptions over graphql-ws.
 * Imported as `@dial/dial/graphql`.
 *
 * @example
 * ```ts
 * import { introspect } from "./mod.ts";
 * ```
 * @module
 */
export {
  schemaFromIntrospection,
  SchemaModel,
  type SchemaNode,
  type SchemaNodeKind,
} from "./schema_model.ts";
export { ancestorPaths, argumentPath, parentPath, parsePath } from "./paths.ts";
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
} from "./query_builder.ts";
export { type ParsedQuery, parseQuery } from "./query_parse.ts";
export { type SearchHit, SearchIndex, type SearchResult } from "./search_index.ts";
export {
  parseVariablesJson,
  validateVariables,
  type VariableProblem,
  variablesTemplate,
} from "./variables.ts";
export { type DocumentSyntaxError, parseDocument } from "./document.ts";
export {
  ACCEPT,
  type GraphQLEndpoint,
  type GraphQLRequest,
  graphqlRequestSpec,
  NotGraphQLError,
  readResults,
} from "./http_client.ts";
export { type GraphQLErrorEntry, type GraphQLResult, parseEnvelope } from "./envelope.ts";
export {
  cachedIntrospection,
  introspect,
  type Introspection,
  type IntrospectOptions,
} from "./introspection.ts";
export { subscribeWs, type WsOptions } from "./ws_client.ts";
export type { ParseQueryOptions } from "./query_parse.ts";
export type { ParsedDocument } from "./document.ts";
export type { PathSegment } from "./paths.ts";
export type { ResolvedPath } from "./schema_model.ts";
export type { ResponseKind } from "./http_client.ts";
export type { SearchHitKind } from "./search_index.ts";
