/**
 * One gRPC call of any of the four kinds, messages in and out in the proto3 JSON form.
 * Requests are checked against the method's input type before they are sent; the replies
 * come out as they arrive; a status other than OK becomes a {@link GrpcStatusError}.
 * @module
 * @see https://protobuf.dev/programming-guides/json/ (the proto3 JSON mapping)
 * @see https://github.com/grpc/grpc/blob/master/doc/statuscodes.md
 */
import {
  type DescMessage,
  type DescMethod,
  fromJson,
  type JsonValue,
  type Registry,
  toJson,
} from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { GrpcStatusError, UsageError } from "../errors/mod.ts";
import { STATUS_NAMES } from "./grpc_target.ts";

/** Options of {@link callMethod}. */
export interface CallOptions {
  /** Metadata to send (credentials included). */
  headers: Headers;
  /** The deadline, in ms from the start of the call. */
  timeoutMs?: number;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Resolves type names inside `google.protobuf.Any`. */
  registry?: Registry;
  /** Told the response headers once they arrive. */
  onHeaders?: (headers: Headers) => void;
  /** Told the trailers when the call ends (also when it fails). */
  onTrailers?: (trailers: Headers) => void;
}

/**
 * A request in the JSON form as a message of the method's input type.
 *
 * @param type the input type
 * @param json the request
 * @param registry resolves `google.protobuf.Any`
 * @returns the message
 * @throws {UsageError} naming the field that does not fit
 */
export function requestMessage(type: DescMessage, json: JsonValue, registry?: Registry) {
  const options = registry ? { registry } : {};
  try {
    return fromJson(type, json, options);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const path = badField(type, json, options);
    const at = path ? `field "${path}": ` : "";
    throw new UsageError(`The request does not fit ${type.typeName}: ${at}${why}`, {
      ...(path ? { details: { name: path } } : {}),
    });
  }
}

/**
 * The path of the first field whose value does not fit, found by decoding one field at a time
 * (the codec's own message names the type, not always the field).
 */
function badField(
  type: DescMessage,
  json: JsonValue,
  options: { registry?: Registry },
  prefix = "",
): string | undefined {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return undefined;
  for (const [key, value] of Object.entries(json)) {
    const field = type.fields.find((f) => f.jsonName === key || f.name === key);
    const path = `${prefix}${key}`;
    if (!field) return path;
    try {
      fromJson(type, { [key]: value }, options);
      continue;
    } catch {
      // This field is the one; look inside a plain message for the precise place.
    }
    if (field.fieldKind === "message" && !field.message.typeName.startsWith("google.protobuf.")) {
      return badField(field.message, value, options, `${path}.`) ?? path;
    }
    return path;
  }
  return undefined;
}

/**
 * The name of a method, `package.Service/Method`.
 *
 * @param method the method
 * @returns its full name
 */
export function methodName(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

/**
 * A failed call of Connect's as dial's error (other errors pass unchanged).
 *
 * @param error what the call threw
 * @param what the call, for the message: `package.Service/Method`
 * @returns a {@link GrpcStatusError} for a status, else the error itself
 */
export function statusError(error: unknown, what: string): unknown {
  if (!(error instanceof ConnectError)) return error;
  const name = STATUS_NAMES[error.code] ?? `code ${error.code}`;
  return new GrpcStatusError(
    `${what} ended with ${name}${error.rawMessage ? `: ${error.rawMessage}` : ""}`,
    { code: error.code, name, message: error.rawMessage },
    { cause: error },
  );
}

/**
 * Calls a method and yields its replies in the JSON form as they arrive: one for a unary or
 * client-streaming method, any number for the streaming ones.
 *
 * @param transport the channel's transport
 * @param method the method
 * @param requests the requests in the JSON form: exactly one for unary and server-streaming
 *   methods; each is checked against the input type before it is sent
 * @param options metadata, deadline, signal, registry and observers
 * @returns the replies
 * @throws {UsageError} when a request does not fit the input type
 * @throws {GrpcStatusError} when the call ends with a status other than OK
 */
export async function* callMethod(
  transport: Transport,
  method: DescMethod,
  requests: AsyncIterable<JsonValue>,
  options: CallOptions,
): AsyncGenerator<JsonValue> {
  const registry = options.registry;
  const out = (message: Parameters<typeof toJson>[1]) =>
    toJson(method.output, message, registry ? { registry } : {});
  const single = method.methodKind === "unary" || method.methodKind === "server_streaming";
  let first: ReturnType<typeof requestMessage> | undefined;
  if (single) {
    // The one request is read and checked before anything is sent.
    let count = 0;
    for await (const json of requests) {
      count++;
      if (count > 1) {
        throw new UsageError(`${methodName(method)} takes one request, got more`);
      }
      first = requestMessage(method.input, json, registry);
    }
    first ??= requestMessage(method.input, {}, registry);
  }
  const trailers = (headers: Headers) => options.onTrailers?.(headers);
  try {
    if (method.methodKind === "unary") {
      const response = await transport.unary(
        method as DescMethod & { methodKind: "unary" },
        options.signal,
        options.timeoutMs,
        options.headers,
        first!,
      );
      options.onHeaders?.(response.header);
      trailers(response.trailer);
      yield out(response.message);
      return;
    }
    const input = single
      ? (async function* () {
        yield first!;
      })()
      : (async function* () {
        for await (const json of requests) yield requestMessage(method.input, json, registry);
      })();
    const response = await transport.stream(
      // deno-lint-ignore no-explicit-any -- the kind was checked above; Connect types it per kind
      method as any,
      options.signal,
      options.timeoutMs,
      options.headers,
      input,
    );
    options.onHeaders?.(response.header);
    for await (const message of response.message) yield out(message);
    trailers(response.trailer);
  } catch (error) {
    if (error instanceof ConnectError) {
      options.onTrailers?.(error.metadata);
      if (error.cause instanceof UsageError) throw error.cause;
      if (error.code === Code.Unknown && error.cause instanceof Error && !error.rawMessage) {
        throw error.cause;
      }
    }
    // Ctrl-C (or the caller) cancelled it: its reason, not CANCELLED, says how the run ends.
    if (options.signal?.aborted) throw options.signal.reason;
    throw statusError(error, methodName(method));
  }
}
