/**
 * GraphQL for Deno scripts: the HTTP client, introspection with its cache, picking and
 * checking the operation to run, the schema model, checkbox query builder, search index,
 * variables check and subscriptions over graphql-ws. Imported as `@dial/dial/graphql`.
 *
 * @example
 * ```ts
 * import {
 *   graphqlRequestSpec,
 *   parseDocument,
 *   readResults,
 *   selectOperation,
 * } from "./mod.ts";
 * import { send } from "../../mod.ts";
 *
 * const query = "query { viewer { login } }";
 * const parsed = parseDocument(query);
 * if (!parsed.ok) throw new Error(parsed.error.message);
 * const picked = selectOperation(parsed.document);
 * if (!picked.ok) throw new Error(picked.problem.code);
 * const endpoint = {
 *   url: new URL("https://api.example.com/graphql"),
 *   auth: { queryKeys: [] },
 *   headers: [],
 * };
 * const kind = picked.operation.streams ? "stream" : "single";
 * const { response } = await send(graphqlRequestSpec(endpoint, { query }, kind));
 * for await (const result of readResults(response)) console.log(result.value);
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
  ANONYMOUS,
  findOperation,
  type LocatedMessage,
  type OperationProblem,
  OperationProblemCode,
  operationProblemMessage,
  type OperationSelection,
  type SelectedOperation,
  selectOperation,
  type SelectOperationOptions,
} from "./operation.ts";
export type {
  DocumentNode,
  GraphQLArgument,
  GraphQLField,
  GraphQLInputField,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
} from "./graphql_types.ts";
export {
  ACCEPT,
  type GraphQLEndpoint,
  type GraphQLRequest,
  graphqlRequestSpec,
  readResults,
} from "./http_client.ts";
export { NotGraphQLError } from "../errors/mod.ts";
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
