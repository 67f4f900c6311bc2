/**
 * The workspace's request files as the page knows them: the list (`/api/workspace/files`),
 * each opened file's text, modification time and parse, and a stream of changes on disk that
 * re-reads what changed. Parsing is the request files' own parser, run in the page.
 * @module
 */
import { signal } from "@preact/signals";
import { ApiError, isRecord, ndjson, post, postJson, toApiError } from "../api.ts";
import { parseHttpFile } from "../../../files/parse_http_file.ts";
import type { HttpFile, HttpRequest } from "../../../files/http_file_types.ts";
import { loadIndex, requestIndex } from "./request_index.ts";

/** A file of the workspace, read and parsed. */
export interface OpenedFile {
  path: string;
  text: string;
  mtime: number;
  /** The parse, or why the file does not parse. */
  parsed: HttpFile | { error: string };
  /**
   * Each request's keyed digest by its index, from the server (`base_digest.ts`): what browser
   * storage keeps of a tab's base instead of its text.
   */
  digests: Readonly<Record<string, string>>;
}

/** Where a tab's request lives in a file. */
export interface RequestPlace {
  path: string;
  /** 1-based position in the file when it was opened. */
  index: number;
  name?: string;
}

/**
 * The request a place points at in a file's parse: by name, else by position.
 *
 * @param file the file, parsed
 * @param place where the request was
 * @returns the request, if it is still there
 */
export function findRequest(file: OpenedFile, place: RequestPlace): HttpRequest | undefined {
  if ("error" in file.parsed) return undefined;
  const requests = file.parsed.requests;
  return (place.name ? requests.find((r) => r.name === place.name) : undefined) ??
    requests.find((r) => r.index === place.index);
}

/**
 * @param file a request file
 * @param base the name wanted
 * @returns a request name the file does not have yet: `base`, else `base-2`, `base-3`…
 */
export function freeName(file: OpenedFile, base: string): string {
  const taken = new Set("error" in file.parsed ? [] : file.parsed.requests.map((r) => r.name));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

/** The workspace folder's real path, once listed; empty without a workspace. */
export const workspaceRoot = signal("");
/** The request files, by relative path. */
export const workspaceFiles = signal<string[]>([]);
/** Files read so far, by path. */
export const openedFiles = signal<ReadonlyMap<string, OpenedFile>>(new Map());
/** Whether changes on disk are followed. */
export const watching = signal(false);
/** Why the workspace could not be listed. */
export const workspaceError = signal<string | undefined>(undefined);

const listeners = new Set<(file: OpenedFile) => void>();

/**
 * @param listener called whenever a file is (re-)read
 * @returns stops listening
 */
export function onFileRead(listener: (file: OpenedFile) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Lists the workspace's request files. */
export async function listFiles(): Promise<void> {
  try {
    const answer = await postJson("/api/workspace/files", {});
    if (!isRecord(answer) || !Array.isArray(answer.files)) return;
    workspaceRoot.value = typeof answer.root === "string" ? answer.root : "";
    workspaceFiles.value = answer.files.flatMap((f) =>
      isRecord(f) && typeof f.path === "string" ? [f.path] : []
    );
    workspaceError.value = undefined;
  } catch (error) {
    workspaceError.value = toApiError(error).message;
  }
}

/**
 * Reads and parses a file (again).
 *
 * @param path relative to the workspace
 * @returns the file
 */
export async function readFile(path: string): Promise<OpenedFile> {
  const answer = await postJson("/api/workspace/read", { path });
  if (!isRecord(answer) || typeof answer.text !== "string" || typeof answer.mtime !== "number") {
    throw new ApiError("Unexpected answer from the dial server", 0);
  }
  return remember(path, answer.text, answer.mtime, digestsOf(answer.digests));
}

function digestsOf(value: unknown): Record<string, string> {
  return isRecord(value)
    ? Object.fromEntries(Object.entries(value).filter(([, d]) => typeof d === "string")) as Record<
      string,
      string
    >
    : {};
}

/**
 * Writes a file; with `mtime` only if it is unchanged on disk since then (else 409).
 *
 * @param path relative to the workspace
 * @param text the new text
 * @param mtime the modification time it was read at; none for a new file
 * @returns the file as written
 */
export async function writeFile(path: string, text: string, mtime?: number): Promise<OpenedFile> {
  const answer = await postJson("/api/workspace/write", {
    path,
    text,
    ...(mtime !== undefined ? { mtime } : {}),
  });
  if (!isRecord(answer) || typeof answer.mtime !== "number") {
    throw new ApiError("Unexpected answer from the dial server", 0);
  }
  if (!workspaceFiles.peek().includes(path)) {
    workspaceFiles.value = [...workspaceFiles.peek(), path].sort();
  }
  return remember(path, text, answer.mtime, digestsOf(answer.digests));
}

function remember(
  path: string,
  text: string,
  mtime: number,
  digests: Record<string, string>,
): OpenedFile {
  let parsed: OpenedFile["parsed"];
  try {
    parsed = parseHttpFile(text, path);
  } catch (error) {
    parsed = { error: error instanceof Error ? error.message : String(error) };
  }
  const file: OpenedFile = { path, text, mtime, parsed, digests };
  openedFiles.value = new Map(openedFiles.peek()).set(path, file);
  for (const listener of listeners) listener(file);
  return file;
}

/**
 * The names of the workspace session's `client.global`s (set by a handler in any Send or ▶ Run),
 * as the server last said.
 */
export const sessionGlobals = signal<ReadonlySet<string>>(new Set());

/**
 * Follows changes on disk until the page goes: the list is refreshed, and files already read
 * are read again (a deleted one is forgotten); and the session's globals ({@link sessionGlobals}).
 */
export async function watchFiles(): Promise<void> {
  try {
    const response = await post("/api/workspace/changes", {});
    for await (const event of ndjson(response)) {
      if (isRecord(event) && event.type === "ready") watching.value = true;
      if (isRecord(event) && event.type === "globals" && Array.isArray(event.names)) {
        sessionGlobals.value = new Set(event.names.filter((n) => typeof n === "string"));
      }
      if (!isRecord(event) || !Array.isArray(event.paths)) continue;
      await listFiles();
      // The requests' index, once asked for (quick-open, the filter, a `{{login.response…}}`).
      if (requestIndex.peek().length > 0) void loadIndex();
      for (const path of event.paths) {
        if (typeof path !== "string" || !openedFiles.peek().has(path)) continue;
        const current = openedFiles.peek().get(path)!;
        try {
          const again = await postJson("/api/workspace/read", { path });
          if (isRecord(again) && again.mtime !== current.mtime && typeof again.text === "string") {
            remember(path, again.text, Number(again.mtime), digestsOf(again.digests));
          }
        } catch {
          const next = new Map(openedFiles.peek());
          next.delete(path);
          openedFiles.value = next;
        }
      }
    }
  } catch {
    // no workspace, or the server went away: nothing to follow
  }
  watching.value = false;
}
