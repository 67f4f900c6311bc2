/**
 * The gRPC tab's endpoints, on the calls `dial grpc` and request files make
 * (`src/grpc/grpc_request.ts`): `POST /api/grpc/methods` lists what a server offers by
 * reflection (or what `.proto` files of the workspace describe), each method with a template
 * of its request message; `POST /api/grpc/call` makes one call with the auth panel's
 * credentials (through the one credential step) and the UI's TLS and proxy settings, and
 * streams each reply as it arrives, then the status, headers and trailers. A request of a
 * workspace file is evaluated as `dial run` evaluates it; the tab's own request gets the
 * workspace environment's and session's `{{variables}}` in its target, metadata and message.
 * An open call's messages are filled from the same scope as its request.
 * A call opened with `open` (client and bidi streaming) takes its requests while it runs:
 * `POST /api/grpc/send` sends the composer's message(s), each checked against the input type
 * (one that does not fit is refused, the call goes on), `POST /api/grpc/end` half-closes;
 * closing the call's answer cancels it.
 * The gRPC stack loads on the first call.
 * @module
 */
import { load } from "../../load.ts";
import { UsageError } from "../../errors/mod.ts";
import { parseGrpcTarget } from "../../grpc/grpc_target.ts";
import type { GrpcRequestOptions } from "../../grpc/grpc_request.ts";
import { protoFilesOf } from "../../files/run_grpc.ts";
import type { RequestSpec } from "../../http/request_spec.ts";
import type { VariableScope } from "../../files/substitute.ts";
import { array, isObject, type JsonObject, object, readJson, string } from "./decode.ts";
import { evaluateFileRequest, fileRunOf } from "./file_send.ts";
import { runHttpFile } from "../../files/run_http_file.ts";
import { errorJson } from "./error_json.ts";
import type { FileSendEvent } from "../protocol.ts";
import { ndjsonResponse, timeoutOf } from "./ndjson.ts";
import type { ApiContext } from "./http_api.ts";
import { parseUiAuthAndHeaders } from "./spec_json.ts";
import {
  authTokenOptions,
  scopeSubstituter,
  type Substituter,
  substituteRequest,
  substitutionFor,
} from "./environment_api.ts";
import type { GrpcCallEvent, GrpcMethodsEvent } from "../grpc_protocol.ts";
import { GrpcOutbox } from "../../grpc/outbox.ts";
import { jsonDocuments } from "../../grpc/json_documents.ts";
import type { JsonValue } from "@bufbuild/protobuf";

/** A call that takes requests while it runs. */
interface OpenCall {
  outbox: GrpcOutbox;
  /** Fills the `{{variables}}` of its messages from its request's scope. */
  substitute: Substituter;
  emit: (event: GrpcCallEvent) => void;
}

/** Each UI server's open calls, by id. */
const openCalls = new WeakMap<ApiContext, Map<string, OpenCall>>();

/** What the page sees of a sent message that holds a private environment value. */
const REDACTED_MESSAGE = "(redacted: the message holds a private value)";

/** The request with its `{{variables}}` filled in: target, metadata and the message. */
async function substituted(json: JsonObject, context: ApiContext): Promise<JsonObject> {
  const body = typeof json.body === "string" ? { kind: "text", text: json.body } : undefined;
  const filled = await substituteRequest(
    { ...json, ...(body ? { body } : {}) },
    context.workspace,
    authTokenOptions(context),
  );
  const text = (filled.body as { text?: unknown } | undefined)?.text;
  return { ...filled, ...(body ? { body: text } : {}) };
}

/**
 * A gRPC-tab call: its server, metadata, auth, method and message. A request of a workspace
 * file (`fromFile`) is evaluated as `dial run` evaluates it (dependencies, pre-request scripts,
 * the whole scope); any other is the tab's, its `{{variables}}` from the environment.
 */
async function callOf(
  json: JsonObject,
  context: ApiContext,
  what: "call" | "methods",
): Promise<{ spec: RequestSpec; method: string; body: string; scope?: VariableScope }> {
  if (isObject(json.fromFile)) {
    const timeoutMs = timeoutOf(json.timeoutMs);
    const signals = [context.signal, ...(timeoutMs > 0 ? [AbortSignal.timeout(timeoutMs)] : [])];
    const built = await evaluateFileRequest(json.fromFile, {
      ...context,
      signal: AbortSignal.any(signals),
    });
    if (!built.grpc) throw new UsageError("The tab's request of its file is not a GRPC request");
    const { spec, grpc, bodyText, scope } = built;
    return { spec, method: grpc.method, body: bodyText, scope };
  }
  const filled = await substituted(json, context);
  const method = what === "methods"
    ? "x.Service/Method"
    : string(filled.method ?? "", "method").trim();
  if (!method) {
    throw new UsageError("Missing the method: pick one, or write package.Service/Method");
  }
  return { spec: specOf(filled, method, context), method, body: string(filled.body ?? "", "body") };
}

/** The server, metadata and auth of a request, as `dial grpc` builds them from its flags. */
function specOf(json: JsonObject, method: string, context: ApiContext): RequestSpec {
  const written = string(json.url ?? "", "url").trim().replace(/\/+$/, "");
  if (!written) {
    throw new UsageError("Missing the server: write host:port, or grpcs://host:port for TLS");
  }
  const { url } = parseGrpcTarget(`${written}/${method}`);
  return { method: "POST", url, ...parseUiAuthAndHeaders(json, context.oauth) };
}

/** The `.proto` files of the request, confined to the workspace (and `--allow-path`). */
async function protosOf(
  json: JsonObject,
  context: ApiContext,
): Promise<GrpcRequestOptions["protos"]> {
  const paths = (name: string) =>
    array(json[name] ?? [], name).map((p, i) => string(p, `${name}[${i}]`).trim()).filter(Boolean);
  const files = paths("protos");
  if (!files.length) return undefined;
  const workspace = context.workspace;
  if (!workspace) {
    throw new UsageError("Cannot read .proto files without a workspace", {
      hint: "start dial ui in the folder that holds them",
    });
  }
  const line = { line: 0, endLine: 0, start: 0, end: 0 };
  return await protoFilesOf(
    files.map((path) => ({ path, importPaths: paths("importPaths"), span: line })),
    { path: "the gRPC tab", dir: workspace.root, confinement: workspace.confinement },
  );
}

/**
 * `POST /api/grpc/methods`: every method of the server (reflection) or of the `.proto` files.
 *
 * @param request `{url, headers, auth, protos?, importPaths?, timeoutMs?}`
 * @param context signal, TLS and proxy settings, OAuth settings, workspace
 * @returns NDJSON: `{type: "methods", methods}` or `{type: "error", error}`
 */
export async function handleGrpcMethods(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const { spec } = await callOf(json, context, "methods");
  const protos = await protosOf(json, context);
  return ndjsonResponse<GrpcMethodsEvent>(async ({ emit, signal }) => {
    const { listGrpcMethods } = await load.grpcRequest();
    const methods = await listGrpcMethods(spec, {
      signal,
      ...(context.transport ? { transport: context.transport } : {}),
      ...(protos ? { protos } : {}),
    });
    emit({ type: "methods", methods });
  }, { signal: context.signal, timeoutMs: timeoutOf(json.timeoutMs) });
}

/**
 * `POST /api/grpc/call`: one call; each reply as it arrives, then the status.
 *
 * @param request `{url, headers, auth, method, body, protos?, importPaths?, timeoutMs?}`
 * @param context signal, TLS and proxy settings, OAuth settings, workspace
 * @returns NDJSON: `reply` events, then `end` (status, headers, trailers) or `error`
 */
export async function handleGrpcCall(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  if (isObject(json.fromFile) && json.open !== true) return await fileCall(json, context);
  const { spec, method, body, scope } = await callOf(json, context, "call");
  const protos = await protosOf(json, context);
  const timeoutMs = timeoutOf(json.timeoutMs);
  // An open call's messages take the request's scope: a file's as `dial run` evaluated it.
  const substitute = json.open !== true
    ? undefined
    : scope
    ? scopeSubstituter(scope)
    : await substitutionFor(json, context.workspace, authTokenOptions(context));
  return ndjsonResponse<GrpcCallEvent>(async ({ emit, signal }) => {
    const { runGrpcRequest } = await load.grpcRequest();
    const started = performance.now();
    const id = crypto.randomUUID();
    const calls = openCalls.get(context) ?? new Map<string, OpenCall>();
    openCalls.set(context, calls);
    const outbox = substitute
      ? new GrpcOutbox((kind) => emit({ type: "open", call: id, kind }))
      : undefined;
    if (outbox) calls.set(id, { outbox, substitute: substitute!, emit });
    let result;
    try {
      // An open streaming call sends only what is given while it runs.
      result = await runGrpcRequest(spec, method, body, {
        signal,
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(context.transport ? { transport: context.transport } : {}),
        ...(protos ? { protos } : {}),
        ...(outbox ? { outbox } : {}),
        onReply: (reply) => emit({ type: "reply", json: JSON.stringify(reply), time: Date.now() }),
      });
    } finally {
      outbox?.close();
      calls.delete(id);
    }
    emit({
      type: "end",
      status: result.status,
      statusName: result.statusName,
      statusMessage: result.statusMessage,
      headers: result.headers,
      trailers: result.trailers,
      timeMs: Math.round((performance.now() - started) * 10) / 10,
    });
    // The deadline is the call's own (grpc-timeout): the stream's timer must not cut it first.
  }, { signal: context.signal, timeoutMs: timeoutMs ? timeoutMs + 5_000 : 0 });
}

/**
 * A call of a workspace file's request, run as `dial run` runs it: the named requests it
 * refers to first, its pre-request scripts, the call, then its response handlers and tests (a
 * handler's globals reach every Send and ▶ Run of the workspace). The tab's Proto fields say
 * which `.proto` files describe it (none: reflection), in place of the file's lines.
 */
async function fileCall(json: JsonObject, context: ApiContext): Promise<Response> {
  const { file, target, options } = await fileRunOf(object(json.fromFile, "fromFile"), context);
  const paths = (name: string) =>
    array(json[name] ?? [], name).map((p, i) => string(p, `${name}[${i}]`).trim()).filter(Boolean);
  const root = context.workspace!.root;
  const at = (path: string) => path.startsWith("/") ? path : `${root}/${path}`;
  const span = { line: 0, endLine: 0, start: 0, end: 0 };
  const importPaths = paths("importPaths").map(at);
  delete file.protos;
  target.protos = paths("protos").map((path) => ({ path: at(path), importPaths, span }));
  const timeoutMs = timeoutOf(json.timeoutMs);
  return ndjsonResponse<GrpcCallEvent | FileSendEvent>(async ({ emit, signal }) => {
    await runHttpFile(file, {
      ...options,
      ...(timeoutMs > 0 ? { timeoutMs } : {}),
      send: {
        signal,
        ...(context.fetch ? { fetch: context.fetch } : {}),
        ...(context.transport ? { transport: context.transport } : {}),
      },
      keepGoing: true,
      onMessage: (text, request) => {
        if (request === target) emit({ type: "reply", json: text, time: Date.now() });
      },
      onLog: (text, request) => {
        if (request === target) emit({ type: "log", text });
      },
      onResult: (result) => {
        const error = result.error ? { error: errorJson(result.error, context.workspace) } : {};
        const status = result.status !== undefined ? { status: result.status } : {};
        if (result.request !== target) {
          emit({ type: "ran", label: result.label, ...status, ...error });
          return;
        }
        const tests = result.tests.map((t) => ({
          name: t.name,
          passed: t.passed,
          ...(t.message !== undefined ? { message: context.workspace!.shown(t.message) } : {}),
        }));
        emit({ type: "result", ...status, tests, ...error });
        const grpc = result.grpc;
        if (!grpc) return;
        emit({
          type: "end",
          status: grpc.code,
          statusName: grpc.name,
          statusMessage: grpc.message,
          headers: grpc.headers,
          trailers: grpc.trailers,
          timeMs: Math.round(result.durationMs * 10) / 10,
        });
      },
    });
  }, { signal: context.signal, timeoutMs: 0 });
}

/** The open call a send or end names. */
function openCall(json: JsonObject, context: ApiContext): OpenCall {
  const id = string(json.call ?? "", "call");
  const call = openCalls.get(context)?.get(id);
  if (!call) {
    throw new UsageError("The gRPC call is over", { hint: "open the stream again" });
  }
  return call;
}

/**
 * `POST /api/grpc/send`: sends the composer's message (one JSON document, or several: one
 * message each) on an open call; the call's answer tells of each as `sent`.
 *
 * @param request `{call, body}`
 * @param context the server's open calls, workspace
 * @returns `{sent: count}`
 * @throws {UsageError} when the call is over or sending ended, a message is not JSON or does not
 *   fit the input type (then nothing of it is sent, and the call goes on)
 */
export async function handleGrpcSend(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const call = openCall(json, context);
  const written = string(json.body ?? "", "body");
  await call.substitute.ready(written, "the message");
  const text = call.substitute(written, "the message");
  const documents: JsonValue[] = [];
  for await (const doc of jsonDocuments(one(text), "the message")) documents.push(doc);
  if (!documents.length) throw new UsageError("Nothing to send: write a JSON message");
  call.outbox.send(documents);
  const secret = call.substitute.usesSecret(written, "the message");
  for (const doc of documents) {
    call.emit({
      type: "sent",
      json: secret ? REDACTED_MESSAGE : JSON.stringify(doc),
      time: Date.now(),
    });
  }
  return Response.json({ sent: documents.length });
}

/**
 * `POST /api/grpc/end`: ends sending on an open call (half-close): the server sees the end of
 * the requests, and the replies and status still come.
 *
 * @param request `{call}`
 * @param context the server's open calls
 * @returns `{ended: true}`
 * @throws {UsageError} when the call is over
 */
export async function handleGrpcEnd(request: Request, context: ApiContext): Promise<Response> {
  const call = openCall(object(await readJson(request), "request"), context);
  call.outbox.end();
  call.emit({ type: "half-closed", time: Date.now() });
  return Response.json({ ended: true });
}

async function* one(text: string): AsyncGenerator<string> {
  yield text;
}
