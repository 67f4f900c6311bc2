/**
 * OpenAPI 3.0/3.1 and Swagger 2.0 (JSON or YAML) read into an import: one request per
 * operation, grouped by tag; path and query parameters as variables; an example body from the
 * schema; security schemes mapped to auth headers whose secrets live in the private
 * environment; each server an environment with its `baseUrl`. Swagger 2.0 and 3.0 are upgraded
 * to 3.1 by `@scalar/openapi-upgrader`; `$ref`s are followed by `openapi_refs.ts`, to other
 * documents too when the caller gives a loader.
 *
 * @see https://spec.openapis.org/oas/v3.1.0
 * @module
 */
import { upgrade } from "@scalar/openapi-upgrader";
import { UsageError } from "../errors/mod.ts";
import { emptyImport, importedRequest, type ImportResult } from "./import_model.ts";
import { secretVariable } from "./import_secrets.ts";
import { isObject, type Json, list, text } from "./json_read.ts";
import { slug } from "./import_names.ts";
import { resolveRefs, type ResolveRefsOptions } from "./openapi_refs.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * @param value a parsed JSON or YAML document
 * @returns whether it is an OpenAPI or Swagger description
 */
export function isOpenApi(value: unknown): boolean {
  return isObject(value) && (typeof value.openapi === "string" || value.swagger === "2.0") &&
    isObject(value.paths);
}

/**
 * Reads an OpenAPI description.
 *
 * @param document the parsed description
 * @param options where it was read from and how to read the documents it refers to
 * @returns the import
 * @throws {UsageError} when the description's references cannot be resolved
 */
export async function readOpenApi(
  document: Json,
  options: Omit<ResolveRefsOptions, "losses"> = {},
): Promise<ImportResult> {
  let upgraded: unknown;
  try {
    upgraded = upgrade(structuredClone(document), "3.1");
  } catch (error) {
    throw new UsageError(`Cannot read the OpenAPI description: ${(error as Error).message}`);
  }
  if (!isObject(upgraded) || !isObject(upgraded.paths)) {
    throw new UsageError("Cannot read the OpenAPI description: it has no paths");
  }
  const info = isObject(upgraded.info) ? upgraded.info : {};
  const result = emptyImport("openapi", slug(text(info.title)) || "openapi");
  const spec = await resolveRefs(upgraded, { ...options, losses: result.losses });
  servers(result, spec);
  const components = isObject(spec.components) ? spec.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const [path, item] of Object.entries(spec.paths as Json)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      operation(result, path, method, op, [...list(item.parameters), ...list(op.parameters)], {
        security: op.security ?? spec.security,
        schemes,
      });
    }
  }
  return result;
}

function servers(result: ImportResult, spec: Json): void {
  const all = list(spec.servers).filter(isObject);
  if (all.length === 0) {
    result.environments["default"] = { baseUrl: "http://localhost" };
    result.losses.push({
      where: "servers",
      what: "no server URL: set baseUrl in http-client.env.json",
    });
    return;
  }
  all.forEach((server, index) => {
    let url = text(server.url);
    const vars = isObject(server.variables) ? server.variables : {};
    for (const [name, v] of Object.entries(vars)) {
      url = url.replaceAll(`{${name}}`, isObject(v) ? text(v.default) : "");
    }
    const name = slug(text(server.description)) || (index === 0 ? "default" : `server${index + 1}`);
    result.environments[name] = { baseUrl: url.replace(/\/$/, "") };
  });
}

function operation(
  result: ImportResult,
  path: string,
  method: string,
  op: Json,
  parameters: unknown[],
  auth: { security: unknown; schemes: Json },
): void {
  const name = text(op.operationId) || `${method.toUpperCase()} ${path}`;
  const tag = text(list(op.tags)[0]);
  const headers: Array<{ name: string; value: string }> = [];
  const query: string[] = [];
  const comments: string[] = [];
  if (op.summary) comments.push(text(op.summary));
  let url = `{{baseUrl}}${path.replace(/\{([^}]+)\}/g, "{{$1}}")}`;
  const seen = new Set<string>();
  for (const p of parameters) {
    if (!isObject(p) || seen.has(`${text(p.in)}:${text(p.name)}`)) continue;
    seen.add(`${text(p.in)}:${text(p.name)}`);
    const pname = text(p.name);
    const example = parameterExample(p);
    if (p.in === "path") {
      if (example !== undefined && result.variables[pname] === undefined) {
        result.variables[pname] = example;
      } else if (example === undefined) comments.push(`set {{${pname}}} before running`);
    } else if (p.in === "query" && p.required === true) {
      query.push(`${pname}={{${pname}}}`);
      if (example !== undefined && result.variables[pname] === undefined) {
        result.variables[pname] = example;
      } else if (example === undefined) comments.push(`set {{${pname}}} before running`);
    } else if (p.in === "query") comments.push(`optional query parameter: ${pname}`);
    else if (p.in === "header" && p.required === true) {
      headers.push({ name: pname, value: example ?? `{{${pname}}}` });
    }
  }
  if (query.length) url += `?${query.join("&")}`;
  url = security(result, name, auth, headers, url);
  let body: string | undefined;
  const content = isObject(op.requestBody) && isObject(op.requestBody.content)
    ? op.requestBody.content
    : {};
  const type = Object.keys(content).find((t) => /json/.test(t)) ?? Object.keys(content)[0];
  if (type) {
    const media = content[type];
    headers.push({ name: "Content-Type", value: type });
    const value = isObject(media)
      ? media.example ?? firstExample(media.examples) ?? exampleOf(media.schema, 0, new Set())
      : undefined;
    if (/json/.test(type)) body = JSON.stringify(value ?? {}, null, 2);
    else if (/x-www-form-urlencoded/.test(type) && isObject(value)) {
      body = Object.entries(value).map(([k, v]) => `${k}=${encodeURIComponent(text(v))}`).join(
        "&",
      );
    } else if (typeof value === "string") body = value;
    else result.losses.push({ where: name, what: `an example body of type ${type}` });
  }
  result.requests.push({
    ...importedRequest(name, tag ? [tag] : [], method.toUpperCase(), url, headers, body),
    ...(comments.length ? { comments } : {}),
  });
}

function security(
  result: ImportResult,
  where: string,
  auth: { security: unknown; schemes: Json },
  headers: Array<{ name: string; value: string }>,
  url: string,
): string {
  const requirement = list(auth.security).find(isObject);
  if (!requirement) return url;
  for (const schemeName of Object.keys(requirement)) {
    const scheme = auth.schemes[schemeName];
    if (!isObject(scheme)) continue;
    const type = text(scheme.type);
    const http = text(scheme.scheme).toLowerCase();
    if (type === "http" && http === "basic") {
      headers.push({
        name: "Authorization",
        value: `Basic {{username}} ${secretVariable(result, "password", "")}`,
      });
    } else if (type === "http" && http === "bearer") {
      headers.push({
        name: "Authorization",
        value: `Bearer ${secretVariable(result, `${schemeName}_token`, "")}`,
      });
    } else if (type === "apiKey") {
      const value = secretVariable(result, schemeName, "");
      if (scheme.in === "query") {
        url += `${url.includes("?") ? "&" : "?"}${text(scheme.name)}=${value}`;
      } else if (scheme.in === "header") headers.push({ name: text(scheme.name), value });
      else headers.push({ name: "Cookie", value: `${text(scheme.name)}=${value}` });
    } else {
      result.losses.push({
        where,
        what: `security scheme "${schemeName}" (${type}${
          http ? ` ${http}` : ""
        }): use dial's --oauth2 flags or Security.Auth`,
      });
    }
    // One scheme of the first requirement is enough to call the API.
    break;
  }
  return url;
}

function parameterExample(p: Json): string | undefined {
  const schema = isObject(p.schema) ? p.schema : {};
  const value = p.example ?? firstExample(p.examples) ?? schema.example ?? schema.default ??
    list(schema.enum)[0];
  return value === undefined ? undefined : text(value);
}

function firstExample(examples: unknown): unknown {
  if (!isObject(examples)) return undefined;
  const first = Object.values(examples)[0];
  return isObject(first) ? first.value : undefined;
}

/** An example value for a schema: its example, default or first enum value, or one built. */
function exampleOf(schema: unknown, depth: number, seen: Set<unknown>): unknown {
  if (!isObject(schema) || depth > 8 || seen.has(schema)) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const inner = new Set(seen).add(schema);
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    const options = list(schema[key]);
    if (options.length === 0) continue;
    if (key !== "allOf") return exampleOf(options[0], depth + 1, inner);
    return Object.assign({}, ...options.map((o) => exampleOf(o, depth + 1, inner) ?? {}));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object":
    case undefined: {
      if (!isObject(schema.properties)) return type === "object" ? {} : undefined;
      const out: Json = {};
      for (const [k, v] of Object.entries(schema.properties)) {
        const value = exampleOf(v, depth + 1, inner);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    case "array": {
      const item = exampleOf(schema.items, depth + 1, inner);
      return item === undefined ? [] : [item];
    }
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return true;
    case "string":
      return stringExample(text(schema.format));
    default:
      return undefined;
  }
}

function stringExample(format: string): string {
  switch (format) {
    case "date-time":
      return "2024-01-01T00:00:00Z";
    case "date":
      return "2024-01-01";
    case "email":
      return "user@example.com";
    case "uuid":
      return "00000000-0000-0000-0000-000000000000";
    case "uri":
    case "url":
      return "https://example.com";
    default:
      return "string";
  }
}
