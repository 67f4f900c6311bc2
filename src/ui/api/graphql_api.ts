/**
 * The GraphQL tab's endpoints: introspection and running operations with the GraphQL
 * module (`introspect`, `graphqlRequestSpec`, `readResults`) over {@link send}, with the
 * configured auth (so OAuth tokens are refreshed before expiry and once on a 401, exactly as
 * for the CLI). Results go back to the browser as NDJSON so a subscription's results stream
 * into the viewer.
 * @module
 */
import { load } from "../../load.ts";
import { UsageError } from "../../errors/mod.ts";
import { parseDocument } from "../../graphql/document.ts";
import {
  OperationProblemCode,
  operationProblemMessage,
  type SelectedOperation,
  selectOperation,
} from "../../graphql/operation.ts";
import {
  type GraphQLEndpoint,
  graphqlRequestSpec,
  readResults,
} from "../../graphql/http_client.ts";
import { send } from "../../http/send.ts";
import { responseHeaders } from "../../http/wire.ts";
import type { GraphQLResult } from "../../graphql/envelope.ts";
import { subscribeWs } from "../../graphql/ws_client.ts";
import { parseUrl } from "../../http/values.ts";
import { type JsonObject, object, optionalString, readJson, string } from "./decode.ts";
import { ndjsonResponse, timeoutOf } from "./ndjson.ts";
import {
  GRAPHQL_TRANSPORTS,
  type GraphqlRunEvent,
  type GraphqlSchemaEvent,
  type GraphQLTransport,
} from "../protocol.ts";
import { type ApiContext, describeResponse } from "./http_api.ts";
import { parseUiAuthAndHeaders } from "./spec_json.ts";
import { authTokenOptions, substituteRows, substitutionFor } from "./environment_api.ts";
import { parseJsonText } from "../../http/values.ts";
import { isObject } from "./decode.ts";
import { evaluateFileRequest, runFileRequest } from "./file_send.ts";

/**
 * The `{{variables}}` of a GraphQL-tab call replaced, as `dial run` replaces them in a
 * `GRAPHQL` request: the URL, headers, query and variables. Variables the page could not parse
 * as JSON (`{"first": {{pageSize}}}`) come as `variablesText` and are parsed after.
 */
async function substituted(json: JsonObject, context: ApiContext): Promise<JsonObject> {
  if (!JSON.stringify(json).includes("{{")) return json;
  const sub = await substitutionFor(json, context.workspace, authTokenOptions(context));
  const deep = (value: unknown): unknown =>
    typeof value === "string"
      ? sub(value, "the variables")
      : Array.isArray(value)
      ? value.map(deep)
      : isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]))
      : value;
  const variablesText = optionalString(json.variablesText, "variablesText");
  return {
    ...json,
    url: typeof json.url === "string" ? sub(json.url, "the URL") : json.url,
    headers: substituteRows(json.headers, "header", sub),
    ...(typeof json.query === "string" ? { query: sub(json.query, "the query") } : {}),
    ...(variablesText !== undefined
      ? {
        variables: parseJsonText(sub(variablesText, "the variables"), "variables"),
        variablesText: undefined,
      }
      : json.variables !== undefined
      ? { variables: deep(json.variables) }
      : {}),
  } as JsonObject;
}

/**
 * A GraphQL-tab call: its endpoint (URL, auth, headers), and the call with its query and
 * variables. A request of a workspace file (`fromFile`) is evaluated as `dial run` evaluates
 * it (dependencies, pre-request scripts, the whole scope); any other is the tab's, its
 * `{{variables}}` from the environment, its endpoint built as the CLI builds it from flags.
 */
async function callOf(
  json: JsonObject,
  context: ApiContext,
): Promise<{ json: JsonObject; endpoint: GraphQLEndpoint; builtAccept?: boolean }> {
  // A reloaded page's cached schema never evaluates (that would run the dependencies).
  if (isObject(json.fromFile) && json.cachedOnly !== true) {
    // Its dependencies' requests are bounded by the tab's timeout, as the call is.
    const timeoutMs = timeoutOf(json.timeoutMs);
    const signals = [context.signal, ...(timeoutMs > 0 ? [AbortSignal.timeout(timeoutMs)] : [])];
    const built = await evaluateFileRequest(json.fromFile, {
      ...context,
      signal: AbortSignal.any(signals),
    });
    const { query = "", variables } = built.graphql ?? {};
    return {
      json: { ...json, query, variables } as JsonObject,
      endpoint: { url: built.spec.url, auth: built.spec.auth, headers: built.spec.headers },
      // The file's builder added an Accept for one JSON answer (the request had none).
      builtAccept: !built.request.headers.some((h) => h.name.toLowerCase() === "accept"),
    };
  }
  const substitutedJson = await substituted(json, context);
  const url = parseUrl(string(substitutedJson.url ?? "", "url").trim(), undefined, true);
  return {
    json: substitutedJson,
    endpoint: { url, ...parseUiAuthAndHeaders(substitutedJson, context.oauth) },
  };
}

/**
 * `POST /api/graphql/schema`: introspects the endpoint with the configured auth (with
 * `cachedOnly`: only the cached introspection, `null` when there is none).
 *
 * @param request `{url, headers, auth}`
 * @param context signal, fetch, OAuth settings, introspection cache
 * @returns NDJSON: `{type: "schema", introspection, from}` (the `data` of the introspection
 * result; `from`: the resolved endpoint's origin, what the tab names) or `{type: "error", error}`
 */
export async function handleGraphqlSchema(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { json, endpoint } = await callOf(object(await readJson(request), "request"), context);
  // The CLI's `--schema` introspection: a click on Load schema asks the endpoint again and
  // refreshes the per-credential cache.
  const { cachedIntrospection, introspect } = await load.introspection();
  if (json.cachedOnly === true) {
    // A reloaded page shows the schema it had, from the cache, without asking the endpoint.
    const cached = await cachedIntrospection(endpoint, {
      ...(context.graphqlCacheDir !== undefined ? { cacheDir: context.graphqlCacheDir } : {}),
    });
    return ndjsonResponse<GraphqlSchemaEvent>(({ emit }) => {
      emit({ type: "schema", introspection: cached?.data ?? null, from: endpoint.url.origin });
      return Promise.resolve();
    }, { signal: context.signal });
  }
  return ndjsonResponse<GraphqlSchemaEvent>(async ({ emit, signal }) => {
    const result = await introspect(endpoint, {
      refresh: true,
      follow: true,
      signal,
      ...(context.fetch ? { fetch: context.fetch } : {}),
      ...(context.graphqlCacheDir !== undefined ? { cacheDir: context.graphqlCacheDir } : {}),
    });
    emit({ type: "schema", introspection: result.data, from: endpoint.url.origin });
  }, { signal: context.signal, timeoutMs: timeoutOf(json.timeoutMs) });
}

function transportOf(value: unknown): GraphQLTransport {
  if (value === undefined) return "http";
  const found = GRAPHQL_TRANSPORTS.find((t) => t === value);
  if (found) return found;
  throw new UsageError(
    `Unknown transport ${
      JSON.stringify(value)
    }: use "http" (one POST), "ws" (WebSocket) or "sse" (GraphQL over SSE)`,
  );
}

/**
 * Picks and checks the operation with the core (`selectOperation`), as `dial graphql` does;
 * problems are worded for the tab.
 *
 * @param query the document text
 * @param operationName the Operation picker's choice
 * @returns the operation that runs
 * @throws {UsageError} when the document does not parse or names no operation to run
 */
function checkedOperation(query: string, operationName: string | undefined): SelectedOperation {
  const parsed = parseDocument(query);
  if (!parsed.ok) {
    throw new UsageError(
      `Invalid query: ${parsed.error.message} (line ${parsed.error.line}, column ${parsed.error.column})`,
    );
  }
  const selected = selectOperation(
    parsed.document,
    operationName === undefined ? {} : {
      operationName,
    },
  );
  if (selected.ok) return selected.operation;
  const { problem } = selected;
  throw new UsageError(
    operationProblemMessage(problem),
    problem.code === OperationProblemCode.OperationNameNeeded ||
      problem.code === OperationProblemCode.UnknownOperation
      ? { hint: "choose one with the Operation picker" }
      : {},
  );
}

/**
 * `POST /api/graphql/run`: sends one operation as one POST. The answer is NDJSON: `head`
 * (status), one `result` per GraphQL result (a subscription, or a query with `@defer` or
 * `@stream`, answered as an event stream or multipart body yields many), then `end` (time,
 * size) or `error`.
 *
 * With `transport` "ws" the operation runs over graphql-transport-ws instead, with "sse" as
 * GraphQL over SSE (a POST accepting only an event stream); "http" (the default) sends one
 * POST accepting JSON, and also an event stream or multipart when the operation streams.
 *
 * @param request `{url, headers, auth, query, variables, operationName, transport}`
 * @param context signal, fetch, OAuth settings
 * @returns the NDJSON stream
 */
export async function handleGraphqlRun(request: Request, context: ApiContext): Promise<Response> {
  const asked = object(await readJson(request), "request");
  if (isObject(asked.fromFile) && oneAnswer(asked)) return runFromFile(asked, context);
  const { json, endpoint, builtAccept } = await callOf(asked, context);
  const transport = transportOf(json.transport);
  const query = string(json.query ?? "", "query");
  const operationName = optionalString(json.operationName, "operationName");
  // A file's request without variables sends none, as `dial run` does.
  const variables = json.variables === undefined ? undefined : object(json.variables, "variables");
  const operation = checkedOperation(query, operationName);
  const operationRequest = {
    query,
    ...(variables ? { variables } : {}),
    ...(operationName !== undefined ? { operationName } : {}),
  };
  // Subscriptions run until the page stops them; only the wait for an answer is limited.
  const timeoutMs = operation.kind === "subscription" && json.timeoutMs === undefined
    ? 0
    : timeoutOf(json.timeoutMs);
  return ndjsonResponse<GraphqlRunEvent>(async ({ emit, signal }) => {
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const encoder = new TextEncoder();
    let size = 0;
    let results: AsyncGenerator<GraphQLResult>;
    let head: GraphqlRunEvent | undefined;
    if (transport === "ws") {
      results = subscribeWs(endpoint, operationRequest, {
        signal,
        ...(context.fetch ? { fetch: context.fetch } : {}),
        ...(context.transport ? { transport: context.transport } : {}),
      });
    } else {
      const kind = transport === "sse" ? "sse" : operation.streams ? "stream" : "single";
      // A streamed answer asks with its own Accept, not the one-answer one of a file's builder.
      const asked = builtAccept && kind !== "single"
        ? {
          ...endpoint,
          headers: endpoint.headers.filter((h) => h.name.toLowerCase() !== "accept"),
        }
        : endpoint;
      const { response } = await send(graphqlRequestSpec(asked, operationRequest, kind), {
        follow: true,
        signal,
        ...(context.fetch ? { fetch: context.fetch } : {}),
      });
      // Counted on the way through, for the viewer's size.
      const counted = new Response(
        response.body?.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, out) {
              size += chunk.length;
              out.enqueue(chunk);
            },
          }),
        ) ?? null,
        { status: response.status, headers: response.headers },
      );
      emit({
        type: "head",
        status: response.status,
        statusText: response.statusText,
        headers: responseHeaders(response),
      });
      results = readResults(counted);
    }
    // WebSocket does not expose the handshake's status: 101 is shown once the socket works.
    if (transport === "ws") {
      head = { type: "head", status: 101, statusText: "Switching Protocols", headers: [] };
    }
    try {
      for await (const result of results) {
        if (transport === "ws") size += encoder.encode(result.text).length;
        if (head) emit(head);
        head = undefined;
        emit({ type: "result", text: result.text, timeMs: elapsed(), size });
      }
      if (head) emit(head);
      emit({ type: "end", timeMs: elapsed(), size });
    } finally {
      await results.return(undefined).catch(() => {});
    }
  }, { signal: context.signal, timeoutMs });
}

/**
 * Whether a call is one POST with one answer, as `dial run` sends a file's GRAPHQL request: a
 * query or mutation without `@defer`/`@stream`, the document's only operation (the file's
 * request names none).
 */
function oneAnswer(json: JsonObject): boolean {
  if (json.operationName !== undefined || transportOf(json.transport) !== "http") return false;
  const operation = checkedOperation(string(json.query ?? "", "query"), undefined);
  return operation.kind !== "subscription" && !operation.streams;
}

/**
 * A GraphQL tab's query of a workspace file, run whole as `dial run` runs it: the named
 * requests it refers to first (`ran`), the POST, its handlers' log lines and tests (`tests`).
 *
 * @param json the call, with `fromFile`
 * @param context the workspace, its session, fetch and signal
 * @returns NDJSON {@link GraphqlRunEvent}s
 */
function runFromFile(json: JsonObject, context: ApiContext): Response {
  const timeoutMs = timeoutOf(json.timeoutMs);
  return ndjsonResponse<GraphqlRunEvent>(async ({ emit, signal }) => {
    const tab = { context, signal, timeoutMs };
    await runFileRequest(object(json.fromFile, "fromFile"), {
      ...tab,
      emit: (event) => {
        if (event.type === "ran" || event.type === "log") emit(event);
        else if (event.type === "result") emit({ ...event, type: "tests" });
      },
    }, async (exchange, started) => {
      const answer = await describeResponse(exchange, started, context);
      emit({
        type: "head",
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
      if (answer.body !== undefined) {
        emit({ type: "result", text: answer.body, timeMs: answer.timeMs, size: answer.size });
      }
      emit({ type: "end", timeMs: answer.timeMs, size: answer.size });
    });
  }, { signal: context.signal, timeoutMs: 0 });
}
