/**
 * The UI's wire protocol: every name and shape the browser and the `dial ui` server exchange,
 * in one module both import (the server under Deno, the page through the bundle). Pure data:
 * no Deno APIs, no DOM. `PROTOCOL.md` beside it describes the exchange in prose.
 * @module
 */
import type { OpenapiEvent } from "./openapi_protocol.ts";
import { OAUTH2_FLOWS, type OAuth2Flow } from "../auth/oauth2/parse_value.ts";
import { GRAPHQL_TRANSPORTS, type GraphQLTransport } from "../graphql/transports.ts";
import type { TransportSettings } from "../http/transport_fields.ts";
import type { ErrorJson } from "./session_protocol.ts";

export { GRAPHQL_TRANSPORTS, OAUTH2_FLOWS };
export * from "./session_protocol.ts";
export type { GraphQLTransport, OAuth2Flow };

/** The request kinds' tabs (ids, in the header's order); the selected one is kept as `tab`. */
export const MAIN_TABS = ["http", "graphql", "ws", "sse", "grpc"] as const;

/** The sidebar's width bounds and default, CSS px; it is kept as `layout.sidebar`. */
export const SIDEBAR_WIDTH = { min: 160, max: 640, initial: 240 } as const;

/** The largest API request body the server reads; beyond it answers 413. */
export const MAX_API_BODY = 16 * 1024 * 1024;

/**
 * The largest JSON the server reads before a session is proven (`POST /api/session`, the stream
 * bridge's first message): a launch token or a session secret fits many times over.
 */
export const MAX_SESSION_JSON = 4096;

/**
 * The largest response body `dial ui` keeps on disk for Save; a larger one keeps only the
 * preview (the page says so), so that no server can fill the disk through the UI.
 */
export const MAX_KEPT_BODY = 64 * 1024 * 1024;

/** All kept bodies together stay under this; the oldest go first. */
export const MAX_KEPT_BODIES = 256 * 1024 * 1024;

/** The default timeout of a request sent from a tab, editable there. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The longest timeout a tab may ask for: one day. */
export const MAX_TIMEOUT_MS = 86_400_000;

/** The body of every non-2xx API answer. */
export interface ErrorBody {
  error: ErrorJson;
}

/** The auth panel's kinds, as both sides name them. */
export const AUTH_KINDS = [
  "none",
  "basic",
  "digest",
  "bearer",
  "apikey",
  "oauth2",
  "aws-sigv4",
] as const;
/** One of {@link AUTH_KINDS}. */
export type AuthKind = typeof AUTH_KINDS[number];

/** The auth panel as JSON. */
export type AuthJson =
  | { kind: "none" }
  | { kind: "basic"; username: string; password: string }
  | { kind: "digest"; username: string; password: string }
  | { kind: "bearer"; token: string }
  | { kind: "apikey"; in: "header" | "query"; name: string; value: string }
  | {
    kind: "aws-sigv4";
    /** `provider1[:provider2[:region[:service]]]`, as `--aws-sigv4` takes it. */
    sigv4: string;
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
  }
  | {
    kind: "oauth2";
    flow: OAuth2Flow;
    /** The token URL; may be empty when `issuer` is given. */
    tokenUrl: string;
    /** The issuer whose metadata supplies the endpoints left empty (`--oauth2-issuer`). */
    issuer?: string;
    /** Extra token and authorization request parameters (`--oauth2-param`), in order. */
    params?: Row[];
    /** The device authorization endpoint (`--oauth2-device-url`), for device_code. */
    deviceUrl?: string;
    clientId: string;
    clientSecret?: string;
    scope?: string;
    authUrl?: string;
    port?: string;
    username?: string;
    password?: string;
    /** How the client authenticates at the token URL (`--oauth2-client-auth`). */
    clientAuth?: "basic" | "post" | "private_key_jwt" | "client_secret_jwt";
    /** The PEM private key for private_key_jwt (`--oauth2-client-key`). */
    clientKey?: string;
    /** How long the browser login may take, in seconds as typed (`--oauth2-timeout`). */
    timeout?: string;
  };

/** A name/value row of a table (headers, query parameters, form fields). */
export interface Row {
  name: string;
  value: string;
  /** A row switched off is kept in the table but not sent; default on. */
  enabled?: boolean;
}

/** A file the page attached to a multipart form row: its name, media type and bytes. */
export interface FileJson {
  name: string;
  type: string;
  base64: string;
}

/** A multipart form row: a text value, or a file (then `value` shows the file's name). */
export interface FormRow extends Row {
  file?: FileJson;
}

/** The HTTP tab's body. */
export type BodyJson =
  | { kind: "none" }
  | { kind: "json" | "text"; text: string; contentType?: string }
  | { kind: "form"; fields: FormRow[] };

/** `POST /api/http` and `POST /api/http/curl` ask. */
export interface HttpRequestJson {
  method: string;
  url: string;
  params?: Row[];
  headers?: Row[];
  body?: BodyJson;
  auth?: AuthJson;
  follow?: boolean;
  /** Abort after this many milliseconds; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** The environment whose variables fill `{{…}}` (`http-client.env.json`). */
  environment?: string;
  /** The workspace's request file the request comes from (its `@variables`, its env files). */
  file?: string;
  /** A long body may come in parts after the response line (`ResponseJson.bodyParts`). */
  bodyParts?: boolean;
}

/**
 * The workspace's TLS and proxy settings as `dial`'s flags name them (the one
 * {@link TransportSettings}): paths relative to the workspace and switches, never a file's
 * contents or a password; the proxy URL without credentials.
 */
export type ConnectionSettingsJson = TransportSettings;

/** `POST /api/workspace/connection` and `…/connection/save` answer. */
export interface ConnectionAnswer {
  settings: ConnectionSettingsJson;
  /** The `dial` flags that give the same settings. */
  flags: string[];
  /** Whether certificates go unverified (these settings, or `dial ui -k`). */
  insecure: boolean;
  /** Why the saved settings could not be used at start. */
  error?: string;
}

/** A response as the browser sees it. */
export interface ResponseJson {
  status: number;
  /** The server's reason phrase (none in HTTP/2). */
  statusText: string;
  /** The protocol the server answered with: `HTTP/1.1`, `HTTP/1.0`, `HTTP/2`. */
  version?: string;
  /** The final URL, API keys redacted. */
  url: string;
  headers: Array<[string, string]>;
  /** The body as text, or absent when it is binary or follows in parts (`bodyParts`). */
  body?: string;
  /**
   * When the call asked for parts (`bodyParts: true`), a body longer than {@link BODY_PART}
   * characters follows the response's line in this many {@link BodyPartEvent}s, in order: the
   * page shows the first screen from the first, and no task of the page holds 5 MB of text.
   */
  bodyParts?: number;
  /** Whether the body was cut for the viewer. */
  truncated: boolean;
  /** The whole body's id for `POST /api/http/body` (Save), when the server keeps it. */
  bodyId?: string;
  /** Body size in bytes. */
  size: number;
  /** Milliseconds from sending to the last body byte. */
  timeMs: number;
  redirects: number;
}

/** The largest part of a response body in one line of an answer (characters). */
export const BODY_PART = 64 * 1024;

/**
 * A part of a long response body: right after its `response` line, in order. On the wire its
 * line is `{"type":"body","chars":N}` and the part's N characters (UTF-16 code units) follow it
 * as they are, then a newline (`emitText` in api/ndjson.ts; a part that is not well-formed
 * UTF-16 goes as `text` in its line); the page's reader gives it back as `text`.
 */
export interface BodyPartEvent {
  type: "body";
  text: string;
}

/**
 * `POST /api/http` answers NDJSON (so the server notices at once when the page cancels):
 * notices, then the response (its long body in parts after it) or an error.
 */
export type HttpEvent = { type: "response"; response: ResponseJson } | BodyPartEvent | {
  type: "error";
  error: ErrorJson;
} | NoticeEvent;

/** A request tab of a workspace file, sent as `dial run` sends it (`POST /api/http/file`). */
export interface FileSendJson {
  /** The request file, relative to the workspace. */
  path: string;
  /** The request's 1-based position in the file when the tab was opened. */
  index: number;
  /** Its `# @name`, which finds it first. */
  name?: string;
  /** The tab's fields: the request's text as the tab has it (what Save would write). */
  draft: {
    method: string;
    url: string;
    headers: Row[];
    bodyKind: "none" | "json" | "text" | "form";
    body: string;
    form: Row[];
  };
  /** The chosen environment. */
  environment?: string;
  /** Abort after this many milliseconds, unless the request's `# @timeout` says otherwise. */
  timeoutMs?: number;
  /** A long body may come in parts after the response line (`ResponseJson.bodyParts`). */
  bodyParts?: boolean;
}

/**
 * A GraphQL, WebSocket or SSE tab's request of a workspace file (`fromFile` of its call or
 * start): evaluated on the server as `dial run` evaluates it, then run by the tab.
 */
export type FileRequestJson = Omit<FileSendJson, "timeoutMs">;

/** A `client.test` result of a request's handlers. */
export interface TestJson {
  name: string;
  passed: boolean;
  message?: string;
}

/**
 * `POST /api/http/file` answers NDJSON: `ran` for each named request that ran first because the
 * tab's request refers to it, the `response`, `log` lines of its scripts, then one `result`
 * (its tests, or why a handler failed), or an `error`.
 */
export type FileSendEvent =
  | { type: "ran"; label: string; status?: number; error?: ErrorJson }
  | { type: "response"; response: ResponseJson }
  | BodyPartEvent
  | { type: "log"; text: string }
  | { type: "result"; status?: number; tests: TestJson[]; error?: ErrorJson }
  | { type: "error"; error: ErrorJson }
  | OpenapiEvent
  | NoticeEvent;

/**
 * What the person should know about the OAuth 2.0 step, as the CLI says it on stderr: e.g. a
 * token response without `token_type`, used as Bearer. Before the response or the state.
 */
export type NoticeEvent = {
  type: "notice";
  /** `token_response`, `lock_wait` or `cache_write` (the OAuth 2.0 step's notice kinds). */
  kind: string;
  /** One line, never a secret. */
  message: string;
};

/** OAuth 2.0 token state (never the token): times in epoch milliseconds. */
export interface TokenStateJson {
  obtainedAt: number;
  expiresAt?: number;
  refreshedAt?: number;
  hasRefreshToken: boolean;
}

/** `POST /api/auth/token` answers NDJSON lines of these. */
export type AuthTokenEvent =
  | { type: "login"; url: string }
  | {
    /** The device flow's code: the page shows it with the link until the login is done. */
    type: "device";
    verificationUri: string;
    verificationUriComplete?: string;
    userCode: string;
    expiresIn: number;
  }
  | { type: "state"; state: TokenStateJson | null }
  | NoticeEvent
  | { type: "error"; error: ErrorJson };

/** `POST /api/graphql/schema` answers NDJSON: one of these lines. */
export type GraphqlSchemaEvent = {
  type: "schema";
  introspection: unknown;
  /** Where it came from: the resolved endpoint's origin (no path, query nor userinfo). */
  from: string;
} | {
  type: "error";
  error: ErrorJson;
};

/** `POST /api/graphql/run` answers NDJSON lines of these. */
export type GraphqlRunEvent =
  | { type: "head"; status: number; statusText: string; headers: Array<[string, string]> }
  | { type: "result"; text: string; timeMs: number; size: number }
  | { type: "end"; timeMs: number; size: number }
  | { type: "error"; error: ErrorJson }
  // A query of a workspace file runs as `dial run` runs it: what ran first, its log, its tests.
  | { type: "ran"; label: string; status?: number; error?: ErrorJson }
  | { type: "log"; text: string }
  | { type: "tests"; status?: number; tests: TestJson[]; error?: ErrorJson };

/**
 * The stream bridge (`GET /api/stream`, a WebSocket): the page's first message proves the
 * session (a browser cannot set headers on a WebSocket), then one `start`, then `send` and
 * `close`.
 */
export type BridgeHello = { type: "hello"; session: string };

/** A session event from the bridge: errors as {@link ErrorJson}, binary messages as base64. */
export type BridgeEvent = Record<string, unknown> & { type: string; time: number };

/** The close code the bridge uses when the first message does not prove the session. */
export const BRIDGE_UNAUTHORIZED = 4401;
