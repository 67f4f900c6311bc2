/**
 * GraphQL servers for end-to-end tests, on 127.0.0.1 port 0, behind auth: graphql-yoga
 * serving GitHub's schema with mocks, and a small schema with a Subscription type served
 * over POST (event stream, multipart) and graphql-ws (`makeServer` + Deno.upgradeWebSocket),
 * and yoga with `@defer` / `@stream` (`@graphql-yoga/plugin-defer-stream`).
 * @module
 */
import { addMocksToSchema } from "@graphql-tools/mock";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { makeServer } from "graphql-ws";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { serve, type TestServer, withoutServeSignal } from "../_helpers.ts";
import { githubIntrospection } from "../unit/graphql/_github.ts";

// graphql-yoga's declarations pull in the DOM library, which changes the types of WebSocket
// and streams for every module checked with them; it is imported untyped instead.
const YOGA = "graphql-yoga";
const yogaModule: unknown = await import(YOGA);
const DEFER_STREAM = "@graphql-yoga/plugin-defer-stream";

function yogaFunction(name: string): (options: unknown) => unknown {
  if (typeof yogaModule !== "object" || yogaModule === null || !(name in yogaModule)) {
    throw new Error(`graphql-yoga has no ${name}`);
  }
  const fn: unknown = Reflect.get(yogaModule, name);
  if (typeof fn !== "function") throw new Error(`graphql-yoga's ${name} is not a function`);
  return (options) => fn(options);
}

/** A yoga server: a fetch handler. */
function createYoga(
  options: Record<string, unknown>,
): { fetch(request: Request): Promise<Response> } {
  const yoga = yogaFunction("createYoga")(options);
  if (typeof yoga !== "object" && typeof yoga !== "function" || yoga === null) {
    throw new Error("createYoga returned no server");
  }
  const fetchFn: unknown = Reflect.get(yoga, "fetch");
  if (typeof fetchFn !== "function") throw new Error("createYoga returned no fetch handler");
  return {
    fetch: async (request) => {
      const response: unknown = await fetchFn.call(yoga, withoutServeSignal(request));
      if (!(response instanceof Response)) throw new Error("yoga answered no Response");
      return response;
    },
  };
}

/** Which credential the server demands. */
export type ServerAuth =
  | { kind: "none" }
  | { kind: "bearer"; token: string }
  | { kind: "header"; name: string; value: string }
  | { kind: "query"; name: string; value: string }
  | { kind: "check"; check: (request: Request) => boolean };

function authorized(request: Request, auth: ServerAuth): boolean {
  switch (auth.kind) {
    case "none":
      return true;
    case "bearer":
      return request.headers.get("authorization") === `Bearer ${auth.token}`;
    case "header":
      return request.headers.get(auth.name) === auth.value;
    case "query":
      return new URL(request.url).searchParams.get(auth.name) === auth.value;
    case "check":
      return auth.check(request);
  }
}

let github: GraphQLSchema | undefined;

/**
 * @param auth the credential demanded
 * @returns yoga serving GitHub's schema with mocked data at /graphql
 */
export async function githubServer(auth: ServerAuth): Promise<TestServer> {
  github ??= addMocksToSchema({
    schema: buildClientSchema(await githubIntrospection() as IntrospectionQuery),
    mocks: { String: () => "mocked", Int: () => 42, DateTime: () => "2026-01-01T00:00:00Z" },
  });
  const yoga = createYoga({ schema: github, logging: false, graphiql: false });
  return serve((request) =>
    authorized(request, auth)
      ? yoga.fetch(request)
      : new Response("missing or wrong credentials", { status: 401 })
  );
}

const SMALL = makeExecutableSchema({
  typeDefs: `
    type Query { hello(name: String!): String! }
    type Subscription { countdown(from: Int!): Int! }
  `,
  resolvers: {
    Query: { hello: (_: unknown, args: { name: string }) => `hello ${args.name}` },
    Subscription: {
      countdown: {
        subscribe: async function* (_: unknown, args: { from: number }) {
          for (let i = args.from; i >= 0; i--) {
            yield { countdown: i };
            await new Promise((r) => setTimeout(r, 5));
          }
        },
      },
    },
  },
});

/** A running subscription server and what it saw over WebSocket. */
export interface SubscriptionServer extends TestServer {
  /** connection_init payloads received over WebSocket. */
  initPayloads: unknown[];
  /** Close codes of the WebSockets that ended. */
  closes: number[];
}

/**
 * @param auth the credential demanded (on POSTs and on the WebSocket handshake)
 * @returns yoga over POST at /graphql, graphql-ws on WebSocket upgrades of /graphql
 */
export function subscriptionServer(auth: ServerAuth): SubscriptionServer {
  const yoga = createYoga({ schema: SMALL, logging: false, graphiql: false });
  const initPayloads: unknown[] = [];
  const closes: number[] = [];
  const wsServer = makeServer({
    schema: SMALL,
    onConnect: (ctx) => {
      initPayloads.push(ctx.connectionParams);
      return true;
    },
  });
  const server = serve((request) => {
    if (!authorized(request, auth)) return new Response("no", { status: 401 });
    if (request.headers.get("upgrade") !== "websocket") return yoga.fetch(request);
    const protocol = "graphql-transport-ws";
    const { socket, response } = Deno.upgradeWebSocket(request, { protocol });
    socket.addEventListener("open", () => {
      let onMessage: ((data: string) => Promise<void>) | undefined;
      const closed = wsServer.opened({
        // Deno leaves socket.protocol empty on the server side: pass the negotiated one.
        protocol,
        send: (data) => socket.send(data),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) => {
          onMessage = cb;
        },
      }, { socket });
      socket.addEventListener("message", (e) => void onMessage?.(String(e.data)));
      socket.addEventListener("close", (e) => {
        closes.push(e.code);
        void closed(e.code, e.reason);
      });
    });
    return response;
  });
  return Object.assign(server, { initPayloads, closes });
}

/**
 * @param auth the credential demanded
 * @returns yoga with `@defer` and `@stream` at /graphql: `fast` answers at once, `slow` after
 * 20 ms, `numbers` is a list of 3
 */
export async function deferServer(auth: ServerAuth): Promise<TestServer> {
  const plugin: unknown = await import(DEFER_STREAM);
  const useDeferStream = typeof plugin === "object" && plugin !== null
    ? Reflect.get(plugin, "useDeferStream")
    : undefined;
  if (typeof useDeferStream !== "function") {
    throw new Error(`${DEFER_STREAM} has no useDeferStream`);
  }
  const schema = makeExecutableSchema({
    typeDefs: "type Query { fast: String!, slow: String!, numbers: [Int!]! }",
    resolvers: {
      Query: {
        fast: () => "now",
        slow: async () => {
          await new Promise((r) => setTimeout(r, 20));
          return "later";
        },
        numbers: () => [1, 2, 3],
      },
    },
  });
  const yoga = createYoga({
    schema,
    plugins: [useDeferStream()],
    logging: false,
    graphiql: false,
  });
  return serve((request) =>
    authorized(request, auth)
      ? yoga.fetch(request)
      : new Response("missing or wrong credentials", { status: 401 })
  );
}
