/**
 * `dial graphql` at run time: flags → a plan ({@link graphqlPlan}: endpoint and operation,
 * nothing sent) → send over HTTP, WebSocket or SSE → print results. Loaded only when the
 * command runs.
 * @module
 */
import { load } from "../load.ts";
import { isErrorStatus } from "../http/status.ts";
import { redactUrl } from "../redact_url.ts";
import { printSchema } from "graphql";
import {
  DialError,
  ErrorCode,
  ExitCode,
  NotGraphQLError,
  statusExitCode,
  UsageError,
} from "../errors/mod.ts";
import type { GraphQLResult } from "../graphql/envelope.ts";
import {
  type GraphQLEndpoint,
  type GraphQLRequest,
  graphqlRequestSpec,
  readResults,
} from "../graphql/http_client.ts";
import {
  cachedIntrospection,
  introspect,
  introspectionCacheDir,
  type IntrospectOptions,
} from "../graphql/introspection.ts";
import { schemaFromIntrospection } from "../graphql/schema_model.ts";
import { send as sendRequest } from "../http/send.ts";
import { formatGraphQLErrors, formatResult } from "../output/graphql_result.ts";
import { formatRequestHead, formatResponseHead } from "../output/http.ts";
import type { Framing } from "../http/wire.ts";
import { warn } from "../output/report.ts";
import { shown as shownOn, type Sink } from "../output/terminal.ts";
import { parseAuthFlags } from "./auth_flags.ts";
import type { CliContext } from "./context.ts";
import { checkOperation, readQuery, readVariables } from "./graphql_input.ts";
import type { GraphQLFlagValues } from "./graphql.ts";
import { parseUrl } from "../http/values.ts";
import { parseTransportFlags } from "./transport_flags.ts";
import { transportFetch, type TransportOptions } from "../http/client.ts";

/** What `dial graphql` does, decided from its flags before anything is sent. */
export type GraphQLPlan =
  | {
    /** `--schema`: introspect and print the schema (SDL, or JSON with `--json`). */
    mode: "schema";
    endpoint: GraphQLEndpoint;
  }
  | {
    /** `--query`: run one operation and print each result. */
    mode: "operation";
    endpoint: GraphQLEndpoint;
    request: GraphQLRequest;
    /** How the results come: over graphql-ws, SSE, an incremental stream, or one response. */
    transport: "ws" | "sse" | "stream" | "single";
    /** graphql-ws's connection_init payload. */
    initPayload?: Record<string, unknown>;
    /** What checking the operation found (unknown fields against a cached schema …). */
    warnings: string[];
  };

/**
 * Checks the flags, reads the operation and builds the endpoint: nothing is sent.
 *
 * @param urlText the endpoint URL
 * @param flags the flag values
 * @param context stdin and the environment (the query, variables and secret references)
 * @returns the plan
 */
export async function graphqlPlan(
  urlText: string,
  flags: GraphQLFlagValues,
  context: CliContext,
): Promise<GraphQLPlan> {
  const ws = flags.transport === "ws";
  const url = parseUrl(
    urlText,
    ws ? ["http:", "https:", "ws:", "wss:"] : ["http:", "https:"],
    true,
  );
  const auth = await parseAuthFlags(flags, url, context);
  const endpoint: GraphQLEndpoint = { url, auth: auth.auth, headers: auth.headers };
  if (flags.schema) {
    if (flags.query !== undefined) {
      throw new UsageError("Conflicting flags --schema and --query: give one");
    }
    if (ws) throw new UsageError("--schema introspects over HTTP: drop --transport ws");
    return { mode: "schema", endpoint };
  }
  if (flags.refreshSchema) throw new UsageError("--refresh-schema needs --schema");
  if (flags.query === undefined) {
    throw new UsageError("Missing --query", {
      hint: `dial graphql ${redactUrl(url)} -q '{ __typename }'  (or --schema to print the schema)`,
    });
  }
  const query = await readQuery(flags.query, context);
  const variables = flags.variables === undefined
    ? undefined
    : await readVariables(flags.variables);
  const initPayload = flags.initPayload === undefined
    ? undefined
    : await readVariables(flags.initPayload).catch(() => {
      throw new UsageError(`Invalid --init-payload: must be a JSON object`);
    });
  if (initPayload && !ws) throw new UsageError("--init-payload needs --transport ws");
  // Validate only against a schema already at hand (cached); never introspect just for that.
  const cached = flags.validate && !ws
    ? await cachedIntrospection(endpoint, { cacheDir: introspectionCacheDir(context.env) })
    : undefined;
  const operation = checkOperation(query, {
    ...(flags.operationName !== undefined ? { operationName: flags.operationName } : {}),
    ...(variables ? { variables } : {}),
    ...(cached ? { schema: schemaFromIntrospection(cached.data) } : {}),
  });
  return {
    mode: "operation",
    endpoint,
    request: {
      query,
      ...(variables ? { variables } : {}),
      ...(flags.operationName !== undefined ? { operationName: flags.operationName } : {}),
    },
    transport: ws
      ? "ws"
      : flags.transport === "sse"
      ? "sse"
      : operation.streams
      ? "stream"
      : "single",
    ...(initPayload ? { initPayload } : {}),
    warnings: operation.warnings.map((w) => w.message),
  };
}

/**
 * Runs `dial graphql`: the plan, then the schema or the operation's results printed.
 *
 * @param urlText the endpoint URL
 * @param flags the flag values
 * @param context exit code and Ctrl-C signal
 * @returns the exit code
 */
export async function runGraphQL(
  urlText: string,
  flags: GraphQLFlagValues,
  context: CliContext,
): Promise<number> {
  const plan = await graphqlPlan(urlText, flags, context);
  const transport = await parseTransportFlags(flags, context, flags.verbose);
  const signal = flags.timeout === undefined
    ? context.signal
    : AbortSignal.any([context.signal, AbortSignal.timeout(flags.timeout)]);
  using output = flags.output === undefined ? undefined : await openOutput(flags.output);
  const out = output?.sink ?? context.stdout;
  const err = context.stderr;
  const send = {
    signal,
    transport,
    fetch: transportFetch(transport),
    ...(flags.verbose
      ? {
        onRequest: (r: Parameters<typeof formatRequestHead>[0], framing: Framing) =>
          err.write(formatRequestHead(r, framing, err)),
        onResponse: (_r: unknown, response: Response) =>
          err.write(formatResponseHead(response, err, { trace: true })),
      }
      : {}),
  };
  if (plan.mode === "schema") {
    return await printSchemaOf(plan.endpoint, send, flags, { out, context });
  }
  // -s: the results and their errors only, no notes.
  const note = flags.silent ? async () => {} : async (text: string) => await warn(err, text);
  for (const warning of plan.warnings) await note(warning);
  const answer = await openResults(plan, send);
  if (flags.include && answer.response) await out.write(formatResponseHead(answer.response, out));
  const printed = await printResults(answer, {
    out,
    err,
    note,
    host: plan.endpoint.url.host,
    signal,
    context,
    ...(flags.maxResults !== undefined ? { maxResults: flags.maxResults } : {}),
  });
  if (printed === "interrupted" || context.signal.aborted) return ExitCode.Interrupted;
  if (!flags.checkStatus) return ExitCode.OK;
  if (printed === "errors") {
    if (!out.isTerminal) await note("The response holds GraphQL errors");
    return ExitCode.GraphQL;
  }
  return isErrorStatus(answer.status) ? statusExitCode(answer.status) : ExitCode.OK;
}

/** `--schema`: the endpoint's schema by introspection (cached), as SDL or `--json`. */
async function printSchemaOf(
  endpoint: GraphQLEndpoint,
  send: {
    signal: AbortSignal;
    fetch: typeof fetch;
    onRequest?: IntrospectOptions["onRequest"];
    onResponse?: IntrospectOptions["onResponse"];
  },
  flags: GraphQLFlagValues,
  where: { out: Sink; context: CliContext },
): Promise<number> {
  const { out, context } = where;
  const err = context.stderr;
  const signal = send.signal;
  const { onRequest, onResponse } = send;
  const result = await introspect(endpoint, {
    cacheDir: introspectionCacheDir(context.env),
    signal,
    fetch: send.fetch,
    ...(flags.refreshSchema ? { refresh: true } : {}),
    ...(onRequest && onResponse ? { onRequest, onResponse } : {}),
  });
  if (flags.verbose && result.cached) {
    await err.write(
      `(schema from the cache, fetched ${result.fetchedAt}; --refresh-schema refetches)\n`,
    );
  }
  await out.write(
    flags.json
      ? formatResult(
        { value: { data: result.data }, text: JSON.stringify({ data: result.data }), errors: [] },
        out.isTerminal,
        out.color,
      )
      : printSchema(schemaFromIntrospection(result.data)) + "\n",
  );
  return ExitCode.OK;
}

/** The results of an operation, with the HTTP response they came in (none over graphql-ws). */
interface Answer {
  results: AsyncGenerator<GraphQLResult>;
  status: number;
  statusText: string;
  response?: Response;
}

/** Sends the operation: over graphql-ws, or one HTTP exchange whose body holds the results. */
async function openResults(
  plan: Extract<GraphQLPlan, { mode: "operation" }>,
  send: {
    signal: AbortSignal;
    transport: TransportOptions;
    fetch: typeof fetch;
    onRequest?: (r: Parameters<typeof formatRequestHead>[0], framing: Framing) => Promise<void>;
    onResponse?: (r: unknown, response: Response) => Promise<void>;
  },
): Promise<Answer> {
  if (plan.transport === "ws") {
    const { subscribeWs } = await load.wsClient();
    const results = subscribeWs(plan.endpoint, plan.request, {
      signal: send.signal,
      transport: send.transport,
      ...(plan.initPayload ? { initPayload: plan.initPayload } : {}),
    });
    return { results, status: 200, statusText: "" };
  }
  const exchange = await sendRequest(
    graphqlRequestSpec(plan.endpoint, plan.request, plan.transport),
    {
      signal: send.signal,
      fetch: send.fetch,
      ...(send.onRequest ? { onRequest: send.onRequest } : {}),
      ...(send.onResponse ? { onResponse: send.onResponse } : {}),
    },
  );
  const { response } = exchange;
  return {
    results: readResults(response),
    status: response.status,
    statusText: response.statusText,
    response,
  };
}

/** Where and how results are printed. */
interface PrintOptions {
  out: Sink;
  err: Sink;
  note(text: string): Promise<void>;
  host: string;
  signal: AbortSignal;
  context: CliContext;
  maxResults?: number;
}

/**
 * Prints each result on `out` and its errors on `err`, as they arrive.
 *
 * @returns whether any result held errors, or the run was interrupted
 */
async function printResults(
  answer: Answer,
  options: PrintOptions,
): Promise<"ok" | "errors" | "interrupted"> {
  const { out, err, note, host, signal, context } = options;
  const { results, status, statusText } = answer;
  let count = 0;
  let withErrors = false;
  try {
    for await (const result of results) {
      count++;
      const shown = formatResult(result, out.isTerminal, out.color);
      // On a terminal, control characters the server put in strings are shown escaped.
      await out.write(shownOn(out, shown, out.color));
      if (result.errors.length > 0) {
        // A refusal names its status, even when its body is a GraphQL envelope (400 is how
        // GraphQL over HTTP reports a bad document: its errors say it all).
        if (!withErrors && isErrorStatus(status) && status !== 400) {
          await note(`${host} answered HTTP ${status} ${statusText}`.trimEnd());
        }
        withErrors = true;
        const lines = formatGraphQLErrors(result.errors, err.color);
        await err.write(shownOn(err, lines, err.color));
      }
      if (options.maxResults !== undefined && count >= options.maxResults) break;
    }
  } catch (error) {
    if (signal.aborted && context.signal.aborted) return "interrupted";
    if (error instanceof NotGraphQLError) {
      const refused = isErrorStatus(status) && !error.message.startsWith("HTTP ")
        ? `HTTP ${status} ${statusText}`.trimEnd() + ": "
        : "";
      throw new DialError(
        `Not a GraphQL response from ${host}: ${refused}${error.message}`,
        ErrorCode.NotGraphQL,
        {
          details: { status },
          ...(status === 401 || status === 403 ? { remedy: { check: "credentials" } } : {}),
        },
      );
    }
    if (signal.aborted && !context.signal.aborted) {
      throw new DialError(`Timed out waiting for ${host}`, ErrorCode.Timeout);
    }
    throw error;
  } finally {
    await results.return(undefined);
  }
  return withErrors ? "errors" : "ok";
}

async function openOutput(path: string): Promise<{ sink: Sink; [Symbol.dispose](): void }> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, create: true, truncate: true });
  } catch (error) {
    throw new DialError(
      `Cannot write output file "${path}": ${error instanceof Error ? error.message : error}`,
      ErrorCode.Output,
    );
  }
  const encoder = new TextEncoder();
  const sink: Sink = {
    isTerminal: false,
    color: false,
    async write(data) {
      let bytes = typeof data === "string" ? encoder.encode(data) : data;
      while (bytes.length > 0) bytes = bytes.subarray(await file.write(bytes));
    },
  };
  return { sink, [Symbol.dispose]: () => file.close() };
}
