/**
 * The gRPC tab's fields, and how a request file's `GRPC` request fills them and is written back
 * from them (the workspace's request tabs, `kind_requests.ts`): `GRPC host:port/pkg.Service/Method`
 * is the Server and the method, header lines the metadata, the body the message. The file's
 * `proto <` lines (and its `includeDirs`) fill the Proto files fields, as workspace paths; saving
 * writes the request line, metadata and message in place and keeps those lines as the file has
 * them; "Save as" writes the tab's Proto files as `proto <` lines relative to the new file.
 * @module
 */
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { isString, jsonWithoutSecrets, persisted } from "../storage.ts";
import { tabCore } from "../tab_core.tsx";
import type { OpenedFile } from "../workspace/files.ts";
import { type HttpDraft, writeDraft } from "../workspace/request_edit.ts";
import { protoLines } from "../../../files/write_http_file.ts";

/** The gRPC tab's server, metadata, auth, call in flight and history. */
export const core = tabCore("grpc", { url: "grpc.url", headers: "grpc.headers" });
/** `package.Service/Method`. */
export const method = persisted("grpc.method", "", isString);
/** The message(s), JSON text. */
export const message = persisted("grpc.body", "{}", isString, jsonWithoutSecrets);
/** `.proto` files, workspace paths separated by commas. */
export const protoFiles = persisted("grpc.protos", "", isString);
/** Their import folders, workspace paths separated by commas. */
export const importPaths = persisted("grpc.importPaths", "", isString);
/** The call's deadline in seconds. */
export const deadline = persisted("grpc.deadline", "30", isString);

/** The fields a request file's GRPC request fills and is saved from. */
export const grpcFields = {
  url: core.url,
  headers: core.headers,
  method,
  message,
  protoFiles,
  importPaths,
};

/** A path a request file writes, as a workspace path (its folder's, `./` and `../` resolved). */
function workspacePath(file: string, written: string): string {
  if (written.startsWith("/")) return written;
  const parts = file.split("/").slice(0, -1);
  for (const part of written.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/**
 * Shows a file's GRPC request in the tab.
 *
 * @param request the request
 * @param body its body as the tab shows it
 * @param file its file (for the file's own `proto <` lines and the paths' folder); without it
 *   the Proto fields stay as they are
 */
export function grpcFill(request: HttpRequest, body: string, file?: OpenedFile): void {
  const { server, method: name } = splitTarget(request.url);
  core.url.value = server;
  method.value = name;
  core.headers.value = request.headers.map((h) => ({
    name: h.name,
    value: h.value,
    enabled: true,
  }));
  message.value = body;
  if (!file) return;
  const parsed = "requests" in file.parsed ? file.parsed : undefined;
  const protos = [...parsed?.protos ?? [], ...request.protos ?? []];
  protoFiles.value = protos.map((p) => workspacePath(file.path, p.path)).join(", ");
  importPaths.value = [
    ...new Set(protos.flatMap((p) => p.importPaths.map((d) => workspacePath(file.path, d)))),
  ].join(", ");
}

/** The server and the method of a `GRPC` request's target. */
function splitTarget(url: string): { server: string; method: string } {
  const target = /^((?:grpcs?:\/\/)?[^/\s]+)\/+(\S+)$/i.exec(url.trim());
  return { server: target?.[1] ?? url, method: target?.[2] ?? "" };
}

/**
 * Shows fields written as a request of a file (the tab's own, restored after a reload with the
 * credentials storage withheld): the target, metadata and message.
 *
 * @param draft the fields
 */
export function grpcFillDraft(draft: HttpDraft): void {
  const { server, method: name } = splitTarget(draft.url);
  core.url.value = server;
  method.value = name;
  core.headers.value = draft.headers;
  message.value = draft.body;
}

/** @returns the tab's fields as a GRPC request of a file */
export function grpcDraft(): HttpDraft {
  const server = core.url.peek().trim().replace(/\/+$/, "");
  const body = message.peek();
  return {
    method: "GRPC",
    url: `${server}/${method.peek().trim()}`,
    headers: core.headers.peek(),
    bodyKind: body.trim() === "" ? "none" : "text",
    body,
    form: [],
  };
}

const list = (text: string) => text.split(",").map((p) => p.trim()).filter((p) => p !== "");

/** A workspace path as a request file in `dir` names it (`./x`, `../x`). */
function relativeTo(dir: string[], path: string): string {
  if (path.startsWith("/")) return path;
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  let common = 0;
  while (common < dir.length && common < parts.length - 1 && dir[common] === parts[common]) {
    common++;
  }
  const up = dir.length - common;
  const rest = parts.slice(common).join("/");
  return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}

/**
 * "Save as": the tab's request as the text a new request file holds, its `.proto` files as
 * `proto <` lines relative to that file.
 *
 * @param path the request file, a workspace path
 * @param name the request's name, if any
 * @returns the text to append
 */
export function grpcSaveAs(path: string, name?: string): string {
  const text = writeDraft(grpcDraft(), name);
  const files = list(protoFiles.peek());
  if (!files.length) return text;
  const dir = path.split("/").slice(0, -1);
  const dirs = list(importPaths.peek()).map((d) => relativeTo(dir, d));
  const lines = protoLines(files.map((f) => ({ path: relativeTo(dir, f), importPaths: dirs })));
  return text.replace(/^GRPC /m, `${lines.join("\n")}\nGRPC `);
}
