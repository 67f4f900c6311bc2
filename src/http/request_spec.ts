/**
 * A request as plain data: what the CLI and the UI build from flags or JSON, before any
 * credential is resolved or any byte is sent.
 * @module
 */
import type { AuthSpec, QueryKey } from "../auth/auth_spec.ts";
import type { MaybeSecret, Secret } from "../secret.ts";

/** One request header; secret values print as `(redacted)`. */
export interface HeaderField {
  /** Header name as the user wrote it. */
  name: string;
  /** Header value. */
  value: MaybeSecret;
  /**
   * Set for curl's `-H 'Name:'` and HTTPie's `Name:` item: the header is not sent, not even
   * the default dial would add (`Accept`, `User-Agent`, `Accept-Encoding` …).
   */
  remove?: boolean;
  /**
   * Set for a header that an auth option added (an API key): always a credential, so never
   * sent to another origin, whatever its name.
   */
  credential?: boolean;
}

/** One part of a multipart/form-data body. */
export type FormField =
  | { name: string; value: string }
  | { name: string; path: string; filename: string; contentType: string };
// A file field's path "-" reads stdin (`-F f=@-`).

/**
 * Where a request body comes from. Files are streamed, never read whole; a pipe (stdin, a
 * file that is not a regular file) becomes `bytes` when it fits the buffer limit, else a
 * `stream` sent chunked once (see body.ts).
 */
export type BodySource =
  | { kind: "text"; text: string; contentType?: string }
  | { kind: "file"; path: string; contentType?: string }
  | { kind: "stdin"; stream: ReadableStream<Uint8Array>; contentType?: string }
  | { kind: "bytes"; bytes: Uint8Array<ArrayBuffer>; contentType?: string }
  | { kind: "stream"; stream: ReadableStream<Uint8Array>; contentType?: string }
  | {
    kind: "form";
    fields: FormField[];
    boundary: string;
    /** What a field with the path "-" reads (the CLI's stdin, for `-F f=@-`). */
    stdin?: ReadableStream<Uint8Array>;
  };

/** A request before credentials are resolved. */
export interface RequestSpec {
  /** The HTTP method, sent exactly as given. */
  method: string;
  /** The absolute target URL, without `-K` keys. */
  url: URL;
  /** Headers from `-H` and the body flags, in order. */
  headers: HeaderField[];
  /** Authorization and query API keys. */
  auth: AuthSpec;
  /** The body, if any. */
  body?: BodySource;
  /**
   * `*`: the request-target is the asterisk form (`OPTIONS * HTTP/1.1`, RFC 9112 §3.2.4) instead
   * of the URL's path, which must then be `/`. Only the first hop: a redirect drops it.
   */
  target?: "*";
}

/**
 * Credentials computed per request on the wire (Digest, AWS Signature Version 4): they depend
 * on the method, the URL and, for SigV4, the body, so `send` applies them to each request it
 * makes. A redirect to another origin drops the signer (credentials go only to the origin the
 * user named).
 */
export interface RequestSigner {
  /** The scheme, for messages and `-v`: `digest` or `aws-sigv4`. */
  readonly scheme: string;
  /** Adds the credentials known so far to a request about to go out. */
  sign(request: PreparedRequest): Promise<PreparedRequest>;
  /**
   * Learns from a 401 (a Digest challenge).
   *
   * @returns true when the request should be sent again, now answerable
   */
  challenge?(response: Response): boolean;
  /**
   * curl arguments that make curl compute the same credentials (`--curl`).
   *
   * @param show how a secret is written (default: its value); `name` says what it is
   */
  curlArgs(show?: (secret: Secret, name: string) => string): string[];
}

/** A request ready to send: credentials resolved into headers, keys kept apart from the URL. */
export interface PreparedRequest {
  /** The HTTP method. */
  method: string;
  /** The URL without API keys. */
  url: URL;
  /** API keys to append to the query when sending. */
  queryKeys: QueryKey[];
  /** All headers, including Authorization (as a secret). */
  headers: HeaderField[];
  /** The body, if any. */
  body?: BodySource;
  /** Credentials to compute per request on the wire, for this origin only. */
  signer?: RequestSigner;
  /** `*`: the asterisk-form request-target ({@link RequestSpec.target}). */
  target?: "*";
}
