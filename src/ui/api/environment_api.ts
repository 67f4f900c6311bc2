/**
 * Environments and `{{variables}}` for the UI, with the request files' own loader and
 * substitution (`src/files/`): the picker's list (`http-client.env.json` and
 * `http-client.private.env.json` beside the workspace's request files), and the substitution of
 * a tab's URL, headers and body before it is parsed into the CLI's spec. Private values never
 * reach the page: the picker shows their names only.
 * @module
 */
import { loadEnvironment, PRIVATE_ENV_FILE, PUBLIC_ENV_FILE } from "../../files/environment.ts";
import { parseHttpFile } from "../../files/parse_http_file.ts";
import { substitute, type VariableScope } from "../../files/substitute.ts";
import type { FileVariable } from "../../files/http_file_types.ts";
import { Secret } from "../../secret.ts";
import type { UiOAuthSettings } from "./spec_json.ts";
import type { Workspace } from "../workspace_path.ts";
import type { ApiContext } from "./http_api.ts";
import { isObject, type JsonObject, object, optionalString, readJson } from "./decode.ts";

/** What a `{{$auth.token("id")}}` needs from the server: the OAuth 2.0 cache and login hooks. */
export interface AuthTokenOptions {
  /** The token cache directory (default: the CLI's, shared with it). */
  cacheDir?: string;
  /** What a flow that needs a browser login does (the UI: "Log in first"). */
  openBrowser?: (url: URL) => void | Promise<void>;
  /** The fetch for token requests. */
  fetch?: typeof fetch;
}

/**
 * Security.Auth tokens share the auth panel's cache and its "Log in first".
 *
 * @param context the server's OAuth 2.0 settings and fetch
 * @returns the options of {@link substitutionFor}
 */
export function authTokenOptions(
  context: { oauth?: UiOAuthSettings; fetch?: typeof fetch },
): AuthTokenOptions {
  return {
    ...(context.oauth?.cacheDir !== undefined ? { cacheDir: context.oauth.cacheDir } : {}),
    ...(context.oauth?.openBrowser ? { openBrowser: context.oauth.openBrowser } : {}),
    ...(context.fetch ? { fetch: context.fetch } : {}),
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
    const { securityAuthToken } = await import("../../files/security_auth.ts");
    tokens.set(
      key,
      await securityAuthToken(environment, match[2]!, kind, {
        scope,
        path,
        hooks: {
          ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
          ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
        },
        ...(options.fetch ? { send: { fetch: options.fetch } } : {}),
      }),
    );
  }
  return tokens;
}

/** One variable as the page may see it. */
export interface VariableInfo {
  /** The value, for public variables only. */
  value?: string;
  /** Where it comes from: the public or the private file. */
  from: "public" | "private";
}

/** The folder of a request file (its environment files are beside it), confined. */
async function folderOf(workspace: Workspace, file: string | undefined): Promise<string> {
  if (file === undefined) return workspace.root;
  const real = await workspace.resolve(file);
  return real.slice(0, real.lastIndexOf("/"));
}

/** Refuses environment files that are links out of the workspace, before anything reads them. */
async function checkEnvFiles(workspace: Workspace, dir: string): Promise<void> {
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
 * `POST /api/workspace/environments`: `{file?}` → `{names, variables: {env: {name: info}}}`.
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
  if (!workspace) return Response.json({ names: [], variables: {} });
  const dir = await folderOf(workspace, optionalString(json.file, "file"));
  await checkEnvFiles(workspace, dir);
  const names = await environmentNames(dir);
  const variables: Record<string, Record<string, VariableInfo>> = {};
  for (const name of names) {
    const environment = await loadEnvironment(dir, { name });
    variables[name] = Object.fromEntries(
      [...environment.variables].map(([key, value]) => [
        key,
        value instanceof Secret ? { from: "private" } : { value, from: "public" },
      ]),
    );
  }
  return Response.json({ names, variables });
}

/** Replaces the `{{variables}}` of one text; `what` names it in an error. */
export interface Substituter {
  (text: string, what: string): string;
  /** Whether the text's substitution holds a private value (then the page sees it redacted). */
  usesSecret(text: string, what: string): boolean;
}

/**
 * The request files' substitution for one of a tab's requests: the chosen environment (public
 * and private file), `$shared`, the file's `@variables`, dynamic variables and the
 * `{{$auth.token("id")}}` of the environment's `Security.Auth`. Every tab (HTTP, GraphQL,
 * WebSocket with its messages, SSE) substitutes through it, as `dial run` does.
 *
 * @param json the tab's request: `environment` and `file` name where to look
 * @param workspace the workspace, if any (without one only dynamic variables are defined)
 * @param options how `{{$auth.token("id")}}` gets its token (Security.Auth)
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
  let path = "request";
  if (workspace) {
    const dir = await folderOf(workspace, file);
    await checkEnvFiles(workspace, dir);
    const environment = await loadEnvironment(dir, name !== undefined ? { name } : {});
    let fileVariables: FileVariable[] = [];
    if (file !== undefined) {
      path = file;
      const text = await Deno.readTextFile(await workspace.resolve(file));
      fileVariables = parseHttpFile(text, file).variables;
    }
    scope = { environment: environment.variables, shared: environment.shared, file: fileVariables };
    scope = { ...scope, auth: await authTokens(uses, environment, scope, path, options) };
  }
  const run = (text: string, what: string) =>
    substitute(text, scope, { what, path, line: 1, column: 1 });
  return Object.assign(
    (text: string, what: string) => text.includes("{{") ? run(text, what).text : text,
    { usesSecret: (text: string, what: string) => text.includes("{{") && run(text, what).secret },
  );
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
