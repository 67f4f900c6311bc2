/**
 * Errors as data: the one table of error codes and exit codes, the facts an error carries
 * (`details`) and what the user can do about it (`remedy`).
 *
 * Every failure dial reports is a {@link DialError}: a sentence-case message with details after
 * a colon, a stable `code` from {@link ErrorCode}, and an `exitCode` that follows from the code
 * in {@link ERRORS}. The core never words a hint: it names a structured {@link Remedy}
 * (`{ raise: "timeout" }`, `{ check: "credentials" }`), and each face words it in its own
 * terms: the CLI as flags (`raise --timeout`), the UI as its controls (`raise Timeout in the
 * tab`). An error of a face itself (a bad flag, a bad field) may carry a worded `hint`.
 * @module
 */

import { hostPort } from "./http/authority.ts";
import { redactUrlsInText } from "./redact_url.ts";
import { LOCAL_OUTPUT_CODES, NETWORK_REASONS } from "./runtime_messages.ts";

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
  /** Too many redirects (`--max-redirects`), or a redirect to a scheme other than `http:`/`https:` (`file:` …). */
  TooManyRedirects: 6,
  /** Network failure (DNS, refused, reset, TLS, body cut off); the message names host and port. */
  Transport: 7,
  /** Timeout (`--timeout`, `dial sse --idle-timeout`). */
  Timeout: 8,
  /** Authentication could not be obtained (OAuth 2.0 token endpoint, login). */
  Auth: 9,
  /** `--check-status` with GraphQL: the response envelope holds errors. */
  GraphQL: 10,
  /** `dial test`: a `client.test` or `client.assert` of a request file failed. */
  TestFailed: 11,
  /** Hung up (SIGHUP: the terminal closed); cleans up as Ctrl-C does. */
  HungUp: 129,
  /** Interrupted (Ctrl-C, SIGINT). */
  Interrupted: 130,
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
};

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
  /** How long the server asked to wait before trying again (`Retry-After`), in ms. */
  readonly retryAfterMs?: number;
  /** `host:port` of the server. */
  readonly target?: string;
  /** A local file the error is about. */
  readonly path?: string;
  /** The TLS check that failed. */
  readonly tlsCheck?: TlsCheck;
  /** The OAuth 2.0 `error` code of the provider, e.g. `invalid_grant`. */
  readonly oauthError?: string;
  /** Where the proxy in use was configured: `--proxy` or the environment variable's name. */
  readonly proxySource?: string;
  /** A URL as the user gave it (redacted), e.g. one that lacks its scheme. */
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

/**
 * What the user can do about an error, by verb and object; each face words it in its own terms
 * (the CLI's flags, the UI's controls). The table is closed: a face that does not word a
 * remedy does not compile.
 */
export interface RemedyTargets {
  /** Raise a limit. */
  raise: "timeout" | "max_redirects" | "login_timeout" | "device_timeout" | "max_retries";
  /** Check a setting or a fact about the server. */
  check:
    | "credentials"
    | "permissions"
    | "init_payload"
    | "token_url"
    | "token_endpoint"
    | "client"
    | "client_id"
    | "grant"
    | "flow"
    | "scope"
    | "provider_urls"
    | "login"
    | "subprotocols"
    | "introspection"
    | "event_stream"
    | "websocket_url"
    | "proxy"
    | "clock"
    | "stray_newline"
    | "ca_variable"
    | "script_sandbox"
    | "file_format"
    | "dpop"
    | "key_algorithm"
    | "issuer";
  /** Choose something else. */
  choose:
    | "write_out_variable"
    | "callback_port"
    | "final_url"
    | "certificate_name"
    | "oauth2_flow"
    | "environment"
    | "request";
  /** Trust the server's certificate, or present one of ours. */
  trust: "server_certificate" | "client_certificate" | "proxy_certificate";
  /** Write a value in its expected shape. */
  write:
    | "header"
    | "header_name"
    | "url_scheme"
    | "url_start"
    | "url_scheme_once"
    | "url_encoding"
    | "host_name"
    | "proxy_url"
    | "oauth2"
    | "pem"
    | "resolve"
    | "connect_to"
    | "variable"
    | "security_auth"
    | "request_name"
    | "sigv4"
    | "sigv4_region"
    | "issuer"
    | "private_key"
    | "oauth2_param";
  /** Do it another way. */
  use:
    | "proxy_tunnel"
    | "body_file"
    | "undecoded"
    | "default_header"
    | "one_authorization"
    | "empty_header"
    | "no_follow"
    | "identity_encoding"
    | "client_secret_post"
    | "scope_setting"
    | "own_setting"
    | "new_device_code"
    | "sigv4_body_file"
    | "address_in_url"
    | "body_include";
  /** Give a setting that is missing. */
  give:
    | "home"
    | "client_secret"
    | "auth_url"
    | "device_url"
    | "token_url"
    | "username"
    | "variable";
  /** Remove a local file (named by `details.path`) and run again. */
  remove: "cache_file" | "cache_dir";
  /** Wait for something running elsewhere. */
  wait: "other_login";
}

/** A verb of {@link RemedyTargets}. */
export type RemedyVerb = keyof RemedyTargets;

/** One structured remedy, e.g. `{ raise: "timeout" }` or `{ check: "credentials" }`. */
export type Remedy = { [V in RemedyVerb]: { readonly [K in V]: RemedyTargets[V] } }[RemedyVerb];

/**
 * A face's words for every remedy: a sentence, one built from the error's details, or
 * undefined where the remedy means nothing on that face.
 */
export type RemedyWords = {
  readonly [V in RemedyVerb]: { readonly [T in RemedyTargets[V]]: RemedyWording };
};

/** A face's words for one remedy. */
export type RemedyWording = string | ((details: ErrorDetails) => string) | undefined;

/**
 * Words a remedy for one face.
 *
 * @param remedy a remedy, or none
 * @param details the error's facts
 * @param words one face's words for every remedy
 * @returns the remedy in that face's words, or undefined
 */
export function wordRemedy(
  remedy: Remedy | undefined,
  details: ErrorDetails,
  words: RemedyWords,
): string | undefined {
  if (!remedy) return undefined;
  const [verb, target] = Object.entries(remedy)[0] as [RemedyVerb, string];
  const text = (words[verb] as Readonly<Record<string, RemedyWording>>)[target];
  return typeof text === "function" ? text(details) : text;
}

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

/** The certificate check that failed. */
export type TlsCheck =
  | "unknown_issuer"
  | "self_signed"
  | "expired"
  | "not_yet_valid"
  | "name_mismatch"
  | "client_certificate"
  | "other";

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
  return new DialError(`Cannot write output: ${(error as Error).message}`, ErrorCode.Output, {
    cause: error,
  });
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
  const aborted = signal?.aborted ? signal.reason : undefined;
  if (aborted instanceof DialError) return aborted;
  const target = hostPort(url);
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new TimeoutError(`Timed out waiting for ${target}`, { cause: error });
  }
  const { reason, runtime } = describeNetworkCause(error);
  return new TransportError(`Cannot reach ${target}: ${reason}${runtime ? ` (${runtime})` : ""}`, {
    details: { target, ...(runtime ? { runtime } : {}) },
    cause: error,
  });
}

function describeNetworkCause(error: unknown): { reason: string; runtime?: string } {
  const texts: string[] = [];
  for (let e: unknown = error; e instanceof Error && texts.length < 5; e = e.cause) {
    // Deno's text embeds the URL, -K keys and userinfo included.
    texts.push(redactUrlsInText(e.message));
  }
  const all = texts.join(" ");
  for (const [pattern, label] of NETWORK_REASONS) {
    if (pattern.test(all)) return { reason: label, runtime: lastLine(texts) };
  }
  return { reason: lastLine(texts) || redactUrlsInText(String(error)) };
}

function lastLine(texts: string[]): string {
  return (texts.at(-1) ?? "").split("\n")[0] ?? "";
}
