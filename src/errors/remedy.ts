/**
 * What the user can do about an error (`remedy`), by verb and object: the core names it, each
 * face words it (the CLI as flags in src/cli/cli_remedies.ts, the UI as its controls in
 * src/ui/api/ui_remedies.ts).
 * @module
 */
import type { ErrorDetails } from "./codes.ts";

/**
 * What the user can do about an error, by verb and object; each face words it in its own terms
 * (the CLI's flags, the UI's controls). The table is closed: a face that does not word a
 * remedy does not compile.
 */
export interface RemedyTargets {
  /** Raise a limit. */
  raise:
    | "timeout"
    | "connect_timeout"
    | "max_redirects"
    | "login_timeout"
    | "device_timeout"
    | "max_retries";
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
    | "issuer"
    | "import_path"
    | "include_dirs";
  /** Choose something else. */
  choose:
    | "callback_port"
    | "final_url"
    | "certificate_name"
    | "oauth2_flow"
    | "environment"
    | "request"
    | "grpc_name";
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
    | "no_follow"
    | "identity_encoding"
    | "client_secret_post"
    | "scope_setting"
    | "own_setting"
    | "new_device_code"
    | "sigv4_body_file"
    | "address_in_url"
    | "body_include"
    | "private_env"
    | "proto_file"
    | "openapi_url";
  /** Give a setting that is missing. */
  give:
    | "home"
    | "client_secret"
    | "auth_url"
    | "device_url"
    | "client_key"
    | "token_url"
    | "username"
    | "variable"
    | "issuer";
  /** Remove a local file (named by `details.path`) and run again. */
  remove: "cache_file" | "cache_dir";
  /** Wait for something running elsewhere. */
  wait: "other_login";
  /** Allow what a shared file may not do by itself (a path outside the run's folder: `details.path`). */
  allow: "path";
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
