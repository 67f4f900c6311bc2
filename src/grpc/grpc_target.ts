/**
 * The names of gRPC calls as users write them, read without loading the gRPC stack (request
 * files parse them for every `GRPC` request, sent or not): `package.Service/Method`, and the
 * target of a `GRPC` request line.
 * @module
 */
import { UsageError } from "../errors/mod.ts";

/**
 * The status names of gRPC, by code.
 *
 * @see https://github.com/grpc/grpc/blob/master/doc/statuscodes.md
 */
export const STATUS_NAMES: readonly string[] = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/**
 * Splits `package.Service/Method` (or `package.Service.Method`, as grpcurl also reads it).
 *
 * @param text the method's name
 * @returns the service and method names
 * @throws {UsageError} when it names no method
 */
export function splitMethodName(text: string): { service: string; method: string } {
  const slash = text.lastIndexOf("/");
  const cut = slash >= 0 ? slash : text.lastIndexOf(".");
  const service = text.slice(0, cut).replace(/^\//, "");
  const method = text.slice(cut + 1);
  if (cut <= 0 || !service || !method) {
    throw new UsageError(`Invalid method "${text}": write package.Service/Method`);
  }
  return { service, method };
}

/** Where a `GRPC` request goes. */
export interface GrpcTarget {
  /** `http://host:port` (plaintext, h2c) or `https://host:port` (TLS). */
  url: URL;
  /** `package.Service/Method`. */
  method: string;
}

/**
 * Reads the target of a `GRPC` request line: `host:port/package.Service/Method` is plaintext,
 * `grpcs://host:port/…` TLS, `grpc://…` plaintext again (JetBrains' and httpyac's forms).
 *
 * @param text the target as written (variables substituted)
 * @returns the server and the method
 * @throws {UsageError} when it names no server or no method
 */
export function parseGrpcTarget(text: string): GrpcTarget {
  const match = /^(?:(grpcs?):\/\/)?([^/\s]+)\/+([^\s]+)$/i.exec(text.trim());
  const method = match?.[3]?.replace(/\/+$/, "");
  if (!match || !method) {
    throw new UsageError(
      `Invalid gRPC target "${text}": write host:port/package.Service/Method (grpcs:// for TLS)`,
    );
  }
  splitMethodName(method);
  const scheme = match[1]?.toLowerCase() === "grpcs" ? "https" : "http";
  let url: URL;
  try {
    url = new URL(`${scheme}://${match[2]}`);
  } catch {
    throw new UsageError(`Invalid gRPC target "${text}": "${match[2]}" is not host:port`);
  }
  return { url, method };
}
