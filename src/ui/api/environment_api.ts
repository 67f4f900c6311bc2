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
    scope = {
      ...scope,
      auth: await authTokens(JSON.stringify(json), environment, scope, path, options),
    };
  }
  const place = (what: string) => ({ what, path, line: 1, column: 1 });
  const sub = (text: unknown, what: string) =>
    typeof text === "string" ? substitute(text, scope, place(what)).text : text;
  const rows = (value: unknown, what: string) =>
    Array.isArray(value)
      ? value.map((row) =>
        isObject(row)
          ? {
            ...row,
            name: sub(row.name, `${what} name`),
            value: sub(row.value, `${what} "${row.name}"`),
          }
          : row
      )
      : value;
  const body = isObject(json.body)
    ? {
      ...json.body,
      ...(json.body.text !== undefined ? { text: sub(json.body.text, "the body") } : {}),
      ...(json.body.fields !== undefined ? { fields: rows(json.body.fields, "form field") } : {}),
    }
    : json.body;
  return {
    ...json,
    url: sub(json.url, "the URL"),
    headers: rows(json.headers, "header"),
    ...(body !== undefined ? { body } : {}),
  };
}
