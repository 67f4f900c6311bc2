/**
 * `dial graphql` at run time: flags → endpoint and operation → send over HTTP, WebSocket or
 * SSE → print results. Loaded only when the command runs.
 * @module
 */
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
import { type GraphQLEndpoint, graphqlRequestSpec, readResults } from "../graphql/http_client.ts";
import {
  cachedIntrospection,
  introspect,
  introspectionCacheDir,
} from "../graphql/introspection.ts";
import { schemaFromIntrospection } from "../graphql/schema_model.ts";
import { send } from "../http/send.ts";
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
import { transportFetch } from "../http/client.ts";

/**
 * Runs `dial graphql`.
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
  const ws = flags.transport === "ws";
  const url = parseUrl(
    urlText,
    ws ? ["http:", "https:", "ws:", "wss:"] : ["http:", "https:"],
    true,
  );
  const auth = await parseAuthFlags(flags, url, context);
  const endpoint: GraphQLEndpoint = { url, auth: auth.auth, headers: auth.headers };
  const transport = await parseTransportFlags(flags, context, flags.verbose);
  const fetch = transportFetch(transport);
  const { timeout, maxResults } = flags;
  const signal = timeout === undefined
    ? context.signal
    : AbortSignal.any([context.signal, AbortSignal.timeout(timeout)]);
  using output = flags.output === undefined ? undefined : await openOutput(flags.output);
  const out = output?.sink ?? context.stdout;
  const err = context.stderr;
  const cacheDir = introspectionCacheDir(context.env);
  const observe = flags.verbose
    ? {
      onRequest: (r: Parameters<typeof formatRequestHead>[0], framing: Framing) =>
        err.write(formatRequestHead(r, framing, err)),
      onResponse: (_r: unknown, response: Response) =>
        err.write(formatResponseHead(response, err, { trace: true })),
    }
    : {};

  if (flags.schema) {
    if (flags.query !== undefined) {
      throw new UsageError("Conflicting flags --schema and --query: give one");
    }
    if (ws) throw new UsageError("--schema introspects over HTTP: drop --transport ws");
    const result = await introspect(endpoint, {
      cacheDir,
      signal,
      fetch,
      ...(flags.refreshSchema ? { refresh: true } : {}),
      ...observe,
    });
    if (flags.verbose && result.cached) {
      await err.write(
        `(schema from the cache, fetched ${result.fetchedAt}; --refresh-schema refetches)\n`,
      );
    }
    if (flags.json) {
      const text = JSON.stringify({ data: result.data });
      await out.write(
        formatResult({ value: { data: result.data }, text, errors: [] }, out.isTerminal, out.color),
      );
    } else {
      await out.write(printSchema(schemaFromIntrospection(result.data)) + "\n");
    }
    return ExitCode.OK;
  }
  if (flags.refreshSchema) {
    throw new UsageError("--refresh-schema needs --schema");
  }
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
  let schema;
  if (flags.validate && !ws) {
    // Validate only against a schema already at hand (cached); never introspect just for that.
    const cached = await cachedIntrospection(endpoint, { cacheDir });
    schema = cached ? schemaFromIntrospection(cached.data) : undefined;
  }
  const operation = checkOperation(query, {
    ...(flags.operationName !== undefined ? { operationName: flags.operationName } : {}),
    ...(variables ? { variables } : {}),
    ...(schema ? { schema } : {}),
  });
  // -s: the results and their errors only, no notes.
  const note = flags.silent ? async () => {} : async (text: string) => await warn(err, text);
  for (const warning of operation.warnings) await note(warning.message);
  const request = {
    query,
    ...(variables ? { variables } : {}),
    ...(flags.operationName !== undefined ? { operationName: flags.operationName } : {}),
  };

  let results: AsyncGenerator<GraphQLResult>;
  let status = 200;
  let statusText = "";
  if (ws) {
    const { subscribeWs } = await import("../graphql/ws_client.ts");
    results = subscribeWs(endpoint, request, {
      signal,
      transport,
      ...(initPayload ? { initPayload } : {}),
    });
  } else {
    const kind = flags.transport === "sse" ? "sse" : operation.streams ? "stream" : "single";
    const exchange = await send(graphqlRequestSpec(endpoint, request, kind), {
      signal,
      fetch,
      ...observe,
    });
    status = exchange.response.status;
    statusText = exchange.response.statusText;
    if (flags.include) await out.write(formatResponseHead(exchange.response, out));
    results = readResults(exchange.response);
  }
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
          await note(`${url.host} answered HTTP ${status} ${statusText}`.trimEnd());
        }
        withErrors = true;
        const lines = formatGraphQLErrors(result.errors, err.color);
        await err.write(shownOn(err, lines, err.color));
      }
      if (maxResults !== undefined && count >= maxResults) break;
    }
  } catch (error) {
    if (signal.aborted && context.signal.aborted) return ExitCode.Interrupted;
    if (error instanceof NotGraphQLError) {
      const refused = isErrorStatus(status) && !error.message.startsWith("HTTP ")
        ? `HTTP ${status} ${statusText}`.trimEnd() + ": "
        : "";
      throw new DialError(
        `Not a GraphQL response from ${url.host}: ${refused}${error.message}`,
        ErrorCode.NotGraphQL,
        {
          details: { status },
          ...(status === 401 || status === 403 ? { remedy: { check: "credentials" } } : {}),
        },
      );
    }
    if (signal.aborted && !context.signal.aborted) {
      throw new DialError(`Timed out waiting for ${url.host}`, ErrorCode.Timeout);
    }
    throw error;
  } finally {
    await results.return(undefined);
  }
  if (context.signal.aborted) return ExitCode.Interrupted;
  if (!flags.checkStatus) return ExitCode.OK;
  if (withErrors) {
    if (!out.isTerminal) await note("The response holds GraphQL errors");
    return ExitCode.GraphQL;
  }
  return isErrorStatus(status) ? statusExitCode(status) : ExitCode.OK;
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
