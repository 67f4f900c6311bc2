/**
 * Errors and the one exit-code table of dial.
 *
 * Every failure dial reports is a {@link DialError}: a sentence-case message with details
 * after a colon, a stable `code`, an `exitCode` from {@link ExitCode}, and optionally a
 * `hint` and a `cause`.
 * @module
 */

import { redactUrlsInText } from "./redact_url.ts";

/** The exit codes of every dial command (also documented in the README). */
export const ExitCode = {
  /** Success. */
  OK: 0,
  /** Any other runtime failure, such as unreadable server output or a file that cannot be written. */
  Failure: 1,
  /** Usage error: a bad flag, URL or value. Nothing was sent. */
  Usage: 2,
  /** `--check-status`: a 3xx response that was not followed. */
  Redirection: 3,
  /** `--check-status`: a 4xx response. */
  ClientError: 4,
  /** `--check-status`: a 5xx response. */
  ServerError: 5,
  /** More redirects than `--max-redirects`, or a redirect to a scheme other than http(s). */
  TooManyRedirects: 6,
  /** Transport failure: DNS, connection refused or reset, TLS. */
  Transport: 7,
  /** `--timeout` elapsed. */
  Timeout: 8,
  /** Authentication could not be obtained (OAuth 2.0 token endpoint or login failed). */
  Auth: 9,
  /** `--check-status` with GraphQL: the response envelope holds errors. */
  GraphQL: 10,
  /** `dial test`: a test or assertion of a request file failed. */
  TestFailed: 11,
  /** Interrupted by Ctrl-C (SIGINT). */
  Interrupted: 130,
} as const;

/** A value of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The `code` of every {@link DialError}: stable strings a program or a test can match
 * (`error.code === ErrorCode.Timeout`), also sent to the browser in the UI's error answers.
 * Each belongs to one kind of failure; the exit code says how the process ends.
 */
export const ErrorCode = {
  /** A bad flag, URL or value: nothing was sent (exit 2). */
  Usage: "usage",
  /** DNS, connection refused or reset, TLS (exit 7). */
  Transport: "transport",
  /** The timeout elapsed (exit 8). */
  Timeout: "timeout",
  /** Ctrl-C (exit 130). */
  Interrupted: "interrupted",
  /** Authentication could not be obtained: OAuth 2.0 token endpoint or login (exit 9). */
  Auth: "auth",
  /** Local output could not be written: full disk, a directory, no permission (exit 1). */
  Output: "output",
  /** More redirects than allowed (exit 6). */
  TooManyRedirects: "too_many_redirects",
  /** A redirect to a scheme other than http: or https: (`file:`, `data:` …), not followed (exit 6). */
  RedirectScheme: "redirect_scheme",
  /** A redirect that must resend a body that can be read only once. */
  RedirectBody: "redirect_body",
  /** The request body could not be read. */
  Body: "body",
  /** A response body in a Content-Encoding that could not be decoded. */
  ContentEncoding: "content_encoding",
  /** An HTTP status that refused a stream (WebSocket handshake, SSE); the error carries it. */
  HttpStatus: "http_status",
  /** The cookie jar file could not be read or written. */
  CookieJar: "cookie_jar",
  /** A download could not be resumed. */
  Resume: "resume",
  /** The OAuth 2.0 token cache could not be read or written. */
  TokenCache: "token_cache",
  /** The response is not a GraphQL response. */
  NotGraphQL: "not_graphql",
  /** GraphQL introspection failed. */
  Introspection: "introspection",
  /** The GraphQL WebSocket was closed by the server. */
  GraphQLWsClosed: "ws_closed",
  /** The GraphQL WebSocket failed otherwise. */
  GraphQLWs: "ws",
  /** The server refused or ignored the WebSocket subprotocol asked for. */
  Subprotocol: "subprotocol",
  /** A WebSocket session failed. */
  WebSocket: "websocket",
  /** The server closed the WebSocket with an error code. */
  WebSocketClose: "websocket_close",
  /** A message to send as JSON is not JSON. */
  InvalidJson: "invalid_json",
  /** A stream session used out of order (connected twice). */
  State: "state",
  /** A stream session was aborted by its caller. */
  Aborted: "aborted",
  /** The response is not an event stream (SSE). */
  NotEventStream: "not_event_stream",
  /** The event stream ended before any event. */
  EmptyStream: "empty_stream",
  /** One server-sent event over the size limit. */
  EventTooLarge: "event_too_large",
  /** `dial ui`: a request body over the limit (answered 413). */
  TooLarge: "too_large",
  /** `dial ui`: the frontend bundle is missing (run `deno task bundle`). */
  UiBundle: "ui_bundle",
  /** `dial ui`: the server could not listen (the port is taken). */
  UiListen: "ui_listen",
  /** A request file's script threw, timed out or ran out of memory (exit 1). */
  Script: "script",
  /** `dial test`: a `client.test` or `client.assert` failed (exit 11). */
  TestFailed: "test_failed",
} as const;

/** A value of {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Options shared by every {@link DialError}. */
export interface DialErrorOptions {
  /** A second line telling the user what to do. */
  hint?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** The base of every error dial reports to a user. */
export class DialError extends Error {
  /** A stable machine-readable code from {@link ErrorCode}. */
  readonly code: ErrorCodeValue;
  /** The process exit code for this error. */
  readonly exitCode: ExitCodeValue;
  /** A hint printed under the message. */
  readonly hint?: string;

  /**
   * Creates an error with its code and exit code.
   *
   * @param message sentence case, no trailing period, details after a colon
   * @param code a stable code from {@link ErrorCode}
   * @param exitCode the process exit code
   * @param options hint and cause
   */
  constructor(
    message: string,
    code: ErrorCodeValue,
    exitCode: ExitCodeValue,
    options: DialErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "DialError";
    this.code = code;
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** A bad flag or value: exit 2, nothing was sent. */
export class UsageError extends DialError {
  /**
   * Creates a usage error.
   *
   * @param message what is wrong
   * @param options hint and cause
   */
  constructor(message: string, options: DialErrorOptions = {}) {
    super(message, ErrorCode.Usage, ExitCode.Usage, options);
    this.name = "UsageError";
  }
}

/** The network failed: DNS, refused, reset, TLS. */
export class TransportError extends DialError {
  /**
   * Creates a transport error.
   *
   * @param message names the host and port
   * @param options hint and cause
   */
  constructor(message: string, options: DialErrorOptions = {}) {
    super(message, ErrorCode.Transport, ExitCode.Transport, options);
    this.name = "TransportError";
  }
}

/** The exchange took longer than `--timeout`. */
export class TimeoutError extends DialError {
  /**
   * Creates a timeout error.
   *
   * @param message what timed out
   * @param options hint and cause
   */
  constructor(message: string, options: DialErrorOptions = {}) {
    super(message, ErrorCode.Timeout, ExitCode.Timeout, options);
    this.name = "TimeoutError";
  }
}

/** The user pressed Ctrl-C. */
export class InterruptedError extends DialError {
  /** Creates the error. */
  constructor() {
    super("Interrupted", ErrorCode.Interrupted, ExitCode.Interrupted);
    this.name = "InterruptedError";
  }
}

/** Authentication could not be obtained, e.g. the OAuth 2.0 token endpoint refused. */
export class AuthError extends DialError {
  /**
   * Creates an authentication error.
   *
   * @param message names the endpoint and the provider's error
   * @param options hint and cause
   */
  constructor(message: string, options: DialErrorOptions = {}) {
    super(message, ErrorCode.Auth, ExitCode.Auth, options);
    this.name = "AuthError";
  }
}

/** OS error codes that mean the local output failed, not the network. */
const LOCAL_OUTPUT_CODES = new Set([
  "ENOSPC",
  "EDQUOT",
  "EFBIG",
  "EISDIR",
  "ENOTDIR",
  "ENOENT",
  "EACCES",
  "EPERM",
  "EROFS",
  "EBADF",
]);

/**
 * Recognises a failure to write output (full disk, a directory, no permission; a reader that
 * went away is not one: callers end quietly on a broken pipe),
 * so that it is reported as a local failure (exit 1), never as the network's.
 *
 * @param error what writing threw
 * @returns a DialError naming the local cause, or undefined when it is something else
 */
export function outputError(error: unknown): DialError | undefined {
  if (error instanceof DialError) return error.code === ErrorCode.Output ? error : undefined;
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (typeof code !== "string" || !LOCAL_OUTPUT_CODES.has(code)) return undefined;
  return new DialError(
    `Cannot write output: ${(error as Error).message}`,
    ErrorCode.Output,
    ExitCode.Failure,
    {
      cause: error,
    },
  );
}

/**
 * Turns an error thrown by `fetch` (or by reading a body) into a {@link DialError}.
 *
 * @param error what fetch threw
 * @param url the URL being requested, to name host and port
 * @param signal the signal passed to fetch, to tell a timeout from an interrupt
 * @returns a DialError; DialErrors are returned unchanged
 */
export function networkError(error: unknown, url: URL, signal?: AbortSignal): DialError {
  if (error instanceof DialError) return error;
  const reason = signal?.aborted ? signal.reason : undefined;
  if (reason instanceof DialError) return reason;
  const target = `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new TimeoutError(`Timed out waiting for ${target}`, { cause: error });
  }
  const detail = describeNetworkCause(error);
  return new TransportError(`Cannot reach ${target}: ${detail}`, { cause: error });
}

function describeNetworkCause(error: unknown): string {
  const texts: string[] = [];
  for (let e: unknown = error; e instanceof Error && texts.length < 5; e = e.cause) {
    // Deno's text embeds the URL, -K keys and userinfo included.
    texts.push(redactUrlsInText(e.message));
  }
  const all = texts.join(" ");
  const known: Array<[RegExp, string]> = [
    // The runtime's messages (fetch, Deno.connect) and node's codes (node:tls, node:http2).
    [/connection refused|ECONNREFUSED/i, "connection refused"],
    [
      /dns error|failed to lookup|name or service not known|no such host|ENOTFOUND|EAI_AGAIN/i,
      "host not found",
    ],
    [/connection reset|ECONNRESET|socket hang up/i, "connection reset"],
    [/certificate|tls|ssl/i, "TLS failure"],
    [/blocked/i, "port blocked by the runtime"],
    [/incomplete|unexpected eof|closed before|end of file|EPIPE/i, "connection closed early"],
    [/timed out/i, "connection timed out"],
    [/invalid http|parse error|malformed|invalid status/i, "malformed response"],
  ];
  for (const [pattern, label] of known) {
    if (pattern.test(all)) return `${label} (${lastLine(texts)})`;
  }
  return lastLine(texts) || redactUrlsInText(String(error));
}

function lastLine(texts: string[]): string {
  return (texts.at(-1) ?? "").split("\n")[0] ?? "";
}
