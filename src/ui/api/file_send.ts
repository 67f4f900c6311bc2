/**
 * Send of a request tab from a workspace file, evaluated as `dial run` evaluates it: the tab's
 * fields are written into the file's text in place of the request's own (what Save would
 * write, `saveInPlace`), and that text runs through the request files' own runner
 * (`runHttpFile`): the same scope (the environment's public and private values, `$shared`,
 * globals, the file's `@variables`, request variables, dynamic variables, `$processEnv`,
 * `$dotenv`, `{{login.response.body.$.token}}`), the same pre-request scripts, handlers and
 * tests, the same bytes on the wire. Globals and the named requests' results live in one
 * {@link WorkspaceSession} that every Send and ▶ Run of the workspace shares.
 * @module
 */
import { UsageError } from "../../errors/mod.ts";
import { processEnv } from "../../env.ts";
import { loadEnvironment } from "../../files/environment.ts";
import type { HttpFile, HttpRequest } from "../../files/http_file_types.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import type { RequestVariableSource } from "../../files/request_variables.ts";
import { runHttpFile, type RunHttpFileOptions } from "../../files/run_http_file.ts";
import type { FileRequest } from "../../files/file_request.ts";
import type { VariableScope } from "../../files/substitute.ts";
import type { Exchange } from "../../http/send.ts";
import type { FileSendEvent } from "../protocol.ts";
import type { Workspace } from "../workspace_path.ts";
import { type HttpDraft, saveInPlace } from "../web/workspace/request_edit.ts";
import {
  isObject,
  type JsonObject,
  object,
  oneOf,
  optionalString,
  readJson,
  string,
} from "./decode.ts";
import { errorJson } from "./error_json.ts";
import { type ApiContext, describeResponse, emitResponse } from "./http_api.ts";
import { ndjsonResponse, timeoutOf } from "./ndjson.ts";
import { uiReferences } from "./environment_api.ts";
import { type OpenapiSend, openapiSend } from "./openapi_api.ts";
import type { Environment } from "../../files/environment.ts";

/** What every Send and ▶ Run of one `dial ui` workspace shares, as one `dial run` shares it. */
export class WorkspaceSession {
  /** `client.global` values; {@link Globals.watch} follows their names. */
  readonly globals: Globals = new Globals();
  readonly #responses = new Map<string, Map<string, RequestVariableSource>>();

  /**
   * @param path a request file's real path
   * @returns the results of its named requests so far (a file's `{{login.response…}}` sees its
   *   own file's, as in `dial run`)
   */
  responsesOf(path: string): Map<string, RequestVariableSource> {
    let found = this.#responses.get(path);
    if (!found) this.#responses.set(path, found = new Map());
    return found;
  }
}

/** The session's `client.global` values, whose changes the page follows (its variables line). */
export class Globals extends Map<string, string> {
  readonly #watchers = new Set<(names: string[]) => void>();

  /**
   * @param watcher called with the globals' names now and after each change
   * @returns stops watching
   */
  watch(watcher: (names: string[]) => void): () => void {
    this.#watchers.add(watcher);
    watcher([...this.keys()]);
    return () => this.#watchers.delete(watcher);
  }

  #changed(): void {
    const names = [...this.keys()];
    for (const watcher of this.#watchers ?? []) watcher(names);
  }

  override set(name: string, value: string): this {
    const added = !this.has(name);
    super.set(name, value);
    if (added) this.#changed();
    return this;
  }

  override delete(name: string): boolean {
    const had = super.delete(name);
    if (had) this.#changed();
    return had;
  }

  override clear(): void {
    const had = this.size > 0;
    super.clear();
    if (had) this.#changed();
  }
}

/**
 * The chosen environment beside a request file, its references resolved as the UI resolves
 * them (`uiReferences`: no `@exec:`, no `@env:` from a shared file, paths inside the workspace).
 *
 * @param workspace the workspace
 * @param real the request file's real path
 * @param name the environment, if one is chosen
 * @param context the process environment
 * @returns the environment
 */
export async function fileEnvironment(
  workspace: Workspace,
  real: string,
  name: string | undefined,
  context: ApiContext,
): Promise<Environment> {
  return await loadEnvironment(real.slice(0, real.lastIndexOf("/")), {
    ...(name !== undefined ? { name } : {}),
    ...uiReferences(workspace, context.env ?? processEnv),
  });
}

function draftOf(value: unknown): HttpDraft {
  const json = object(value, "draft");
  const rows = (list: unknown, field: string) =>
    (Array.isArray(list) ? list : []).map((row, i) => {
      const r = object(row, `${field}[${i}]`);
      return {
        name: string(r.name ?? "", `${field}[${i}].name`),
        value: string(r.value ?? "", `${field}[${i}].value`),
        enabled: r.enabled !== false,
        ...(isObject(r.file) ? { file: { name: "", type: "", base64: "" } } : {}),
      };
    });
  return {
    method: string(json.method, "draft.method"),
    url: string(json.url, "draft.url"),
    headers: rows(json.headers, "draft.headers"),
    bodyKind: oneOf(
      json.bodyKind ?? "none",
      "draft.bodyKind",
      [
        "none",
        "json",
        "text",
        "form",
      ] as const,
    ),
    body: string(json.body ?? "", "draft.body"),
    form: rows(json.form, "draft.form"),
  };
}

function find(file: HttpFile, index: number, name: string | undefined): HttpRequest | undefined {
  return (name !== undefined ? file.requests.find((r) => r.name === name) : undefined) ??
    file.requests.find((r) => r.index === index);
}

/** A request of a workspace file with a tab's fields in place of its own, ready to run. */
export interface FileRun {
  file: HttpFile;
  target: HttpRequest;
  /** What every run of the workspace shares: scope, session, cookies, confinement. */
  options: RunHttpFileOptions;
}

/**
 * Reads a tab's request from its file: the tab's fields written in place of the request's
 * own (the text Save would write), the file parsed again, the environment loaded.
 *
 * @param json the file, the request's place and name, the tab's draft, the environment
 * @param context the workspace, its session and cookie jar
 * @returns the file, the request and the options `dial run` would run it with
 */
export async function fileRunOf(json: JsonObject, context: ApiContext): Promise<FileRun> {
  const workspace = context.workspace;
  if (!workspace) throw new UsageError("This dial ui has no workspace folder");
  const path = string(json.path, "path");
  if (typeof json.index !== "number" || !Number.isInteger(json.index) || json.index < 1) {
    throw new UsageError("Invalid index: expected the request's position in its file, from 1");
  }
  const name = optionalString(json.name, "name");
  const draft = draftOf(json.draft);
  const real = await workspace.resolveFile(path);
  const source = await Deno.readTextFile(real);
  const original = find(parseHttpFile(source, real), json.index, name);
  if (!original) {
    throw new UsageError(`The request is no longer in ${path}`, {
      hint: "open it again from the sidebar",
    });
  }
  // The tab's fields in place of the request's own: the text Save would write.
  const file = parseHttpFile(saveInPlace(source, original, draft), real);
  const target = file.requests.find((r) => r.index === original.index);
  if (!target) throw new UsageError(`The tab's request does not read back as one request`);
  const environment = await fileEnvironment(
    workspace,
    real,
    optionalString(json.environment, "environment"),
    context,
  );
  const session = context.session ?? new WorkspaceSession();
  return {
    file,
    target,
    options: {
      names: [target.name ?? String(file.requests.indexOf(target) + 1)],
      environment,
      // Includes, `>>` outputs and script files inside the workspace (and --allow-path) only.
      confinement: workspace.confinement,
      globals: session.globals,
      responses: session.responsesOf(real),
      ...(context.cookies ? { cookies: context.cookies } : {}),
      env: context.env ?? processEnv,
      // Security.Auth tokens through the auth panel's cache; a browser login says "Log in first".
      oauth2: {
        ...(context.oauth?.openBrowser ? { openBrowser: context.oauth.openBrowser } : {}),
        ...(context.oauth?.cacheDir !== undefined ? { cacheDir: context.oauth.cacheDir } : {}),
      },
    },
  };
}

/** A file's request as `dial run` would send it, and the scope it was evaluated in. */
export interface EvaluatedRequest extends FileRequest {
  /**
   * Its variables (the session's globals, its request variables, named results live): a
   * composer's messages are filled from it, as the request's own text was.
   */
  scope: VariableScope;
}

/**
 * Evaluates a GraphQL, WebSocket, SSE or gRPC tab's request of a workspace file as `dial run` does,
 * up to the send: the tab's fields in place of the file's, the named requests it refers to run
 * first (once per session), its pre-request scripts, the whole scope (environment, private
 * environment, globals, request variables, `$processEnv`, `$dotenv`). The tab then runs its own
 * session with the request built.
 *
 * @param json {@link import("../protocol.ts").FileSendJson} without a timeout
 * @param context the workspace, its session, fetch and signal
 * @returns the request as `dial run` would send it, and its scope
 * @throws {import("../../errors/mod.ts").DialError} what `dial run` would report (an undefined
 *   variable, a failed dependency, a script error)
 */
export async function evaluateFileRequest(
  json: JsonObject,
  context: Pick<ApiContext, "workspace" | "session" | "cookies" | "env" | "oauth" | "fetch"> & {
    signal: AbortSignal;
  },
): Promise<EvaluatedRequest> {
  const { file, options } = await fileRunOf(json, context);
  let taken: EvaluatedRequest | undefined;
  await runHttpFile(file, {
    ...options,
    send: { signal: context.signal, ...(context.fetch ? { fetch: context.fetch } : {}) },
    // The one request run not as a dependency is the tab's.
    take: (built, scope) => (taken = { ...built, scope }, true),
  });
  if (!taken) throw new UsageError("The request's pre-request script skipped it: nothing to send");
  return taken;
}

/**
 * `POST /api/http/file`: {@link import("../protocol.ts").FileSendJson} → NDJSON
 * {@link FileSendEvent}s.
 *
 * @param request the call
 * @param context the workspace, its session, fetch and signal
 * @returns the stream of events
 */
export async function handleFileSend(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const timeoutMs = timeoutOf(json.timeoutMs);
  const tab = await fileRunOf(json, context);
  // The description the file or its environment names: read (or refused) before anything is sent.
  const openapi = await openapiSend(tab.file, tab.options.environment, context.workspace!);
  return ndjsonResponse<FileSendEvent>(async ({ emit, emitText, signal }) => {
    const call = { context, signal, timeoutMs, emit, ...(openapi ? { openapi } : {}) };
    await runFileTab(tab, call, async (exchange, started) => {
      const response = await describeResponse(exchange, started, context);
      await emitResponse({ emit, emitText }, response, json.bodyParts === true);
    });
  }, { signal: context.signal, timeoutMs: 0, workspace: context.workspace });
}

/**
 * Runs a tab's request of a file whole, as `dial run` runs it: the named requests it refers
 * to first (each a `ran` event), then it, its handlers' log lines and its tests (`result`).
 *
 * @param json the file, the request's place and name, the tab's draft, the environment
 * @param call the workspace, the signal, the timeout (0: none) and where the events go
 * @param response reads the request's own exchange (its body not read yet); `started` is when
 *   it was sent (`performance.now()`)
 */
export async function runFileRequest(
  json: JsonObject,
  call: FileTabCall,
  response: (exchange: Exchange, started: number) => Promise<void>,
): Promise<void> {
  await runFileTab(await fileRunOf(json, call.context), call, response);
}

/** Where a file tab's run happens and where its events go. */
export interface FileTabCall {
  /** The workspace, its session, cookies and fetch. */
  context: ApiContext;
  /** Aborts the run. */
  signal: AbortSignal;
  /** The request's timeout in ms (0: none), unless its `# @timeout` says otherwise. */
  timeoutMs: number;
  /** Where `ran`, `log` and `result` go. */
  emit: (event: FileSendEvent) => void;
  /** The Send's contract check, when the file or its environment names a description. */
  openapi?: OpenapiSend;
}

async function runFileTab(
  { file, target, options }: FileRun,
  { context, signal, timeoutMs, emit, openapi }: FileTabCall,
  response: (exchange: Exchange, started: number) => Promise<void>,
): Promise<void> {
  const workspace = context.workspace;
  let started = performance.now();
  await runHttpFile(file, {
    ...options,
    ...(timeoutMs > 0 ? { timeoutMs } : {}),
    send: { signal, ...(context.fetch ? { fetch: context.fetch } : {}) },
    keepGoing: true,
    ...(openapi ? { checkExchange: openapi.check } : {}),
    onExchange: async (event) => {
      if (event.fileRequest.request !== target) {
        await event.exchange.response.body?.cancel().catch(() => {});
        return;
      }
      await response(event.exchange, started);
    },
    onLog: (text, request) => {
      if (request === target) emit({ type: "log", text });
    },
    onResult: (result) => {
      const error = result.error ? { error: errorJson(result.error, workspace) } : {};
      const status = result.status !== undefined ? { status: result.status } : {};
      const violations = openapi?.take();
      if (result.request !== target) {
        emit({ type: "ran", label: result.label, ...status, ...error });
        started = performance.now();
        return;
      }
      if (violations && result.status !== undefined) emit(violations);
      emit({
        type: "result",
        ...status,
        tests: result.tests.map((t) => ({
          name: t.name,
          passed: t.passed,
          ...(t.message !== undefined ? { message: workspace?.shown(t.message) ?? t.message } : {}),
        })),
        ...error,
      });
    },
  });
}
