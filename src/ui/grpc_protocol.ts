/**
 * What the gRPC tab and the UI server say to each other (`src/ui/api/grpc_api.ts`): the
 * requests the tab posts and the NDJSON events it reads back.
 * @module
 */
import type { AuthJson, ErrorJson, Row } from "./protocol.ts";

/** Where a call goes, with which metadata and auth, described by what. */
export interface GrpcTargetJson {
  /** `host:port` (plaintext, h2c) or `grpcs://host:port` (TLS), as a request file writes it. */
  url: string;
  /** Metadata, as the header table holds it. */
  headers: Row[];
  /** The auth panel's credentials. */
  auth: AuthJson;
  /** `.proto` files relative to the workspace, instead of reflection. */
  protos?: string[];
  /** Folders relative to the workspace their imports are looked up in. */
  importPaths?: string[];
  /** The deadline of the listing or call, in ms (0: none). */
  timeoutMs?: number;
}

/** `POST /api/grpc/call`: a target and the method and messages. */
export interface GrpcCallJson extends GrpcTargetJson {
  /** `package.Service/Method`. */
  method: string;
  /** The message as JSON text; several documents for client and bidi streaming. */
  body: string;
  /**
   * Client and bidi streaming: the call stays open for `POST /api/grpc/send` and
   * `POST /api/grpc/end` (the body is not sent); other methods are called as without it.
   */
  open?: boolean;
}

/** `POST /api/grpc/send`: the message(s) to send on an open call. */
export interface GrpcSendJson {
  /** The `open` event's call. */
  call: string;
  /** One JSON document, or several (one message each); `{{variables}}` filled in. */
  body: string;
}

/** `POST /api/grpc/end`: ends sending on an open call (half-close). */
export interface GrpcEndJson {
  /** The `open` event's call. */
  call: string;
}

/** A method as `POST /api/grpc/methods` lists it. */
export interface GrpcMethodJson {
  /** `package.Service/Method`. */
  name: string;
  /** `unary`, `server_streaming`, `client_streaming` or `bidi_streaming`. */
  kind: string;
  /** The request message's full name. */
  input: string;
  /** The reply message's full name. */
  output: string;
  /** The request message with every field at its default, as JSON text. */
  template: string;
}

/** The events of `POST /api/grpc/methods`. */
export type GrpcMethodsEvent =
  | { type: "methods"; methods: GrpcMethodJson[] }
  | { type: "error"; error: ErrorJson };

/**
 * The events of `POST /api/grpc/call`, in order: for an open call first `open` (it takes
 * messages now), then `sent` for each message sent and `half-closed` when sending ended; replies
 * as they arrive; then the end.
 */
export type GrpcCallEvent =
  | { type: "open"; call: string; kind: string }
  | { type: "sent"; json: string; time: number }
  | { type: "half-closed"; time: number }
  | { type: "reply"; json: string; time: number }
  | {
    type: "end";
    /** The status code (0 for OK), its name and the server's message. */
    status: number;
    statusName: string;
    statusMessage: string;
    headers: [string, string][];
    trailers: [string, string][];
    timeMs: number;
  }
  | { type: "error"; error: ErrorJson };
