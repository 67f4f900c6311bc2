/**
 * Insomnia exports: v4 (JSON, a flat `resources` list) and v5 (YAML, a nested `collection`),
 * with their environments. Insomnia's `{{ _.name }}` becomes `{{name}}`; template tags
 * (`{% … %}`) and scripts are reported, as are auth types dial's files do not carry.
 * @module
 */
import {
  emptyImport,
  formEncode,
  type FormPart,
  type ImportedRequest,
  type ImportResult,
  isObject,
  type Json,
  list,
  multipartBody,
  secretVariable,
  text,
} from "./import_model.ts";
import { basicValue } from "./import_secrets.ts";

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
  name: string;
  method?: string;
  url?: string;
  headers?: unknown[];
  body?: unknown;
  authentication?: unknown;
  children: Node[];
  scripts: boolean;
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
    name: text(r.name),
    method: text(r.method),
    url: text(r.url),
    headers: list(r.headers),
    body: r.body,
    authentication: r.authentication,
    children: (byParent.get(text(r._id)) ?? []).filter((c) => /^request/.test(text(c._type)))
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
  const roots = resources.filter((r) =>
    /^request/.test(text(r._type)) &&
    !resources.some((p) => p._id === r.parentId && /^request/.test(text(p._type)))
  );
  for (const r of roots) walk(result, node(r), []);
  return result;
}

function readV5(value: Json): ImportResult {
  const result = emptyImport("insomnia", slug(text(value.name)) || "insomnia");
  const node = (r: Json): Node => ({
    name: text(r.name),
    method: text(r.method),
    url: text(r.url),
    headers: list(r.headers),
    body: r.body,
    authentication: r.authentication,
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
  for (const r of list(value.collection).filter(isObject)) walk(result, node(r), []);
  return result;
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

function walk(result: ImportResult, node: Node, folder: string[]): void {
  const where = [...folder, node.name].join(" / ");
  if (node.scripts) result.losses.push({ where, what: "scripts (Insomnia's insomnia.* API)" });
  if (node.method === "" || node.url === "" && node.children.length) {
    for (const child of node.children) walk(result, child, [...folder, node.name]);
    return;
  }
  const headers: Array<{ name: string; value: string }> = [];
  for (const h of list(node.headers)) {
    if (isObject(h) && h.disabled !== true && text(h.name)) {
      headers.push({ name: text(h.name), value: convert(text(h.value)) });
    }
  }
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
      bodyText = params.map((p) =>
        `${formEncode(convert(text(p.name)))}=${formEncode(convert(text(p.value)))}`
      )
        .join("&");
    }
  }
  if (
    body.mimeType && bodyText !== undefined &&
    !headers.some((h) => h.name.toLowerCase() === "content-type")
  ) {
    headers.push({ name: "Content-Type", value: text(body.mimeType) });
  }
  const url = convert(text(node.url));
  if (/\{%/.test(url + JSON.stringify(bodyText ?? ""))) {
    result.losses.push({ where, what: "template tags ({% … %}) left as written" });
  }
  result.requests.push({
    name: node.name || "request",
    folder,
    method: text(node.method).toUpperCase() || "GET",
    url,
    headers,
    ...(bodyText !== undefined ? { body: bodyText } : {}),
  });
  for (const child of node.children) walk(result, child, [...folder, node.name]);
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
