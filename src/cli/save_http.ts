/**
 * `dial … --save FILE.http [--name NAME]`: appends the request the flags describe to a request
 * file. No secret is written there: the values of `-u`, `-B`, `-K`, credential-named `-H`
 * headers and OAuth 2.0 client secrets and passwords become `{{variables}}`, and their values (a
 * reference such as `@env:TOKEN` as written, or the literal value) go to the `$shared`
 * environment of `http-client.private.env.json` beside the file (0600).
 * @module
 */
import { PRIVATE_ENV_FILE } from "../files/environment.ts";
import { multipartBodyParts } from "../files/multipart_body.ts";
import { appendRequest, type RequestModel, writeHttpRequest } from "../files/write_http_file.ts";
import { isCredentialName } from "../credential_name.ts";
import { DialError, ErrorCode, UsageError } from "../errors/mod.ts";
import type { BodySource, RequestSpec } from "../http/request_spec.ts";
import { shown, type Sink } from "../output/terminal.ts";
import { reveal } from "../secret.ts";
import type { RequestFlagValues } from "./request.ts";

/** The flags a saved request is written from (`dial grpc` has them too, without the HTTP ones). */
export type SaveFlags = Pick<
  RequestFlagValues,
  "name" | "auth" | "bearer" | "oauth2ClientKey" | "apiKeyQuery" | "follow" | "timeout"
>;

/** What was written. */
export interface SavedRequest {
  /** The request file. */
  file: string;
  /** The private environment file, when a secret went there. */
  privateFile?: string;
  /** The variables that hold secrets. */
  secrets: string[];
}

/** A request built from flags as a request-file model, its secrets apart. */
export interface FlagRequestModel {
  /** The request, secrets as `{{variables}}`. */
  model: RequestModel;
  /** The secret variables' values: references as typed (`@env:TOKEN`), else the value. */
  secrets: Record<string, string>;
  /** The secret variables' values, references resolved. */
  values: Record<string, string>;
  /** The OAuth 2.0 configuration for `Security.Auth`, by id, when `--oauth2` was given. */
  auth: Record<string, Record<string, unknown>>;
}

/**
 * The request the flags describe as a request-file model, the one `--save` appends and
 * `--export` writes: the values of `-u`, `-B`, `-K`, credential-named `-H` headers become
 * `{{variables}}`, OAuth 2.0 a `Security.Auth` configuration used as `{{$auth.token("id")}}`.
 * Without `--follow` the request says `# @no-redirect`; `--timeout` is `# @timeout`.
 *
 * @param spec the request as built from the flags
 * @param flags the flags as typed (references kept as written)
 * @param path the `.http` file the model is for (body files are relative to its directory)
 * @returns the model, its secrets and its auth configuration
 * @throws {UsageError} for a body that cannot be written (stdin)
 */
export function requestModel(
  spec: RequestSpec,
  flags: SaveFlags,
  path: string,
): FlagRequestModel {
  const name = flags.name;
  if (name !== undefined && !/^[\w.-]+$/.test(name)) {
    throw new UsageError(`Invalid --name "${name}": use letters, digits, "_", "-" and "."`);
  }
  const prefix = name ? `${name.replace(/[.-]/g, "_")}_` : "";
  const secrets: Record<string, string> = {};
  const auth: Record<string, Record<string, unknown>> = {};
  const values: Record<string, string> = {};
  const variable: Variable = (key, value, resolved) => {
    const variableName = `${prefix}${key}`.replace(/[^\w]/g, "_").toLowerCase();
    secrets[variableName] = value;
    values[variableName] = resolved;
    return `{{${variableName}}}`;
  };
  const headers: { name: string; value: string }[] = [];
  const authorization = spec.auth.authorization;
  if (authorization?.kind === "oauth2") {
    const id = name ?? "dial";
    auth[id] = oauth2Config(authorization.oauth2, flags);
    headers.push({ name: "Authorization", value: `Bearer {{$auth.token("${id}")}}` });
  } else if (authorization) {
    const header = credentialHeader(authorization, flags, variable);
    if (header) headers.push(header);
  }
  for (const header of spec.headers) {
    const value = reveal(header.value);
    const secret = header.credential || isCredentialName(header.name) ||
      typeof header.value !== "string";
    headers.push({
      name: header.name,
      value: secret ? variable(header.name, literal(value), value) : value,
    });
  }
  let url = spec.url.href;
  for (const key of spec.auth.queryKeys) {
    const raw = flags.apiKeyQuery.find((k) => k.startsWith(`${key.name}=`))?.slice(
      key.name.length + 1,
    );
    const value = raw !== undefined && /^@(?!@)/.test(raw) ? raw : literal(key.value.reveal());
    const pair = `${encodeURIComponent(key.name)}=${variable(key.name, value, key.value.reveal())}`;
    url += (url.includes("?") ? "&" : "?") + pair;
  }
  const body = spec.body ? bodyModel(spec.body, path, headers) : undefined;
  const directives = [
    ...(flags.follow ? [] : [{ name: "no-redirect" }]),
    ...(flags.timeout !== undefined ? [{ name: "timeout", value: `${flags.timeout} ms` }] : []),
  ];
  const model: RequestModel = {
    ...(name !== undefined ? { name } : {}),
    ...(directives.length ? { directives } : {}),
    method: spec.method,
    url,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
  return { model, secrets, values, auth };
}

/** Writes a secret as a `{{variable}}`: (key, the value as written, the value resolved). */
type Variable = (key: string, value: string, resolved: string) => string;

/**
 * The Authorization header of `-u` or `-B`: a reference stays as written (`@env:PW`), a literal
 * value is kept as one (`@@` for a leading `@`); either way it goes to the private env file.
 */
function credentialHeader(
  authorization: NonNullable<RequestSpec["auth"]["authorization"]>,
  flags: SaveFlags,
  variable: Variable,
): { name: string; value: string } | undefined {
  if (authorization.kind === "basic") {
    const raw = flags.auth ?? "";
    if (/^@(?!@)/.test(raw)) {
      const resolved = `${authorization.username}:${authorization.password.reveal()}`;
      return { name: "Authorization", value: `Basic ${variable("credentials", raw, resolved)}` };
    }
    const rawPassword = raw.slice(raw.indexOf(":") + 1);
    const password = /^@(?!@)/.test(rawPassword) ? rawPassword : authorization.password.reveal();
    return {
      name: "Authorization",
      value: `Basic ${authorization.username} ${
        variable("password", literal(password), authorization.password.reveal())
      }`,
    };
  }
  if (authorization.kind === "bearer") {
    const raw = flags.bearer ?? "";
    const value = /^@(?!@)/.test(raw) ? raw : literal(authorization.token.reveal());
    return {
      name: "Authorization",
      value: `Bearer ${variable("token", value, authorization.token.reveal())}`,
    };
  }
  return undefined;
}

/** The `Security.Auth` configuration of `--oauth2 …`, as JetBrains' environment files name it. */
function oauth2Config(
  oauth2: Extract<NonNullable<RequestSpec["auth"]["authorization"]>, { kind: "oauth2" }>["oauth2"],
  flags: SaveFlags,
): Record<string, unknown> {
  const keyFlag = flags.oauth2ClientKey;
  if (keyFlag === "@-") {
    throw new UsageError("Cannot write --oauth2-client-key @-: stdin is read once", {
      hint: "give the key as a file or @env:NAME",
    });
  }
  const params: Record<string, string | string[]> = {};
  for (const [param, value] of oauth2.params ?? []) {
    const had = params[param];
    params[param] = had === undefined ? value : [...[had].flat(), value];
  }
  return {
    "Type": "OAuth2",
    "Grant Type": oauth2.flow === "client_credentials"
      ? "Client Credentials"
      : oauth2.flow === "password"
      ? "Password"
      : oauth2.flow === "device_code"
      ? "Device Authorization"
      : "Authorization Code",
    ...(oauth2.tokenUrl ? { "Token URL": oauth2.tokenUrl.href } : {}),
    "Client ID": oauth2.clientId,
    ...(oauth2.clientSecret ? { "Client Secret": literal(oauth2.clientSecret.reveal()) } : {}),
    ...(oauth2.scope ? { "Scope": oauth2.scope } : {}),
    ...(oauth2.authUrl ? { "Auth URL": oauth2.authUrl.href } : {}),
    ...(oauth2.redirectUri ? { "Redirect URL": oauth2.redirectUri.href } : {}),
    ...(oauth2.username ? { "Username": oauth2.username } : {}),
    ...(oauth2.password ? { "Password": literal(oauth2.password.reveal()) } : {}),
    ...(oauth2.deviceUrl ? { "Device Auth URL": oauth2.deviceUrl.href } : {}),
    ...(oauth2.issuer ? { "Issuer": oauth2.issuer.href } : {}),
    ...(oauth2.clientAuth && oauth2.clientAuth !== "basic"
      ? { "Client Credentials": oauth2.clientAuth === "post" ? "in body" : oauth2.clientAuth }
      : {}),
    // The key as referenced on the command line (a path or @env:NAME), never its text.
    ...(keyFlag !== undefined
      ? { "Client Key": keyFlag.startsWith("@") ? keyFlag : `@${keyFlag}` }
      : {}),
    ...(oauth2.clientKeyAlg ? { "Client Key Algorithm": oauth2.clientKeyAlg } : {}),
    ...(Object.keys(params).length ? { "Custom Request Parameters": params } : {}),
  };
}

/**
 * Appends the request to the file, secrets as variables in the private environment file.
 *
 * @param spec the request as built from the flags
 * @param flags the flags as typed (references kept as written)
 * @param path the `.http` file
 * @returns where things went
 * @throws {UsageError} for a body that cannot be saved (stdin)
 */
export async function saveHttpRequest(
  spec: RequestSpec,
  flags: RequestFlagValues,
  path: string,
): Promise<SavedRequest> {
  return await saveModel(requestModel(spec, flags, path), path);
}

/**
 * Appends a request model to the file, its secrets to the private environment file.
 *
 * @param built the model, its secrets and auth configuration ({@link requestModel})
 * @param path the `.http` file
 * @returns where things went
 * @throws {DialError} when a file cannot be written
 */
export async function saveModel(
  built: Pick<FlagRequestModel, "model" | "secrets" | "auth">,
  path: string,
): Promise<SavedRequest> {
  const { model, secrets, auth } = built;
  if (Object.keys(auth).length) await updatePrivateEnv(dirOf(path), {}, auth);
  const text = writeHttpRequest(model);
  let source = "";
  try {
    source = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw writeFailure(path, error);
  }
  try {
    await Deno.writeTextFile(path, appendRequest(source, text));
  } catch (error) {
    throw writeFailure(path, error);
  }
  const saved: SavedRequest = { file: path, secrets: Object.keys(secrets) };
  if (Object.keys(secrets).length) {
    saved.privateFile = await updatePrivateEnv(dirOf(path), secrets, {});
  }
  return saved;
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : path.slice(0, slash) || "/";
}

/** A literal value that starts with `@` is written `@@…`, so that it is not read as a reference. */
function literal(value: string): string {
  return value.startsWith("@") ? `@${value}` : value;
}

function bodyModel(
  body: BodySource,
  path: string,
  headers: { name: string; value: string }[],
): RequestModel["body"] {
  const type = (contentType?: string) => {
    if (contentType && !headers.some((h) => h.name.toLowerCase() === "content-type")) {
      headers.push({ name: "Content-Type", value: contentType });
    }
  };
  switch (body.kind) {
    case "text":
      type(body.contentType);
      return body.text;
    case "file":
      type(body.contentType);
      return { file: relativeTo(dirOf(path), body.path) };
    case "form": {
      type(`multipart/form-data; boundary=${body.boundary}`);
      const fields = body.fields.map((field) =>
        "path" in field
          ? {
            name: field.name,
            file: relativeTo(dirOf(path), field.path),
            filename: field.filename,
            contentType: field.contentType,
          }
          : { name: field.name, value: field.value }
      );
      return { parts: multipartBodyParts(fields, body.boundary) };
    }
    case "bytes": {
      // -d pieces joined (and files read whole): text unless it is not UTF-8.
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body.bytes);
      } catch {
        throw new UsageError("Cannot write a body that is not UTF-8 text in place", {
          hint: "give the body with --data-binary @file",
        });
      }
      type(body.contentType);
      return text;
    }
    default:
      throw new UsageError("Cannot save or export a request whose body is read from stdin", {
        hint: "give the body with -d @file or --json @file",
      });
  }
}

/**
 * A path the request file can name (an include, a `.proto` file): relative to its directory
 * when below it, else absolute.
 *
 * @param dir the request file's directory
 * @param path the path, relative to the working directory or absolute
 * @returns `./…` or the absolute path
 */
export function relativeTo(dir: string, path: string): string {
  const absolute = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  const base = (dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`).replace(/\/\.?$/, "");
  return absolute.startsWith(`${base}/`) ? `./${absolute.slice(base.length + 1)}` : absolute;
}

/** Adds variables to `$shared` and auth configurations to `$shared.Security.Auth`, 0600. */
async function updatePrivateEnv(
  dir: string,
  variables: Record<string, string>,
  auth: Record<string, Record<string, unknown>>,
): Promise<string> {
  const path = `${dir.replace(/\/$/, "")}/${PRIVATE_ENV_FILE}`;
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await Deno.readTextFile(path));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      data = parsed as Record<string, unknown>;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      throw new UsageError(`Cannot update ${path}: it is not a JSON object`);
    }
  }
  const shared = isRecord(data.$shared) ? data.$shared : {};
  Object.assign(shared, variables);
  if (Object.keys(auth).length) {
    const security = isRecord(shared.Security) ? shared.Security : {};
    const configs = isRecord(security.Auth) ? security.Auth : {};
    Object.assign(configs, auth);
    security.Auth = configs;
    shared.Security = security;
  }
  data.$shared = shared;
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, JSON.stringify(data, null, 2) + "\n", { mode: 0o600 });
    await Deno.chmod(temp, 0o600).catch(() => {});
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw writeFailure(path, error);
  }
  return path;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function writeFailure(path: string, error: unknown): DialError {
  return new DialError(
    `Cannot write ${path}: ${(error as Error).message}`,
    ErrorCode.Output,
    { cause: error },
  );
}

/**
 * Tells the user where the request and its secrets went.
 *
 * @param saved what was written
 * @param err the run's stderr
 */
export async function reportSaved(saved: SavedRequest, err: Sink): Promise<void> {
  let text = `Saved the request to ${saved.file}`;
  if (saved.privateFile && saved.secrets.length) {
    text += `; ${saved.secrets.map((s) => `{{${s}}}`).join(", ")} in ${saved.privateFile}` +
      " (keep it out of version control)";
  }
  await err.write(`${shown(err, text)}\n`);
}
