/**
 * A request file's `GRPC` request, run on the call `dial grpc` makes (reflection, the
 * credential step, dial's transport); the gRPC packages load only when a file has one. The
 * replies are the response body handlers see: the message of a unary or client-streaming
 * call, the list of messages of a streaming one; `response.status` is the gRPC status code
 * (0 for OK), as httpyac reports it.
 * @module
 */
import { load } from "../load.ts";
import type { Outcome } from "./_run_parts.ts";
import type { FileRequest } from "./file_request.ts";
import type { ProtoImport } from "./http_file_types.ts";
import type { Confinement } from "./trust_rule.ts";
import type { GrpcRequestOptions, ProtoFiles } from "../grpc/grpc_request.ts";

/** How a `GRPC` request ended. */
export interface GrpcStatus {
  /** The status code, 0 for OK. */
  code: number;
  /** Its name, e.g. `NOT_FOUND`. */
  name: string;
  /** The server's status message. */
  message: string;
  /** The response headers. */
  headers: [string, string][];
  /** The trailers. */
  trailers: [string, string][];
}

/**
 * Options of {@link runGrpcFileRequest}: the call's (the deadline from `# @timeout` or
 * `--timeout`) and the request file's.
 */
export interface GrpcFileOptions
  extends Pick<GrpcRequestOptions, "transport" | "signal" | "timeoutMs"> {
  /** Told of each reply as it arrives (as one line of JSON). */
  onMessage?: (text: string) => void | Promise<void>;
  /** `proto <` lines (the file's, then the request's): read instead of asking reflection. */
  protos?: readonly ProtoImport[];
  /** The request file, its folder and the run's folders: where `proto <` paths may lead. */
  where?: { path: string; dir: string; confinement: Confinement };
}

/**
 * The `.proto` files of `proto <` lines, under the trust rule: the files and `includeDirs`
 * must resolve inside the run's folders (symlinks followed), and so must every import found
 * on disk while the files are read.
 *
 * @param protos the `proto <` lines
 * @param where the request file, its folder, the run's folders
 * @returns the files and import folders to read, with the check of each import
 * @throws {UsageError} for a path outside the run's folders
 */
export async function protoFilesOf(
  protos: readonly ProtoImport[],
  where: { path: string; dir: string; confinement: Confinement },
): Promise<ProtoFiles> {
  const at = (written: string) => written.startsWith("/") ? written : `${where.dir}/${written}`;
  const files: string[] = [];
  const importPaths: string[] = [];
  for (const proto of protos) {
    const of = proto.span.line ? `${where.path}:${proto.span.line}` : where.path;
    const what = `the .proto file of ${of}`;
    files.push(await where.confinement.reading(at(proto.path), { what, written: proto.path }));
    for (const dir of proto.importPaths) {
      importPaths.push(
        await where.confinement.reading(at(dir), {
          what: `the includeDirs folder of ${of}`,
          written: dir,
        }),
      );
    }
  }
  const check = (path: string) => {
    const real = Deno.realPathSync(path);
    if (!where.confinement.contains(real)) {
      throw where.confinement.outside(
        { what: `the .proto import of ${where.path}`, written: path },
        real,
      );
    }
  };
  return { files, importPaths, check, remedy: "include_dirs" };
}

/**
 * Runs a `GRPC` request.
 *
 * @param fileRequest the built request (`grpc` set)
 * @param options transport, signal, deadline, observer
 * @returns the outcome handlers, assertions and reports read, and the status
 * @throws {DialError} for an unknown method, a message that does not fit, no reflection, a
 *   connection or TLS failure
 */
export async function runGrpcFileRequest(
  fileRequest: FileRequest,
  options: GrpcFileOptions = {},
): Promise<{ outcome: Outcome; status: GrpcStatus }> {
  const { runGrpcRequest } = await load.grpcRequest();
  const protos = options.protos?.length && options.where
    ? await protoFilesOf(options.protos, options.where)
    : undefined;
  const result = await runGrpcRequest(
    fileRequest.spec,
    fileRequest.grpc!.method,
    fileRequest.bodyText,
    {
      ...(options.transport ? { transport: options.transport } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(protos ? { protos } : {}),
      ...(options.onMessage
        ? { onReply: (reply) => options.onMessage!(JSON.stringify(reply)) }
        : {}),
    },
  );
  const body = result.streaming ? result.replies : result.replies[0] ?? null;
  return {
    outcome: {
      status: result.status,
      // The body is the replies in the proto3 JSON form, whatever the wire's content type.
      headers: [
        ...result.headers.filter(([name]) => name !== "content-type"),
        ["content-type", "application/json"],
        ...result.trailers,
      ],
      body: JSON.stringify(body),
      requestHeaders: result.requestHeaders,
      url: `${fileRequest.spec.url.origin}/${fileRequest.grpc!.method}`,
    },
    status: {
      code: result.status,
      name: result.statusName,
      message: result.statusMessage,
      headers: result.headers,
      trailers: result.trailers,
    },
  };
}
