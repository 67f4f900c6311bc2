/**
 * A GraphQL server for UI tests: graphql-yoga serving GitHub's public schema
 * (`@octokit/graphql-schema`) with mocked resolvers (`@graphql-tools/mock`), plus a
 * `Subscription.ticks` field so a POST subscription can stream, behind an auth gate.
 * @module
 */
import { extendSchema, type GraphQLSchema, parse } from "graphql";
import { addMocksToSchema } from "@graphql-tools/mock";
import { serve, type TestServer, withoutServeSignal } from "../_helpers.ts";
import { schemaFromIntrospection } from "../../src/graphql/schema_model.ts";
import { githubIntrospection } from "../unit/graphql/_github.ts";

// Imported through a variable so `deno check` skips its declarations: graphql-yoga's pull in
// the DOM library, which clashes with Deno's types.
const YOGA = "graphql-yoga";

function isRecord(value: unknown): value is Record<string, unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

/** A graphql-yoga server as a fetch handler. */
async function yogaHandler(
  schema: GraphQLSchema,
): Promise<(request: Request) => Promise<Response>> {
  const module: unknown = await import(YOGA);
  if (!isRecord(module) || typeof module.createYoga !== "function") {
    throw new Error(`${YOGA} does not export createYoga`);
  }
  const yoga: unknown = module.createYoga({ schema, logging: false, graphiql: false });
  if (!isRecord(yoga) || typeof yoga.fetch !== "function") throw new Error("yoga has no fetch");
  const handle = yoga.fetch;
  return async (request) => {
    const response: unknown = await handle.call(yoga, withoutServeSignal(request));
    if (!(response instanceof Response)) throw new Error("yoga did not answer with a Response");
    return response;
  };
}

let schema: GraphQLSchema | undefined;

async function githubSchema(): Promise<GraphQLSchema> {
  if (schema) return schema;
  const client = schemaFromIntrospection(await githubIntrospection());
  const extended = extendSchema(
    client,
    parse(`
      "Test-only: counts up, one result per tick."
      type Subscription { ticks(count: Int = 3): Int! }
      extend schema { subscription: Subscription }
    `),
  );
  const mocked = addMocksToSchema({
    schema: extended,
    mocks: { URI: () => "https://example.com/", DateTime: () => "2026-01-01T00:00:00Z" },
  });
  const ticks = mocked.getSubscriptionType()!.getFields().ticks!;
  ticks.subscribe = async function* (_root: unknown, args: { count?: number }) {
    for (let i = 1; i <= (args.count ?? 3); i++) {
      await new Promise((r) => setTimeout(r, 30));
      yield { ticks: i };
    }
  };
  ticks.resolve = (value: { ticks: number }) => value.ticks;
  return schema = mocked;
}

/** A running GraphQL test server. */
export interface GraphqlServer extends TestServer {
  /** `<origin>/graphql` */
  endpoint: string;
  /** How many introspection queries arrived. */
  introspections(): number;
}

/**
 * Starts the server. `gate` decides per request whether it is authorized (401 otherwise).
 *
 * @param gate e.g. `(r) => r.headers.get("authorization") === "Bearer t"`
 * @returns the server
 */
export async function startGraphqlServer(
  gate: (request: Request) => boolean = () => true,
): Promise<GraphqlServer> {
  const yoga = await yogaHandler(await githubSchema());
  let introspections = 0;
  const server = serve(async (request) => {
    if (!gate(request)) {
      return Response.json({ errors: [{ message: "Unauthorized" }] }, { status: 401 });
    }
    const text = await request.clone().text();
    if (text.includes("IntrospectionQuery")) introspections++;
    return await yoga(request);
  });
  return { ...server, endpoint: `${server.origin}/graphql`, introspections: () => introspections };
}
