/**
 * `dial graphql <url>`: the declaration only; the implementation (and graphql-js) is loaded
 * when the command runs, so other commands never load it.
 * @module
 */
import { AUTH_CONFLICTS, AUTH_FLAGS } from "./auth_flags.ts";
import { TRANSPORT_FLAGS } from "./transport_flags.ts";
import { lazy } from "./lazy.ts";
import { VERBOSE_FLAG } from "./request.ts";
import { command, flag, flags, type FlagValues } from "./declare.ts";

const EPILOG = `
Examples:
  dial graphql https://api.github.com/graphql -B "$TOKEN" -q '{ viewer { login } }'
  dial graphql https://api.example.com/graphql -q @query.graphql --variables @vars.json
  dial graphql https://api.example.com/graphql -q @ops.graphql --operation-name Issues
  dial graphql https://api.example.com/graphql -H "X-Api-Key: abc" --schema > schema.graphql
  dial graphql https://api.example.com/graphql --schema --json --refresh-schema
  dial graphql https://api.example.com/graphql -q 'subscription { ticks }' --max-results 3
  dial graphql wss://api.example.com/graphql --transport ws -q 'subscription { ticks }' \\
    --init-payload '{"token":"abc"}'

Operations are POSTed as JSON {"query","variables","operationName"}; subscriptions read an
event stream or multipart/mixed response until it ends (--transport ws: graphql-transport-ws;
--transport sse: GraphQL over SSE). Piped, each result is one JSON line.
Exit codes: 0 ok, 2 usage (nothing sent), 4/5 HTTP 4xx/5xx with --check-status, 7 network,
8 timeout, 9 auth, 10 GraphQL errors with --check-status, 130 interrupted.`;

/** The flags of `dial graphql`. */
export const GRAPHQL_FLAGS = flags([
  ...AUTH_FLAGS,
  ...TRANSPORT_FLAGS,
  { long: "query", short: "q", value: "text|@file|@-", help: "the GraphQL document" },
  { long: "variables", value: "json|@file", help: "variables, a JSON object" },
  flag.value("operation-name", "name", "the operation to run when the document holds several"),
  { long: "schema", help: "introspect and print the schema as SDL" },
  { long: "json", help: "with --schema: print the introspection result as JSON" },
  { long: "refresh-schema", help: "with --schema: ignore the cached introspection result" },
  { long: "no-validate", help: "do not validate the query against a cached schema" },
  flag.value("transport", "transport", "how to send: POST, WebSocket or SSE", {
    choices: ["http", "ws", "sse"],
    default: "http",
  }),
  flag.value("init-payload", "json", "with --transport ws: the connection_init payload"),
  flag.count("max-results", "stop a subscription after N results", { min: 1 }),
  flag.seconds("timeout", "limit the whole exchange (decimal seconds)"),
  { long: "check-status", help: "exit 4/5 on HTTP 4xx/5xx, 10 when the response holds errors" },
  { long: "include", short: "i", help: "print the status line and headers" },
  { long: "silent", short: "s", help: "print only the results (and their errors), no notes" },
  VERBOSE_FLAG,
  flag.value("output", "file", "write the results to a file", { short: "o", file: true }),
]);

/** The flag values of `dial graphql`. */
export type GraphQLFlagValues = FlagValues<typeof GRAPHQL_FLAGS>;

/** `dial graphql <url>`. */
export const graphqlCommand = command({
  name: "graphql",
  summary: "Send GraphQL operations, print schemas, follow subscriptions",
  args: [{
    name: "url",
    required: true,
    help: "the GraphQL endpoint, e.g. https://api.example.com/graphql",
  }],
  flags: GRAPHQL_FLAGS,
  conflicts: AUTH_CONFLICTS,
  epilog: EPILOG,
  run: async ({ args, flags }, context) =>
    (await lazy.graphqlRun()).runGraphQL(args.url, flags, context),
});
