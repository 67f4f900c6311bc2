/**
 * The gRPC tab's fields, and how a request file's `GRPC` request fills them and is written back
 * from them (the workspace's request tabs, `kind_requests.ts`): `GRPC host:port/pkg.Service/Method`
 * is the Server and the method, header lines the metadata, the body the message. The file's
 * `proto <` lines (and its `includeDirs`) fill the Proto files fields, as workspace paths; saving
 * writes the request line, metadata and message in place, and the Proto fields as the
 * request's own `proto <` lines (unchanged fields keep the file's lines byte for byte); "Save
 * as" writes the tab's Proto files as `proto <` lines relative to the new file.
 * @module
 */
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { isString, jsonWithoutSecrets, persisted } from "../storage.ts";
import { tabCore } from "../tab_core.tsx";
import type { OpenedFile } from "../workspace/files.ts";
import type { HttpDraft } from "../workspace/request_edit.ts";
import { type ProtoFields, protoFieldsOf, protoLinesFor, saveProtoLines } from "./proto_lines.ts";

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

/**
 * @param text paths separated by commas, as the Proto fields hold them
 * @returns the paths
 */
export const pathList = (text: string): string[] =>
  text.split(",").map((p) => p.trim()).filter((p) => p !== "");

/** The fields a request file's GRPC request fills and is saved from. */
export const grpcFields = {
  url: core.url,
  headers: core.headers,
  method,
  message,
  protoFiles,
  importPaths,
};

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
  const fields = protoFieldsOf(file.path, protos);
  protoFiles.value = fields.files.join(", ");
  importPaths.value = fields.dirs.join(", ");
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

/**
 * @returns the tab's fields as a GRPC request of a file, with its Proto fields (`protos`: the
 *   request files' writer leaves them out; they count for the tab's unsaved mark)
 */
export function grpcDraft(): HttpDraft & { protos: ProtoFields } {
  const server = core.url.peek().trim().replace(/\/+$/, "");
  const body = message.peek();
  return {
    method: "GRPC",
    url: `${server}/${method.peek().trim()}`,
    headers: core.headers.peek(),
    bodyKind: body.trim() === "" ? "none" : "text",
    body,
    form: [],
    protos: { files: pathList(protoFiles.peek()), dirs: pathList(importPaths.peek()) },
  };
}

/**
 * Ctrl/Cmd+S: the tab's Proto fields written as the request's own `proto <` lines
 * (`saveProtoLines`).
 *
 * @param text the file's text with the request's request line, metadata and message saved
 * @param file the file as read
 * @param request the request, as parsed from `file`
 * @returns the text with the request's `proto <` lines
 * @throws {Error} when the fields cannot be written for this request alone
 */
export function grpcSaveProtos(text: string, file: OpenedFile, request: HttpRequest): string {
  if (!("requests" in file.parsed)) return text;
  return saveProtoLines(text, file.path, file.parsed, request, grpcDraft().protos);
}

/**
 * "Save as" and "Keep both": the tab's `.proto` files as `proto <` lines relative to the
 * request file the tab's request is appended to, above its request line.
 *
 * @param path the request file, a workspace path
 * @param text the tab's request as written
 * @returns the text to append
 */
export function grpcProtoLinesIn(path: string, text: string): string {
  const lines = protoLinesFor(path, grpcDraft().protos);
  if (!lines.length) return text;
  return text.replace(/^GRPC /m, `${lines.join("\n")}\nGRPC `);
}
