/**
 * One gRPC call as a request file or the UI's gRPC tab makes it (JetBrains'
 * `GRPC host:port/pkg.Service/Method`): the credentials applied by the one credential step, the
 * method found by reflection or in `.proto` files, every reply collected; and the listing of a
 * server's methods the tab picks from. A status other than OK is part of the result (as an
 * HTTP status is), not an error; bad input, connection and TLS failures are errors.
 * @module
 * @see https://www.jetbrains.com/help/idea/exploring-http-syntax.html (gRPC requests)
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { GrpcStatusError } from "../errors/mod.ts";
import { authorize } from "../http/credentials.ts";
import type { TransportOptions } from "../http/plan.ts";
import { hostPort } from "../http/authority.ts";
import type { RequestSpec } from "../http/request_spec.ts";
import { reveal } from "../secret.ts";
import { callMethod, requestMessage } from "./call.ts";
import type { GrpcOutbox } from "./outbox.ts";
import { type Channel, openChannel } from "./channel.ts";
import { listMethods, type MethodEntry } from "./catalog.ts";
import { jsonDocuments } from "./json_documents.ts";
import { ReflectionClient } from "./reflection.ts";
import { registryOf } from "./descriptors.ts";
import { type DescriptorSource, fileSource, findMethod, reflectionSource } from "./schema.ts";
import { load } from "../load.ts";

/** What a call ended with. */
export interface GrpcResult {
  /** The status code, 0 for OK. */
  status: number;
  /** Its name, e.g. `OK`, `NOT_FOUND`. */
  statusName: string;
  /** The server's status message, if any. */
  statusMessage: string;
  /** The replies in the proto3 JSON form, in order. */
  replies: JsonValue[];
  /** Whether the method streams its replies (a file's handler sees them as a list). */
  streaming: boolean;
  /** The response headers. */
  headers: [string, string][];
  /** The trailers. */
  trailers: [string, string][];
  /** The metadata sent (credentials included: the caller redacts them). */
  requestHeaders: [string, string][];
}

/** Options of {@link runGrpcRequest}. */
export interface GrpcRequestOptions {
  /** Trust, client certificates, proxies, as for HTTP. */
  transport?: TransportOptions;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** The call's deadline, in ms. */
  timeoutMs?: number;
  /** Told of each reply as it arrives. */
  onReply?: (reply: JsonValue) => void | Promise<void>;
  /** `.proto` files that describe the services instead of reflection. */
  protos?: ProtoFiles;
  /**
   * Requests given while the call is open: a client- or bidi-streaming method sends these
   * instead of the body's, and half-closes when the outbox ends (other methods ignore it).
   */
  outbox?: GrpcOutbox;
}

/** `.proto` files to read, as `dial grpc --proto … --import-path …` names them. */
export interface ProtoFiles {
  /** The files. */
  files: string[];
  /** The folders their imports are looked up in. */
  importPaths: string[];
  /** Refuses a file (an import outside the run's folders) by throwing. */
  check?: (path: string) => void;
  /** Where the import folders were given, for the message of a missing import. */
  remedy?: "import_path" | "include_dirs";
}

/**
 * Makes one call.
 *
 * @param spec the server (`url`: `http:` or `https:`), metadata and credentials; `method` is
 *   ignored
 * @param method `package.Service/Method`
 * @param body the request message(s) as JSON text; several documents for client and bidi
 *   streaming; empty sends `{}` to a method that takes one message
 * @param options transport, signal, deadline, observer
 * @returns the status, the replies, headers and trailers
 * @throws {UsageError} for an unknown method, a request that does not fit, no reflection
 * @throws {DialError} when the connection or TLS fails, or the credentials cannot be obtained
 */
export async function runGrpcRequest(
  spec: RequestSpec,
  method: string,
  body: string,
  options: GrpcRequestOptions = {},
): Promise<GrpcResult> {
  return await withSource(spec, options, async ({ source, target, transport, headers }) => {
    const { method: desc, registry } = await findMethod(source, method, target);
    const kind = desc.methodKind;
    const outbox = kind === "client_streaming" || kind === "bidi_streaming"
      ? options.outbox
      : undefined;
    // Every document is read (and each checked against the type) before the call.
    const documents: JsonValue[] = [];
    const text = body.trim() ? body : kind.startsWith("client") ? "" : "{}";
    if (!outbox) {
      for await (const doc of jsonDocuments(one(text), "the request body")) documents.push(doc);
    }
    const result: GrpcResult = {
      status: 0,
      statusName: "OK",
      statusMessage: "",
      replies: [],
      streaming: desc.methodKind === "server_streaming" || desc.methodKind === "bidi_streaming",
      headers: [],
      trailers: [],
      requestHeaders: [...headers],
    };
    try {
      outbox?.open(kind, (json) => requestMessage(desc.input, json, registry));
      const replies = callMethod(transport, desc, outbox ?? list(documents), {
        headers,
        registry,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        onHeaders: (h) => result.headers = [...h],
        onTrailers: (h) => result.trailers = [...h],
      });
      for await (const reply of replies) {
        result.replies.push(reply);
        await options.onReply?.(reply);
      }
    } catch (error) {
      if (!(error instanceof GrpcStatusError)) throw error;
      result.status = error.details.grpcStatus ?? 2;
      result.statusName = error.statusName;
      result.statusMessage = error.statusMessage;
    } finally {
      outbox?.close();
    }
    return result;
  });
}

/**
 * Lists every method a server (by reflection) or the `.proto` files describe, each with a
 * template of its request message.
 *
 * @param spec the server, metadata and credentials (reflection carries them too)
 * @param options transport, signal, deadline, `.proto` files
 * @returns the methods
 * @throws {UsageError} when the server offers no reflection and no files were given
 * @throws {DialError} when the connection or TLS fails, or the credentials cannot be obtained
 */
export async function listGrpcMethods(
  spec: RequestSpec,
  options: GrpcRequestOptions = {},
): Promise<MethodEntry[]> {
  return await withSource(spec, options, ({ source }) => listMethods(source));
}

/** What a call or a listing works with: the descriptors, the connection, the metadata. */
interface CallSetting {
  source: DescriptorSource;
  /** `host:port`, for messages. */
  target: string;
  transport: Channel["transport"];
  headers: Headers;
}

/**
 * Reads the `.proto` files (first: one that is refused or does not parse sends nothing), takes
 * the credentials through the credential step, opens the connection, and closes it after.
 */
async function withSource<T>(
  spec: RequestSpec,
  options: GrpcRequestOptions,
  work: (setting: CallSetting) => Promise<T>,
): Promise<T> {
  const protos = options.protos;
  const files = protos?.files.length
    ? registryOf(
      (await load.protoFiles()).readProtoFiles(protos.files, protos.importPaths, protos),
    )
    : undefined;
  const { request } = await authorize({ ...spec, method: "POST" }, {
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const headers = new Headers();
  for (const field of request.headers) headers.append(field.name, reveal(field.value));
  const channel = await openChannel(spec.url, options.transport ?? {}, options.signal);
  try {
    const target = hostPort(spec.url);
    const source = files ? fileSource(files) : reflectionSource(
      new ReflectionClient(channel.transport, {
        headers,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      }),
      target,
    );
    return await work({ source, target, transport: channel.transport, headers });
  } finally {
    channel.close();
  }
}

async function* one(text: string): AsyncGenerator<string> {
  yield text;
}

async function* list(documents: JsonValue[]): AsyncGenerator<JsonValue> {
  yield* documents;
}
