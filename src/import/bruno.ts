/**
 * Bruno collections, in the three shapes Bruno writes: a folder of `.bru` files (`bruno.json`,
 * `collection.bru`, `folder.bru`, `environments/*.bru`), a folder of OpenCollection YAML files
 * (`opencollection.yml`, `folder.yml`, `environments/*.yml`, Bruno 3 and later), and Bruno's
 * JSON export. All three read into one tree, folders and requests in Bruno's order (`seq`), and
 * from it into an import: headers of the collection and folders merged into each request, auth
 * inherited as Bruno inherits it (`inherit`), variables of the collection as collection
 * variables and those of a folder or request as variables of their own, environments (their
 * `vars:secret` names as empty private values), declarative assertions (`res.status: eq 200`)
 * as the request files' `??` assertions. Scripts and tests (Bruno's `bru` and `res` API) are
 * reported.
 *
 * @see https://docs.usebruno.com/bru-lang/overview
 * @see https://docs.usebruno.com/opencollection-yaml/structure-reference
 * @module
 */
import { parse as parseYaml } from "yaml";
import { type BruFile, dict, parseBru } from "./bru_lang.ts";
import { graphqlBody, multipartBody, textBody, urlEncodedBody } from "./import_body.ts";
import { emptyImport, importedRequest } from "./import_model.ts";
import type { ImportedRequest, ImportResult, RequestReading } from "./import_model.ts";
import { isObject, type Json, list, text } from "./json_read.ts";
import { commonAuth, secretVariable } from "./import_secrets.ts";

/** A name/value with its switch, as every Bruno shape lists them. */
interface Pair {
  name: string;
  value: string;
  enabled: boolean;
}

/** Auth as Bruno keeps it: a mode and its parameters. */
interface Auth {
  mode: string;
  params: Record<string, string>;
}

/** What a collection, a folder and a request may each set. */
interface Settings {
  headers: Pair[];
  auth?: Auth;
  vars: Pair[];
  /** Script and test sizes, for the report. */
  scripts: string[];
  /** Bruno's declarative assertions (`res.status: eq 200`). */
  asserts: Pair[];
}

interface Request extends Settings {
  method: string;
  url: string;
  query: Pair[];
  path: Pair[];
  body?: { mode: string; text?: string; fields?: Array<Pair & { file?: boolean }> };
  graphqlVariables?: string;
}

type Node =
  | { kind: "folder"; name: string; seq: number; settings: Settings; children: Node[] }
  | { kind: "request"; name: string; seq: number; request: Request };

interface Collection {
  name: string;
  settings: Settings;
  children: Node[];
  environments: Array<{ name: string; vars: Pair[]; secrets: string[] }>;
}

/**
 * @param files a folder's files by path (`/`-separated, relative to it)
 * @returns whether the folder is a Bruno collection
 */
export function isBrunoFolder(files: ReadonlyMap<string, string>): boolean {
  return files.has("bruno.json") || files.has("opencollection.yml") ||
    files.has("opencollection.yaml") || [...files.keys()].some((p) => p.endsWith(".bru"));
}

/**
 * @param value parsed JSON
 * @returns whether it is Bruno's JSON export of a collection
 */
export function isBrunoExport(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.items) && typeof value.name === "string" &&
    (typeof value.version === "string" || "brunoConfig" in value) && !("info" in value);
}

/**
 * Reads a Bruno collection folder (`.bru` or OpenCollection YAML).
 *
 * @param files the folder's files by relative path
 * @returns the import
 */
export function readBrunoFolder(files: ReadonlyMap<string, string>): ImportResult {
  const yaml = [...files.keys()].some((p) => /(^|\/)opencollection\.ya?ml$/.test(p));
  return build(yaml ? fromYamlFolder(files) : fromBruFolder(files));
}

/**
 * Reads Bruno's JSON export.
 *
 * @param value the parsed export
 * @returns the import
 */
export function readBrunoExport(value: Json): ImportResult {
  return build(fromExport(value));
}

// ---- .bru folders -------------------------------------------------------------------------

function bruPairs(file: BruFile, block: string): Pair[] {
  return (file.dicts.get(block) ?? []).map((p) => ({
    name: p.name,
    value: p.value,
    enabled: !p.disabled,
  }));
}

function bruSettings(file: BruFile | undefined): Settings {
  if (!file) return { headers: [], vars: [], scripts: [], asserts: [] };
  const mode = dict(file, "auth").mode ?? bruMethod(file)?.auth;
  const auth = mode ? { mode, params: dict(file, `auth:${mode}`) } : undefined;
  const scripts = ["script:pre-request", "script:post-response", "tests"].flatMap((b) =>
    lineCount(file.texts.get(b)) ? [`${b} (${lineCount(file.texts.get(b))} lines)`] : []
  );
  return {
    asserts: bruPairs(file, "assert"),
    headers: bruPairs(file, "headers"),
    ...(auth ? { auth } : {}),
    vars: bruPairs(file, "vars:pre-request"),
    scripts,
  };
}

const METHODS = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"];

function bruMethod(file: BruFile): { method: string; url: string; body?: string; auth?: string } {
  for (const m of METHODS) {
    if (file.dicts.has(m)) {
      const d = dict(file, m);
      return {
        method: m.toUpperCase(),
        url: d.url ?? "",
        ...(d.body ? { body: d.body } : {}),
        ...(d.auth ? { auth: d.auth } : {}),
      };
    }
  }
  return undefined as unknown as { method: string; url: string };
}

function bruRequest(file: BruFile): Request | undefined {
  const m = bruMethod(file);
  if (!m) return undefined;
  const settings = bruSettings(file);
  const request: Request = {
    ...settings,
    method: m.method,
    url: m.url,
    query: bruPairs(file, "params:query"),
    path: bruPairs(file, "params:path"),
  };
  const mode = m.body ?? "none";
  const textBlock: Record<string, string> = {
    json: "body:json",
    text: "body:text",
    xml: "body:xml",
    sparql: "body:sparql",
    graphql: "body:graphql",
  };
  if (textBlock[mode]) {
    const body = file.texts.get(textBlock[mode]!);
    if (body !== undefined) request.body = { mode, text: body };
    if (mode === "graphql") {
      const vars = file.texts.get("body:graphql:vars");
      if (vars?.trim()) request.graphqlVariables = vars;
    }
  } else if (mode === "formUrlEncoded") {
    request.body = { mode, fields: bruPairs(file, "body:form-urlencoded") };
  } else if (mode === "multipartForm") {
    request.body = {
      mode,
      fields: bruPairs(file, "body:multipart-form").map((p) => {
        const f = /^@file\((.*)\)$/.exec(p.value.trim());
        return f ? { ...p, value: f[1]!.split("|")[0]!, file: true } : p;
      }),
    };
  } else if (mode !== "none") request.body = { mode };
  return request;
}

/** How a folder shape (`.bru` files, OpenCollection YAML) reads its files into the tree. */
interface FolderShape<F> {
  /** A file's request with its name and `seq` (`request` undefined when it holds none). */
  request(
    file: F,
    name: string,
  ): { name: string; seq: unknown; request: Request | undefined } | undefined;
  /** A subfolder's name, `seq` and settings, from its folder file. */
  folder(path: string, name: string): { name: string; seq: unknown; settings: Settings };
}

/**
 * The folders and requests below `dir` in Bruno's order: each file's request, each subfolder
 * that holds any (the top folder's `environments` left out).
 */
function folderTree<F>(files: ReadonlyMap<string, F>, shape: FolderShape<F>, dir = ""): Node[] {
  const prefix = dir ? `${dir}/` : "";
  const nodes: Node[] = [];
  const subdirs = new Set<string>();
  for (const [path, file] of files) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    if (rest.includes("/")) {
      const sub = rest.split("/")[0]!;
      if (!(dir === "" && sub === "environments")) subdirs.add(sub);
      continue;
    }
    const read = shape.request(file, rest);
    if (!read?.request) continue;
    const { name, seq, request } = read;
    nodes.push({ kind: "request", name, seq: Number(seq ?? Infinity), request });
  }
  for (const sub of subdirs) {
    const path = `${prefix}${sub}`;
    const folder = shape.folder(path, sub);
    const children = folderTree(files, shape, path);
    if (children.length === 0) continue;
    nodes.push({ kind: "folder", ...folder, seq: Number(folder.seq ?? Infinity), children });
  }
  return sortNodes(nodes);
}

function fromBruFolder(files: ReadonlyMap<string, string>): Collection {
  const parsed = new Map<string, BruFile>();
  for (const [path, text] of files) if (path.endsWith(".bru")) parsed.set(path, parseBru(text));
  let name = "bruno";
  try {
    name = text((JSON.parse(files.get("bruno.json") ?? "{}") as Json).name) || name;
  } catch { /* a name from the folder */ }
  const environments = [...parsed].filter(([p]) => /^environments\/[^/]+\.bru$/.test(p)).map((
    [p, f],
  ) => ({
    name: p.slice("environments/".length, -".bru".length),
    vars: bruPairs(f, "vars"),
    secrets: f.lists.get("vars:secret") ?? [],
  }));
  const tree = folderTree(parsed, {
    request: (file, rest) => {
      if (rest === "collection.bru" || rest === "folder.bru") return undefined;
      const meta = dict(file, "meta");
      return {
        name: meta.name || rest.replace(/\.bru$/, ""),
        seq: meta.seq,
        request: bruRequest(file),
      };
    },
    folder: (path, sub) => {
      const settingsFile = parsed.get(`${path}/folder.bru`);
      const meta = settingsFile ? dict(settingsFile, "meta") : {};
      return { name: meta.name || sub, seq: meta.seq, settings: bruSettings(settingsFile) };
    },
  });
  return {
    name,
    settings: bruSettings(parsed.get("collection.bru")),
    children: tree,
    environments,
  };
}

// ---- OpenCollection YAML folders ----------------------------------------------------------

function yamlPairs(value: unknown): Pair[] {
  if (isObject(value)) {
    return Object.entries(value).map(([name, v]) => ({ name, value: text(v), enabled: true }));
  }
  return list(value).filter(isObject).map((p) => ({
    name: text(p.name),
    value: typeof p.value === "string" ? p.value : text(p.value),
    enabled: p.disabled !== true && p.enabled !== false,
  }));
}

function yamlAuth(value: unknown): Auth | undefined {
  if (typeof value === "string") return { mode: value, params: {} };
  if (!isObject(value)) return undefined;
  const mode = text(value.type ?? value.mode);
  const nested = isObject(value[mode]) ? value[mode] as Json : value;
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(nested)) if (k !== "type") params[k] = text(v);
  return { mode, params };
}

function yamlSettings(doc: Json | undefined): Settings {
  if (!doc) return { headers: [], vars: [], scripts: [], asserts: [] };
  const http = isObject(doc.http) ? doc.http : isObject(doc.request) ? doc.request : doc;
  const runtime = isObject(doc.runtime) ? doc.runtime : {};
  const scripts: string[] = [];
  for (const s of list(runtime.scripts).filter(isObject)) {
    const n = lineCount(text(s.code));
    if (n) scripts.push(`script ${text(s.type)} (${n} lines)`);
  }
  const asserts = list(runtime.assertions).filter(isObject).map((a) => ({
    name: text(a.expression),
    value: `${text(a.operator)} ${text(a.value)}`.trim(),
    enabled: a.enabled !== false && a.disabled !== true,
  }));
  const auth = yamlAuth(http.auth);
  const vars = isObject(runtime.variables) || Array.isArray(runtime.variables)
    ? yamlPairs(runtime.variables)
    : yamlPairs(isObject(doc.variables) || Array.isArray(doc.variables) ? doc.variables : []);
  return { headers: yamlPairs(http.headers), ...(auth ? { auth } : {}), vars, scripts, asserts };
}

function yamlRequest(doc: Json): Request | undefined {
  const http = isObject(doc.http) ? doc.http : undefined;
  if (!http) return undefined;
  const params = yamlPairs(http.params).map((p, i) => ({
    ...p,
    type: text((list(http.params)[i] as Json | undefined)?.type) || "query",
  }));
  const request: Request = {
    ...yamlSettings(doc),
    method: text(http.method || "GET").toUpperCase(),
    url: text(http.url),
    query: params.filter((p) => p.type === "query"),
    path: params.filter((p) => p.type === "path"),
  };
  const body = isObject(http.body) ? http.body : undefined;
  if (body) {
    const type = text(body.type);
    const mode = type === "form-urlencoded"
      ? "formUrlEncoded"
      : type === "multipart-form"
      ? "multipartForm"
      : type;
    if (typeof body.data === "string") request.body = { mode, text: body.data };
    else if (Array.isArray(body.data)) {
      request.body = {
        mode,
        fields: list(body.data).filter(isObject).map((f) => ({
          name: text(f.name),
          value: text(f.value),
          enabled: f.disabled !== true,
          ...(f.type === "file" ? { file: true } : {}),
        })),
      };
    } else if (isObject(body.data) && mode === "graphql") {
      request.body = { mode, text: text(body.data.query) };
      if (body.data.variables) request.graphqlVariables = text(body.data.variables);
    }
  }
  return request;
}

function fromYamlFolder(files: ReadonlyMap<string, string>): Collection {
  const docs = new Map<string, Json>();
  for (const [path, source] of files) {
    if (!/\.ya?ml$/.test(path)) continue;
    try {
      const value = parseYaml(source);
      if (isObject(value)) docs.set(path, value);
    } catch { /* not one of the collection's files */ }
  }
  const rootPath = [...docs.keys()].find((p) => /^opencollection\.ya?ml$/.test(p));
  const root = rootPath ? docs.get(rootPath) : undefined;
  const info = isObject(root?.info) ? root!.info as Json : {};
  const environments = [...docs].filter(([p]) => /^environments\/[^/]+\.ya?ml$/.test(p)).map((
    [p, d],
  ) => {
    const vars = yamlPairs(d.variables);
    const secrets = list(d.variables).filter((v) => isObject(v) && v.secret === true)
      .map((v) => text((v as Json).name));
    return {
      name: text(d.name) || p.replace(/^environments\//, "").replace(/\.ya?ml$/, ""),
      vars: vars.filter((v) => !secrets.includes(v.name)),
      secrets,
    };
  });
  const tree = folderTree(docs, {
    request: (doc, rest) => {
      if (/^(opencollection|folder)\.ya?ml$/.test(rest)) return undefined;
      const meta = isObject(doc.info) ? doc.info : {};
      const name = text(meta.name) || rest.replace(/\.ya?ml$/, "");
      return { name, seq: meta.seq, request: yamlRequest(doc) };
    },
    folder: (path, sub) => {
      const settings = docs.get(`${path}/folder.yml`) ?? docs.get(`${path}/folder.yaml`);
      const meta = isObject(settings?.info) ? settings!.info as Json : {};
      return { name: text(meta.name) || sub, seq: meta.seq, settings: yamlSettings(settings) };
    },
  });
  return {
    name: text(info.name) || "bruno",
    settings: yamlSettings(isObject(root?.request) ? root!.request as Json : root),
    children: tree,
    environments,
  };
}

// ---- Bruno's JSON export ------------------------------------------------------------------

function exportPairs(value: unknown): Pair[] {
  return list(value).filter(isObject).map((p) => ({
    name: text(p.name),
    value: text(p.value),
    enabled: p.enabled !== false,
  }));
}

function exportAuth(value: unknown): Auth | undefined {
  if (!isObject(value)) return undefined;
  const mode = text(value.mode);
  const params: Record<string, string> = {};
  if (isObject(value[mode])) {
    for (const [k, v] of Object.entries(value[mode] as Json)) params[k] = text(v);
  }
  return { mode, params };
}

function exportSettings(request: unknown): Settings {
  if (!isObject(request)) return { headers: [], vars: [], scripts: [], asserts: [] };
  const script = isObject(request.script) ? request.script : {};
  const scripts: string[] = [];
  for (const [k, label] of [["req", "pre-request script"], ["res", "post-response script"]]) {
    const n = lineCount(text(script[k!]));
    if (n) scripts.push(`${label} (${n} lines)`);
  }
  const tests = lineCount(text(request.tests));
  if (tests) scripts.push(`tests (${tests} lines)`);
  const asserts = list(request.assertions).filter(isObject).map((a) => ({
    name: text(a.name),
    value: text(a.value),
    enabled: a.enabled !== false,
  }));
  const vars = isObject(request.vars) ? exportPairs(request.vars.req) : [];
  const auth = exportAuth(request.auth);
  return {
    headers: exportPairs(request.headers),
    ...(auth ? { auth } : {}),
    vars,
    scripts,
    asserts,
  };
}

function fromExport(value: Json): Collection {
  const node = (item: Json): Node | undefined => {
    const seq = typeof item.seq === "number" ? item.seq : Infinity;
    if (item.type === "folder") {
      const root = isObject(item.root) ? item.root : {};
      return {
        kind: "folder",
        name: text(item.name),
        seq: isObject(root.meta) && typeof root.meta.seq === "number" ? root.meta.seq : seq,
        settings: exportSettings(root.request),
        children: sortNodes(
          list(item.items).filter(isObject).map(node).filter((n) => n !== undefined),
        ),
      };
    }
    if (!/request$/.test(text(item.type)) || !isObject(item.request)) return undefined;
    const r = item.request;
    const params = list(r.params).filter(isObject);
    const request: Request = {
      ...exportSettings(r),
      method: text(r.method || "GET").toUpperCase(),
      url: text(r.url),
      query: exportPairs(params.filter((p) => p.type !== "path")),
      path: exportPairs(params.filter((p) => p.type === "path")),
    };
    const body = isObject(r.body) ? r.body : {};
    const mode = text(body.mode);
    if (["json", "text", "xml", "sparql"].includes(mode)) {
      request.body = { mode, text: text(body[mode]) };
    } else if (mode === "graphql" && isObject(body.graphql)) {
      request.body = { mode, text: text(body.graphql.query) };
      if (text(body.graphql.variables).trim()) {
        request.graphqlVariables = text(body.graphql.variables);
      }
    } else if (mode === "formUrlEncoded" || mode === "multipartForm") {
      request.body = {
        mode,
        fields: list(body[mode]).filter(isObject).map((f) => ({
          name: text(f.name),
          value: Array.isArray(f.value) ? text(f.value[0]) : text(f.value),
          enabled: f.enabled !== false,
          ...(f.type === "file" ? { file: true } : {}),
        })),
      };
    } else if (mode && mode !== "none") request.body = { mode };
    return { kind: "request", name: text(item.name), seq, request };
  };
  const root = isObject(value.root) ? value.root : {};
  return {
    name: text(value.name) || "bruno",
    settings: exportSettings(root.request),
    children: sortNodes(
      list(value.items).filter(isObject).map(node).filter((n) => n !== undefined),
    ),
    environments: list(value.environments).filter(isObject).map((e) => {
      const vars = list(e.variables).filter(isObject);
      return {
        name: text(e.name),
        vars: exportPairs(vars.filter((v) => v.secret !== true)),
        secrets: vars.filter((v) => v.secret === true).map((v) => text(v.name)),
      };
    }),
  };
}

// ---- into an import -----------------------------------------------------------------------

/** Adds a level's scripts and assertions to the report's numbers. */
function count(result: ImportResult, scripts: string[]): void {
  result.counts.scripts += scripts.length;
}

/**
 * Bruno's assertion operators that a `??` operator says as Bruno means it (the expected text
 * converted to the value's type, as httpyac compares: Bruno's `eq 5` against the text "5" passes
 * here and fails in Bruno, the one difference, named in docs/import.md).
 */
const OPERATORS: Record<string, string> = {
  eq: "==",
  neq: "!=",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  contains: "includes",
  matches: "matches",
  startsWith: "startsWith",
  endsWith: "endsWith",
  isNumber: "isNumber",
  isString: "isString",
  isBoolean: "isBoolean",
  isArray: "isArray",
};

/** Bruno's other operators as a JavaScript test of the value `v` (and the expected `x`), as chai checks. */
const PREDICATES: Record<string, string> = {
  isDefined: "v !== undefined",
  isUndefined: "v === undefined",
  isNull: "v === null",
  isTruthy: "v === true",
  isFalsy: "v === false",
  isJson: 'typeof v === "object" && v !== null && !Array.isArray(v)',
  isEmpty:
    'typeof v === "string" || Array.isArray(v) ? v.length === 0 : typeof v === "object" && v !== null && Object.keys(v).length === 0',
  isNotEmpty:
    'typeof v === "string" || Array.isArray(v) ? v.length > 0 : typeof v === "object" && v !== null && Object.keys(v).length > 0',
  notContains: '(typeof v === "string" || Array.isArray(v)) && !v.includes(x)',
  notMatches: "v === undefined || !new RegExp(x).test(v)",
  length: "v !== undefined && v !== null && v.length === x",
  in: "x.includes(v)",
  notIn: "!x.includes(v)",
  between: 'typeof v === "number" && v >= x[0] && v <= x[1]',
};

/** A right-hand operand as Bruno evaluates it: quoted text, a number, true/false/null, else text. */
function operand(text: string): unknown {
  const t = text.trim();
  if (t === "true" || t === "false") return t === "true";
  if (t === "null") return null;
  if (/^"[\s\S]*"$|^'[\s\S]*'$/.test(t)) return t.slice(1, -1);
  if (t && !Number.isNaN(Number(t))) return Number(t);
  return t;
}

/** Bruno's `res.…` subject as a `??` subject and as JavaScript over httpyac's `response`. */
function subjectOf(s: string): { target: string; js: string } | undefined {
  const body = "(response.parsedBody || response.body)";
  if (s === "res.status") return { target: "status", js: "response.status" };
  if (s === "res.responseTime") return { target: "duration", js: "response.timings.total" };
  if (s === "res.body") return { target: "body", js: body };
  if (/^res\.body(\.[A-Za-z_$][\w$]*|\[(\d+|"[^"]*"|'[^']*')\])+$/.test(s)) {
    const path = s.slice("res.body".length);
    return { target: `body ${path.replace(/^\./, "")}`, js: `${body}${path}` };
  }
  // `res.headers.content-type` is a subtraction in JavaScript (Bruno fails it): not a header.
  const header = /^res\.headers(?:\.([A-Za-z_$][\w$]*)|\[(?:"([^"]+)"|'([^']+)')\])$/.exec(s);
  if (!header) return undefined;
  const name = (header[1] ?? header[2] ?? header[3])!;
  return {
    target: `header ${name}`,
    js: `response.headers[${JSON.stringify(name.toLowerCase())}]`,
  };
}

/**
 * A Bruno assertion (`res.status: eq 200`, `res.body.user.id: isNumber`,
 * `res.headers.content-type: contains json`, a bare value meaning `eq`) as a `??` line, or
 * undefined when the request files cannot say it. The operators `??` has are written as `??`
 * lines; the others (`isDefined`, `in`, `length` …) as `?? js (…) == true`.
 */
function assertion(subject: string, check: string): string | undefined {
  const text = check.trim();
  const [word = "", ...words] = text.split(" ");
  const binary = word in OPERATORS || (word in PREDICATES && !/^is/.test(word));
  const op = word in OPERATORS || word in PREDICATES ? word : "eq";
  const expected = op === word ? words.join(" ") : text;
  const s = subjectOf(subject.trim());
  if (!s || /[\r\n]/.test(expected)) return undefined;
  const operator = OPERATORS[op];
  if (operator) {
    const unary = /^is/.test(op);
    const value = op === "matches" ? expected.replace(/^\/(.*)\/$/s, "$1") : expected;
    return `?? ${s.target} ${operator}${
      unary ? "" : ` ${value.replace(/^"(.*)"$|^'(.*)'$/s, "$1$2")}`
    }`;
  }
  // JavaScript has no {{variables}}: those assertions stay reported.
  if (binary && expected.includes("{{")) return undefined;
  let x: unknown = undefined;
  if (op === "in" || op === "notIn" || op === "between") {
    x = expected.replace(/^\[(.*)\]$/s, "$1").split(",").map(operand);
  } else if (op === "notMatches") x = expected.replace(/^\/(.*)\/$/s, "$1");
  else if (binary) x = operand(expected);
  const test = PREDICATES[op]!;
  // A test naming its value once is written with the value in place, else as a function.
  if ((test.match(/\bv\b/g) ?? []).length === 1 && (test.match(/\bx\b/g) ?? []).length <= 1) {
    const inline = test.replace(/\b[vx]\b/g, (m) => m === "v" ? s.js : JSON.stringify(x));
    return `?? js ${inline} == true`;
  }
  const args = binary ? `, ${JSON.stringify(x)}` : "";
  return `?? js ((v${binary ? ", x" : ""}) => ${test})(${s.js}${args}) == true`;
}

function sortNodes(nodes: Node[]): Node[] {
  return nodes.sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function lineCount(text: string | undefined): number {
  return (text ?? "").split("\n").filter((l) => l.trim()).length;
}

/** `{{process.env.NAME}}` (Bruno) as `{{$processEnv NAME}}`. */
function convert(value: string): string {
  return value.replace(/\{\{\s*process\.env\.([\w.-]+)\s*\}\}/g, "{{$processEnv $1}}");
}

function build(collection: Collection): ImportResult {
  const result = emptyImport("bruno", collection.name);
  for (const v of collection.settings.vars) {
    if (v.enabled) result.variables[v.name] = convert(v.value);
  }
  for (const env of collection.environments) {
    const vars: Record<string, string> = {};
    for (const v of env.vars) if (v.enabled) vars[v.name] = convert(v.value);
    result.environments[env.name] = vars;
    for (const secret of env.secrets) {
      // Bruno keeps secret values on the machine, never in the file: the user fills them in.
      (result.privateEnvironments[env.name] ??= {})[secret] ??= "";
    }
    if (env.secrets.length) {
      result.losses.push({
        where: `environment "${env.name}"`,
        what: `secret values (${
          env.secrets.join(", ")
        }): Bruno keeps them on its machine; fill them in http-client.private.env.json`,
      });
    }
  }
  count(result, collection.settings.scripts);
  if (collection.settings.scripts.length) {
    result.losses.push({
      where: collection.name,
      what: `${collection.settings.scripts.join(", ")} (Bruno's bru/res API)`,
    });
  }
  const walk = (nodes: Node[], folder: string[], outer: Settings[]) => {
    for (const node of nodes) {
      if (node.kind === "folder") {
        const path = [...folder, node.name];
        count(result, node.settings.scripts);
        if (node.settings.scripts.length) {
          result.losses.push({
            where: path.join(" / "),
            what: `${node.settings.scripts.join(", ")} (Bruno's bru/res API)`,
          });
        }
        walk(node.children, path, [...outer, node.settings]);
      } else result.requests.push(request(result, node, folder, outer));
    }
  };
  walk(collection.children, [], [collection.settings]);
  return result;
}

function request(
  result: ImportResult,
  node: Extract<Node, { kind: "request" }>,
  folder: string[],
  outer: Settings[],
): ImportedRequest {
  const r = node.request;
  const where = [...folder, node.name].join(" / ");
  count(result, r.scripts);
  if (r.scripts.length) {
    result.losses.push({ where, what: `${r.scripts.join(", ")} (Bruno's bru/res API)` });
  }
  // Folder and request variables: each one a variable of its own, referred to below it.
  const scope = new Map<string, string>();
  const levels = [...outer.slice(1).map((s, i) => ({ vars: s.vars, at: folder.slice(0, i + 1) })), {
    vars: r.vars,
    at: [...folder, node.name],
  }];
  for (const { vars, at } of levels) {
    for (const v of vars.filter((v) => v.enabled)) {
      const prefix = at.map((p) => p.toLowerCase().replace(/[^a-z0-9]+/g, "_")).join("_");
      const name = `${prefix}_${v.name}`.replace(/^_+/, "");
      result.variables[name] = scoped(convert(v.value), scope);
      scope.set(v.name, name);
    }
  }
  const fix = (value: string) => scoped(convert(value), scope);
  // Headers: the collection's, each folder's, the request's; a later one of a name wins.
  const headers: Array<{ name: string; value: string }> = [];
  for (const h of [...outer.flatMap((s) => s.headers), ...r.headers]) {
    if (!h.enabled) continue;
    const at = headers.findIndex((x) => x.name.toLowerCase() === h.name.toLowerCase());
    if (at >= 0) headers.splice(at, 1);
    headers.push({ name: h.name, value: fix(h.value) });
  }
  let url = fix(r.url);
  for (const p of r.path.filter((p) => p.enabled)) {
    url = url.replace(
      new RegExp(`/:${p.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[/?#]|$)`),
      `/${fix(p.value)}`,
    );
  }
  // The auth that applies: the request's, else the nearest folder's, else the collection's.
  // A folder without auth inherits; a request without a mode sends none (Bruno's default).
  let auth = r.auth;
  if (auth?.mode === "inherit") {
    auth = undefined;
    for (let i = outer.length - 1; i >= 0 && auth === undefined; i--) {
      const a = outer[i]!.auth;
      if (a && a.mode !== "inherit") auth = a;
    }
  }
  const reading: RequestReading = { result, where, headers, fix };
  if (auth) url = applyAuth(reading, auth, url);
  const body = requestBody(reading, r);
  const assertions: string[] = [];
  for (const a of r.asserts.filter((a) => a.enabled)) {
    result.counts.assertions++;
    const line = assertion(a.name, fix(a.value));
    if (line) {
      assertions.push(line);
      result.counts.assertionsCarried++;
    } else result.losses.push({ where, what: `the assertion "${a.name}: ${a.value}"` });
  }
  return {
    ...importedRequest(node.name || "request", folder, r.method, url, headers, body),
    ...(assertions.length ? { assertions } : {}),
  };
}

function scoped(value: string, scope: Map<string, string>): string {
  if (scope.size === 0) return value;
  return value.replace(/\{\{([^{}]+)\}\}/g, (whole, inner: string) => {
    const to = scope.get(inner.trim());
    return to === undefined ? whole : `{{${to}}}`;
  });
}

function applyAuth(
  { result, where, headers, fix }: RequestReading,
  auth: Auth,
  url: string,
): string {
  const p = Object.fromEntries(Object.entries(auth.params).map(([k, v]) => [k, fix(v)]));
  const slug = where.split(" / ").at(-1)!.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  const from = (what: string) => ({ where, what: `${what} of the ${auth.mode} auth` });
  const set = (value: string) => {
    const at = headers.findIndex((h) => /^authorization$/i.test(h.name));
    if (at >= 0) headers.splice(at, 1);
    headers.push({ name: "Authorization", value });
  };
  switch (auth.mode) {
    case "none":
      return url;
    case "bearer":
    case "basic":
    case "apikey":
      return commonAuth(
        result,
        where,
        slug,
        {
          type: auth.mode,
          token: p.token ?? "",
          username: p.username ?? "",
          password: p.password ?? "",
          key: p.key ?? "",
          value: p.value ?? "",
          query: /query/i.test(p.placement ?? ""),
        },
        headers,
        url,
        true,
      )!;
    case "digest":
      set(
        `Digest ${p.username ?? ""} ${
          secretVariable(result, `${slug}_password`, p.password ?? "", from("password"))
        }`,
      );
      return url;
    case "awsv4": {
      const secret = secretVariable(
        result,
        `${slug}_secret_access_key`,
        p.secretAccessKey ?? "",
        from("secret access key"),
      );
      const extra = [
        p.sessionToken
          ? ` token:${
            secretVariable(result, `${slug}_session_token`, p.sessionToken, from("session token"))
          }`
          : "",
        p.region ? ` region:${p.region}` : "",
        p.service ? ` service:${p.service}` : "",
      ].join("");
      set(`AWS ${p.accessKeyId ?? ""} ${secret}${extra}`);
      return url;
    }
    default:
      result.losses.push({ where, what: `auth mode "${auth.mode}" (add it by hand)` });
      return url;
  }
}

function requestBody(at: RequestReading, r: Request): ImportedRequest["body"] {
  const { result, where, headers, fix } = at;
  const body = r.body;
  if (!body) return undefined;
  if (body.mode === "graphql") {
    const variables = r.graphqlVariables ? fix(r.graphqlVariables) : undefined;
    return graphqlBody(result, where, headers, fix(body.text ?? ""), variables);
  }
  if (body.text !== undefined) {
    if (body.text === "") return undefined;
    return textBody(headers, body.mode, fix(body.text));
  }
  const fields = (body.fields ?? []).filter((f) => f.enabled);
  if (body.mode === "formUrlEncoded") {
    if (fields.length === 0) return undefined;
    return urlEncodedBody(fields.map((f) => ({ name: fix(f.name), value: fix(f.value) })), headers);
  }
  if (body.mode === "multipartForm") {
    if (fields.length === 0) return undefined;
    const part = (f: Pair & { file?: boolean }) =>
      f.file ? { name: fix(f.name), file: f.value } : { name: fix(f.name), value: fix(f.value) };
    return multipartBody(fields.map(part), headers);
  }
  result.losses.push({ where, what: `body mode "${body.mode}"` });
  return undefined;
}
