/**
 * The workspace's files for the sidebar: list the request files (`.http`, `.rest`) under the
 * workspace folder, read one, write one back (refused with 409 when it changed on disk since it
 * was read), rename and delete, and a stream of changes on disk (git, an editor) so the page
 * reloads what changed. Every path goes through {@link Workspace.resolve}: nothing outside the
 * folder is read or written, symlinks included.
 * @module
 */
import { load } from "../../load.ts";
import { UsageError } from "../../errors/mod.ts";
import type { ErrorBody } from "../protocol.ts";
import type { Workspace } from "../workspace_path.ts";
import type { ApiContext } from "./http_api.ts";
import { object, readJson, string } from "./decode.ts";
import { ndjsonResponse } from "./ndjson.ts";
import { requestDigests } from "./base_digest.ts";
import { listRequestFiles, REQUEST_FILE, SKIPPED } from "./request_file_list.ts";

/** The largest request file opened, in bytes. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** @returns the file's information, or undefined when it went away (or cannot be read) */
function statOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * @param context the session
 * @param missing the message when it has no workspace
 * @returns its workspace
 * @throws UsageError when there is none
 */
function workspaceOf(context: ApiContext, missing = NO_WORKSPACE): Workspace {
  if (!context.workspace) throw new UsageError(missing);
  return context.workspace;
}

const NO_WORKSPACE = "This dial ui has no workspace folder";

/**
 * Reads a call that needs the workspace: the workspace first, then the call's JSON object.
 *
 * @param request the call
 * @param context the session
 * @param missing the message when the session has no workspace
 * @returns the workspace and the call's JSON
 * @throws UsageError when there is no workspace or the call is not a JSON object
 */
export async function workspaceCall(
  request: Request,
  context: ApiContext,
  missing = NO_WORKSPACE,
): Promise<{ workspace: Workspace; json: Record<string, unknown> }> {
  const workspace = workspaceOf(context, missing);
  return { workspace, json: object(await readJson(request), "request") };
}

/** A call that names a file of the workspace: its JSON, the path as given, the real file. */
interface FileCall {
  json: Record<string, unknown>;
  workspace: Workspace;
  path: string;
  real: string;
}

/**
 * Reads a call's `{path, …}` and resolves the path inside the workspace.
 *
 * @param request the call
 * @param context the workspace
 * @param options `create`: the file may not exist yet, and must be a request file
 * @returns the call's JSON, the workspace, the path and the real file
 * @throws UsageError when the path leaves the workspace or is not a request file
 */
async function fileCall(
  request: Request,
  context: ApiContext,
  options: { create?: boolean } = {},
): Promise<FileCall> {
  const json = object(await readJson(request), "request");
  const path = string(json.path, "path");
  const workspace = workspaceOf(context);
  if (options.create) requestFileName(path);
  const real = options.create
    ? await workspace.resolve(path, { create: true })
    : await workspace.resolveFile(path);
  return { json, workspace, path, real };
}

/**
 * @param path a path the page gave
 * @returns the path, when it names a request file (`.http`, `.rest`)
 * @throws UsageError otherwise
 */
function requestFileName(path: string): string {
  if (!REQUEST_FILE.test(path)) throw notRequestFile(path);
  return path;
}

function notRequestFile(path: string): UsageError {
  return new UsageError(`"${path}" is not a .http or .rest file`);
}

/**
 * `POST /api/workspace/files`: `{}` → `{root, files: [{path}]}`.
 *
 * @param request the call
 * @param context the workspace
 * @returns the listing
 */
export async function handleWorkspaceFiles(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  await readJson(request);
  const workspace = workspaceOf(context);
  const files = await listRequestFiles(workspace);
  return Response.json({ root: workspace.root, files: files.map((path) => ({ path })) });
}

/** One request of the index: enough to find it and open it. */
export interface IndexedRequest {
  /** Its 1-based position in its file. */
  index: number;
  name?: string;
  method: string;
  /** The URL as written (`{{variables}}` kept). */
  url: string;
}

/** Parses of the files, kept while their modification time is unchanged. */
const parsed = new WeakMap<Workspace, Map<string, { mtime: number; entry: IndexedFile }>>();

/** One file of the index. */
export interface IndexedFile {
  path: string;
  requests: IndexedRequest[];
  /** Why it does not parse. */
  error?: string;
}

/**
 * `POST /api/workspace/index`: `{}` → `{files: [{path, requests: [{index, name?, method, url}],
 * error?}]}`, every request of every request file, for quick-open and the sidebar's filter.
 * A file is parsed again only when it changed.
 *
 * @param request the call
 * @param context the workspace
 * @returns the index
 */
export async function handleWorkspaceIndex(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  await readJson(request);
  return Response.json({ files: await indexFiles(workspaceOf(context)) });
}

/**
 * @param workspace the workspace
 * @returns every request of every request file (a file is parsed again only when it changed)
 */
export async function indexFiles(workspace: Workspace): Promise<IndexedFile[]> {
  let cache = parsed.get(workspace);
  if (!cache) parsed.set(workspace, cache = new Map());
  const files: IndexedFile[] = [];
  const { parseHttpFile } = await load.parseHttpFile();
  for (const path of await listRequestFiles(workspace)) {
    // Without a turn of the event loop per file: on a loaded machine each turn waits.
    const mtime = statOrUndefined(`${workspace.root}/${path}`)?.mtime?.getTime();
    if (mtime === undefined) continue;
    const kept = cache.get(path);
    if (kept && kept.mtime === mtime) {
      files.push(kept.entry);
      continue;
    }
    let entry: IndexedFile;
    try {
      const real = await workspace.resolve(path);
      const info = await Deno.stat(real);
      if (info.size > MAX_FILE_BYTES) throw new UsageError(`"${path}" is larger than 8 MiB`);
      const file = parseHttpFile(await Deno.readTextFile(real), path);
      entry = {
        path,
        requests: file.requests.map((r) => ({
          index: r.index,
          ...(r.name !== undefined ? { name: r.name } : {}),
          method: r.method,
          url: r.url,
        })),
      };
    } catch (error) {
      entry = { path, requests: [], error: error instanceof Error ? error.message : String(error) };
    }
    cache.set(path, { mtime, entry });
    files.push(entry);
  }
  return files;
}

/**
 * `POST /api/workspace/read`: `{path}` → `{path, text, mtime, digests}` (each request's keyed
 * digest by its index: `base_digest.ts`).
 *
 * @param request the call
 * @param context the workspace
 * @returns the file's text
 */
export async function handleWorkspaceRead(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { path, real } = await fileCall(request, context);
  const info = await Deno.stat(real);
  if (!info.isFile) throw new UsageError(`"${path}" is not a file`);
  if (info.size > MAX_FILE_BYTES) throw new UsageError(`"${path}" is larger than 8 MiB`);
  const text = await Deno.readTextFile(real);
  const digests = await requestDigests(text, context);
  return Response.json({ path, text, mtime: info.mtime?.getTime() ?? 0, digests });
}

/**
 * `POST /api/workspace/write`: `{path, text, mtime?}`; with `mtime` (when the page read it)
 * the write is refused (409) if the file changed since; without, the file must be new.
 *
 * @param request the call
 * @param context the workspace
 * @returns `{path, mtime, digests}`
 */
export async function handleWorkspaceWrite(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { json, workspace, path, real } = await fileCall(request, context, { create: true });
  const text = string(json.text, "text");
  const current = await Deno.stat(real).catch(() => undefined);
  if (typeof json.mtime === "number") {
    if (!current || (current.mtime?.getTime() ?? 0) !== json.mtime) {
      return conflict(
        `"${path}" changed on disk since it was opened`,
        "reload it (your edits stay in the tab), then save again",
      );
    }
  } else if (current) {
    return conflict(`"${path}" exists already`, "choose another name");
  }
  const mtime = await workspace.write(path, text);
  return Response.json({ path, mtime, digests: await requestDigests(text, context) });
}

/**
 * `POST /api/workspace/rename`: `{path, to}`.
 *
 * @param request the call
 * @param context the workspace
 * @returns `{ok: true}`
 */
export async function handleWorkspaceRename(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { json, workspace, real: from } = await fileCall(request, context);
  const to = requestFileName(string(json.to, "to"));
  const target = await workspace.resolve(to, { create: true });
  if (await Deno.lstat(target).then(() => true, () => false)) {
    return conflict(`"${to}" exists already`, "choose another name");
  }
  await Deno.rename(from, target);
  return Response.json({ ok: true });
}

/**
 * `POST /api/workspace/delete`: `{path}` (a request file).
 *
 * @param request the call
 * @param context the workspace
 * @returns `{ok: true}`
 */
export async function handleWorkspaceDelete(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const { path, real } = await fileCall(request, context);
  if (!REQUEST_FILE.test(real) || !(await Deno.stat(real)).isFile) throw notRequestFile(path);
  await Deno.remove(real);
  return Response.json({ ok: true });
}

/** A line of `/api/workspace/changes`. */
type WorkspaceChange =
  | { type: "ready" }
  | { type: "changed"; paths: string[] }
  | { type: "globals"; names: string[] };

/**
 * `POST /api/workspace/changes`: NDJSON, `{type: "ready"}` once changes are followed, then
 * one `{type: "changed", paths}` line per batch of changes on disk under the workspace, and
 * `{type: "globals", names}` now and whenever a Send or ▶ Run adds or removes a `client.global`
 * of the workspace session (the variables line resolves from the scope Send uses), until the
 * page goes away.
 *
 * @param request the call
 * @param context the workspace and the server's signal
 * @returns the stream
 */
export async function handleWorkspaceChanges(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  await readJson(request);
  const workspace = workspaceOf(context);
  return ndjsonResponse<WorkspaceChange>(
    async ({ emit, signal }) => {
      const watcher = Deno.watchFs(workspace.root, { recursive: true });
      signal.addEventListener("abort", () => watcher.close(), { once: true });
      // From here on no change is missed.
      emit({ type: "ready" });
      const unwatch = context.session?.globals.watch((names) => emit({ type: "globals", names }));
      try {
        for await (const event of watcher) {
          const paths = event.paths.filter((p) =>
            workspace.contains(p) && REQUEST_FILE.test(p) &&
            !workspace.relative(p).split("/").some((part) => SKIPPED.has(part))
          ).map((p) => workspace.relative(p));
          if (paths.length > 0) emit({ type: "changed", paths: [...new Set(paths)] });
        }
      } finally {
        unwatch?.();
      }
    },
    { signal: context.signal, timeoutMs: 0 },
  );
}

/** A write refused: the file changed on disk, or a new file's name is taken. */
function conflict(message: string, hint: string): Response {
  const body: ErrorBody = { error: { code: "conflict", message, hint } };
  return Response.json(body, { status: 409 });
}
