/**
 * How a GraphQL operation travels, one name for both faces: `http` (one POST, answered with
 * JSON, an event stream or multipart), `ws` (graphql-transport-ws) or `sse` (GraphQL over SSE).
 * @module
 */

/** The transports, as `dial graphql --transport` and the GraphQL tab name them. */
export const GRAPHQL_TRANSPORTS = ["http", "ws", "sse"] as const;

/** One of {@link GRAPHQL_TRANSPORTS}. */
export type GraphQLTransport = typeof GRAPHQL_TRANSPORTS[number];
