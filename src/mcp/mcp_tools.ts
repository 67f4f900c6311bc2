/**
 * The tools of a workspace: one per named request of its request files, named from the file
 * and the request, described by the request's comments, method and URL as written, and taking
 * as arguments the variables that nothing else defines (the environment, `--var`, the file's
 * own `@variables`, scripts). A variable the environment defines, secret or not, is never an
 * argument, so an agent cannot replace a credential with a value of its own.
 * @module
 */
import type { Environment } from "../files/environment.ts";
import type { Confinement } from "../files/trust_rule.ts";
import type { HttpFile, HttpRequest } from "../files/http_file_types.ts";
import { requestDependencies, templatesOf } from "../files/request_refs.ts";
import type { VariableValue } from "../files/substitute.ts";
import type { RunHttpFileOptions } from "../files/run_http_file.ts";

/** An exchange's contract check: its violations as failed tests of its request. */
export type ExchangeCheck = NonNullable<RunHttpFileOptions["checkExchange"]>;

/** A request file of the workspace, with the environment its requests run in. */
export interface WorkspaceFile {
  /** The path dial run would be given. */
  path: string;
  /** The path from the workspace folder, for names and descriptions. */
  relative: string;
  /** The parsed file. */
  file: HttpFile;
  /** The environment for its folder, when one was chosen or found. */
  environment?: Environment;
  /** The folders its run may read and write, as `dial run FILE` has them. */
  confinement?: Confinement;
  /**
   * The OpenAPI description its exchanges are checked against (`# @openapi`, its environment's
   * `openapi`), read at the first call: undefined when none applies; rejected (the call fails,
   * nothing sent) when it is refused or cannot be read.
   */
  contract?: () => Promise<ExchangeCheck | undefined>;
}

/** One tool: a named request. */
export interface McpTool {
  /** `[a-zA-Z0-9_-]{1,64}`, unique in the workspace. */
  name: string;
  /** The request's name and file, for people. */
  title: string;
  /** Its comment lines, method and URL as written. */
  description: string;
  /** The variables it takes, in first-use order. */
  inputs: string[];
  /** Whether it and every request it runs first use GET, HEAD or OPTIONS. */
  safe: boolean;
  /** Its file. */
  source: WorkspaceFile;
  /** The request. */
  request: HttpRequest & { name: string };
}

/** The methods that change nothing on the server (RFC 9110, section 9.2.1), bar TRACE. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** The longest tool name MCP clients accept. */
const MAX_NAME = 64;

/**
 * @param files the workspace's request files
 * @param overrides the names `--var` sets (never arguments)
 * @returns the tools, in file and request order
 */
export function workspaceTools(
  files: readonly WorkspaceFile[],
  overrides: ReadonlyMap<string, VariableValue> = new Map(),
): McpTool[] {
  const tools: McpTool[] = [];
  const taken = new Set<string>();
  for (const source of files) {
    const scripted = scriptSetNames(source.file);
    for (const request of source.file.requests) {
      if (request.name === undefined) continue;
      const named = request as HttpRequest & { name: string };
      const chain = runOrder(source.file, named);
      const inputs = variablesOf(
        source,
        chain,
        (name) =>
          overrides.has(name) || scripted.has(name) ||
          source.environment?.variables.has(name) === true,
      );
      tools.push({
        name: uniqueName(toolName(source.relative, named.name), taken),
        title: `${named.name} (${source.relative})`,
        description: describe(named, chain),
        inputs,
        safe: chain.every((r) => SAFE.has(r.method)),
        source,
        request: named,
      });
    }
  }
  return tools;
}

/** The requests one run of `request` sends: those it refers to (transitively), then itself. */
function runOrder(file: HttpFile, request: HttpRequest): HttpRequest[] {
  const order: HttpRequest[] = [];
  const visit = (r: HttpRequest, stack: HttpRequest[]) => {
    if (order.includes(r) || stack.includes(r)) return;
    for (const name of requestDependencies(file, r, plainNames)) {
      const dependency = file.requests.find((d) => d.name === name);
      if (dependency && dependency !== r) visit(dependency, [...stack, r]);
    }
    order.push(r);
  };
  visit(request, []);
  return order;
}

/** The variables the run needs that `defined` does not know and no file variable sets. */
function variablesOf(
  source: WorkspaceFile,
  chain: readonly HttpRequest[],
  defined: (name: string) => boolean,
): string[] {
  const inputs: string[] = [];
  const seen = new Set<string>();
  const texts = chain.flatMap(templatesOf).reverse();
  while (texts.length) {
    const text = texts.pop()!;
    for (const name of plainNames(text)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const variable = source.file.variables.findLast((v) => v.name === name);
      if (variable) {
        texts.push(variable.value);
        continue;
      }
      const value = source.environment?.variables.get(name);
      if (typeof value === "string") texts.push(value);
      if (!defined(name)) inputs.push(name);
    }
  }
  return inputs;
}

/**
 * The names of `{{name}}`, `{{%name}}`, `{{$dotenv %name}}` and `{{$processEnv %name}}`;
 * not dynamic variables and not request variables.
 */
function plainNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    let expr = match[1]!;
    const indirect = /^\$(?:dotenv|processEnv)\s+%(\S+)$/.exec(expr);
    if (indirect) expr = indirect[1]!;
    else if (expr.startsWith("$")) continue;
    if (expr.startsWith("%")) expr = expr.slice(1).trim();
    if (/^[^.\s]+\.(response|request)\.(body|headers)\./.test(expr)) continue;
    if (/^[A-Za-z_][\w.-]*$/.test(expr)) names.push(expr);
  }
  return names;
}

/** Variables the file's scripts set (`client.global.set("x", …)`, `request.variables.set`). */
function scriptSetNames(file: HttpFile): Set<string> {
  const names = new Set<string>();
  for (const request of file.requests) {
    for (const script of [...request.preScripts, ...request.handlers]) {
      if (script.kind !== "inline") continue;
      const sets = /(?:client\.global|request\.variables)\.set\(\s*(["'`])([^"'`]+)\1/g;
      for (const match of script.code.matchAll(sets)) names.add(match[2]!);
    }
  }
  return names;
}

function describe(request: HttpRequest, chain: readonly HttpRequest[]): string {
  const parts: string[] = [];
  if (request.comments.length) parts.push(request.comments.join("\n"));
  parts.push(`${request.method} ${request.url}`);
  const first = chain.filter((r) => r !== request).map((r) => r.name ?? r.method);
  if (first.length) parts.push(`Runs first: ${first.join(", ")}.`);
  return parts.join("\n\n");
}

/**
 * @param relative the file's path in the workspace
 * @param request the request's name
 * @returns `folder_file_request`, characters outside `[a-zA-Z0-9_-]` as `_`
 */
export function toolName(relative: string, request: string): string {
  const file = relative.replace(/\.(http|rest)$/, "");
  const clean = (text: string) => text.replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  const name = [clean(file), clean(request)].filter(Boolean).join("_") || "request";
  if (name.length <= MAX_NAME) return name;
  return `${name.slice(0, MAX_NAME - 9)}_${hash(name)}`;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = name.slice(0, MAX_NAME - suffix.length) + suffix;
  }
  taken.add(candidate);
  return candidate;
}

/** FNV-1a, 8 hex digits: a long name's stable tail. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
