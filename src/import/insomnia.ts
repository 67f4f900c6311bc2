/**
 * Insomnia exports: v4 (JSON, a flat `resources` list) and v5 (YAML, a nested `collection`),
 * with their environments. Insomnia's `{{ _.name }}` becomes `{{name}}`; template tags
 * (`{% … %}`) and scripts are reported, as are auth types dial's files do not carry.
 * @module
 */
import { defaultContentType, type FormPart, multipartBody, urlEncodedBody } from "./import_body.ts";
import {
  emptyImport,
  type ImportedRequest,
  type ImportResult,
  responseReference,
} from "./import_model.ts";
import { isObject, type Json, list, text } from "./json_read.ts";
import { basicValue, secretVariable } from "./import_secrets.ts";
import { slug } from "./import_names.ts";

/**
 * @param value parsed JSON or YAML
 * @returns whether it is an Insomnia v4 or v5 export
 */
export function isInsomnia(value: unknown): boolean {
  return isObject(value) &&
    ((value._type === "export" && Array.isArray(value.resources)) ||
      /^collection\.insomnia\.rest\/5/.test(text(value.type)));
}

/**
 * Reads an Insomnia export.
 *
 * @param value the parsed export
 * @returns the import
 */
export function readInsomnia(value: Json): ImportResult {
  return Array.isArray(value.resources) ? readV4(value) : readV5(value);
}

interface Node {
  /** Insomnia's id (`req_…`, `fld_…`), which `{% response %}` tags name. */
  id: string;
  /** A folder's own environment (Insomnia's folder environments). */
  environment?: unknown;
  name: string;
  method?: string;
  url?: string;
  headers?: unknown[];
  body?: unknown;
  authentication?: unknown;
  children: Node[];
  scripts: boolean;
}

/** The fields of a request or folder that both versions name alike. */
function nodeFields(r: Json): Omit<Node, "id" | "children" | "scripts"> {
  return {
    environment: r.environment,
    name: text(r.name),
    method: text(r.method),
    url: text(r.url),
    headers: list(r.headers),
    body: r.body,
    authentication: r.authentication,
  };
}

function readV4(value: Json): ImportResult {
  const result = emptyImport("insomnia", "insomnia");
  const resources = list(value.resources).filter(isObject);
  const byParent = new Map<string, Json[]>();
  for (const r of resources) {
    const parent = text(r.parentId);
    byParent.set(parent, [...(byParent.get(parent) ?? []), r]);
  }
  const workspace = resources.find((r) => r._type === "workspace");
  if (workspace) result.name = slug(text(workspace.name)) || result.name;
  const node = (r: Json): Node => ({
    id: text(r._id),
    ...nodeFields(r),
    children: sorted(
      (byParent.get(text(r._id)) ?? []).filter((c) => /^request/.test(text(c._type))),
    )
      .map(node),
    scripts: Boolean(text(r.preRequestScript).trim() || text(r.afterResponseScript).trim()),
  });
  for (const r of resources) {
    if (r._type !== "environment") continue;
    const parentIsWorkspace = resources.some((p) =>
      p._id === r.parentId && p._type === "workspace"
    );
    addEnvironment(result, parentIsWorkspace ? "base" : text(r.name), r.data);
  }
  const base = result.environments["base"];
  if (base) {
    // Insomnia's base environment applies to every sub-environment.
    delete result.environments["base"];
    Object.assign(result.variables, base);
  }
  const roots = sorted(resources).filter((r) =>
    /^request/.test(text(r._type)) &&
    !resources.some((p) => p._id === r.parentId && /^request/.test(text(p._type)))
  );
  const ids = new Map<ImportedRequest, string>();
  for (const r of roots) walk(result, node(r), [], new Map(), ids);
  responseTags(result, ids);
  return result;
}

function readV5(value: Json): ImportResult {
  const result = emptyImport("insomnia", slug(text(value.name)) || "insomnia");
  const node = (r: Json): Node => ({
    id: isObject(r.meta) ? text(r.meta.id) : text(r._id),
    ...nodeFields(r),
    children: list(r.children).filter(isObject).map(node),
    scripts: isObject(r.scripts) &&
      Boolean(text(r.scripts.preRequest).trim() || text(r.scripts.afterResponse).trim()),
  });
  const envs = isObject(value.environments) ? value.environments : undefined;
  if (envs) {
    Object.assign(result.variables, convertData(envs.data));
    for (const sub of list(envs.subEnvironments).filter(isObject)) {
      addEnvironment(result, text(sub.name), sub.data);
    }
  }
  const ids = new Map<ImportedRequest, string>();
  for (const r of list(value.collection).filter(isObject)) {
    walk(result, node(r), [], new Map(), ids);
  }
  responseTags(result, ids);
  return result;
}

/** Insomnia's own order: by `metaSortKey` (the sidebar's), else as exported. */
function sorted(resources: Json[]): Json[] {
  const key = (r: Json) => typeof r.metaSortKey === "number" ? r.metaSortKey : 0;
  return [...resources].sort((a, b) => key(a) - key(b));
}

function addEnvironment(result: ImportResult, name: string, data: unknown): void {
  result.environments[name || "default"] = convertData(data);
}

function convertData(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(data)) return out;
  for (const [k, v] of Object.entries(data)) {
    out[k] = typeof v === "string" ? convert(v) : JSON.stringify(v);
  }
  return out;
}

/** `{{ _.name }}` and `{{name}}` to `{{name}}`. */
function convert(s: string): string {
  return s.replace(/\{\{\s*(?:_\.)?([\w.-]+)\s*\}\}/g, "{{$1}}");
}

function walk(
  result: ImportResult,
  node: Node,
  folder: string[],
  scope: Map<string, string>,
  ids: Map<ImportedRequest, string>,
): void {
  const where = [...folder, node.name].join(" / ");
  if (node.scripts) {
    result.counts.scripts++;
    result.losses.push({ where, what: "scripts (Insomnia's insomnia.* API)" });
  }
  if (node.method === "" || node.url === "" && node.children.length) {
    const inner = folderScope(result, node, [...folder, node.name], scope);
    for (const child of node.children) walk(result, child, [...folder, node.name], inner, ids);
    return;
  }
  const headers: Array<{ name: string; value: string }> = [];
  for (const h of list(node.headers)) {
    if (isObject(h) && h.disabled !== true && text(h.name)) {
      headers.push({ name: text(h.name), value: convert(text(h.value)) });
    }
  }
  authHeaders(result, node, where, headers);
  const bodyText = requestBody(result, node, where, headers);
  const url = convert(text(node.url));
  const written = url + JSON.stringify(bodyText ?? "") + JSON.stringify(headers);
  if (/\{%(?!\s*response\s)/.test(written)) {
    result.losses.push({ where, what: "template tags ({% … %}) left as written" });
  }
  const request: ImportedRequest = {
    name: node.name || "request",
    folder,
    method: text(node.method).toUpperCase() || "GET",
    url,
    headers,
    ...(bodyText !== undefined ? { body: bodyText } : {}),
  };
  if (scope.size) rewriteTexts(request, (t) => scoped(t, scope));
  result.requests.push(request);
  ids.set(request, node.id);
  for (const child of node.children) {
    walk(result, child, [...folder, node.name], scope, ids);
  }
}

/** The node's authentication as an `Authorization` (or API key) header, its secret a variable. */
function authHeaders(
  result: ImportResult,
  node: Node,
  where: string,
  headers: Array<{ name: string; value: string }>,
): void {
  const auth = isObject(node.authentication) ? node.authentication : {};
  if (auth.disabled !== true) {
    const from = (what: string) => ({ where, what: `${what} of the ${text(auth.type)} auth` });
    if (auth.type === "basic") {
      headers.push({
        name: "Authorization",
        value: basicValue(
          result,
          `${slug(node.name)}_password`,
          convert(text(auth.username)),
          convert(text(auth.password)),
          from,
        ),
      });
    } else if (auth.type === "bearer") {
      const token = secretVariable(
        result,
        `${slug(node.name)}_token`,
        convert(text(auth.token)),
        from("token"),
      );
      headers.push({ name: "Authorization", value: `${text(auth.prefix) || "Bearer"} ${token}` });
    } else if (auth.type === "apikey") {
      const value = secretVariable(
        result,
        text(auth.key) || "api_key",
        convert(text(auth.value)),
        from("key"),
      );
      headers.push({ name: text(auth.key) || "X-API-Key", value });
    } else if (auth.type && auth.type !== "none") {
      result.losses.push({ where, what: `auth type "${text(auth.type)}"` });
    }
  }
}

/** The node's body: its text, a URL-encoded form or a multipart body (with its Content-Type). */
function requestBody(
  result: ImportResult,
  node: Node,
  where: string,
  headers: Array<{ name: string; value: string }>,
): ImportedRequest["body"] {
  const body = isObject(node.body) ? node.body : {};
  let bodyText: ImportedRequest["body"];
  if (typeof body.text === "string" && body.text !== "") bodyText = convert(body.text);
  else if (Array.isArray(body.params) && body.params.length) {
    const params = body.params.filter((p) => isObject(p) && p.disabled !== true) as Json[];
    if (/multipart/.test(text(body.mimeType))) {
      const parts: FormPart[] = params.map((p) =>
        p.type === "file"
          ? { name: convert(text(p.name)), file: text(p.fileName) }
          : { name: convert(text(p.name)), value: convert(text(p.value)) }
      );
      for (const p of parts) {
        if ("file" in p && !p.file) {
          result.losses.push({ where, what: `form file "${p.name}" without a path` });
        }
      }
      bodyText = multipartBody(parts.filter((p) => !("file" in p) || p.file), headers);
    } else {
      bodyText = urlEncodedBody(
        params.map((p) => ({ name: convert(text(p.name)), value: convert(text(p.value)) })),
      );
    }
  }
  if (body.mimeType && bodyText !== undefined) defaultContentType(headers, text(body.mimeType));
  return bodyText;
}

/**
 * A folder's environment applies to the requests below it, over the workspace's: each of its
 * variables becomes a variable of its own (`folder_name`), and the requests below refer to it.
 */
function folderScope(
  result: ImportResult,
  node: Node,
  path: string[],
  outer: Map<string, string>,
): Map<string, string> {
  const data = convertData(node.environment);
  if (Object.keys(data).length === 0) return outer;
  const inner = new Map(outer);
  const prefix = path.map((p) => slug(p).replaceAll("-", "_")).join("_") || "folder";
  for (const [name, value] of Object.entries(data)) {
    let unique = `${prefix}_${name}`;
    for (let n = 2; unique in result.variables; n++) unique = `${prefix}_${name}_${n}`;
    result.variables[unique] = scoped(value, outer);
    inner.set(name, unique);
  }
  return inner;
}

/** `{{name}}` of a folder-environment variable as the variable it became. */
function scoped(text: string, scope: Map<string, string>): string {
  return text.replace(/\{\{([^{}]+)\}\}/g, (whole, inner: string) => {
    const to = scope.get(inner.trim());
    return to === undefined ? whole : `{{${to}}}`;
  });
}

function rewriteTexts(request: ImportedRequest, visit: (text: string) => string): void {
  request.url = visit(request.url);
  for (const h of request.headers) h.value = visit(h.value);
  if (typeof request.body === "string") request.body = visit(request.body);
  else if (request.body && "parts" in request.body) {
    request.body = {
      parts: request.body.parts.map((p) => typeof p === "string" ? visit(p) : p),
    };
  }
}

/**
 * Insomnia's `{% response 'body', 'req_id', '$.path' %}` (the filter possibly `b64::…::46b`)
 * as a request variable, `{{name.response.body.$.path}}` (a header: `…response.headers.Name`;
 * the raw body: `…response.body.*`), when the named request runs first: in the same file,
 * before. Any other tag (the URL attribute, an XPath filter, a request elsewhere) is reported.
 */
function responseTags(result: ImportResult, ids: Map<ImportedRequest, string>): void {
  const byId = new Map([...ids].map(([request, id]) => [id, request]));
  const order = result.requests;
  const reference = (tag: string, user: ImportedRequest | undefined): string | undefined => {
    const args = [...tag.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) =>
      m[1] ?? m[2] ?? ""
    );
    const [attribute, id, rawFilter = ""] = args;
    const target = byId.get(id ?? "");
    if (!target) return undefined;
    const filter = decodeFilter(rawFilter);
    let selector: string;
    if (attribute === "body" && (filter === "" || filter.startsWith("$"))) {
      selector = `body.${filter || "*"}`;
    } else if (attribute === "raw") selector = "body.*";
    else if (attribute === "header" && /^[\w-]+$/.test(filter)) selector = `headers.${filter}`;
    else return undefined;
    return responseReference(target, user, order, selector);
  };
  const TAG = /\{%\s*response\s+([^%]*?)%\}/g;
  for (const request of order) {
    const where = [...request.folder, request.name].join(" / ");
    rewriteTexts(request, (t) =>
      t.replace(TAG, (whole, args: string) => {
        const to = reference(args, request);
        if (to === undefined) {
          result.losses.push({
            where,
            what: `the tag ${whole.slice(0, 80)} (its request must run first in the same file)`,
          });
        }
        return to ?? whole;
      }));
  }
  const envs = [result.variables, ...Object.values(result.environments)];
  for (const vars of envs) {
    for (const [name, value] of Object.entries(vars)) {
      vars[name] = value.replace(TAG, (whole, args: string) => {
        const to = reference(args, undefined);
        result.losses.push({
          where: `variable "${name}"`,
          what: to === undefined
            ? `the tag ${whole.slice(0, 80)} left as written`
            : `the response tag became ${to}: its request must run first in the same file`,
        });
        return to ?? whole;
      });
    }
  }
}

/** A tag's filter: `b64::<base64>::46b` decoded, else as written. */
function decodeFilter(filter: string): string {
  const b64 = /^b64::(.*)::46b$/.exec(filter);
  if (!b64) return filter;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return filter;
  }
}
