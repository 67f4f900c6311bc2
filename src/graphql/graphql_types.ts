/**
 * The graphql-js types (`npm:graphql@16`) that the GraphQL module takes and returns, under
 * their graphql-js names: a schema, a parsed document and its operations, and the schema
 * elements a tree path resolves to. Values of these types work with graphql-js's own functions
 * (`printSchema`, `validate`, `print`).
 *
 * Each is tagged `@internal` only because `deno doc --lint` reports the types of an npm
 * package as private (denoland/deno#27364) and would otherwise want graphql-js's whole type
 * graph re-exported; they are part of the public API.
 * @module
 */
import type * as graphql from "graphql";

/**
 * A schema as graphql-js builds it (its `GraphQLSchema` class), e.g. from an introspection
 * result.
 * @internal
 */
export type GraphQLSchema = graphql.GraphQLSchema;

/**
 * A parsed GraphQL document, graphql-js's AST root (`DocumentNode`).
 * @internal
 */
export type DocumentNode = graphql.DocumentNode;

/**
 * One operation of a document (`query`, `mutation` or `subscription`), graphql-js's
 * `OperationDefinitionNode`.
 * @internal
 */
export type OperationDefinitionNode = graphql.OperationDefinitionNode;

/**
 * A named type of a schema (object, interface, union, enum, scalar or input object).
 * @internal
 */
export type GraphQLNamedType = graphql.GraphQLNamedType;

/**
 * A field of an object or interface type, with its arguments.
 * @internal
 */
export type GraphQLField = graphql.GraphQLField<unknown, unknown>;

/**
 * An argument of a field.
 * @internal
 */
export type GraphQLArgument = graphql.GraphQLArgument;

/**
 * A field of an input object type.
 * @internal
 */
export type GraphQLInputField = graphql.GraphQLInputField;
