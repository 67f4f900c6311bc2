/**
 * The GraphQL tab's endpoints: introspection and running operations, both through
 * {@link send} with the configured auth (so OAuth tokens are refreshed before expiry and once
 * on a 401, exactly as for the CLI). Results go back to the browser as NDJSON so a
 * subscription's results stream into the viewer.
 * @module
 */
import { DialError, ExitCode, UsageError } from "../../errors.ts";
import { operationsOf, parseDocument } from "../../graphql/document.ts";
import type { RequestSpec } from "../../http/spec.ts";
import { send } from "../../http/send.ts";
import { readEventStream } from "../../stream/read_event_stream.ts";
import { isObject, object, optionalString, readJson, string } from "./decode.ts";
import { type ApiContext, readLimited } from "./http_api.ts";
import { parseUiAuth, parseUiHeaders } from "./spec_json.ts";
import { parseUrl } from "../../cli/values.ts";

const MAX_RESULT = 50 * 1024 * 1024;
const JSON_ACCEPT = "application/graphql-response+json, application/json;q=0.9";
const STREAM_ACCEPT = "text/event-stream, application/graphql-response+json;q=0.9, " +
  "application/json;q=0.8";

/** Builds the POST the GraphQL tab sends: endpoint, headers, auth, JSON body. */
function graphqlSpec(
  json: Readonly<Record<string, unknown>>,
  body: unknown,
  accept: string,
  context: ApiContext,
): RequestSpec {
  const url = parseUrl(string(json.url ?? "", "url").trim());
  const { auth, headers: authHeaders } = parseUiAuth(json.auth, context.oauth);
  const headers = [...authHeaders, ...parseUiHeaders(json.headers)];
  if (!headers.some((h) => h.name.toLowerCase() === "accept")) {
    headers.push({ name: "Accept", value: accept });
  }
  return {
    method: "POST",
    url,
    headers,
    auth,
    body: { kind: "text", text: JSON.stringify(body), contentType: "application/json" },
  };
}

/**
 * `POST /api/graphql/schema`: introspects the endpoint with the configured auth.
 *
 * @param request `{url, headers, auth}`
 * @param context signal, fetch, OAuth settings
 * @returns `{introspection}`, the `data` of the introspection result
 */
export async function handleGraphqlSchema(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const json = object(await readJson(request), "request");
  const url = parseUrl(string(json.url ?? "", "url").trim());
  const { auth, headers: authHeaders } = parseUiAuth(json.auth, context.oauth);
  const headers = [...authHeaders, ...parseUiHeaders(json.headers)];
  // The GraphQL module's introspection (the CLI's `--schema`): a click on Load schema asks
  // the endpoint again and refreshes the per-credential cache.
  const { introspect } = await import("../../graphql/introspection.ts");
  const result = await introspect({ url, auth, headers }, {
    refresh: true,
    follow: true,
    signal: context.signal,
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.graphqlCacheDir !== undefined ? { cacheDir: context.graphqlCacheDir } : {}),
  });
  return Response.json({ introspection: result.data });
}

/**
 * `POST /api/graphql/run`: sends one operation as one POST. The answer is NDJSON: `head`
 * (status), one `result` per GraphQL result (a subscription answered as an event stream
 * yields many), then `end` (time, size) or `error`.
 *
 * @param request `{url, headers, auth, query, variables, operationName}`
 * @param context signal, fetch, OAuth settings
 * @returns the NDJSON stream
 */
export async function handleGraphqlRun(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const query = string(json.query ?? "", "query");
  const operationName = optionalString(json.operationName, "operationName");
  const variables = json.variables === undefined ? {} : object(json.variables, "variables");
  const parsed = parseDocument(query);
  if (!parsed.ok) {
    throw new UsageError(
      `Invalid query: ${parsed.error.message} (line ${parsed.error.line}, column ${parsed.error.column})`,
    );
  }
  const operations = operationsOf(parsed.document);
  const operation = operationName === undefined
    ? operations[0]
    : operations.find((o) => o.name?.value === operationName);
  if (!operation) {
    throw new UsageError(
      operationName === undefined
        ? "The query holds no operation"
        : `No operation named "${operationName}" in the query`,
    );
  }
  const accept = operation.operation === "subscription" ? STREAM_ACCEPT : JSON_ACCEPT;
  const spec = graphqlSpec(
    json,
    {
      query,
      variables,
      ...(operationName !== undefined ? { operationName } : {}),
    },
    accept,
    context,
  );
  const abort = new AbortController();
  const signal = AbortSignal.any([context.signal, abort.signal]);
  const started = performance.now();
  const { response } = await send(spec, {
    follow: true,
    signal,
    ...(context.fetch ? { fetch: context.fetch } : {}),
  });
  const encoder = new TextEncoder();
  let size = 0;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const emit = (value: Record<string, unknown>) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        } catch {
          // the browser went away
        }
      };
      const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
      emit({
        type: "head",
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
      });
      const body = response.body;
      try {
        if (body && /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "")) {
          const counted = body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, out) {
                size += chunk.length;
                out.enqueue(chunk);
              },
            }),
          );
          let done = false;
          await readEventStream(counted, {
            onEvent(event) {
              if (done) return;
              if (event.event === "complete") {
                done = true;
                abort.abort();
              } else if (event.data !== "") {
                emit({ type: "result", text: event.data, timeMs: elapsed(), size });
              }
            },
          }).catch((error) => {
            if (!done) throw error;
          });
        } else {
          const read = await readLimited(body, MAX_RESULT);
          size = read.size;
          emit({
            type: "result",
            text: new TextDecoder().decode(read.bytes),
            timeMs: elapsed(),
            size,
          });
        }
        emit({ type: "end", timeMs: elapsed(), size });
      } catch (error) {
        if (!signal.aborted) {
          emit({ type: "error", message: error instanceof Error ? error.message : String(error) });
        }
      } finally {
        try {
          controller.close();
        } catch {
          // the browser went away
        }
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "application/x-ndjson; charset=utf-8" },
  });
}
