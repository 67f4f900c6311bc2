/**
 * The gRPC tab's fields, and how a request file's `GRPC` request fills them and is written back
 * from them (the workspace's request tabs, `kind_requests.ts`): `GRPC host:port/pkg.Service/Method`
 * is the Server and the method, header lines the metadata, the body the message. The file's
 * `proto <` lines (and its `includeDirs`) fill the Proto files fields, as workspace paths; saving
 * writes the request line, metadata and message in place and keeps those lines as the file has
 * them.
 * @module
 */
import type { HttpRequest } from "../../../files/http_file_types.ts";
import { isString, jsonWithoutSecrets, persisted } from "../storage.ts";
import { tabCore } from "../tab_core.tsx";
import type { OpenedFile } from "../workspace/files.ts";
import type { HttpDraft } from "../workspace/request_edit.ts";

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
 * @param file its file (for the file's own `proto <` lines and the paths' folder)
 */
export function grpcFill(request: HttpRequest, body: string, file: OpenedFile): void {
  const target = /^((?:grpcs?:\/\/)?[^/\s]+)\/+(\S+)$/i.exec(request.url.trim());
  core.url.value = target?.[1] ?? request.url;
  method.value = target?.[2] ?? "";
  core.headers.value = request.headers.map((h) => ({
    name: h.name,
    value: h.value,
    enabled: true,
  }));
  message.value = body;
  const parsed = "requests" in file.parsed ? file.parsed : undefined;
  const protos = [...parsed?.protos ?? [], ...request.protos ?? []];
  protoFiles.value = protos.map((p) => workspacePath(file.path, p.path)).join(", ");
  importPaths.value = [
    ...new Set(protos.flatMap((p) => p.importPaths.map((d) => workspacePath(file.path, d)))),
  ].join(", ");
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
