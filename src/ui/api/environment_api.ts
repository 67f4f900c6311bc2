/**
 * Environments and `{{variables}}` for the UI, with the request files' own loader and
 * substitution (`src/files/`): the picker's list (`http-client.env.json` and
 * `http-client.private.env.json` beside the workspace's request files), and the substitution of
 * a tab's URL, headers and body before it is parsed into the CLI's spec. Private values never
 * reach the page: the picker shows their names only.
 * @module
 */
import { load } from "../../load.ts";
import { loadEnvironment, PRIVATE_ENV_FILE, PUBLIC_ENV_FILE } from "../../files/environment.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import { referencedRequests, substitute, type VariableScope } from "../../files/substitute.ts";
import type { FileVariable } from "../../files/http_file_types.ts";
import { Secret } from "../../secret.ts";
import type { UiOAuthSettings } from "./spec_json.ts";
import type { Workspace } from "../workspace_path.ts";
import type { ApiContext } from "./http_api.ts";
import {
  array,
  isObject,
  type JsonObject,
  object,
  optionalString,
  readJson,
  string,
} from "./decode.ts";
import type { Environment } from "../../files/environment.ts";
import type { OAuth2Hooks } from "../../files/security_auth.ts";
import type { OAuth2Options } from "../../auth/oauth2/parse_value.ts";
import { UsageError } from "../../errors/mod.ts";
import { type EnvLookup, processEnv } from "../../env.ts";
import { type ReferenceReader, resolveUsed, whenResolved } from "../../files/trust_rule.ts";
import { confinedDotenv } from "../../files/_run_parts.ts";
import type { RequestVariableSource } from "../../files/request_variables.ts";
import { indexFiles } from "./workspace_api.ts";

/** What every Send and ▶ Run of the workspace share that a tab in no file reads. */
export interface TabSession {
  /** `client.global` values. */
  globals: ReadonlyMap<string, string>;
  /**
   * @param path a request file's real path
   * @returns the results of its named requests so far
   */
  responsesOf(path: string): ReadonlyMap<string, RequestVariableSource>;
}

/**
 * What a tab's substitution needs from the server: for `{{$auth.token("id")}}` the OAuth 2.0
 * cache and login hooks, the workspace session (globals, named results) and the process
 * environment.
 */
export interface AuthTokenOptions {
  /** The workspace session (every Send and ▶ Run share it). */
  session?: TabSession;
  /** The token cache directory (default: the CLI's, shared with it). */
  cacheDir?: string;
  /** What a flow that needs a browser login does (the UI: "Log in first"). */
  openBrowser?: (url: URL) => void | Promise<void>;
  /** The fetch for token requests. */
  fetch?: typeof fetch;
  /**
   * The process environment, for `@env:NAME` references of the private env file and
   * `{{$processEnv NAME}}` (default: the process's).
   */
  env?: EnvLookup;
}

/**
 * Security.Auth tokens share the auth panel's cache and its "Log in first"; globals are the
 * workspace session's.
 *
 * @param context the server's OAuth 2.0 settings, fetch, environment and workspace session
 * @returns the options of {@link substitutionFor}
 */
export function authTokenOptions(
  context: {
    oauth?: UiOAuthSettings;
    fetch?: typeof fetch;
    env?: EnvLookup;
    session?: TabSession;
  },
): AuthTokenOptions {
  return {
    ...(context.session ? { session: context.session } : {}),
    ...(context.oauth?.cacheDir !== undefined ? { cacheDir: context.oauth.cacheDir } : {}),
    ...(context.oauth?.openBrowser ? { openBrowser: context.oauth.openBrowser } : {}),
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.env ? { env: context.env } : {}),
  };
}

const AUTH_TOKEN = /\{\{\s*\$auth\.(token|idToken)\(\s*"([^"]*)"\s*\)\s*\}\}/g;

/**
 * The tokens of the environment's `Security.Auth` configurations a request uses, through
 * dial's OAuth 2.0 step (cache, refresh, grant), as the runner gets them.
 */
async function authTokens(
  text: string,
  environment: Awaited<ReturnType<typeof loadEnvironment>>,
  scope: VariableScope,
  path: string,
  options: AuthTokenOptions,
): Promise<Map<string, string | Secret>> {
  const tokens = new Map<string, string | Secret>();
  // The request's JSON escapes quotes: look at the text as the user wrote it.
  for (const match of text.replaceAll('\\"', '"').matchAll(AUTH_TOKEN)) {
    const kind = match[1] as "token" | "idToken";
    const key = `${kind}:${match[2]}`;
    if (tokens.has(key)) continue;
    const { securityAuthToken } = await load.securityAuth();
    tokens.set(
      key,
      await whenResolved(() =>
        securityAuthToken(environment, match[2]!, kind, {
          scope,
          path,
          hooks: {
            ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
            ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
          },
          ...(options.fetch ? { send: { fetch: options.fetch } } : {}),
        })
      ),
    );
  }
  return tokens;
}

/**
 * How the UI reads a credential reference of an environment file once the trust rule allowed it
 * (`src/files/trust_rule.ts`: a shared file's `@path` confined, its `@env:` refused in the UI): as the
 * CLI does for `@env:NAME` and `@PATH`, but a file only inside the workspace's folders (symlinks
 * resolved) and never `@exec:` or `@-`: the page can write the workspace's files, and must not
 * run commands through them. Values come out as secrets: the page never sees them.
 *
 * @param workspace the workspace
 * @param env the process environment
 * @returns the resolver for {@link loadEnvironment}
 */
export function referenceResolver(
  workspace: Workspace,
  env: EnvLookup,
): (value: string, where: string) => Promise<string> {
  return async (value, where) => {
    if (value.startsWith("@env:")) {
      const name = value.slice(5);
      const text = name === "" ? undefined : env(name);
      if (text === undefined) {
        throw new UsageError(
          `Cannot read ${where} (${value}): the environment variable ${name} is not set`,
          { hint: `set ${name || "NAME"} where dial ui starts, or give the value itself` },
        );
      }
      return text;
    }
    if (value.startsWith("@exec:") || value === "@-") {
      throw new UsageError(
        `Cannot read ${where} (${value}): the UI resolves @env: and @file only`,
        {
          hint: "run it with dial run, or give the value in http-client.private.env.json",
        },
      );
    }
    const path = await workspace.confinement.reading(value.slice(1), {
      what: where,
      written: value.slice(1),
    });
    const text = await Deno.readTextFile(path).catch(() => {
      throw new UsageError(`Cannot read ${where} (${value}): no such file`);
    });
    return text.replace(/\r?\n$/, "");
  };
}

/**
 * The UI's options of {@link loadEnvironment}: references read by {@link referenceResolver},
 * a shared file's `@path` confined to the workspace's folders and its `@env:` refused.
 *
 * @param workspace the workspace
 * @param env the process environment
 * @returns the options
 */
export function uiReferences(
  workspace: Workspace,
  env: EnvLookup,
): { resolve: ReferenceReader; confinement: Workspace["confinement"]; sharedEnv: false } {
  return {
    resolve: referenceResolver(workspace, env),
    confinement: workspace.confinement,
    sharedEnv: false,
  };
}

/** One variable as the page may see it. */
export interface VariableInfo {
  /** The value, for public variables only. */
  value?: string;
  /** Where it comes from: the public or the private file. */
  from: "public" | "private";
  /** That file, relative to the workspace. */
  file: string;
}

/** A `Security.Auth` configuration as the page may see it: its id and grant, no values. */
export interface SecurityAuthInfo {
  id: string;
  /** The `Grant Type` as written (JetBrains' default: Authorization Code). */
  grant: string;
}

/**
 * The folder of a request file (its environment files are beside it), confined.
 *
 * @param workspace the workspace
 * @param file the request file, relative to it; none for the workspace's top
 * @returns the folder's real path
 */
export async function folderOf(workspace: Workspace, file: string | undefined): Promise<string> {
  if (file === undefined) return workspace.root;
  const real = await workspace.resolveFile(file);
  return real.slice(0, real.lastIndexOf("/"));
}

/**
 * Refuses environment files that are links out of the workspace, before anything reads them.
 *
 * @param workspace the workspace
 * @param dir a folder inside it
 */
export async function checkEnvFiles(workspace: Workspace, dir: string): Promise<void> {
  const relative = dir === workspace.root ? "" : `${workspace.relative(dir)}/`;
  for (const name of [PUBLIC_ENV_FILE, PRIVATE_ENV_FILE]) {
    await workspace.resolve(`${relative}${name}`, { create: true });
  }
}

async function environmentNames(dir: string): Promise<string[]> {
  const names = new Set<string>();
  for (const name of [PUBLIC_ENV_FILE, PRIVATE_ENV_FILE]) {
    const text = await Deno.readTextFile(`${dir}/${name}`).catch(() => undefined);
    if (text === undefined) continue;
    try {
      const json: unknown = JSON.parse(text);
      if (isObject(json)) {
        for (const key of Object.keys(json)) if (key !== "$shared") names.add(key);
      }
    } catch {
      // reported when the environment is used
    }
  }
  return [...names].sort();
}

/**
 * `POST /api/workspace/environments`: `{file?}` → `{names, variables: {env: {name: info}},
 * auth: {env: [{id, grant}]}}` (the `Security.Auth` configurations by id, nothing of their values).
 *
 * @param request the call
 * @param context the workspace
 * @returns the environments beside the file (or at the workspace's top)
 */
export async function handleEnvironments(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const json = object(await readJson(request), "request");
  const workspace = context.workspace;
  if (!workspace) return Response.json({ names: [], variables: {}, auth: {} });
  const dir = await folderOf(workspace, optionalString(json.file, "file"));
  await checkEnvFiles(workspace, dir);
  const names = await environmentNames(dir);
  const variables: Record<string, Record<string, VariableInfo>> = {};
  const auth: Record<string, SecurityAuthInfo[]> = {};
  for (const name of names) {
    const environment = await loadEnvironment(dir, { name });
    auth[name] = [...environment.auth].map(([id, config]) => ({
      id,
      grant: typeof config["Grant Type"] === "string" ? config["Grant Type"] : "Authorization Code",
    }));
    // The files read, as the page names them: relative to the workspace.
    const fileOf = (end: string) => {
      const found = environment.files.find((f) => f.endsWith(`/${end}`));
      return found !== undefined && workspace.contains(found) ? workspace.relative(found) : end;
    };
    const files = { public: fileOf(PUBLIC_ENV_FILE), private: fileOf(PRIVATE_ENV_FILE) };
    variables[name] = Object.fromEntries(
      [...environment.variables].map(([key, value]) => [
        key,
        value instanceof Secret
          ? { from: "private", file: files.private }
          : { value, from: "public", file: files.public },
      ]),
    );
  }
  return Response.json({ names, variables, auth });
}

/** Where `{{$processEnv NAME}}` reads, as the variables line names it. */
const PROCESS_ENV_SOURCE = "the environment dial ui was started in";

/**
 * What the variables line shows of a `{{$processEnv NAME}}` or `{{$dotenv NAME}}`: where Send
 * reads it, or why Send would refuse it. Never its value: the process environment and `.env`
 * are the person's, as the private env file is, and their values stay on the server.
 */
export type SystemVariableInfo = { from: string } | { missing: string };

/**
 * `POST /api/workspace/environments/system`: `{file?, names}` (`names`: the `$processEnv NAME` and
 * `$dotenv NAME` a tab's request uses, as written between the braces) → `{variables: {name:
 * {from} | {missing}}}`, read as Send reads them: the process environment `dial ui` runs in (as
 * `dial run` reads it for any file), and the `.env` beside `file` (or at the workspace's top),
 * only when it resolves inside the run's folders.
 *
 * @param request the call
 * @param context the server's context (its workspace and process environment)
 * @returns the answer
 */
export async function handleSystemVariables(
  request: Request,
  context: ApiContext,
): Promise<Response> {
  const json = object(await readJson(request), "request");
  const file = optionalString(json.file, "file");
  const names = array(json.names, "names").slice(0, 200).map((n) => string(n, "names"));
  const env = context.env ?? processEnv;
  const workspace = context.workspace;
  let dotenv: Promise<{ path: string; values: Map<string, string> } | { problem: string }>;
  const readDotenv = async () => {
    if (!workspace) return { problem: "there is no workspace" };
    const dir = await folderOf(workspace, file);
    const path = dir === workspace.root ? ".env" : `${workspace.relative(dir)}/.env`;
    try {
      return {
        path,
        values: await confinedDotenv(dir, workspace.confinement, file ?? "the workspace"),
      };
    } catch (error) {
      // Send refuses it too (dial run's rule), with the folders' absolute paths.
      if (!(error instanceof UsageError)) throw error;
      return { problem: `${path} links out of the workspace (dial ui --allow-path DIR widens it)` };
    }
  };
  const variables: Record<string, SystemVariableInfo> = {};
  for (const name of names) {
    const [kind, key, ...rest] = name.trim().split(/\s+/);
    if (key === undefined || rest.length > 0 || key.startsWith("%")) continue;
    if (kind === "$processEnv") {
      variables[name] = env(key) !== undefined
        ? { from: PROCESS_ENV_SOURCE }
        : { missing: `is not set in ${PROCESS_ENV_SOURCE}` };
    } else if (kind === "$dotenv") {
      const found = await (dotenv ??= readDotenv());
      variables[name] = "problem" in found
        ? { missing: `is not read: ${found.problem}` }
        : found.values.has(key)
        ? { from: found.path }
        : { missing: `is not in ${found.path}` };
    }
  }
  return Response.json({ variables });
}

/** The environment and variables a request of a file (or of no file) is substituted from. */
interface RequestScope {
  environment: Environment;
  scope: VariableScope;
  /** The file, for messages (empty without one). */
  path: string;
}

/**
 * @param workspace the workspace
 * @param file the request's file (its environment files are beside it), if any
 * @param name the chosen environment, if any
 * @param env the process environment, for `@env:NAME` references
 * @returns the environment and the scope of `{{variables}}`
 */
async function requestScope(
  workspace: Workspace,
  file: string | undefined,
  name: string | undefined,
  env: EnvLookup,
): Promise<RequestScope> {
  const dir = await folderOf(workspace, file);
  await checkEnvFiles(workspace, dir);
  const environment = await loadEnvironment(dir, {
    ...(name !== undefined ? { name } : {}),
    ...uiReferences(workspace, env),
  });
  let fileVariables: FileVariable[] = [];
  if (file !== undefined) {
    const text = await Deno.readTextFile(await workspace.resolveFile(file));
    fileVariables = parseHttpFile(text, file).variables;
  }
  return {
    environment,
    scope: { environment: environment.variables, shared: environment.shared, file: fileVariables },
    path: file ?? "",
  };
}

/**
 * The OAuth 2.0 options of an environment's `Security.Auth` configuration, for the token
 * state and "Get token" / "Log in" of a request's auth line.
 *
 * @param json `{id, environment?, file?}`
 * @param workspace the workspace
 * @param hooks the login and notice hooks
 * @param env the process environment, for `@env:NAME` references
 * @returns the options for dial's OAuth 2.0 step (the same cache as Send and the runner)
 */
export async function securityAuthOf(
  json: JsonObject,
  workspace: Workspace | undefined,
  hooks: OAuth2Hooks,
  env: EnvLookup = processEnv,
): Promise<OAuth2Options> {
  if (!workspace) {
    throw new UsageError("Security.Auth needs a workspace: start dial ui in a folder");
  }
  const id = string(json.id, "securityAuth.id");
  const found = await requestScope(
    workspace,
    optionalString(json.file, "securityAuth.file"),
    optionalString(json.environment, "securityAuth.environment"),
    env,
  );
  const { securityAuthOptions } = await load.securityAuth();
  return await whenResolved(() => securityAuthOptions(found.environment, id, { ...found, hooks }));
}

/** Replaces the `{{variables}}` of one text; `what` names it in an error. */
export interface Substituter {
  (text: string, what: string): string;
  /** Whether the text's substitution holds a private value (then the page sees it redacted). */
  usesSecret(text: string, what: string): boolean;
  /** Reads the environment's references (`@env:`, `@path`…) the text uses, before it is filled. */
  ready(text: string, what: string): Promise<void>;
}

/**
 * The substitution of texts that are in no file (a tab's field, a composer's message) from one
 * scope: messages name the variable and the field, not a line and column.
 *
 * @param scope the scope: a tab's ({@link substitutionFor}), or the one a file's request was
 *   evaluated in (`runHttpFile`'s `take`), globals and request variables included
 * @returns the substitution
 */
export function scopeSubstituter(scope: VariableScope): Substituter {
  const run = (text: string, what: string) =>
    substitute(text, scope, { what, path: "", line: 1, column: 1 });
  return Object.assign(
    (text: string, what: string) => text.includes("{{") ? run(text, what).text : text,
    {
      usesSecret: (text: string, what: string) => text.includes("{{") && run(text, what).secret,
      ready: (text: string, what: string) =>
        resolveUsed(() => {
          if (text.includes("{{")) run(text, what);
        }),
    },
  );
}

/**
 * The request files' substitution for one of a tab's requests that is in no file (HTTP,
 * GraphQL, gRPC, WebSocket and SSE, with their composers' messages), with the scope a request of
 * a file at the workspace's top has in `dial run --env NAME`: the chosen environment (public and
 * private file) beside the file (or at the top), `$shared`, the workspace session's globals, the
 * file's `@variables`, dynamic variables, `{{$processEnv NAME}}` (the environment `dial ui` runs
 * in, as `dial run` reads it for any file), `{{$dotenv NAME}}` (the `.env` at the workspace's
 * top, only inside the run's folders, as a file's `.env` beside it), the latest result of a named
 * request (`{{login.response.body.$.token}}`: of the one file of the workspace that names it, an
 * error naming the files when two do) and the
 * `{{$auth.token("id")}}` of the environment's `Security.Auth`. A request of a file is evaluated
 * by `runHttpFile` itself, and its composers take that evaluation's scope.
 *
 * @param json the tab's request: `environment` and `file` name where to look
 * @param workspace the workspace, if any (without one only dynamic variables are defined)
 * @param options how `{{$auth.token("id")}}` gets its token (Security.Auth), the session
 * @param uses the texts to look for `$auth` tokens in (default: the whole request)
 * @returns the substitution
 */
export async function substitutionFor(
  json: JsonObject,
  workspace: Workspace | undefined,
  options: AuthTokenOptions = {},
  uses: string = JSON.stringify(json),
): Promise<Substituter> {
  const file = optionalString(json.file, "file");
  const name = optionalString(json.environment, "environment");
  let scope: VariableScope = {};
  let path = "";
  const dotenv = new Map<string, string>();
  /** Each `{{NAME.response…}}` used: the one file that names NAME, and its results. */
  const owners = new Map<string, ResultOwner>();
  if (workspace) {
    const env = options.env ?? processEnv;
    const found = await requestScope(workspace, file, name, env);
    const session = options.session;
    path = found.path;
    scope = {
      ...found.scope,
      ...(session ? { globals: session.globals } : {}),
      env,
      dotenv,
      ...(session ? { responses: (name: string) => namedResult(owners, name) } : {}),
      auth: await authTokens(uses, found.environment, found.scope, path, options),
    };
  }
  // A tab's field or message is in no file (a file's tab is sent by runHttpFile, with its
  // positions).
  const substituter = scopeSubstituter(scope);
  const ready = substituter.ready;
  let dotenvRead: Promise<void> | undefined;
  // The `.env` is read when a text uses it, as `dial run` reads a file's.
  substituter.ready = async (text, what) => {
    const session = options.session;
    if (workspace && session) {
      for (const used of referencedRequests(text)) {
        if (!owners.has(used)) owners.set(used, await ownerOf(workspace, session, used, file));
      }
    }
    if (workspace && text.includes("$dotenv")) {
      dotenvRead ??= (async () => {
        const dir = await folderOf(workspace, file);
        const values = await confinedDotenv(dir, workspace.confinement, file ?? "the workspace");
        for (const [key, value] of values) dotenv.set(key, value);
      })();
      await dotenvRead;
    }
    await ready(text, what);
  };
  // The environment's references this request uses are read now, and only those.
  for (const text of templates(json)) await substituter.ready(text, "request");
  return substituter;
}

/** Where a tab's `{{NAME.response…}}` reads: the one file of the workspace that names NAME. */
interface ResultOwner {
  name: string;
  /** The files (paths in the workspace) with a request named NAME. */
  paths: string[];
  /** The results of the one file's named requests (when exactly one names it). */
  results?: ReadonlyMap<string, RequestVariableSource>;
}

/**
 * @param workspace the workspace
 * @param session the workspace session
 * @param name a request's `# @name`, as a tab refers to it
 * @param file the tab's file, when it has one (then its own requests, as in `dial run`)
 * @returns the file whose request of that name the tab reads
 */
async function ownerOf(
  workspace: Workspace,
  session: TabSession,
  name: string,
  file: string | undefined,
): Promise<ResultOwner> {
  const paths = file !== undefined ? [file] : (await indexFiles(workspace))
    .filter((f) => f.requests.some((r) => r.name === name)).map((f) => f.path);
  if (paths.length !== 1) return { name, paths };
  const real = await workspace.resolve(paths[0]!);
  return { name, paths, results: session.responsesOf(real) };
}

/**
 * @param owners each referenced request's owner (see {@link ownerOf})
 * @param name a request's `# @name`, as a tab in no file refers to it
 * @returns the latest result of the request of that name in the one file that names it
 * @throws {UsageError} when no file or two files name it (the reference is ambiguous: `dial
 *   run` reads a file's own requests), or when no Send or ▶ Run of the session ran it
 */
function namedResult(owners: Map<string, ResultOwner>, name: string): RequestVariableSource {
  const owner = owners.get(name);
  const paths = owner?.paths ?? [];
  if (paths.length === 0) {
    throw new UsageError(`No request of the workspace is named "${name}"`, {
      hint: `name the request with # @name ${name}`,
    });
  }
  if (paths.length > 1) {
    const listed = paths.map((p) => `"${p}"`);
    throw new UsageError(
      `Request "${name}" is ambiguous: it is named in ${listed.slice(0, -1).join(", ")} and ${
        listed.at(-1)
      }`,
      { hint: `send it from a tab of the file whose ${name} you mean, or rename one of them` },
    );
  }
  const result = owner?.results?.get(name);
  if (result) return result;
  throw new UsageError(`Request "${name}" of "${paths[0]}" has not run in this dial ui session`, {
    hint: `Send or ▶ Run ${name} in ${paths[0]} first`,
  });
}

/** Every string of a request that holds a `{{template}}`. */
function templates(value: unknown): string[] {
  if (typeof value === "string") return value.includes("{{") ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(templates);
  if (isObject(value)) return Object.values(value).flatMap(templates);
  return [];
}

/**
 * Substitutes the rows of a table (headers, form fields): names and values.
 *
 * @param value the rows as the page sent them
 * @param what what a row is, for errors ("header")
 * @param sub the substitution
 * @returns the rows with variables replaced
 */
export function substituteRows(value: unknown, what: string, sub: Substituter): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((row) =>
    isObject(row)
      ? {
        ...row,
        ...(typeof row.name === "string" ? { name: sub(row.name, `${what} name`) } : {}),
        ...(typeof row.value === "string"
          ? { value: sub(row.value, `${what} "${row.name}"`) }
          : {}),
      }
      : row
  );
}

/**
 * Substitutes the `{{variables}}` of a tab's request: its URL, header names and values, body
 * text and form values, from the chosen environment and the file's `@variables`.
 *
 * @param json the tab's request (`environment` and `file` name where to look)
 * @param workspace the workspace, if any
 * @param options how `{{$auth.token("id")}}` gets its token (Security.Auth)
 * @returns the request with the variables replaced (unchanged when it has none)
 * @throws {import("../../files/substitute.ts").UndefinedVariableError} for an undefined one
 */
export async function substituteRequest(
  json: JsonObject,
  workspace: Workspace | undefined,
  options: AuthTokenOptions = {},
): Promise<JsonObject> {
  if (!JSON.stringify(json).includes("{{")) return json;
  const sub = await substitutionFor(json, workspace, options);
  const text = (value: unknown, what: string) =>
    typeof value === "string" ? sub(value, what) : value;
  const body = isObject(json.body)
    ? {
      ...json.body,
      ...(json.body.text !== undefined ? { text: text(json.body.text, "the body") } : {}),
      ...(json.body.fields !== undefined
        ? { fields: substituteRows(json.body.fields, "form field", sub) }
        : {}),
    }
    : json.body;
  return {
    ...json,
    url: text(json.url, "the URL"),
    headers: substituteRows(json.headers, "header", sub),
    ...(body !== undefined ? { body } : {}),
  };
}
