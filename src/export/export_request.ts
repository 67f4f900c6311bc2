/**
 * A request file's requests as curl, HTTPie, Python requests, JavaScript fetch or HAR, built
 * by the same steps `dial run` uses (the parser, the environment, {@link buildFileRequest}),
 * so the exported request is the one dial would send. Secret values (the private environment
 * file, references) are written as environment lookups (`$API_TOKEN`,
 * `os.environ["API_TOKEN"]` …) unless the user asks for them.
 *
 * A secret travels through the build as a marker (two private-use characters around its
 * environment name); each writer turns the marker into its language's lookup.
 * @module
 */
import { buildRequest, USER_AGENT } from "../http/build_request.ts";
import type { PreparedRequest } from "../http/request_spec.ts";
import { buildFileRequest, type FileRequest } from "../files/file_request.ts";
import { whenResolved } from "../files/trust_rule.ts";
import type { HttpRequest } from "../files/http_file_types.ts";
import type { VariableScope, VariableValue } from "../files/substitute.ts";
import { UsageError } from "../errors/mod.ts";
import { reveal, Secret } from "../secret.ts";

const OPEN = "\uE000";
const CLOSE = "\uE001";
const MARKER = new RegExp(`${OPEN}([A-Za-z_][A-Za-z0-9_]*)${CLOSE}`, "g");
const ENCODED = /%EE%80%80([A-Za-z_][A-Za-z0-9_]*)%EE%80%81/g;

/** One piece of an exported value: text, or the name of an environment variable. */
export type Segment = { text: string } | { env: string };

/**
 * The environment variable a request-file variable is read from in exported code.
 *
 * @param name the variable's name, e.g. `api-token`
 * @returns e.g. `API_TOKEN`
 */
export function envName(name: string): string {
  const upper = name.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "").toUpperCase();
  return /^[A-Z_]/.test(upper) ? upper : `V_${upper}`;
}

/**
 * A lookup of an environment variable, as the writers write it (`"${NAME}"` in shell).
 *
 * @param name what the value is, e.g. `authorization`
 * @returns the marker of the variable `envName(name)`
 */
export function envLookup(name: string): string {
  return `${OPEN}${envName(name)}${CLOSE}`;
}

/**
 * Splits a value into text and environment lookups (markers, also percent-encoded in a URL).
 *
 * @param value a value built with markers
 * @returns its segments
 */
export function segments(value: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  const text = value.replace(ENCODED, `${OPEN}$1${CLOSE}`);
  for (const m of text.matchAll(MARKER)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ env: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < text.length || out.length === 0) out.push({ text: text.slice(last) });
  return out;
}

/** `{{$auth.token("id")}}` as the environment variable `ID_TOKEN`, whatever the id. */
class TokenLookups extends Map<string, string> {
  override get(key: string): string {
    const colon = key.indexOf(":");
    const kind = key.slice(0, colon) === "idToken" ? "id_token" : "token";
    return `${OPEN}${envName(`${key.slice(colon + 1)}_${kind}`)}${CLOSE}`;
  }
}

/** The secret variables an export read from the environment instead of writing them. */
export interface ExportedRequest {
  /** The request as dial would send it (auth applied), secrets as markers. */
  prepared: PreparedRequest;
  /** Basic credentials, kept apart so that each writer uses its own way to send them. */
  basic?: { username: string; password: string };
  /** The built file request (follow, timeouts). */
  file: FileRequest;
  /** Environment variables the exported code reads. */
  envVars: string[];
}

/** Options of {@link exportRequest}. */
export interface ExportRequestOptions {
  /** The scope `dial run` would use. */
  scope: VariableScope;
  /** The request file's path. */
  path: string;
  /** Its directory. */
  dir: string;
  /** Write secret values as they are. */
  withSecrets: boolean;
}

/**
 * Builds one request for export.
 *
 * @param request the parsed request
 * @param options the scope and whether secrets are written
 * @returns the request, secrets as markers unless `withSecrets`
 */
export async function exportRequest(
  request: HttpRequest,
  options: ExportRequestOptions,
): Promise<ExportedRequest> {
  const envVars = new Set<string>();
  const mark = (values: ReadonlyMap<string, VariableValue> | undefined) => {
    if (!values || options.withSecrets) return values;
    const marked = new Map<string, VariableValue>();
    for (const [name, value] of values) {
      if (value instanceof Secret) {
        const env = envName(name);
        marked.set(name, `${OPEN}${env}${CLOSE}`);
      } else marked.set(name, value);
    }
    return marked;
  };
  const scope: VariableScope = { ...options.scope };
  const environment = mark(options.scope.environment);
  const overrides = mark(options.scope.overrides);
  if (environment) scope.environment = environment;
  if (overrides) scope.overrides = overrides;
  // An OAuth 2.0 token ({{$auth.token("id")}}) is never fetched for an export: the code reads
  // it from the environment (`dial auth token` prints one).
  scope.auth ??= new TokenLookups();
  const file = await whenResolved(() =>
    buildFileRequest(request, { scope, path: options.path, dir: options.dir })
  );
  const authorization = file.spec.auth.authorization;
  let prepared = buildRequest(file.spec);
  let basic: ExportedRequest["basic"];
  if (authorization?.kind === "bearer") {
    prepared = buildRequest(file.spec, new Secret(`Bearer ${reveal(authorization.token)}`));
  } else if (authorization?.kind === "basic") {
    basic = { username: authorization.username, password: reveal(authorization.password) };
  }
  // The file's request, not dial's additions: no default User-Agent; a body kept as bytes
  // (as dial keeps one to resend after a redirect) written as the text it is.
  prepared = {
    ...prepared,
    headers: prepared.headers.filter((h) =>
      !(h.name.toLowerCase() === "user-agent" && reveal(h.value) === USER_AGENT)
    ),
  };
  if (prepared.body?.kind === "bytes") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
        prepared.body.bytes,
      );
    } catch {
      throw new UsageError(
        `Cannot export ${
          request.name ?? request.url
        }: its body is not UTF-8 text (a binary file can be the whole body, not a part of one)`,
      );
    }
    prepared = { ...prepared, body: { kind: "text", text } };
  }
  const scan = (text: string) => {
    for (const s of segments(text)) if ("env" in s) envVars.add(s.env);
  };
  scan(prepared.url.href);
  for (const h of prepared.headers) scan(reveal(h.value));
  if (basic) scan(`${basic.username}:${basic.password}`);
  if (prepared.body?.kind === "text") scan(prepared.body.text);
  return { prepared, ...(basic ? { basic } : {}), file, envVars: [...envVars] };
}
