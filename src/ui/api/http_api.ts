/**
 * The HTTP tab's endpoints: send a request with {@link send} (the CLI's one network path)
 * and describe the response as JSON; build the equivalent curl command.
 * @module
 */
import { responseMeta } from "../../http/response_meta.ts";
import { displayUrl } from "../../http/build_request.ts";
import { authorize } from "../../http/credentials.ts";
import { type Exchange, send } from "../../http/send.ts";
import { responseHeaders } from "../../http/wire.ts";
import { toCurl } from "../../output/curl.ts";
import { UsageError } from "../../errors/mod.ts";
import type { BodyStore } from "./body_store.ts";
import type { UiStateStore } from "./ui_state.ts";
import type { Workspace } from "../workspace_path.ts";
import type { CookieJar } from "../../http/cookies.ts";
import type { WorkspaceSession } from "./file_send.ts";
import { boolean, isObject, type JsonObject, object, readJson, string } from "./decode.ts";
import { parseUiRequest, type UiOAuthSettings, uploadOf } from "./spec_json.ts";
import { type NdjsonCall, ndjsonResponse, timeoutOf } from "./ndjson.ts";
import { BODY_PART, type BodyPartEvent, type HttpEvent, type ResponseJson } from "../protocol.ts";
import { bodyText } from "./body_kind.ts";
import { authTokenOptions, substituteRequest } from "./environment_api.ts";

/** Bodies larger than this are cut in the viewer (the size is still reported in full). */
export const MAX_SHOWN_BODY = 5 * 1024 * 1024;

import type { TransportOptions } from "../../http/client.ts";
import type { ConnectionState } from "./connection_api.ts";
import { transportSettingFlags } from "./connection_api.ts";
import type { EnvLookup } from "../../env.ts";

/** What the server needs to send on the browser's behalf. */
export interface ApiContext {
  /** Aborts everything when the server stops. */
  signal: AbortSignal;
  /** The fetch to use for outbound requests. */
  fetch?: typeof fetch;
  /** CA certificates, client certificate, `-k`, proxy for WebSocket handshakes (`dial ui` flags). */
  transport?: TransportOptions;
  /** OAuth 2.0 settings the server adds to every OAuth auth panel. */
  oauth?: UiOAuthSettings;
  /** The introspection cache directory (default: the CLI's). */
  graphqlCacheDir?: string;
  /** Whether a session secret is one of this server's (the stream bridge's first message). */
  isSession?: (session: string) => boolean;
  /** Full response bodies, for Save. */
  bodies?: BodyStore;
  /** The UI's remembered state (drafts, history), in the workspace. */
  state?: UiStateStore;
  /** A new one-time launch link (another tab of the same app). */
  launchUrl?: () => string;
  /** The workspace folder whose request files the sidebar shows. */
  workspace?: Workspace;
  /** The process environment, for `@env:NAME` references in environment files. */
  env?: EnvLookup;
  /** dial's config directory, where a workspace's TLS and proxy settings are kept (default: the user's). */
  configDir?: string;
  /** The workspace's TLS and proxy settings over `dial ui`'s flags (`connection_api.ts`). */
  connection?: ConnectionState;
  /** The workspace's cookie jar: what the HTTP tab's responses set, sent back by the CLI's rules. */
  cookies?: CookieJar;
  /** Globals and named requests' results, shared by every Send and ▶ Run of the workspace. */
  session?: WorkspaceSession;
}

/**
 * `POST /api/http`: sends the request the HTTP tab describes.
 *
 * @param request the browser's request, JSON body
 * @param context signal and fetch
 * @returns NDJSON: {@link HttpEvent}s, the response (its long body in parts) or the error
 */
export async function handleHttpSend(request: Request, context: ApiContext): Promise<Response> {
  const json = await substituteRequest(
    object(await readJson(request), "request"),
    context.workspace,
    authTokenOptions(context),
  );
  // Parsed once without the files first: a bad field is refused before anything is written.
  parseUiRequest(json, context.oauth);
  const follow = json.follow === undefined ? true : boolean(json.follow, "follow");
  return ndjsonResponse<HttpEvent>(async ({ emit, emitText, signal }) => {
    await using uploads = await spoolUploads(json.body, context.bodies);
    const included = await workspaceIncludes(json, context.workspace);
    const spec = parseUiRequest(json, {
      ...context.oauth,
      notify: (notice) => emit({ type: "notice", ...notice }),
    }, new Map([...uploads.paths, ...included]));
    const started = performance.now();
    const exchange = await send(spec, {
      follow,
      signal,
      ...(context.fetch ? { fetch: context.fetch } : {}),
      ...(context.cookies ? { cookies: context.cookies } : {}),
    });
    const response = await describeResponse(exchange, started, context);
    await emitResponse({ emit, emitText }, response, json.bodyParts === true);
  }, { signal: context.signal, timeoutMs: timeoutOf(json.timeoutMs) });
}

/**
 * Writes a response for the page: one line, or, when the call asked for parts, for a long body
 * the response's line and then its body in parts of at most {@link BODY_PART} characters, each
 * as it is after its line (`bodyParts` says how many; no part ends between the halves of a
 * surrogate pair). The response's line and the first part go
 * out at once, the rest in slices of the server's thread: the page shows the first screen while
 * the rest is written.
 *
 * @param call the answer's writers
 * @param response the response as the page sees it
 * @param parts whether the call asked for a long body in parts
 */
export async function emitResponse(
  call: Pick<
    NdjsonCall<{ type: "response"; response: ResponseJson } | BodyPartEvent>,
    "emit" | "emitText"
  >,
  response: ResponseJson,
  parts: boolean,
): Promise<void> {
  const { body } = response;
  if (!parts || body === undefined || body.length <= BODY_PART) {
    call.emit({ type: "response", response });
    return;
  }
  const { body: _body, ...head } = response;
  // Cut between the halves of no surrogate pair: each part is text of its own.
  const cuts = [0];
  while (cuts.at(-1)! < body.length) {
    const end = Math.min(body.length, cuts.at(-1)! + BODY_PART);
    const code = body.charCodeAt(end - 1);
    const pair = end < body.length && code >= 0xd800 && code <= 0xdbff;
    cuts.push(pair && end - 1 > cuts.at(-1)! ? end - 1 : end);
  }
  call.emit({ type: "response", response: { ...head, bodyParts: cuts.length - 1 } });
  let slice = -Infinity;
  for (let i = 1; i < cuts.length; i++) {
    call.emitText({ type: "body", text: body.slice(cuts[i - 1], cuts[i]) });
    // Written before the next lines are made (the answer's stream is written between tasks).
    if (performance.now() - slice > EMIT_SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      slice = performance.now();
    }
  }
}

/** The longest stretch (ms) of making a long body's lines before the server writes them. */
const EMIT_SLICE_MS = 8;

/**
 * Reads a response for the page: its head, the first {@link MAX_SHOWN_BODY} of its body as
 * text (none when binary), the whole body kept for Save when the server keeps bodies.
 *
 * @param exchange the exchange, its body not read yet
 * @param started when the request was sent (`performance.now()`)
 * @param context the body store
 * @returns the response as the page sees it
 */
export async function describeResponse(
  exchange: Exchange,
  started: number,
  context: ApiContext,
): Promise<ResponseJson> {
  const { bytes, size, id } = context.bodies
    ? await context.bodies.spool(exchange.response.body, MAX_SHOWN_BODY)
    : await readLimited(exchange.response.body, MAX_SHOWN_BODY);
  const timeMs = performance.now() - started;
  const body = bodyText(
    exchange.response.headers.get("content-type") ?? "",
    bytes,
    size > bytes.length,
  );
  const version = responseMeta(exchange.response)?.version;
  return {
    status: exchange.response.status,
    statusText: exchange.response.statusText,
    ...(version ? { version } : {}),
    url: displayUrl(exchange.request),
    headers: responseHeaders(exchange.response),
    ...(body !== undefined ? { body } : {}),
    truncated: size > bytes.length,
    ...(id !== undefined ? { bodyId: id } : {}),
    size,
    timeMs: Math.round(timeMs * 10) / 10,
    redirects: exchange.redirects,
  };
}

/**
 * `POST /api/http/curl`: the equivalent curl command, secrets included (the user asked, as
 * with `dial --curl`).
 *
 * @param request the browser's request, JSON body
 * @param context signal and fetch
 * @returns `{curl}`
 */
export async function handleHttpCurl(request: Request, context: ApiContext): Promise<Response> {
  const json = await substituteRequest(
    object(await readJson(request), "request"),
    context.workspace,
    authTokenOptions(context),
  );
  const spec = parseUiRequest(
    json,
    context.oauth,
    await workspaceIncludes(json, context.workspace),
  );
  const { request: prepared } = await authorize(spec, {
    signal: context.signal,
    ...(context.fetch ? { fetch: context.fetch } : {}),
  });
  const follow = json.follow === undefined ? true : boolean(json.follow, "follow");
  // The workspace's TLS and proxy settings are curl's flags too (paths relative to the workspace).
  const extra = transportSettingFlags(context.connection?.settings ?? {});
  return Response.json({ curl: toCurl(prepared, { follow, ...(extra.length ? { extra } : {}) }) });
}

/**
 * `POST /api/http/body`: the whole body of an earlier response, streamed (for Save).
 *
 * @param request `{id}`
 * @param context the body store
 * @returns the body, as an attachment
 */
export async function handleHttpBody(request: Request, context: ApiContext): Promise<Response> {
  const json = object(await readJson(request), "request");
  const id = string(json.id, "id");
  if (!context.bodies) throw new UsageError("Response bodies are not kept by this server");
  return new Response(await context.bodies.open(id), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": "attachment",
    },
  });
}

/**
 * Form rows whose value is a request file's include, `< ./file`, in a request opened from a
 * workspace file: that file, relative to the request file and confined to the workspace (as
 * `dial run` reads it relative to the file).
 *
 * @param json the request, with its `file`
 * @param workspace the workspace, if any
 * @returns row index → the file's real path
 * @throws {import("../workspace_path.ts").OutsideWorkspaceError} for a path that leaves it
 */
async function workspaceIncludes(
  json: JsonObject,
  workspace: Workspace | undefined,
): Promise<Map<number, string>> {
  const paths = new Map<number, string>();
  const file = typeof json.file === "string" ? json.file : undefined;
  const body = json.body;
  if (!workspace || file === undefined || !isObject(body) || body.kind !== "form") return paths;
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  for (const [i, row] of (Array.isArray(body.fields) ? body.fields : []).entries()) {
    if (!isObject(row) || row.enabled === false || isObject(row.file)) continue;
    const include = typeof row.value === "string" ? /^<\s+(\S.*)$/.exec(row.value.trim()) : null;
    if (!include) continue;
    const path = include[1]!.trim();
    paths.set(i, await workspace.resolve(path.startsWith("/") ? path : `${dir}${path}`));
  }
  return paths;
}

/**
 * Writes the files attached to a multipart form to the server's private directory.
 *
 * @param body the request's `body` JSON
 * @param bodies the store whose private directory holds them
 * @returns row index → path, removed when disposed
 */
async function spoolUploads(
  body: unknown,
  bodies: BodyStore | undefined,
): Promise<{ paths: Map<number, string> } & AsyncDisposable> {
  const paths = new Map<number, string>();
  const files: AsyncDisposable[] = [];
  const fields = isObject(body) && body.kind === "form" && Array.isArray(body.fields)
    ? body.fields
    : [];
  try {
    for (const [i, row] of fields.entries()) {
      if (!isObject(row) || !isObject(row.file) || row.enabled === false) continue;
      if (!bodies) throw new UsageError("This server cannot attach files to forms");
      const { base64 } = uploadOf(row.file, `body.fields[${i}].file`);
      const upload = await bodies.upload(decodeBase64(base64, `body.fields[${i}].file.base64`));
      files.push(upload);
      paths.set(i, upload.path);
    }
  } catch (error) {
    for (const file of files) await file[Symbol.asyncDispose]();
    throw error;
  }
  return {
    paths,
    async [Symbol.asyncDispose]() {
      for (const file of files) await file[Symbol.asyncDispose]();
    },
  };
}

function decodeBase64(text: string, field: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    throw new UsageError(`Invalid ${field}: expected base64`);
  }
}

/**
 * Reads a body up to a limit, then counts (and discards) the rest.
 *
 * @param body the stream
 * @param limit the most bytes to keep
 * @returns the kept bytes and the full size
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<{ bytes: Uint8Array; size: number; id?: string }> {
  if (!body) return { bytes: new Uint8Array(), size: 0 };
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (kept < limit) {
      const part = chunk.subarray(0, limit - kept);
      chunks.push(part);
      kept += part.length;
    }
  }
  const bytes = new Uint8Array(kept);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, size };
}
