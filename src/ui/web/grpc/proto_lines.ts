/**
 * The gRPC tab's Proto fields and a request file's `proto <` lines, both ways (pure): the lines
 * as workspace paths (what the fields show), and the fields written back as lines relative to
 * the file (what Save and "Save as" write).
 * @module
 */
import type { HttpFile, HttpRequest, ProtoImport } from "../../../files/http_file_types.ts";
import { protoLines } from "../../../files/write_http_file.ts";

/** `.proto` files and the folders of their imports, as workspace paths. */
export interface ProtoFields {
  files: string[];
  dirs: string[];
}

/**
 * @param file the request file, a workspace path
 * @param written a path as the file writes it
 * @returns it as a workspace path (the file's folder's; `./` and `../` resolved)
 */
export function workspacePath(file: string, written: string): string {
  if (written.startsWith("/")) return written;
  const parts = file.split("/").slice(0, -1);
  for (const part of written.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/**
 * @param dir a request file's folder, a workspace path in parts
 * @param path a workspace path
 * @returns the path as the request file names it (`./x`, `../x`)
 */
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
 * @param file the request file, a workspace path
 * @param protos its `proto <` lines
 * @returns their files and import folders as workspace paths (the folders of all: `dial run`
 *   looks every import up in every one)
 */
export function protoFieldsOf(file: string, protos: readonly ProtoImport[]): ProtoFields {
  return {
    files: [...new Set(protos.map((p) => workspacePath(file, p.path)))],
    dirs: [...new Set(protos.flatMap((p) => p.importPaths.map((d) => workspacePath(file, d))))],
  };
}

/**
 * @param file the request file, a workspace path
 * @param fields the `.proto` files and import folders
 * @returns them as `proto <` lines of that file (every line with every folder, as httpyac
 *   needs them per file)
 */
export function protoLinesFor(file: string, fields: ProtoFields): string[] {
  const folder = file.split("/").slice(0, -1);
  const importPaths = fields.dirs.map((d) => relativeTo(folder, d));
  return protoLines(fields.files.map((f) => ({ path: relativeTo(folder, f), importPaths })));
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));

/**
 * Ctrl/Cmd+S: the Proto fields written as the request's own `proto <` lines. The lines of the
 * file's own block (before the first request, or between two `###`) hold for every GRPC request
 * of the file, so they stay and the request's lines add the rest; no `.proto` files means
 * reflection. Fields that say what the file says keep its lines byte for byte.
 *
 * @param text the file's text, the same as `file`'s up to the request line (the request line
 *   and what follows may have been saved already)
 * @param path the file, a workspace path
 * @param file the file as parsed
 * @param request the request, as parsed from the file
 * @param fields the tab's Proto fields
 * @returns the text with the request's `proto <` lines
 * @throws {Error} when the fields drop a file or folder of the file's own block, or name import
 *   folders without a `.proto` file of the request's own to go with
 */
export function saveProtoLines(
  text: string,
  path: string,
  file: HttpFile,
  request: HttpRequest,
  fields: ProtoFields,
): string {
  const block = file.protos ?? [];
  const own = request.protos ?? [];
  const shared = protoFieldsOf(path, block);
  const before = protoFieldsOf(path, [...block, ...own]);
  const { files, dirs } = fields;
  if (sameSet(files, before.files) && sameSet(dirs, before.dirs)) return text;
  const lost = [...shared.files, ...shared.dirs].find((p) => ![...files, ...dirs].includes(p));
  if (lost !== undefined) {
    throw new Error(
      `${lost} is in the proto < lines of ${path} that every GRPC request there shares: edit them in the file`,
    );
  }
  const mine = {
    files: files.filter((f) => !shared.files.includes(f)),
    dirs: dirs.filter((d) => !shared.dirs.includes(d)),
  };
  if (mine.dirs.length && !mine.files.length) {
    throw new Error(
      `Import paths ${
        mine.dirs.join(", ")
      } go with a .proto file of this request: add one, or edit the proto < lines of ${path}`,
    );
  }
  const line = text.slice(request.requestLine.start, request.requestLine.end);
  const newline = line.endsWith("\r\n") ? "\r\n" : "\n";
  const lines = protoLinesFor(path, mine).map((l) => l + newline).join("");
  // The request's own lines go where its first one was, else right above its request line.
  const at = own[0]?.span.start ?? request.requestLine.start;
  let rest = text.slice(at);
  for (const { span } of [...own].reverse()) {
    rest = rest.slice(0, span.start - at) + rest.slice(span.end - at);
  }
  return text.slice(0, at) + lines + rest;
}
