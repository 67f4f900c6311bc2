/**
 * One parsed request, variables substituted, as dial's {@link RequestSpec}: the same spec the
 * request command builds from flags, so sending, credentials, redirects and output are the
 * request command's. `Authorization: Basic user password` (JetBrains' unencoded form) and
 * `Basic user:password` become Basic credentials, `Bearer …` a Bearer token.
 * @module
 */
import { concatBytes } from "../bytes.ts";
import { UsageError } from "../errors/mod.ts";
import type { Authorization } from "../auth/auth_spec.ts";
import type { BodySource, HeaderField, RequestSpec } from "../http/request_spec.ts";
import { defaultPort } from "../http/authority.ts";
import { parseUrl } from "../http/values.ts";
import { isCredentialName } from "../credential_name.ts";
import { reveal, Secret } from "../secret.ts";
import type { HttpRequest } from "./http_file_types.ts";
import { isClientCertHeader } from "./_http_productions.ts";
import { lookupVariable, substitute, substituteValue, type VariableScope } from "./substitute.ts";
import { splitGraphqlBody, websocketMessages } from "./stream_bodies.ts";
import { Confinement } from "./trust_rule.ts";
import { parseGrpcTarget } from "../grpc/grpc_target.ts";

/** How a request is sent. */
export type RequestKind = "http" | "graphql" | "websocket" | "grpc";

/** A file request ready for `send`, with its per-request settings. */
export interface FileRequest {
  /** The parsed request. */
  request: HttpRequest;
  /** http, GRAPHQL, WEBSOCKET or GRPC. */
  kind: RequestKind;
  /** The request as data (for GRAPHQL: the POST of the query). */
  spec: RequestSpec;
  /** The body as text, for scripts' `request.body` and request variables. */
  bodyText: string;
  /** Follow redirects (JetBrains does unless `# @no-redirect`). */
  follow: boolean;
  /** `# @timeout`, in milliseconds. */
  timeoutMs?: number;
  /** `# @connection-timeout`, in milliseconds. */
  connectTimeoutMs?: number;
  /** `# @no-cookie-jar`. */
  noCookieJar: boolean;
  /** `# @no-log`: print no body. */
  noLog: boolean;
  /**
   * GRAPHQL: the query and variables (and httpyac's `gql NAME < file` name, sent as the
   * operation's).
   */
  graphql?: { query: string; variables?: Record<string, unknown>; operationName?: string };
  /** WEBSOCKET: the messages, `=== wait-for-server` as `null`. */
  messages?: (string | null)[];
  /** GRPC: the method, `package.Service/Method` (the spec's URL is the server's). */
  grpc?: { method: string };
}

/** Options for {@link buildFileRequest}. */
export interface BuildOptions {
  /** Where names are looked up. */
  scope: VariableScope;
  /** The request file's path, for messages and relative includes. */
  path: string;
  /** The directory relative includes are read from. */
  dir: string;
  /** The folders includes must resolve inside (default: the request file's folder). */
  confinement?: Confinement;
}

/**
 * Substitutes variables and builds the request spec.
 *
 * @param request the parsed request
 * @param options scope, file and directory
 * @returns the request to send
 * @throws {UsageError} for an undefined variable, a bad URL, an unreadable include
 */
export async function buildFileRequest(
  request: HttpRequest,
  options: BuildOptions,
): Promise<FileRequest> {
  const { scope, path } = options;
  const at = (what: string, line: number, column: number) => ({ what, path, line, column });
  const written = substitute(request.url, scope, at("the URL", request.requestLine.line, 1)).text;
  const { headers, authorization } = fileHeaders(request, scope, path);
  const host = headers.find((h) => h.name.toLowerCase() === "host");
  const urlText = host || !written.startsWith("/")
    ? written
    : hostVariable(written, scope, `${path}:${request.requestLine.line}:1`, request.method);
  const { kind, restGraphql } = kindOf(request, headers);
  const eventSource = kind === "http" && EVENT_SOURCE.has(request.method);
  if (eventSource) eventSourceHeaders(headers);
  const grpc = kind === "grpc" ? parseGrpcTarget(urlText) : undefined;
  // OPTIONS * asks the server itself (RFC 9112 §3.2.4): its origin comes from the Host header.
  const asterisk = kind === "http" && urlText.trim() === "*" && request.method === "OPTIONS";
  if (asterisk && !host) {
    throw new UsageError(
      `${path}:${request.requestLine.line}:1: Cannot send "OPTIONS *": it needs a Host header naming the server`,
    );
  }
  const url = grpc?.url ?? requestUrl(asterisk ? "/" : urlText, host, kind);
  const body = request.body.length
    ? await bodyOf(injectVariables(request), options, headers)
    : { text: "" };
  const source = body.source;
  // A GRPC request's messages are JSON text: a `< file` body (confined by bodyOf) is read.
  const bodyText = kind === "grpc" && source?.kind === "file"
    ? await Deno.readTextFile(source.path)
    : body.text;
  const directive = (name: string) =>
    request.directives.length ? request.directives.findLast((d) => d.name === name) : undefined;
  const timeoutMs = duration(directive("timeout"), path);
  const connectTimeoutMs = duration(directive("connection-timeout"), path);
  const built: FileRequest = {
    request,
    kind,
    spec: {
      method: eventSource
        ? "GET"
        : kind === "http" || kind === "grpc" || restGraphql
        ? request.method
        : kind === "graphql"
        ? "POST"
        : "GET",
      url,
      headers,
      auth: { ...(authorization ? { authorization } : {}), queryKeys: [] },
      ...(asterisk ? { target: "*" as const } : {}),
    },
    bodyText,
    follow: !directive("no-redirect"),
    noCookieJar: Boolean(directive("no-cookie-jar")),
    noLog: Boolean(directive("no-log")),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    ...(grpc ? { grpc: { method: grpc.method } } : {}),
  };
  if (kind === "graphql") {
    built.graphql = await graphqlBody(bodyText, request, options);
    built.spec.body = graphqlJson(built.graphql, headers);
  } else if (kind === "websocket") {
    built.messages = websocketMessages(bodyText);
  } else if (source) {
    built.spec.body = source;
  }
  return built;
}

/**
 * The request's headers, their variables substituted (a secret's value, or a credential-named
 * header's, kept as a {@link Secret}); an `Authorization` value dial understands (see
 * {@link fileAuthorization}) is taken out as the request's credential.
 */
function fileHeaders(
  request: HttpRequest,
  scope: VariableScope,
  path: string,
): { headers: HeaderField[]; authorization: Authorization | undefined } {
  const headers: HeaderField[] = [];
  let authorization: Authorization | undefined;
  for (const header of request.headers) {
    if (isClientCertHeader(header.name, header.value)) continue;
    const at = {
      what: `header "${header.name}"`,
      path,
      line: header.span.line,
      column: header.name.length + 3,
    };
    const value = substituteValue(header.value, scope, at);
    const text = typeof value === "string" ? value : value.reveal();
    if (header.name.toLowerCase() === "authorization") {
      if (isHttpyacOAuth2(text)) {
        // httpyac's token flows: the runner obtained the token (httpyacOAuth2Key).
        const token = scope.auth?.get(httpyacOAuth2Key(text));
        if (token === undefined) {
          throw new UsageError(
            `${path}:${header.span.line}:${at.column}: httpyac's OAuth 2.0 authorization "${text.trim()}" has no token here, so nothing is sent`,
          );
        }
        authorization = { kind: "bearer", token: new Secret(reveal(token)) };
        continue;
      }
      const parsed = fileAuthorization(text);
      if (parsed) {
        authorization = parsed;
        continue;
      }
    }
    headers.push({
      name: header.name,
      value: typeof value !== "string" || isCredentialName(header.name) ? new Secret(text) : value,
    });
  }
  return { headers, authorization };
}

/**
 * The request's kind from its method, or REST Client's `X-Request-Type: GraphQL` header (which
 * marks a GraphQL request instead of a method, and is removed).
 */
function kindOf(
  request: HttpRequest,
  headers: HeaderField[],
): { kind: RequestKind; restGraphql: boolean } {
  const typeHeader = headers.findIndex((h) => h.name.toLowerCase() === "x-request-type");
  const restGraphql = typeHeader >= 0 &&
    /^graphql$/i.test(String(headers[typeHeader]!.value).trim());
  if (restGraphql) headers.splice(typeHeader, 1);
  // httpyac's: a body that opens with a query or mutation is one (its name is the operation's),
  // unless a Content-Type other than JSON says how to send it (application/graphql: as written).
  const first = request.body[0];
  const type = headers.find((h) => h.name.toLowerCase() === "content-type")?.value;
  const json = type === undefined || /json/i.test(String(type));
  const operation = !restGraphql && json && first?.kind === "text" &&
      !["GRAPHQL", "WEBSOCKET", "GRPC"].includes(request.method)
    ? GRAPHQL_OPERATION.exec(first.text) ?? GRAPHQL_FILE.exec(first.text)
    : null;
  if (operation) return { kind: "graphql", restGraphql: true };
  const kind: RequestKind = request.method === "GRAPHQL" || restGraphql
    ? "graphql"
    : request.method === "WEBSOCKET"
    ? "websocket"
    : request.method === "GRPC"
    ? "grpc"
    : "http";
  return { kind, restGraphql };
}

/**
 * httpyac's OAuth 2.0 forms: `oauth2` or `openid`, alone or with a flow (`client_credentials`,
 * `password`, `device_code` …) and its variables' prefix (`Authorization: OAuth2 <token>` is not).
 */
const HTTPYAC_OAUTH2 =
  /^\s*(?:openid|oauth2)(?:\s+(?:client(?:_credentials)?|(?:authorization_)?code|device(?:_code)?|password|implicit|hybrid)(?:\s+\S+)?(?:\s+token_exchange\s+\S+)?)?\s*$/i;

/**
 * @param text an `Authorization` header's value, substituted
 * @returns whether it is httpyac's OAuth 2.0 form (`oauth2 client_credentials PREFIX`, `openid`)
 */
export function isHttpyacOAuth2(text: string): boolean {
  return HTTPYAC_OAUTH2.test(text);
}

/**
 * @param text httpyac's OAuth 2.0 `Authorization` value
 * @returns the key its token has among the scope's `auth` values
 */
export function httpyacOAuth2Key(text: string): string {
  return `httpyac:${text.trim().replace(/\s+/g, " ").toLowerCase()}`;
}
/** httpyac's GraphQL body: `query` or `mutation`, an optional name, then `(` or `{`. */
const GRAPHQL_OPERATION = /^\s*(?:query|mutation)(?:\s+([_A-Za-z]\w*))?\s*[({]/;
/** httpyac's GraphQL query from a file: `gql [NAME] < ./query.gql` as the body's first line. */
const GRAPHQL_FILE = /^\s*gql(?:[ \t]+([^\s({<]+))?[ \t]+<[ \t]+(\S[^\n]*?)[ \t]*(?:\n|$)/;

/**
 * A GraphQL request's JSON body, and the `Accept` GraphQL servers answer unless one is set. A
 * named query or mutation is sent with its name as `operationName`, as httpyac and REST Client
 * send it.
 */
function graphqlJson(
  graphql: NonNullable<FileRequest["graphql"]>,
  headers: HeaderField[],
): BodySource {
  const operationName = graphql.operationName ?? GRAPHQL_OPERATION.exec(graphql.query)?.[1];
  if (!headers.some((h) => h.name.toLowerCase() === "accept")) {
    headers.push({ name: "Accept", value: "application/graphql-response+json, application/json" });
  }
  return {
    kind: "text",
    text: JSON.stringify({
      query: graphql.query,
      ...(operationName ? { operationName } : {}),
      ...(graphql.variables ? { variables: graphql.variables } : {}),
    }),
    contentType: "application/json",
  };
}

/** httpyac's methods of an event stream request (`SSE URL`): a GET of `text/event-stream`. */
const EVENT_SOURCE = new Set(["SSE", "EVENTSOURCE"]);

/**
 * The headers of httpyac's `SSE URL` request as its EventSource client sends them:
 * `Cache-Control: no-cache` unless written (and dial's default `Accept`, as httpyac's); its
 * `Event:` lines name the events httpyac listens to and are not sent (dial prints every event's
 * data).
 */
function eventSourceHeaders(headers: HeaderField[]): void {
  for (let i = headers.length - 1; i >= 0; i--) {
    if (headers[i]!.name.toLowerCase() === "event") headers.splice(i, 1);
  }
  if (!headers.some((h) => h.name.toLowerCase() === "cache-control")) {
    headers.push({ name: "Cache-Control", value: "no-cache" });
  }
}

/**
 * JetBrains' `Basic user password`, `Basic user:password`, `Digest user password` (answered as
 * `--digest` does), `Bearer token`, and REST Client's and httpyac's
 * `AWS key secret [token:…] [region:…] [service:…]` (signed as `--aws-sigv4` signs); else
 * undefined.
 */
function fileAuthorization(value: string): Authorization | undefined {
  const aws = /^AWS\s+([^\s:]+)\s+(\S+)((?:\s+(?:token|region|service):\s*\S+)*)\s*$/i.exec(
    value.trim(),
  );
  if (aws) {
    const option = (name: string) =>
      new RegExp(`\\b${name}:\\s*(\\S+)`, "i").exec(aws[3] ?? "")?.[1];
    const [token, region, service] = [option("token"), option("region"), option("service")];
    return {
      kind: "aws-sigv4",
      sigv4: {
        provider1: "aws",
        provider2: "amz",
        accessKeyId: aws[1]!,
        secretAccessKey: new Secret(aws[2]!),
        ...(token ? { sessionToken: new Secret(token) } : {}),
        ...(region ? { region } : {}),
        ...(service ? { service } : {}),
      },
    };
  }
  const digest = /^Digest\s+(\S+)\s+(.+)$/i.exec(value.trim());
  // A Digest header already written out (username="…", …) is sent as it is.
  if (digest && !/=\s*"/.test(value)) {
    return { kind: "digest", username: digest[1]!, password: new Secret(digest[2]!.trim()) };
  }
  const match = /^(Basic|Bearer)\s+(.+)$/i.exec(value.trim());
  if (!match) return undefined;
  const rest = match[2]!.trim();
  if (match[1]!.toLowerCase() === "bearer") return { kind: "bearer", token: new Secret(rest) };
  const space = /^(\S+)\s+(.*)$/.exec(rest);
  if (space) return { kind: "basic", username: space[1]!, password: new Secret(space[2]!) };
  const colon = rest.indexOf(":");
  if (colon > 0) {
    return {
      kind: "basic",
      username: rest.slice(0, colon),
      password: new Secret(rest.slice(colon + 1)),
    };
  }
  // Already encoded: sent as written.
  return undefined;
}

/**
 * A URL that starts with `/` and has no `Host` header: httpyac puts its `host` variable in front
 * (`@host = https://api.example.com`), as written.
 *
 * @throws {UsageError} when the file defines no `host` either
 */
function hostVariable(url: string, scope: VariableScope, at: string, method: string): string {
  const host = lookupVariable("host", scope);
  if (host) return `${host}${url}`;
  throw new UsageError(
    `${at}: Cannot send "${method} ${url}": a URL that starts with "/" needs a Host header, or a {{host}} variable to put in front of it (httpyac)`,
  );
}

/** httpyac's `# @injectVariables`: the request's `< file` includes are substituted, as `<@`. */
function injectVariables(request: HttpRequest): HttpRequest {
  if (!request.directives.some((d) => d.name === "injectVariables")) return request;
  const body = request.body.map((part) =>
    part.kind === "file" ? { ...part, substitute: true } : part
  );
  return { ...request, body };
}

/** The ports REST Client reads as TLS in a Host header (the standard one, and 8443). */
const TLS_PORT = new RegExp(`:(?:${defaultPort("https:")}|8443)$`);

function requestUrl(text: string, host: HeaderField | undefined, kind: RequestKind): URL {
  const schemes = kind === "websocket" ? ["ws:", "wss:"] : ["http:", "https:"];
  if (text.startsWith("/") && host) {
    const name = typeof host.value === "string" ? host.value : host.value.reveal();
    // REST Client's rule: port 443 or 8443 means TLS.
    const secure = TLS_PORT.test(name.trim());
    const base = /^[a-z]+:\/\//i.test(name) ? name : `${schemes[secure ? 1 : 0]}//${name.trim()}`;
    return parseUrl(new URL(text, base).href, schemes);
  }
  if (kind === "websocket" && /^https?:\/\//i.test(text)) {
    return parseUrl(text.replace(/^http/i, "ws"), schemes);
  }
  // A GRAPHQL request may name its WebSocket endpoint; queries go to the same URL over HTTP.
  if (kind === "graphql" && /^wss?:\/\//i.test(text)) {
    return parseUrl(text.replace(/^ws/i, "http"), schemes);
  }
  return parseUrl(text, schemes, true);
}

/** A file the body includes, resolved inside the run's folders (else refused, naming it). */
async function includePath(options: BuildOptions, template: string, line: number) {
  const confinement = options.confinement ?? await Confinement.of(options.dir || ".");
  // httpyac's `< {{assetsDir}}/body.json`: the path's variables, then the same confinement.
  const written = template.includes("{{")
    ? substitute(template, options.scope, {
      what: "the body file's path",
      path: options.path,
      line,
      column: 1,
    }).text
    : template;
  return await confinement.reading(resolvePath(options.dir, written), {
    what: `the body file of ${options.path}:${line}`,
    written,
  });
}

async function bodyOf(
  request: HttpRequest,
  options: BuildOptions,
  headers: HeaderField[],
): Promise<{ text: string; source?: BodySource }> {
  const parts = request.body;
  if (!parts.length) return { text: "" };
  const contentType = headers.find((h) => h.name.toLowerCase() === "content-type")?.value;
  const type = typeof contentType === "string" ? contentType : contentType?.reveal() ?? "";
  const first = parts[0]!;
  const confinement = options.confinement ?? await Confinement.of(options.dir || ".");
  const include = (written: string, line: number) =>
    includePath({ ...options, confinement }, written, line);
  if (parts.length === 1 && first.kind === "file" && !first.substitute) {
    const path = await include(first.path, first.span.line);
    await readable(path, options.path, first.span.line);
    return { text: `< ${first.path}`, source: { kind: "file", path } };
  }
  // Multipart bodies need CRLF line breaks (RFC 2046 5.1.1); other bodies are sent as written.
  const multipart = /^multipart\//i.test(type);
  const lineBreak = multipart ? "\r\n" : "\n";
  const chunks: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let text = "";
  for (const [index, part] of parts.entries()) {
    if (index > 0) {
      chunks.push(encoder.encode(lineBreak));
      text += "\n";
    }
    if (part.kind === "text") {
      // A form body may put each pair on its own line: REST Client's lines start with `&`
      // (`&key=value`), kulala's end with it (`key=value&`); the line break is not sent.
      const written = /^application\/x-www-form-urlencoded/i.test(type)
        ? part.text.replace(/\r?\n\s*&/g, "&").replace(/&[ \t]*\r?\n\s*/g, "&")
        : part.text;
      const value = substitute(written, options.scope, {
        what: "the body",
        path: options.path,
        line: part.span.line,
        column: 1,
      }).text;
      chunks.push(encoder.encode(multipart ? value.replace(/\r?\n/g, "\r\n") : value));
      text += value;
    } else {
      const path = await include(part.path, part.span.line);
      const bytes = await readable(path, options.path, part.span.line);
      if (part.substitute) {
        let decoder: TextDecoder;
        try {
          decoder = new TextDecoder(part.encoding ?? "utf-8");
        } catch {
          throw new UsageError(
            `${options.path}:${part.span.line}:1: Unknown encoding "${part.encoding}" of "${part.path}"`,
          );
        }
        const value = substitute(decoder.decode(bytes), options.scope, {
          what: `file "${part.path}"`,
          path,
          line: 1,
          column: 1,
        }).text;
        chunks.push(encoder.encode(value));
        text += value;
      } else {
        chunks.push(bytes);
        text += `< ${part.path}`;
      }
    }
  }
  const bytes = concatBytes(chunks);
  // Bytes, not text: fetch would add "Content-Type: text/plain" to a text body that the file
  // left untyped (JetBrains and httpyac send none).
  return { text, source: { kind: "bytes", bytes } };
}

function resolvePath(dir: string, path: string): string {
  if (path.startsWith("/")) return path;
  return `${dir === "" ? "." : dir}/${path.replace(/^\.\//, "")}`;
}

async function readable(
  path: string,
  file: string,
  line: number,
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound ? "no such file" : "cannot read it";
    throw new UsageError(`${file}:${line}:1: Cannot read the body file "${path}": ${reason}`);
  }
}

function duration(directive: { value: string; span: { line: number } } | undefined, path: string) {
  if (!directive) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(directive.value);
  if (!match) {
    throw new UsageError(
      `${path}:${directive.span.line}:1: Invalid duration "${directive.value}": expected seconds, e.g. 5 or 500 ms`,
    );
  }
  const n = Number(match[1]);
  return match[2] === "ms" ? n : match[2] === "m" ? n * 60_000 : n * 1000;
}

async function graphqlBody(text: string, request: HttpRequest, options: BuildOptions) {
  const { path } = options;
  const split = splitGraphqlBody(text);
  const { variables } = split;
  if (split.query === "" && !variables) {
    throw new UsageError(`${path}:${request.requestLine.line}:1: GRAPHQL request without a query`);
  }
  // httpyac's `gql NAME < ./query.gql`: the query is the file's, its variables substituted.
  const file = request.body[0]?.kind === "text" ? GRAPHQL_FILE.exec(split.query) : null;
  let query = split.query;
  if (file && split.query.indexOf("\n") < 0) {
    const line = request.body[0]!.span.line;
    const at = await includePath(options, file[2]!, line);
    const bytes = await readable(at, path, line);
    query = substitute(new TextDecoder().decode(bytes), options.scope, {
      what: `file "${file[2]}"`,
      path: at,
      line: 1,
      column: 1,
    }).text;
  }
  // httpyac's fragments the query spreads, each after it on a line of its own (written ones,
  // then the files', confined as includes are).
  const fromFiles: string[] = [];
  for (const fragment of request.graphqlFragmentFiles ?? []) {
    if (!query.includes(`...${fragment.name}`)) continue;
    const at = await includePath(options, fragment.path, fragment.line);
    fromFiles.push(new TextDecoder().decode(await readable(at, path, fragment.line)));
  }
  query = [query, ...request.graphqlFragments ?? [], ...fromFiles].join("\n");
  return {
    query,
    ...(variables ? { variables } : {}),
    ...(file?.[1] ? { operationName: file[1] } : {}),
  };
}
