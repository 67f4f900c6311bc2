/**
 * Postman collections (v2.0 and v2.1) and Postman environment files, read into an import.
 * Auth is resolved through inheritance (a request without `auth` takes its folder's, then the
 * collection's); secrets go to the private environment; scripts and unsupported auth types
 * are reported, never dropped silently.
 *
 * @see https://schema.postman.com/collection/json/v2.1.0/draft-07/docs/index.html
 * @module
 */
import {
  type FormPart,
  graphqlBody,
  multipartBody,
  textBody,
  urlEncodedBody,
} from "./import_body.ts";
import {
  emptyImport,
  type ImportedRequest,
  importedRequest,
  type ImportResult,
  type ImportScript,
} from "./import_model.ts";
import { isObject, type Json, list, text } from "./json_read.ts";
import { commonAuth } from "./import_secrets.ts";
import { POSTMAN_DYNAMIC_VARIABLES } from "../files/postman_dynamic.ts";
import { postmanOAuth2 } from "./postman_oauth2.ts";

/**
 * @param value parsed JSON
 * @returns whether it is a Postman collection (v2.0 or v2.1)
 */
export function isPostmanCollection(value: unknown): boolean {
  return isObject(value) && isObject(value.info) &&
    /schema\.(getpostman|postman)\.com\/json\/collection\/v2/.test(text(value.info.schema));
}

/**
 * @param value parsed JSON
 * @returns whether it is a Postman environment export
 */
export function isPostmanEnvironment(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.values) && typeof value.name === "string" &&
    !("info" in value) && (value._postman_variable_scope === "environment" ||
      list(value.values).every((v) => isObject(v) && "key" in v));
}

/**
 * Reads a Postman collection.
 *
 * @param collection the parsed collection
 * @param result an import to add to (an environment read first makes its secrets land there)
 * @returns the import
 */
export function readPostmanCollection(
  collection: Json,
  result: ImportResult = emptyImport("postman", "collection"),
): ImportResult {
  const info = isObject(collection.info) ? collection.info : {};
  result.format = "postman";
  result.name = text(info.name) || "collection";
  for (const v of list(collection.variable)) {
    if (isObject(v) && v.disabled !== true) result.variables[text(v.key)] = text(v.value);
  }
  const all: Level[] = [];
  const levels = Object.assign([scripts(result, result.name, collection.event, all, result.name)], {
    all,
  });
  const auth = isObject(collection.auth) ? collection.auth : undefined;
  for (const item of list(collection.item)) walk(result, item, [], auth, levels);
  const used = new Set(
    result.requests.flatMap((r) =>
      r.scripts ? [...r.scripts.pre, ...r.scripts.test].map((s) => s.shared ?? s.code) : []
    ),
  );
  for (const level of all) {
    for (const s of [...level.pre, ...level.test]) {
      if (!used.has(s.shared ?? s.code)) continue;
      result.counts.scriptsCarried++;
      result.counts.assertionsCarried += assertionCount(s.code);
    }
  }
  unknownDynamicVariables(result);
  return result;
}

/**
 * Reads a Postman environment (or globals file, as `$shared`): `secret`-typed values go to the
 * private environment file.
 *
 * @param environment the parsed environment
 * @param result the import to add it to
 * @returns the import
 */
export function readPostmanEnvironment(
  environment: Json,
  result: ImportResult = emptyImport("postman", "collection"),
): ImportResult {
  // Globals apply in every environment: `$shared`.
  const name = environment._postman_variable_scope === "globals"
    ? "$shared"
    : text(environment.name) || "imported";
  const pub = result.environments[name] ??= {};
  for (const v of list(environment.values)) {
    if (!isObject(v) || v.enabled === false) continue;
    if (v.type === "secret") (result.privateEnvironments[name] ??= {})[text(v.key)] = text(v.value);
    else pub[text(v.key)] = text(v.value);
  }
  return result;
}

function walk(
  result: ImportResult,
  item: unknown,
  folder: string[],
  inherited: Json | undefined,
  levels: Level[] & { all: Level[] },
): void {
  if (!isObject(item)) return;
  const name = text(item.name) || "request";
  const auth = isObject(item.auth) ? item.auth : inherited;
  if (Array.isArray(item.item)) {
    const path = [...folder, name].join(" / ");
    const level = scripts(result, path, item.event, levels.all, `${result.name} / ${path}`);
    const inner = Object.assign([...levels, level], { all: levels.all });
    for (const child of item.item) walk(result, child, [...folder, name], auth, inner);
    return;
  }
  const where = [...folder, name].join(" / ");
  const carried = [...levels, scripts(result, where, item.event, levels.all)];
  const request = isObject(item.request)
    ? item.request
    : { url: text(item.request), method: "GET" };
  const headers: Array<{ name: string; value: string }> = [];
  for (const h of list(request.header)) {
    if (isObject(h) && h.disabled !== true) {
      headers.push({ name: text(h.key), value: text(h.value) });
    }
  }
  let url = requestUrl(request.url);
  const own = isObject(request.auth) ? request.auth : undefined;
  const requestAuth = own ?? auth;
  const ownHeader = headers.some((h) => /^authorization$/i.test(h.name));
  if (requestAuth && ownHeader && !own && sendsAuthorization(requestAuth)) {
    // The request's own header wins over an inherited auth (never both: `Bearer , Bearer`);
    // reported unless it says what the auth would.
    const token = authParams(requestAuth, "bearer").token;
    const same = text(requestAuth.type) === "bearer" &&
      headers.some((h) => /^authorization$/i.test(h.name) && h.value.trim() === `Bearer ${token}`);
    if (!same) {
      result.losses.push({
        where,
        what: `the inherited ${
          text(requestAuth.type)
        } auth: the request's own Authorization header is sent instead`,
      });
    }
  } else if (requestAuth) {
    if (ownHeader && sendsAuthorization(requestAuth)) {
      // Postman's own auth replaces the header, as Newman sends it.
      for (let i = headers.length - 1; i >= 0; i--) {
        if (/^authorization$/i.test(headers[i]!.name)) headers.splice(i, 1);
      }
    }
    url = applyAuth(result, where, requestAuth, headers, url);
  }
  const comments = description(request.description ?? item.description);
  // Postman prunes the body of these methods unless the request says not to (Newman sends
  // neither the body nor its Content-Type).
  const behavior = isObject(item.protocolProfileBehavior) ? item.protocolProfileBehavior : {};
  const method = text(request.method || "GET").toUpperCase();
  const pruned = PRUNED.has(method) &&
    behavior.disableBodyPruning !== true;
  const body = pruned ? undefined : requestBody(result, where, request.body, headers);
  const pre = carried.flatMap((l) => l.pre);
  const test = carried.flatMap((l) => l.test);
  result.requests.push({
    ...importedRequest(name, folder, method, url, headers, body),
    ...(comments.length ? { comments } : {}),
    // Every request is Postman's: its scripts get the pm API, its {{variables}} Postman's rules.
    directives: [{ name: "postman" }],
    ...(pre.length || test.length ? { scripts: { pre, test } } : {}),
  });
}

/** The runner's own dynamic variables besides Postman's set (`postman_dynamic.ts`). */
const RUNNER_DYNAMIC = new Set(["$guid", "$uuid", "$timestamp", "$isoTimestamp", "$randomInt"]);

/** A `{{$name}}` neither the runner nor Postman's documented set knows is reported now. */
function unknownDynamicVariables(result: ImportResult): void {
  for (const r of result.requests) {
    const texts = [r.url, ...r.headers.map((h) => h.value), JSON.stringify(r.body ?? "")];
    const unknown = new Set<string>();
    for (const t of texts) {
      for (const m of t.matchAll(/\{\{\s*(\$[A-Za-z]\w*)\s*\}\}/g)) {
        const name = m[1]!;
        if (!RUNNER_DYNAMIC.has(name) && !POSTMAN_DYNAMIC_VARIABLES.includes(name)) {
          unknown.add(name);
        }
      }
    }
    for (const name of unknown) {
      result.losses.push({
        where: [...r.folder, r.name].join(" / "),
        what: `the dynamic variable {{${name}}}, which dial does not provide`,
      });
    }
  }
}

function requestUrl(url: unknown): string {
  if (!isObject(url)) return text(url);
  if (typeof url.raw === "string") {
    // Postman keeps :name path variables apart; .http files have only {{name}}.
    let raw = url.raw;
    for (const v of list(url.variable)) {
      if (isObject(v) && v.key) {
        // A whole path segment `:key` (not a port, not `:keyword`).
        const at = new RegExp(`(/):${escape(text(v.key))}(?=[/?#]|$)`);
        raw = raw.replace(at, (_, slash) => `${slash}${text(v.value) || `{{${text(v.key)}}}`}`);
      }
    }
    return withoutDisabledQuery(raw, list(url.query));
  }
  const host = Array.isArray(url.host) ? url.host.join(".") : text(url.host);
  const path = Array.isArray(url.path) ? url.path.join("/") : text(url.path);
  const protocol = url.protocol ? `${text(url.protocol)}://` : "";
  const query = list(url.query).filter((q) => isObject(q) && q.disabled !== true)
    .map((q) => isObject(q) ? `${text(q.key)}=${text(q.value)}` : "").join("&");
  return `${protocol}${host}${url.port ? `:${text(url.port)}` : ""}/${path}${
    query ? `?${query}` : ""
  }`;
}

/**
 * Drops the query parameters Postman keeps but marks disabled (Newman does not send them),
 * leaving every other byte of the URL as written: no `?` added, no `&` moved.
 */
function withoutDisabledQuery(raw: string, query: unknown[]): string {
  const disabled = query.filter((q) => isObject(q) && q.disabled === true) as Json[];
  if (disabled.length === 0) return raw;
  const q = raw.indexOf("?");
  if (q < 0) return raw;
  const hash = raw.indexOf("#", q);
  const end = hash < 0 ? raw.length : hash;
  const pairs = raw.slice(q + 1, end).split("&");
  for (const d of disabled) {
    const key = text(d.key);
    const i = pairs.findIndex((p) =>
      d.value === null || d.value === undefined
        ? p === key || p === `${key}=`
        : p === `${key}=${text(d.value)}`
    );
    if (i >= 0) pairs.splice(i, 1);
  }
  const rest = pairs.join("&");
  return `${raw.slice(0, q)}${rest ? `?${rest}` : ""}${raw.slice(end)}`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** v2.1 keeps auth parameters as `[{ key, value }]`, v2.0 as an object. */
function authParams(auth: Json, type: string): Record<string, string> {
  const raw = auth[type];
  if (isObject(raw)) return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, text(v)]));
  const params: Record<string, string> = {};
  for (const p of list(raw)) if (isObject(p)) params[text(p.key)] = text(p.value);
  return params;
}

/** A bearer token or OAuth 2.0 access token left empty: Newman sends no auth at all. */
function emptyToken(auth: Json): boolean {
  const type = text(auth.type);
  const p = authParams(auth, type);
  return type === "bearer" && (p.token ?? "") === "";
}

/** Whether an auth adds an `Authorization` header (so that it collides with the request's). */
function sendsAuthorization(auth: Json): boolean {
  const type = text(auth.type);
  if (emptyToken(auth)) return false;
  if (type === "basic" || type === "bearer" || type === "digest") return true;
  if (type === "oauth2") return authParams(auth, type).addTokenTo !== "queryParams";
  if (type === "apikey") {
    const p = authParams(auth, type);
    return p.in !== "query" && /^authorization$/i.test(p.key ?? "");
  }
  return false;
}

function applyAuth(
  result: ImportResult,
  where: string,
  auth: Json,
  headers: Array<{ name: string; value: string }>,
  url: string,
): string {
  const type = text(auth.type);
  const p = authParams(auth, type);
  const slug = where.split(" / ").at(-1) ?? "request";
  if (type === "noauth" || type === "" || emptyToken(auth)) return url;
  const common = commonAuth(
    result,
    where,
    slug,
    {
      type,
      token: p.token ?? "",
      username: p.username ?? "",
      password: p.password ?? "",
      key: p.key ?? "",
      value: p.value ?? "",
      query: p.in === "query",
    },
    headers,
    url,
  );
  if (common !== undefined) return common;
  if (type === "oauth2") {
    const use = postmanOAuth2(result, where, p);
    if (use?.header) headers.push(use.header);
    if (use?.query) return `${url}${url.includes("?") ? "&" : "?"}${use.query}`;
  } else {
    result.losses.push({ where, what: `auth type "${type}" (add it by hand)` });
  }
  return url;
}

/** Methods whose body Postman leaves out unless `disableBodyPruning`. */
const PRUNED = new Set(["GET", "HEAD", "COPY", "PURGE", "UNLOCK"]);

function requestBody(
  result: ImportResult,
  where: string,
  body: unknown,
  headers: Array<{ name: string; value: string }>,
): ImportedRequest["body"] {
  if (!isObject(body) || body.disabled === true) return undefined;
  switch (body.mode) {
    case "raw": {
      // An empty raw body is no body: Postman sends neither it nor its Content-Type.
      if (text(body.raw) === "") return undefined;
      const options = isObject(body.options) && isObject(body.options.raw) ? body.options.raw : {};
      // The Content-Type Postman (and Newman) add for the raw body's language.
      return textBody(headers, text(options.language), text(body.raw));
    }
    case "urlencoded": {
      const fields = list(body.urlencoded).filter((f) => isObject(f) && f.disabled !== true);
      // No field, no body (Newman sends neither it nor a Content-Type).
      if (fields.length === 0) return undefined;
      return urlEncodedBody(
        (fields as Json[]).map((f) => ({ name: text(f.key), value: text(f.value) })),
        headers,
      );
    }
    case "formdata": {
      const fields = list(body.formdata).filter((f) => isObject(f) && f.disabled !== true);
      if (fields.length === 0) return undefined;
      return multipart(result, where, fields, headers);
    }
    case "file": {
      const src = isObject(body.file) ? text(body.file.src) : "";
      if (!src) return undefined;
      return { file: src };
    }
    case "graphql": {
      const g = isObject(body.graphql) ? body.graphql : {};
      const variables = g.variables ? text(g.variables) : undefined;
      return graphqlBody(result, where, headers, text(g.query), variables, 2);
    }
    default:
      result.losses.push({ where, what: `body mode "${text(body.mode)}"` });
      return undefined;
  }
}

function multipart(
  result: ImportResult,
  where: string,
  fields: unknown[],
  headers: Array<{ name: string; value: string }>,
): { parts: Array<string | { file: string }> } {
  const parts: FormPart[] = [];
  for (const f of fields) {
    if (!isObject(f) || f.disabled === true) continue;
    const name = text(f.key);
    const contentType = text(f.contentType);
    const type = contentType ? { contentType } : {};
    if (f.type === "file") {
      const src = Array.isArray(f.src) ? text(f.src[0]) : text(f.src);
      if (!src) {
        result.losses.push({ where, what: `form file "${name}" without a path` });
        continue;
      }
      parts.push({ name, file: src, ...type });
    } else parts.push({ name, value: text(f.value), ...type });
  }
  return multipartBody(parts, headers);
}

/** One level's scripts (the collection's, a folder's or the request's), carried as they are. */
interface Level {
  pre: ImportScript[];
  test: ImportScript[];
}

/** APIs dial's sandbox does not provide: a script using them is carried, its test may fail. */
const MISSING_APIS =
  /\b(pm\.cookies|pm\.visualizer|pm\.vault|pm\.require|pm\.execution\.setNextRequest|pm\.execution\.runRequest)\b|\b(require)\s*\(\s*["'`]([^"'`]*)["'`]|\b(require)\s*\((?!\s*["'`])/g;

/** The modules a script's `require` gets in dial's sandbox (src/files/script_postman.ts). */
const MODULES = new Set(["postman-collection", "crypto-js", "lodash", "moment"]);

/**
 * A level's pre-request and test scripts. A collection's or folder's (`shared` names it) is
 * written once in a file of its own; a request's in the request.
 */
function scripts(
  result: ImportResult,
  where: string,
  events: unknown,
  all: Level[],
  shared?: string,
): Level {
  const level: Level = { pre: [], test: [] };
  for (const e of list(events)) {
    if (!isObject(e) || !isObject(e.script) || e.disabled === true) continue;
    const exec = e.script.exec;
    const code = Array.isArray(exec) ? exec.map(text).join("\n") : text(exec);
    if (code.trim() === "") continue;
    const test = e.listen === "test";
    if (!test && e.listen !== "prerequest") {
      result.losses.push({ where, what: `a script on "${text(e.listen)}" (Postman runs none)` });
      continue;
    }
    result.counts.scripts++;
    result.counts.assertions += assertionCount(code);
    const missing = [
      ...new Set(
        [...code.matchAll(MISSING_APIS)].flatMap((m) =>
          m[1] ? [m[1]] : m[2] ? (MODULES.has(m[3]!) ? [] : [`require("${m[3]}")`]) : ["require"]
        ),
      ),
    ];
    if (missing.length) {
      result.losses.push({
        where,
        what: `${test ? "test" : "pre-request"} script uses ${
          missing.join(", ")
        }, which dial's sandbox does not provide (carried; that part fails with a message)`,
      });
    }
    const script: ImportScript = {
      code,
      ...(shared ? { shared: `${shared} ${test ? "test" : "pre-request"}` } : {}),
    };
    (test ? level.test : level.pre).push(script);
  }
  all.push(level);
  return level;
}

/** The assertions a Postman script makes: `pm.test(…)` and legacy `tests[…] =` calls. */
export function assertionCount(script: string): number {
  return (script.match(/\bpm\.test\s*\(|\btests\s*\[[^\]]+\]\s*=(?!=)/g) ?? []).length;
}

function description(value: unknown): string[] {
  const t = isObject(value) ? text(value.content) : text(value);
  return t.trim() ? t.trim().split(/\r?\n/) : [];
}
