/**
 * A client of gRPC server reflection: the services a server offers and the file descriptors
 * that describe them. It asks `grpc.reflection.v1` first and falls back to `v1alpha` (older
 * servers, grpc-go before 1.45 and most Java ones, offer only that).
 *
 * The reflection service is described here at run time (six messages, one method), so no
 * generated code is needed.
 * @module
 * @see https://github.com/grpc/grpc/blob/master/doc/server-reflection.md
 */
import {
  create,
  createFileRegistry,
  type DescMessage,
  type DescMethodStreaming,
  fromBinary,
  type Message,
} from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import {
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import { jsonNameOf } from "./descriptors.ts";

/** The reflection API versions, newest first. */
export const REFLECTION_VERSIONS = ["v1", "v1alpha"] as const;

type Version = (typeof REFLECTION_VERSIONS)[number];

/** What the reflection service answered, in the shape of `ServerReflectionResponse`. */
interface ReflectionReply extends Message {
  messageResponse:
    | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
    | { case: "listServicesResponse"; value: { service: { name: string }[] } }
    | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } }
    | { case: undefined; value?: undefined };
}

type ReflectionMethod = DescMethodStreaming<DescMessage, DescMessage>;

function reflectionMethod(version: Version): ReflectionMethod {
  const pkg = `grpc.reflection.${version}`;
  const ref = (name: string) => `.${pkg}.${name}`;
  const field = (name: string, number: number, type: Type, more: object = {}) => ({
    name,
    number,
    type,
    label: Label.OPTIONAL,
    jsonName: jsonNameOf(name),
    ...more,
  });
  const oneof = { oneofIndex: 0 };
  const file = create(FileDescriptorProtoSchema, {
    name: `grpc/reflection/${version}/reflection.proto`,
    package: pkg,
    syntax: "proto3",
    messageType: [
      {
        name: "ServerReflectionRequest",
        field: [
          field("host", 1, Type.STRING),
          field("file_by_filename", 3, Type.STRING, oneof),
          field("file_containing_symbol", 4, Type.STRING, oneof),
          field("list_services", 7, Type.STRING, oneof),
        ],
        oneofDecl: [{ name: "message_request" }],
      },
      {
        name: "ServerReflectionResponse",
        field: [
          field("valid_host", 1, Type.STRING),
          field("file_descriptor_response", 4, Type.MESSAGE, {
            typeName: ref("FileDescriptorResponse"),
            ...oneof,
          }),
          field("list_services_response", 6, Type.MESSAGE, {
            typeName: ref("ListServiceResponse"),
            ...oneof,
          }),
          field("error_response", 7, Type.MESSAGE, { typeName: ref("ErrorResponse"), ...oneof }),
        ],
        oneofDecl: [{ name: "message_response" }],
      },
      {
        name: "FileDescriptorResponse",
        field: [field("file_descriptor_proto", 1, Type.BYTES, { label: Label.REPEATED })],
      },
      {
        name: "ListServiceResponse",
        field: [
          field("service", 1, Type.MESSAGE, {
            typeName: ref("ServiceResponse"),
            label: Label.REPEATED,
          }),
        ],
      },
      { name: "ServiceResponse", field: [field("name", 1, Type.STRING)] },
      {
        name: "ErrorResponse",
        field: [field("error_code", 1, Type.INT32), field("error_message", 2, Type.STRING)],
      },
    ],
    service: [{
      name: "ServerReflection",
      method: [{
        name: "ServerReflectionInfo",
        inputType: ref("ServerReflectionRequest"),
        outputType: ref("ServerReflectionResponse"),
        clientStreaming: true,
        serverStreaming: true,
      }],
    }],
  });
  const service = createFileRegistry(file, () => undefined).getService(`${pkg}.ServerReflection`);
  return service!.methods[0] as ReflectionMethod;
}

/** Why reflection could not answer (internal: {@link reflectionFailure} reads it). */
class ReflectionError extends Error {
  /** `unsupported`: the server offers no reflection; `not_found`: it knows no such name. */
  readonly reason: "unsupported" | "not_found";

  /**
   * @param message what failed
   * @param reason see {@link ReflectionError.reason}
   * @param options the cause
   */
  constructor(message: string, reason: "unsupported" | "not_found", options?: ErrorOptions) {
    super(message, options);
    this.name = "ReflectionError";
    this.reason = reason;
  }
}

/**
 * Why a call of {@link ReflectionClient} failed, if reflection itself could not answer.
 *
 * @param error what it threw
 * @returns `unsupported` (the server offers no reflection), `not_found` (it knows no such
 *   name), or undefined for any other failure
 */
export function reflectionFailure(error: unknown): "unsupported" | "not_found" | undefined {
  return error instanceof ReflectionError ? error.reason : undefined;
}

/** Options of a {@link ReflectionClient}. */
export interface ReflectionOptions {
  /** Metadata sent with every reflection call (credentials too: some servers require them). */
  headers?: Headers;
  /** Aborts the calls. */
  signal?: AbortSignal;
  /** Deadline of each call, in ms. */
  timeoutMs?: number;
}

/** Asks one server what it offers, over one transport. */
export class ReflectionClient {
  #transport: Transport;
  #options: ReflectionOptions;
  #version: Version | undefined;

  /**
   * @param transport the connection to the server
   * @param options metadata, signal and deadline
   */
  constructor(transport: Transport, options: ReflectionOptions = {}) {
    this.#transport = transport;
    this.#options = options;
  }

  async #ask(request: Record<string, unknown>): Promise<ReflectionReply["messageResponse"]> {
    const versions = this.#version ? [this.#version] : REFLECTION_VERSIONS;
    let last: unknown;
    for (const version of versions) {
      const method = reflectionMethod(version);
      try {
        const input = (async function* () {
          yield create(method.input, { messageRequest: request });
        })();
        const response = await this.#transport.stream(
          method,
          this.#options.signal,
          this.#options.timeoutMs,
          this.#options.headers,
          input,
        );
        for await (const message of response.message) {
          this.#version = version;
          return (message as ReflectionReply).messageResponse;
        }
        throw new ReflectionError("The reflection service answered nothing", "unsupported");
      } catch (error) {
        if (error instanceof ConnectError && error.code === Code.Unimplemented) {
          last = error;
          continue;
        }
        throw error;
      }
    }
    throw new ReflectionError("The server does not offer reflection", "unsupported", {
      cause: last,
    });
  }

  /**
   * @returns the fully qualified names of the services, sorted
   * @throws {ReflectionError} when the server offers no reflection
   * @throws {ConnectError} when a call fails
   */
  async listServices(): Promise<string[]> {
    const reply = await this.#ask({ case: "listServices", value: "*" });
    if (reply.case !== "listServicesResponse") throw unexpected(reply);
    return reply.value.service.map((s) => s.name).sort();
  }

  /**
   * The file that defines a symbol, and every file it imports.
   *
   * @param symbol a fully qualified service, method, message or enum name
   * @returns the file descriptors
   * @throws {ReflectionError} `not_found` when the server knows no such symbol
   */
  async filesForSymbol(symbol: string): Promise<FileDescriptorProto[]> {
    const files = new Map<string, FileDescriptorProto>();
    const reply = await this.#ask({ case: "fileContainingSymbol", value: symbol });
    this.#add(reply, files, symbol);
    // Servers should send the imports along; fetch the ones that are missing.
    for (let missing = this.#missing(files); missing.length; missing = this.#missing(files)) {
      for (const name of missing) {
        const more = await this.#ask({ case: "fileByFilename", value: name });
        this.#add(more, files, name);
      }
    }
    return [...files.values()];
  }

  #add(
    reply: ReflectionReply["messageResponse"],
    files: Map<string, FileDescriptorProto>,
    asked: string,
  ): void {
    if (reply.case === "errorResponse") {
      throw new ReflectionError(
        `The server knows no "${asked}": ${reply.value.errorMessage}`,
        reply.value.errorCode === Code.NotFound ? "not_found" : "unsupported",
      );
    }
    if (reply.case !== "fileDescriptorResponse") throw unexpected(reply);
    for (const bytes of reply.value.fileDescriptorProto) {
      const file = fromBinary(FileDescriptorProtoSchema, bytes);
      if (!files.has(file.name)) files.set(file.name, file);
    }
    // A file we asked for by name and never got would be asked for again and again.
    if (asked.endsWith(".proto") && !files.has(asked)) {
      files.set(asked, create(FileDescriptorProtoSchema, { name: asked }));
    }
  }

  #missing(files: Map<string, FileDescriptorProto>): string[] {
    const wanted = [...files.values()].flatMap((f) => f.dependency);
    return [...new Set(wanted)].filter((name) =>
      !files.has(name) && !name.startsWith("google/protobuf/")
    );
  }
}

function unexpected(reply: ReflectionReply["messageResponse"]): ReflectionError {
  return new ReflectionError(
    `The reflection service answered ${reply.case ?? "nothing"} instead`,
    "unsupported",
  );
}
