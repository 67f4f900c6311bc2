/**
 * Hoppscotch exports: a collection (or a list of them) with its folders and requests in
 * order, and environment files. Hoppscotch's `<<name>>` becomes `{{name}}`; auth is inherited
 * as Hoppscotch inherits it (`inherit` takes the folder's, then the collection's); the
 * `x-www-form-urlencoded` body's `key: value` lines become a form body. Pre-request and test
 * scripts (Hoppscotch's `pw`/`hopp` API) are reported.
 *
 * @see https://docs.hoppscotch.io/documentation/features/collections
 * @module
 */
import { defaultContentType, type FormPart, multipartBody, urlEncodedBody } from "./import_body.ts";
import { emptyImport, importedRequest } from "./import_model.ts";
import type { ImportedRequest, ImportResult, RequestReading } from "./import_model.ts";
import { isObject, type Json, list, text } from "./json_read.ts";
import { commonAuth } from "./import_secrets.ts";

const isCollection = (v: unknown): v is Json =>
  isObject(v) && Array.isArray(v.folders) && Array.isArray(v.requests) && "name" in v;

/**
 * @param value parsed JSON
 * @returns whether it is a Hoppscotch collection export (one collection or a list)
 */
export function isHoppscotch(value: unknown): boolean {
  return isCollection(value) ||
    (Array.isArray(value) && value.length > 0 && value.every(isCollection));
}

/**
 * @param value parsed JSON
 * @returns whether it is a Hoppscotch environment export (one or a list)
 */
export function isHoppscotchEnvironment(value: unknown): boolean {
  const one = (v: unknown) =>
    isObject(v) && typeof v.name === "string" && Array.isArray(v.variables) &&
    !("folders" in v) && list(v.variables).every((x) => isObject(x) && "key" in x);
  return one(value) || (Array.isArray(value) && value.length > 0 && value.every(one));
}

/** `<<name>>` (Hoppscotch) as `{{name}}`. */
function convert(value: string): string {
  return value.replace(/<<\s*([\w.-]+)\s*>>/g, "{{$1}}");
}

/**
 * Reads Hoppscotch environments into an import.
 *
 * @param value one environment or a list
 * @param result the import to add them to
 */
export function readHoppscotchEnvironments(value: unknown, result: ImportResult): void {
  for (const env of Array.isArray(value) ? value : [value]) {
    if (!isObject(env)) continue;
    const name = text(env.name) || "imported";
    const pub = result.environments[name] ??= {};
    for (const v of list(env.variables).filter(isObject)) {
      const value = convert(text(v.currentValue ?? v.value ?? v.initialValue));
      if (v.secret === true) (result.privateEnvironments[name] ??= {})[text(v.key)] = value;
      else pub[text(v.key)] = value;
    }
  }
}

/**
 * Reads a Hoppscotch collection export.
 *
 * @param value one collection or a list
 * @returns the import
 */
export function readHoppscotch(value: unknown): ImportResult {
  const collections = (Array.isArray(value) ? value : [value]).filter(isCollection);
  const result = emptyImport(
    "hoppscotch",
    collections.length === 1 ? text(collections[0]!.name) : "hoppscotch",
  );
  for (const c of collections) {
    for (const v of list(c.variables).filter(isObject)) {
      result.variables[text(v.key)] = convert(text(v.currentValue ?? v.value ?? v.initialValue));
    }
    // Several collections: each one a folder of its own.
    walk(result, c, collections.length === 1 ? [] : [text(c.name)], [], []);
  }
  return result;
}

function walk(
  result: ImportResult,
  folder: Json,
  path: string[],
  auths: Json[],
  headers: Array<{ name: string; value: string }>,
): void {
  const auth = isObject(folder.auth) ? [...auths, folder.auth] : auths;
  const inherited = [...headers, ...pairs(folder.headers)];
  for (const r of list(folder.requests).filter(isObject)) {
    result.requests.push(request(result, r, path, auth, inherited));
  }
  for (const f of list(folder.folders).filter(isObject)) {
    walk(result, f, [...path, text(f.name)], auth, inherited);
  }
}

function pairs(value: unknown): Array<{ name: string; value: string }> {
  return list(value).filter((p) => isObject(p) && p.active !== false && text(p.key) !== "")
    .map((p) => ({
      name: convert(text((p as Json).key)),
      value: convert(text((p as Json).value)),
    }));
}

function request(
  result: ImportResult,
  r: Json,
  folder: string[],
  auths: Json[],
  inherited: Array<{ name: string; value: string }>,
): ImportedRequest {
  const name = text(r.name) || "request";
  const where = [...folder, name].join(" / ");
  for (const [key, label] of [["preRequestScript", "pre-request"], ["testScript", "test"]]) {
    const lines = text(r[key!]).split("\n").filter((l) => l.trim()).length;
    if (lines) {
      result.counts.scripts++;
      result.losses.push({ where, what: `${label} script (${lines} lines, Hoppscotch's pw API)` });
    }
  }
  const headers: Array<{ name: string; value: string }> = [];
  for (const h of [...inherited, ...pairs(r.headers)]) {
    const at = headers.findIndex((x) => x.name.toLowerCase() === h.name.toLowerCase());
    if (at >= 0) headers.splice(at, 1);
    headers.push(h);
  }
  // Request variables: as file variables of their own, referred to by this request.
  const scope = new Map<string, string>();
  for (const v of pairs(r.requestVariables)) {
    const unique = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_${v.name}`.replace(/^_+/, "");
    result.variables[unique] = v.value;
    scope.set(v.name, unique);
  }
  const fix = (s: string) =>
    s.replace(
      /\{\{([\w.-]+)\}\}/g,
      (whole, n: string) => scope.has(n) ? `{{${scope.get(n)}}}` : whole,
    );
  for (const h of headers) h.value = fix(h.value);
  let url = fix(convert(text(r.endpoint)));
  const query = pairs(r.params).map((p) => `${p.name}=${fix(p.value)}`);
  if (query.length) url += `${url.includes("?") ? "&" : "?"}${query.join("&")}`;
  let auth = isObject(r.auth) ? r.auth : undefined;
  if (!auth || auth.authType === "inherit") {
    auth = [...auths].reverse().find((a) => a.authType !== "inherit");
  }
  const reading: RequestReading = { result, where, headers, fix };
  if (auth && auth.authActive !== false) url = applyAuth(reading, auth, url);
  const method = text(r.method || "GET").toUpperCase();
  return importedRequest(name, folder, method, url, headers, requestBody(reading, r.body));
}

function applyAuth(
  { result, where, headers, fix }: RequestReading,
  auth: Json,
  url: string,
): string {
  const type = text(auth.authType);
  const p = (key: string) => fix(convert(text(auth[key])));
  const slug = where.split(" / ").at(-1)!.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  if (type === "none" || type === "") return url;
  const common = commonAuth(
    result,
    where,
    slug,
    {
      type: type === "api-key" ? "apikey" : type,
      label: type,
      token: p("token"),
      username: p("username"),
      password: p("password"),
      key: p("key"),
      value: p("value"),
      query: text(auth.addTo) === "QUERY_PARAMS",
    },
    headers,
    url,
  );
  if (common !== undefined) return common;
  result.losses.push({ where, what: `auth type "${type}" (add it by hand)` });
  return url;
}

function requestBody(at: RequestReading, value: unknown): ImportedRequest["body"] {
  const { result, where, headers, fix } = at;
  if (!isObject(value) || !value.contentType) return undefined;
  const type = text(value.contentType);
  if (type === "multipart/form-data") {
    const fields = list(value.body).filter((f) => isObject(f) && f.active !== false) as Json[];
    if (fields.length === 0) return undefined;
    const parts: FormPart[] = [];
    for (const f of fields) {
      if (f.isFile === true) {
        result.losses.push({
          where,
          what: `form file "${text(f.key)}" (Hoppscotch keeps no path)`,
        });
      } else parts.push({ name: fix(convert(text(f.key))), value: fix(convert(text(f.value))) });
    }
    return multipartBody(parts, headers);
  }
  const body = fix(convert(text(value.body)));
  if (body === "") return undefined;
  defaultContentType(headers, type);
  if (type === "application/x-www-form-urlencoded") {
    // Hoppscotch's key-value text: `key: value` lines, `#` ones switched off.
    const lines = body.split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
    return urlEncodedBody(lines.map((l) => {
      const colon = l.indexOf(":");
      if (colon < 0) return { name: l.trim(), value: "" };
      return { name: l.slice(0, colon).trim(), value: l.slice(colon + 1).trim() };
    }));
  }
  return body;
}
