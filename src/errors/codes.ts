/**
 * The one table of error codes and exit codes, and the facts an error carries (`details`).
 * @module
 */

/**
 * The exit codes of every dial command. The JSDoc of each is its line in the exit-code table of
 * `docs/cli.md` (`deno task docs` writes it).
 */
export const ExitCode = {
  /** Success. */
  OK: 0,
  /** Any other failure, such as unreadable server output or an output file that cannot be written. */
  Failure: 1,
  /** Usage error: a bad flag, URL or value; nothing was sent. */
  Usage: 2,
  /** `--check-status`: a 3xx response that was not followed. */
  Redirection: 3,
  /** `--check-status`: a 4xx response. */
  ClientError: 4,
  /** `--check-status`: a 5xx response. */
  ServerError: 5,
  /** The host name could not be resolved (curl's 6). */
  HostNotFound: 6,
  /** Network failure (refused, reset, body cut off); the message names host and port (curl's 7). */
  Transport: 7,
  /** Timeout (`--timeout`, `dial sse --idle-timeout`). */
  Timeout: 8,
  /** Authentication could not be obtained (OAuth 2.0 token endpoint, login). */
  Auth: 9,
  /** `--check-status` with GraphQL: the response envelope holds errors. */
  GraphQL: 10,
  /** `dial test`: a `client.test` or `client.assert` of a request file failed. */
  TestFailed: 11,
  /** `dial grpc`: the server answered CANCELLED (1); 64 + the code, as grpcurl. */
  GrpcCancelled: 65,
  /** `dial grpc`: the server answered UNKNOWN (2); 64 + the code, as grpcurl. */
  GrpcUnknown: 66,
  /** `dial grpc`: the server answered INVALID_ARGUMENT (3); 64 + the code, as grpcurl. */
  GrpcInvalidArgument: 67,
  /** `dial grpc`: the server answered NOT_FOUND (5); 64 + the code, as grpcurl. */
  GrpcNotFound: 69,
  /** `dial grpc`: the server answered ALREADY_EXISTS (6); 64 + the code, as grpcurl. */
  GrpcAlreadyExists: 70,
  /** `dial grpc`: the server answered PERMISSION_DENIED (7); 64 + the code, as grpcurl. */
  GrpcPermissionDenied: 71,
  /** `dial grpc`: the server answered RESOURCE_EXHAUSTED (8); 64 + the code, as grpcurl. */
  GrpcResourceExhausted: 72,
  /** `dial grpc`: the server answered FAILED_PRECONDITION (9); 64 + the code, as grpcurl. */
  GrpcFailedPrecondition: 73,
  /** `dial grpc`: the server answered ABORTED (10); 64 + the code, as grpcurl. */
  GrpcAborted: 74,
  /** `dial grpc`: the server answered OUT_OF_RANGE (11); 64 + the code, as grpcurl. */
  GrpcOutOfRange: 75,
  /** `dial grpc`: the server answered UNIMPLEMENTED (12); 64 + the code, as grpcurl. */
  GrpcUnimplemented: 76,
  /** `dial grpc`: the server answered INTERNAL (13); 64 + the code, as grpcurl. */
  GrpcInternal: 77,
  /** `dial grpc`: the server answered UNAVAILABLE (14); 64 + the code, as grpcurl. */
  GrpcUnavailable: 78,
  /** `dial grpc`: the server answered DATA_LOSS (15); 64 + the code, as grpcurl. */
  GrpcDataLoss: 79,
  /** `dial grpc`: the server answered UNAUTHENTICATED (16); 64 + the code, as grpcurl. */
  GrpcUnauthenticated: 80,
  /** Hung up (SIGHUP: the terminal closed); cleans up as Ctrl-C does. */
  HungUp: 129,
  /** Interrupted (Ctrl-C, SIGINT). */
  Interrupted: 130,
  /** The TLS handshake failed (protocol, client certificate refused) (curl's 35). */
  TlsHandshake: 35,
  /** Too many redirects (`--max-redirects`), or a redirect to a scheme other than `http:`/`https:` (`file:` …) (curl's 47). */
  TooManyRedirects: 47,
  /** The server's TLS certificate could not be verified (unknown issuer, self-signed, expired, name) (curl's 60). */
  Certificate: 60,
  /** A SOCKS proxy refused or broke off its handshake: login, a CONNECT it would not make (curl's 97). */
  ProxyHandshake: 97,
  /** Terminated (SIGTERM: `docker stop`, `timeout`, a cancelled CI job); cleans up as Ctrl-C does. */
  Terminated: 143,
} as const;

/** A value of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The `code` of every {@link DialError}: stable strings a program or a test can match
 * (`error.code === ErrorCode.Timeout`), also sent to the browser in the UI's error answers.
 * Each belongs to one kind of failure; {@link ERRORS} says how the process ends.
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
  /**
   * `dial grpc`: the server ended the call with a status other than OK (exit 64 + the code,
   * DEADLINE_EXCEEDED 8).
   */
  GrpcStatus: "grpc_status",
  /** The response filter (a JSONPath) selected nothing, or the body is not JSON (exit 1). */
  Filter: "filter",
} as const;

/** A value of {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** How the process ends for one error code. */
export interface ErrorKind {
  /** The exit code. */
  readonly exit: ExitCodeValue;
  /**
   * Whether an HTTP status in the error's details decides instead: 3xx, 4xx and 5xx end with
   * 3, 4 and 5, as `--check-status` does; any other status with {@link exit}.
   */
  readonly byStatus?: true;
  /** Whether the gRPC status in the error's details decides instead (see {@link grpcExitCode}). */
  readonly byGrpcStatus?: true;
}

/** The one table: every error code and how the process ends when it is reported. */
export const ERRORS: { readonly [C in ErrorCodeValue]: ErrorKind } = {
  usage: { exit: ExitCode.Usage },
  transport: { exit: ExitCode.Transport },
  timeout: { exit: ExitCode.Timeout },
  interrupted: { exit: ExitCode.Interrupted },
  auth: { exit: ExitCode.Auth },
  output: { exit: ExitCode.Failure },
  too_many_redirects: { exit: ExitCode.TooManyRedirects },
  redirect_scheme: { exit: ExitCode.TooManyRedirects },
  redirect_body: { exit: ExitCode.Failure },
  body: { exit: ExitCode.Failure },
  content_encoding: { exit: ExitCode.Failure },
  http_status: { exit: ExitCode.Failure, byStatus: true },
  cookie_jar: { exit: ExitCode.Failure },
  resume: { exit: ExitCode.Failure },
  token_cache: { exit: ExitCode.Failure },
  not_graphql: { exit: ExitCode.Failure, byStatus: true },
  introspection: { exit: ExitCode.Failure, byStatus: true },
  ws_closed: { exit: ExitCode.Transport },
  ws: { exit: ExitCode.Transport },
  subprotocol: { exit: ExitCode.Failure },
  websocket: { exit: ExitCode.Failure },
  websocket_close: { exit: ExitCode.Failure },
  invalid_json: { exit: ExitCode.Usage },
  state: { exit: ExitCode.Failure },
  aborted: { exit: ExitCode.Failure },
  not_event_stream: { exit: ExitCode.Failure },
  empty_stream: { exit: ExitCode.Failure },
  event_too_large: { exit: ExitCode.Failure },
  too_large: { exit: ExitCode.Usage },
  ui_bundle: { exit: ExitCode.Failure },
  ui_listen: { exit: ExitCode.Failure },
  script: { exit: ExitCode.Failure },
  test_failed: { exit: ExitCode.TestFailed },
  grpc_status: { exit: ExitCode.Failure, byGrpcStatus: true },
  filter: { exit: ExitCode.Failure },
};

/**
 * The exit code of a gRPC status: 64 + the code, as grpcurl exits, except DEADLINE_EXCEEDED,
 * which ends as every timeout does (8). The one place that knows it.
 *
 * @param code a gRPC status code, 1 to 16
 * @returns its exit code (1 for a code gRPC does not define)
 * @example
 * ```ts
 * grpcExitCode(5); // 69, NOT_FOUND
 * ```
 */
export function grpcExitCode(code: number): ExitCodeValue {
  if (code === 4) return ExitCode.Timeout;
  const exit = 64 + code;
  return (Object.values(ExitCode) as number[]).includes(exit) && code >= 1 && code <= 16
    ? exit as ExitCodeValue
    : ExitCode.Failure;
}

/**
 * The exit code of a response's status class, as `--check-status` reports it. The one place
 * that knows that 3xx is 3, 4xx is 4 and 5xx is 5.
 *
 * @param status an HTTP status
 * @returns 3, 4 or 5 for 3xx, 4xx, 5xx; 0 for anything else
 * @example
 * ```ts
 * statusExitCode(404); // 4
 * ```
 */
export function statusExitCode(status: number): ExitCodeValue {
  if (status >= 500 && status < 600) return ExitCode.ServerError;
  if (status >= 400 && status < 500) return ExitCode.ClientError;
  if (status >= 300 && status < 400) return ExitCode.Redirection;
  return ExitCode.OK;
}

/**
 * The exit code of an error, from {@link ERRORS}.
 *
 * @param code an error code
 * @param details the error's facts (an HTTP status may decide, see {@link ErrorKind.byStatus})
 * @returns how the process ends when the error is reported
 */
export function exitCodeFor(code: ErrorCodeValue, details: ErrorDetails = {}): ExitCodeValue {
  const kind = ERRORS[code];
  if (code === "transport") {
    // curl's numbers: host not found 6, TLS handshake 35, certificate 60, SOCKS handshake 97;
    // the rest 7.
    if (details.tlsCheck !== undefined) {
      return details.tlsCheck === "other" || details.tlsCheck === "client_certificate"
        ? ExitCode.TlsHandshake
        : ExitCode.Certificate;
    }
    if (details.network === "host_not_found") return ExitCode.HostNotFound;
    if (details.network === "proxy_handshake") return ExitCode.ProxyHandshake;
  }
  if (kind.byGrpcStatus && details.grpcStatus !== undefined) {
    return grpcExitCode(details.grpcStatus);
  }
  if (kind.byStatus && details.status !== undefined) {
    const byStatus = statusExitCode(details.status);
    if (byStatus !== ExitCode.OK) return byStatus;
  }
  return kind.exit;
}

/**
 * The facts an error carries beside its message, for programs and for the faces that word a
 * remedy. Every fact is optional; an error sets the ones it knows.
 */
export interface ErrorDetails {
  /** The HTTP status that refused. */
  readonly status?: number;
  /** The gRPC status code a call ended with (1 to 16). */
  readonly grpcStatus?: number;
  /** How long the server asked to wait before trying again (`Retry-After`), in ms. */
  readonly retryAfterMs?: number;
  /** `host:port` of the server. */
  readonly target?: string;
  /** A local file the error is about. */
  readonly path?: string;
  /** The TLS check that failed. */
  readonly tlsCheck?: TlsCheck;
  /** What failed on the network, when it is known (the exit code follows it). */
  readonly network?: "host_not_found" | "refused" | "reset" | "proxy_handshake";
  /** The OAuth 2.0 `error` code of the provider, e.g. `invalid_grant`. */
  readonly oauthError?: string;
  /** Where the proxy in use was configured: `--proxy` or the environment variable's name. */
  readonly proxySource?: string;
  /** A URL as the user gave it (redacted), e.g. one that lacks its scheme, or as a provider names itself (an issuer). */
  readonly url?: string;
  /** The first scheme allowed, e.g. `https:`. */
  readonly scheme?: string;
  /** The choices there are, e.g. the OAuth 2.0 flows or the operations of a document. */
  readonly choices?: readonly string[];
  /**
   * The runtime's own words, quoted in parentheses at the end of the message after dial's
   * reason (`connection refused (tcp connect error …)`); a face may leave them out.
   */
  readonly runtime?: string;
  /** A name the error is about: a variable, a request, a configuration. */
  readonly name?: string;
  /** How to write a value, e.g. `"Name:value"` for a request item's header. */
  readonly example?: string;
  /** The environment variable a setting came from, e.g. `SSL_CERT_FILE`. */
  readonly variable?: string;
}

/** The certificate check that failed. */
export type TlsCheck =
  | "unknown_issuer"
  | "self_signed"
  | "expired"
  | "not_yet_valid"
  | "name_mismatch"
  | "client_certificate"
  | "other";
