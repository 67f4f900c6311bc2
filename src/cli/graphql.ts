/**
 * `dial graphql <url>`: flags only; the implementation (and graphql-js) is loaded when the
 * command runs, so other commands never load it.
 * @module
 */
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { withAuthFlags } from "./auth_flags.ts";
import type { CliContext } from "./context.ts";
import type { GraphQLFlagValues } from "./graphql_run.ts";

const EXAMPLES = `
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

/**
 * @param context shared exit code and Ctrl-C signal
 * @returns the `graphql` command
 */
export function graphqlCommand(context: CliContext) {
  const command = new Command("graphql")
    .description("Send GraphQL operations, print schemas, follow subscriptions")
    .argument("<url>", "the GraphQL endpoint, e.g. https://api.example.com/graphql");
  const withAuth = withAuthFlags(command);
  // Declared on an untyped view, as in withAuthFlags: chained generic .option() types make
  // deno check slow; the result type is spelled out once instead.
  (withAuth as unknown as CommandUnknownOpts)
    .option("-q, --query <text|@file|@->", "the GraphQL document")
    .option("--variables <json|@file>", "variables, a JSON object")
    .option("--operation-name <name>", "the operation to run when the document holds several")
    .option("--schema", "introspect and print the schema as SDL")
    .option("--json", "with --schema: print the introspection result as JSON")
    .option("--refresh-schema", "with --schema: ignore the cached introspection result")
    .option("--no-validate", "do not validate the query against a cached schema")
    .option("--transport <http|ws|sse>", "how to send: POST (default), WebSocket or SSE", "http")
    .option("--init-payload <json>", "with --transport ws: the connection_init payload")
    .option("--max-results <n>", "stop a subscription after N results")
    .option("--timeout <seconds>", "limit the whole exchange (decimal seconds)")
    .option("--check-status", "exit 4/5 on HTTP 4xx/5xx, 10 when the response holds errors")
    .option("-i, --include", "print the status line and headers")
    .option("-v, --verbose", "print request and response heads to stderr (secrets redacted)")
    .option("-o, --output <file>", "write the results to a file");
  return (withAuth as unknown as Command<[string], GraphQLFlagValues>)
    .addHelpText("after", EXAMPLES)
    .action(async (url, flags) => {
      const { runGraphQL } = await import("./graphql_run.ts");
      context.exitCode = await runGraphQL(url, flags, context);
    });
}
