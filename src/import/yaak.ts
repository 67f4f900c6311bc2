/**
 * Yaak exports (`yaakSchema` 2 and later): the workspace's folders and HTTP requests in Yaak's
 * order (`sortPriority`), its environments (the base one as the collection's variables, the
 * others as environments), `${[ name ]}` templates as `{{name}}`. A template function
 * (`${[ response.body.path(…) ]}` …) is reported; gRPC, WebSocket and other request kinds too.
 *
 * @see https://yaak.app/docs
 * @module
 */
import { defaultContentType, graphqlBody, multipartBody, urlEncodedBody } from "./import_body.ts";
import {
  emptyImport,
  type ImportedRequest,
  importedRequest,
  type ImportResult,
  responseReference,
} from "./import_model.ts";
import { isObject, type Json, list, text } from "./json_read.ts";
import { commonAuth } from "./import_secrets.ts";

/**
 * @param value parsed JSON
 * @returns whether it is a Yaak export
 */
export function isYaak(value: unknown): boolean {
  return isObject(value) && "yaakSchema" in value && isObject(value.resources);
}

/** `${[ name ]}` (Yaak) as `{{name}}`; a function call is left as written. */
function convert(value: string): string {
  return value.replace(/\$\{\[\s*([\w.-]+)\s*\]\}/g, "{{$1}}");
}

/**
 * Reads a Yaak export.
 *
 * @param value the parsed export
 * @returns the import
 */
export function readYaak(value: Json): ImportResult {
  const res = isObject(value.resources) ? value.resources : {};
  const workspaces = list(res.workspaces).filter(isObject);
  const result = emptyImport("yaak", text(workspaces[0]?.name) || "yaak");
  for (const w of workspaces) {
    for (const v of list(w.variables).filter(isObject)) {
      if (v.enabled !== false) result.variables[text(v.name)] = convert(text(v.value));
    }
  }
  for (const e of list(res.environments).filter(isObject)) {
    const vars: Record<string, string> = {};
    for (const v of list(e.variables).filter(isObject)) {
      if (v.enabled !== false) vars[text(v.name)] = convert(text(v.value));
    }
    // The base environment (Yaak 2024+: `base`, or the one with no parent) applies always.
    if (e.base === true || e.parentModel === "workspace" || e.environmentId === null) {
      Object.assign(result.variables, vars);
    } else result.environments[text(e.name) || "imported"] = vars;
  }
  const folders = list(res.folders).filter(isObject);
  const requests = list(res.httpRequests).filter(isObject);
  const order = (a: Json, b: Json) => (Number(a.sortPriority) || 0) - (Number(b.sortPriority) || 0);
  const ids = new Map<ImportedRequest, string>();
  const walk = (parent: string | null, path: string[]) => {
    const here = [
      ...folders.filter((f) => (f.folderId ?? null) === parent).map((f) => ({ f, r: undefined })),
      ...requests.filter((r) => (r.folderId ?? null) === parent).map((r) => ({ f: undefined, r })),
    ].sort((a, b) => order((a.f ?? a.r)!, (b.f ?? b.r)!));
    for (const { f, r } of here) {
      if (f) walk(text(f.id), [...path, text(f.name)]);
      else {
        const imported = request(result, r!, path);
        result.requests.push(imported);
        ids.set(imported, text(r!.id));
      }
    }
  };
  walk(null, []);
  responseFunctions(result, ids);
  for (const r of result.requests) {
    const written = r.url + JSON.stringify(r.headers) + JSON.stringify(r.body ?? "");
    if (/\$\{\[/.test(written)) {
      result.losses.push({
        where: [...r.folder, r.name].join(" / "),
        what: "template functions (${[ … ]}) left as written",
      });
    }
  }
  for (const kind of ["grpcRequests", "websocketRequests"]) {
    const n = list(res[kind]).length;
    if (n) result.losses.push({ where: result.name, what: `${n} ${kind} (HTTP requests only)` });
  }
  return result;
}

/**
 * Yaak's `${[ response.body.path(request='rq_…', path='$.id') ]}` and
 * `${[ response.header(request='rq_…', header='X-Token') ]}` as request variables, when the
 * request runs first in the same file; reported otherwise (with any other template function).
 */
function responseFunctions(result: ImportResult, ids: Map<ImportedRequest, string>): void {
  const byId = new Map([...ids].map(([request, id]) => [id, request]));
  const CALL = /\$\{\[\s*response\.(body\.path|header)\(([^)]*)\)\s*\]\}/g;
  for (const user of result.requests) {
    const visit = (value: string) =>
      value.replace(CALL, (whole, fn: string, args: string) => {
        const arg = (name: string) =>
          new RegExp(`${name}\\s*=\\s*(?:'([^']*)'|"([^"]*)")`).exec(args)?.slice(1).find((x) =>
            x !== undefined
          );
        const target = byId.get(arg("request") ?? "");
        const path = arg("path") ?? "";
        const header = arg("header") ?? "";
        const selector = fn === "header"
          ? /^[\w-]+$/.test(header) ? `headers.${header}` : undefined
          : path.startsWith("$")
          ? `body.${path}`
          : undefined;
        const to = target && selector
          ? responseReference(target, user, result.requests, selector)
          : undefined;
        return to ?? whole;
      });
    user.url = visit(user.url);
    for (const h of user.headers) h.value = visit(h.value);
    if (typeof user.body === "string") user.body = visit(user.body);
  }
}

function request(result: ImportResult, r: Json, folder: string[]): ImportedRequest {
  const name = text(r.name) || "request";
  const where = [...folder, name].join(" / ");
  const headers = list(r.headers).filter((h) => isObject(h) && h.enabled !== false && text(h.name))
    .map((h) => ({
      name: convert(text((h as Json).name)),
      value: convert(text((h as Json).value)),
    }));
  let url = convert(text(r.url));
  const query = list(r.urlParameters).filter((p) => isObject(p) && p.enabled !== false)
    .map((p) => `${text((p as Json).name)}=${convert(text((p as Json).value))}`);
  if (query.length) url += `${url.includes("?") ? "&" : "?"}${query.join("&")}`;
  const auth = isObject(r.authentication) ? r.authentication : {};
  const type = text(r.authenticationType);
  const p = (key: string) => convert(text(auth[key]));
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  const common = (type === "bearer" || type === "basic") && auth.disabled !== true
    ? commonAuth(
      result,
      where,
      slug,
      {
        type,
        token: p("token"),
        username: p("username"),
        password: p("password"),
      },
      headers,
      url,
    )
    : undefined;
  if (common === undefined && auth.disabled !== true && type && !/^(none|null)$/.test(type)) {
    result.losses.push({ where, what: `auth type "${type}" (add it by hand)` });
  }
  const body = requestBody(result, where, r, headers);
  const method = text(r.method || "GET").toUpperCase();
  return importedRequest(name, folder, method, url, headers, body);
}

function requestBody(
  result: ImportResult,
  where: string,
  r: Json,
  headers: Array<{ name: string; value: string }>,
): ImportedRequest["body"] {
  const type = text(r.bodyType);
  const body = isObject(r.body) ? r.body : {};
  if (!type || type === "none") return undefined;
  if (type === "graphql") {
    const variables = text(body.variables).trim() ? convert(text(body.variables)) : undefined;
    return graphqlBody(result, where, headers, convert(text(body.query)), variables);
  }
  const fields = list(body.form).filter((f) => isObject(f) && f.enabled !== false) as Json[];
  if (type === "application/x-www-form-urlencoded") {
    if (fields.length === 0) return undefined;
    return urlEncodedBody(
      fields.map((f) => ({ name: convert(text(f.name)), value: convert(text(f.value)) })),
      headers,
    );
  }
  if (type === "multipart/form-data") {
    if (fields.length === 0) return undefined;
    const name = (f: Json) => convert(text(f.name));
    return multipartBody(
      fields.map((f) =>
        f.file
          ? { name: name(f), file: text(f.file) }
          : { name: name(f), value: convert(text(f.value)) }
      ),
      headers,
    );
  }
  if (type === "binary") {
    return text(body.filePath) ? { file: text(body.filePath) } : undefined;
  }
  const content = convert(text(body.text));
  if (content === "") return undefined;
  defaultContentType(headers, type === "other" ? "text/plain" : type);
  return content;
}
