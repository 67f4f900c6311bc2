/**
 * {@link DialError}, the base of every error dial reports, and its subclasses: each fixes its
 * code, and its exit code follows from the code in the one table.
 * @module
 */
import {
  ErrorCode,
  type ErrorCodeValue,
  type ErrorDetails,
  exitCodeFor,
  type ExitCodeValue,
  type TlsCheck,
} from "./codes.ts";
import type { Remedy } from "./remedy.ts";

/** Options shared by every {@link DialError}. */
export interface DialErrorOptions {
  /** The facts of the failure. */
  details?: ErrorDetails;
  /** What the user can do, worded by each face. */
  remedy?: Remedy;
  /** Advice already worded by a face for itself (the core names a {@link remedy} instead). */
  hint?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** The base of every error dial reports to a user. */
export class DialError extends Error {
  /** A stable machine-readable code from {@link ErrorCode}. */
  readonly code: ErrorCodeValue;
  /** The process exit code for this error, from {@link ERRORS}. */
  readonly exitCode: ExitCodeValue;
  /** The facts of the failure. */
  readonly details: ErrorDetails;
  /** What the user can do, worded by each face. */
  readonly remedy?: Remedy;
  /** Advice worded by a face for itself. */
  readonly hint?: string;

  /**
   * Creates an error; its exit code follows from the code.
   *
   * @param message sentence case, no trailing period, details after a colon
   * @param code a stable code from {@link ErrorCode}
   * @param options facts, remedy, hint and cause
   */
  constructor(message: string, code: ErrorCodeValue, options: DialErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "DialError";
    this.code = code;
    this.details = options.details ?? {};
    this.exitCode = exitCodeFor(code, this.details);
    if (options.remedy) this.remedy = options.remedy;
    if (options.hint !== undefined) this.hint = options.hint;
  }
}

/** Options of an error whose code is fixed by its class. */
export type ErrorOptions = DialErrorOptions;

/** A bad flag or value: exit 2, nothing was sent. */
export class UsageError extends DialError {
  /**
   * Creates the error.
   *
   * @param message what is wrong
   * @param options facts, remedy, hint and cause
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, ErrorCode.Usage, options);
    this.name = "UsageError";
  }
}

/** The network failed: DNS, refused, reset, TLS. */
export class TransportError extends DialError {
  /**
   * Creates the error.
   *
   * @param message names the host and port
   * @param options facts, remedy and cause
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, ErrorCode.Transport, options);
    this.name = "TransportError";
  }
}

/** A TLS failure: the server's certificate failed a check, or the server refused ours. */
export class TlsError extends TransportError {
  /**
   * Creates the error.
   *
   * @param message names the host and the check in words
   * @param check the failed check
   * @param options facts, remedy and cause
   */
  constructor(message: string, check: TlsCheck, options: ErrorOptions = {}) {
    super(message, { ...options, details: { ...options.details, tlsCheck: check } });
    this.name = "TlsError";
  }

  /** The check that failed. */
  get check(): TlsCheck {
    return this.details.tlsCheck ?? "other";
  }
}

/** The exchange took longer than `--timeout`. */
export class TimeoutError extends DialError {
  /**
   * Creates the error.
   *
   * @param message what timed out
   * @param options facts, remedy and cause
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, ErrorCode.Timeout, options);
    this.name = "TimeoutError";
  }
}

/** The user pressed Ctrl-C. */
export class InterruptedError extends DialError {
  /** Creates the error. */
  constructor() {
    super("Interrupted", ErrorCode.Interrupted);
    this.name = "InterruptedError";
  }
}

/** Authentication could not be obtained, e.g. the OAuth 2.0 token endpoint refused. */
export class AuthError extends DialError {
  /**
   * Creates the error.
   *
   * @param message names the endpoint and the provider's error
   * @param options facts, remedy and cause
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, ErrorCode.Auth, options);
    this.name = "AuthError";
  }
}

/** An {@link AuthError} carrying the provider's OAuth 2.0 error code. */
export class ProviderError extends AuthError {
  /**
   * Creates the error.
   *
   * @param message the full line
   * @param oauthError the provider's error code, e.g. `invalid_grant`
   * @param options facts, remedy and cause
   */
  constructor(message: string, oauthError: string, options: ErrorOptions = {}) {
    super(message, { ...options, details: { ...options.details, oauthError } });
    this.name = "ProviderError";
  }

  /** The provider's `error` value, e.g. `invalid_grant`. */
  get oauthError(): string {
    return this.details.oauthError ?? "";
  }
}

/** A streaming endpoint refused: the status it answered with decides the exit code. */
export class StatusError extends DialError {
  /**
   * Creates the error.
   *
   * @param message names the status and the host
   * @param status the HTTP status
   * @param options facts (`retryAfterMs`), remedy and cause
   */
  constructor(message: string, status: number, options: ErrorOptions = {}) {
    super(message, ErrorCode.HttpStatus, { ...options, details: { ...options.details, status } });
    this.name = "StatusError";
  }

  /** The HTTP status, e.g. 401. */
  get status(): number {
    return this.details.status ?? 0;
  }

  /** How long the server asked to wait before trying again (`Retry-After`), in ms. */
  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }

  /**
   * Whether trying again may help: 408, 429 and 5xx. Any other refusal (401, 403, 404, 405,
   * 410 …) is final, as the EventSource standard fails a connection at once on it.
   */
  get retryable(): boolean {
    return this.status === 408 || this.status === 429 || (this.status >= 500 && this.status < 600);
  }
}

/** A response that is not a GraphQL result. */
export class NotGraphQLError extends DialError {
  /**
   * Creates the error.
   *
   * @param message what was received instead
   * @param options facts (the `status`) and cause
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, ErrorCode.NotGraphQL, options);
    this.name = "NotGraphQLError";
  }
}

/** `dial ui`: a request body over the limit, answered with 413. */
export class TooLargeError extends DialError {
  /**
   * Creates the error.
   *
   * @param message what was too large
   */
  constructor(message: string) {
    super(message, ErrorCode.TooLarge);
    this.name = "TooLargeError";
  }
}

/** A gRPC call ended with a status other than OK: exit 64 + the code (DEADLINE_EXCEEDED 8). */
export class GrpcStatusError extends DialError {
  /** The status name, e.g. `NOT_FOUND`. */
  readonly statusName: string;
  /** The server's status message (`grpc-message`), maybe empty. */
  readonly statusMessage: string;

  /**
   * Creates the error.
   *
   * @param message the method, the status name and the server's message
   * @param status the status: code, name and the server's message
   * @param options facts, remedy, hint and cause
   */
  constructor(
    message: string,
    status: { code: number; name: string; message: string },
    options: ErrorOptions = {},
  ) {
    super(message, ErrorCode.GrpcStatus, {
      ...options,
      details: { ...options.details, grpcStatus: status.code },
    });
    this.name = "GrpcStatusError";
    this.statusName = status.name;
    this.statusMessage = status.message;
  }
}
