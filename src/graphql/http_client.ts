/**
 * GraphQL over HTTP: the POST request as a {@link RequestSpec} (sent by `send()`, the one
 * HTTP path), and the results read from its response: one JSON envelope, an event stream
 * (subscriptions, GraphQL over SSE) or multipart/mixed (subscriptions, `@defer`/`@stream`).
 * @module
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import { meros } from "meros/browser";
import type { AuthSpec } from "../auth/auth_spec.ts";
import type { HeaderField, RequestSpec } from "../http/request_spec.ts";
import { type GraphQLResult, parseEnvelope } from "./envelope.ts";
import { NotGraphQLError } from "../errors/mod.ts";

/** What is sent: the GraphQL-over-HTTP request body. */
export interface GraphQLRequest {
  /** The document. */
  query: string;
  /** Variable values. */
  variables?: Record<string, unknown>;
  /** The operation to run, when the document holds several. */
  operationName?: string;
}

/** The endpoint and its credentials. */
export interface GraphQLEndpoint {
  /** The one URL all operations go to. */
  url: URL;
  /** Authorization and query API keys. */
  auth: AuthSpec;
  /** Extra headers (`-H`), e.g. an API key header. */
  headers: HeaderField[];
}

/** Which responses to ask for. */
export type ResponseKind = "single" | "stream" | "sse";

/** The Accept header for each {@link ResponseKind}. */
export const ACCEPT: Readonly<Record<ResponseKind, string>> = {
  single: "application/graphql-response+json, application/json;q=0.9",
  stream:
    "text/event-stream, multipart/mixed, application/graphql-response+json;q=0.9, application/json;q=0.8",
  sse: "text/event-stream",
};

/**
 * Builds the POST of a GraphQL request: JSON `{"query", "variables", "operationName"}` with
 * the Accept header of the response kind (unless `-H Accept` was given).
 *
 * @param endpoint URL, auth and headers
 * @param request the operation
 * @param kind a single result, a stream (event stream or multipart), or an event stream only
 * @returns the request spec, ready for `send()`
 * @see https://graphql.github.io/graphql-over-http/draft/
 */
export function graphqlRequestSpec(
  endpoint: GraphQLEndpoint,
  request: GraphQLRequest,
  kind: ResponseKind = "single",
): RequestSpec {
  const headers = [...endpoint.headers];
  if (!headers.some((h) => h.name.toLowerCase() === "accept")) {
    headers.push({ name: "Accept", value: ACCEPT[kind] });
  }
  const body = {
    query: request.query,
    ...(request.variables ? { variables: request.variables } : {}),
    ...(request.operationName ? { operationName: request.operationName } : {}),
  };
  return {
    method: "POST",
    url: endpoint.url,
    headers,
    auth: endpoint.auth,
    body: { kind: "text", text: JSON.stringify(body), contentType: "application/json" },
  };
}

const JSON_TYPE = /^application\/(?:graphql-response\+)?json\b/i;

/**
 * Reads the GraphQL results of a response: one for a JSON body; one per `next` (or
 * unnamed) event of an event stream until `complete` or the end; one per part of a
 * multipart/mixed body. Stopping the iteration early cancels the body.
 *
 * @param response the response of a GraphQL POST
 * @returns the results, in order
 * @throws {NotGraphQLError} when the body is not a GraphQL result or an event is malformed
 */
export async function* readResults(response: Response): AsyncGenerator<GraphQLResult> {
  const type = response.headers.get("content-type") ?? "";
  const body = response.body;
  const details = { details: { status: response.status } };
  if (!body) throw new NotGraphQLError(`empty body (HTTP ${response.status})`, details);
  if (/^text\/event-stream\b/i.test(type)) {
    const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(
      new EventSourceParserStream(),
    );
    for await (const event of events) {
      const name = event.event ?? "message";
      if (name === "complete") return;
      if ((name !== "next" && name !== "message") || event.data.trim() === "") continue;
      yield envelope(event.data, `event "${name}"`, response.status);
    }
    return;
  }
  if (/^multipart\/mixed\b/i.test(type)) {
    const parts = await meros<unknown>(response);
    if (parts instanceof Response) {
      throw new NotGraphQLError("multipart body without a boundary", details);
    }
    for await (const part of parts) {
      const text = part.json ? JSON.stringify(part.body) : String(part.body);
      if (text.trim() === "" || text.trim() === "{}") continue;
      yield envelope(text, "multipart part", response.status);
    }
    return;
  }
  const text = await response.text();
  if (!JSON_TYPE.test(type)) {
    try {
      yield parseEnvelope(text);
      return;
    } catch {
      throw new NotGraphQLError(
        `HTTP ${response.status} with ${type || "no content type"}: ${snippet(text)}`,
        details,
      );
    }
  }
  yield envelope(text, "response body", response.status);
}

function envelope(text: string, what: string, status: number): GraphQLResult {
  try {
    return parseEnvelope(text);
  } catch (error) {
    throw new NotGraphQLError(
      `${what} is ${error instanceof Error ? error.message : String(error)}: ${snippet(text)}`,
      { details: { status } },
    );
  }
}

function snippet(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || "(empty)";
}
