/**
 * Each exchange of a run checked against an OpenAPI contract: the request matches an
 * operation, its path, query and header parameters and its body validate, the response status
 * and content type are documented, and the response body validates. Schemas are JSON Schema
 * 2020-12 (3.0 and 2.0 descriptions are upgraded to 3.1 first), validated by
 * `@cfworker/json-schema` (ESM, no dependencies: the build bundles it, where Ajv's CommonJS
 * cannot be), each prepared once per run; `readOnly` properties are not required in requests nor
 * `writeOnly` ones in responses. Every violation is a failed test named after the operation.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 * @module
 */
import { type OutputUnit, Validator } from "@cfworker/json-schema";
import { isObject, type Json } from "../import/json_read.ts";
import { type Contract, type ContractOperation, matchOperation } from "./openapi_contract.ts";

/** What the checker is shown of one exchange. */
export interface CheckedExchange {
  /** The method sent. */
  method: string;
  /** The URL sent. */
  url: string;
  /** The request's headers as sent. */
  requestHeaders: readonly [string, string][];
  /** The request body as text ("" for none; undefined: sent, but not known, e.g. stdin). */
  requestBody: string | undefined;
  /** The response status. */
  status: number;
  /** The response headers. */
  headers: readonly [string, string][];
  /** The response body as text (undefined: not read whole, e.g. too large or cut short). */
  body: string | undefined;
}

/** A violation, as a failed test. */
export interface Violation {
  /** The operation (`GET /pets/{id}`), or the request (`POST /nowhere`) when none matches. */
  name: string;
  /** `/0/name: required property missing (response body)`. */
  message: string;
  /** For a value of a body: which body, and the JSON pointer of the value (`""`: the whole). */
  at?: BodyValue;
}

/** A value of a request or response body, by JSON pointer. */
export interface BodyValue {
  /** Which body. */
  body: "request" | "response";
  /** RFC 6901 (`/0/name`); a missing property's pointer names where it should be. */
  pointer: string;
}

/** What a check found: its message and, for a body's value, where it is. */
type Issue = { message: string; at?: BodyValue };

/** How much of the description a run exercised. */
export interface Coverage {
  /** Operations at least one exchange matched. */
  exercised: number;
  /** Operations of the description. */
  total: number;
  /** The ones never called, in the description's order. */
  missing: string[];
}

/** Checks exchanges against one contract, and counts the operations they exercised. */
export class ContractChecker {
  /** Each direction's view of the schemas met so far, by schema: made when first needed. */
  readonly #views = { request: new Map<object, unknown>(), response: new Map<object, unknown>() };
  readonly #validators = new WeakMap<object, Validator>();
  readonly #seen = new Set<ContractOperation>();

  /**
   * @param contract the description, read by `readContract`
   */
  constructor(readonly contract: Contract) {}

  /**
   * @param exchange one request and its response
   * @returns its violations (none when it keeps the contract)
   */
  check(exchange: CheckedExchange): Violation[] {
    let url: URL;
    try {
      url = new URL(exchange.url);
    } catch {
      return [];
    }
    const matched = matchOperation(this.contract, exchange.method, url);
    if (!matched) {
      return [{
        name: `${exchange.method} ${url.pathname}`,
        message:
          `undocumented: no operation of ${this.contract.source} matches ${exchange.method} ${url.pathname}`,
      }];
    }
    const { operation } = matched;
    this.#seen.add(operation);
    const messages = [
      ...this.#parameters(operation, matched.path, url, exchange),
      ...this.#requestBody(operation, exchange),
      ...this.#response(operation, exchange),
    ];
    return messages.map((issue) => ({ name: operation.name, ...issue }));
  }

  /** @returns how many operations the exchanges checked so far exercised */
  coverage(): Coverage {
    const all = this.contract.operations;
    const order = (a: ContractOperation, b: ContractOperation) =>
      a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0;
    return {
      exercised: this.#seen.size,
      total: all.length,
      missing: all.filter((o) => !this.#seen.has(o)).sort(order).map((o) => o.name),
    };
  }

  #parameters(
    operation: ContractOperation,
    path: Map<string, string>,
    url: URL,
    exchange: CheckedExchange,
  ): Issue[] {
    const messages: Issue[] = [];
    operation.parameters.forEach((parameter) => {
      const name = String(parameter.name);
      const where = String(parameter.in);
      const label = `${where} parameter "${name}"`;
      // `content` instead of `schema`: the value is a document of that media type (JSON here).
      const media = isObject(parameter.content) ? Object.keys(parameter.content)[0] : undefined;
      const described = media !== undefined
        ? (parameter.content as Json)[media]
        : { schema: parameter.schema };
      const schema = isObject(described) && isObject(described.schema)
        ? described.schema
        : undefined;
      const sent = parameterValue(
        parameter,
        where,
        schema ?? {},
        { path, url, headers: exchange.requestHeaders },
      );
      if (sent === undefined) {
        if (parameter.required === true) messages.push({ message: `${label}: required, not sent` });
        return;
      }
      if (!schema) return;
      let value: unknown = sent;
      if (media !== undefined) {
        if (!isJson(media) || typeof sent !== "string") return;
        try {
          value = JSON.parse(sent);
        } catch {
          messages.push({ message: `${label}: not JSON, as ${media} says` });
          return;
        }
      }
      messages.push(...this.#validate(schema, value, label).map(({ message }) => ({ message })));
    });
    return messages;
  }

  #requestBody(operation: ContractOperation, exchange: CheckedExchange): Issue[] {
    const body = operation.operation.requestBody;
    if (!isObject(body)) return [];
    if (exchange.requestBody === "") {
      return body.required === true ? [{ message: "request body: required, none sent" }] : [];
    }
    const content = isObject(body.content) ? body.content : {};
    const type = headerOf(exchange.requestHeaders, "content-type");
    const media = mediaTypeOf(content, type);
    if (media === undefined) {
      return [{
        message: `request body: content type "${type ?? "(none)"}" is not documented (${
          Object.keys(content).join(", ")
        })`,
      }];
    }
    const pointer = `${operation.pointer}/requestBody/content/${escapePointer(media)}/schema`;
    if (exchange.requestBody === undefined) return [];
    return this.#validateBody(
      exchange.requestBody,
      media,
      content[media],
      "request",
      pointer,
      "request body",
    );
  }

  #response(operation: ContractOperation, exchange: CheckedExchange): Issue[] {
    const responses = isObject(operation.operation.responses) ? operation.operation.responses : {};
    const status = String(exchange.status);
    const key = [status, `${status[0]}XX`, `${status[0]}xx`, "default"].find((k) =>
      isObject(responses[k])
    );
    if (key === undefined) {
      return [{
        message: `status ${status} is not documented (${
          Object.keys(responses).join(", ") || "none"
        })`,
      }];
    }
    const response = responses[key] as Json;
    const content = isObject(response.content) ? response.content : undefined;
    const type = headerOf(exchange.headers, "content-type");
    if (!content || Object.keys(content).length === 0) return [];
    if (exchange.body === "" && type === undefined) return [];
    // A HEAD response describes the GET's body without sending it.
    const head = exchange.method.toUpperCase() === "HEAD";
    const media = mediaTypeOf(content, type);
    if (media === undefined) {
      return [{
        message: `response ${status}: content type "${type ?? "(none)"}" is not documented (${
          Object.keys(content).join(", ")
        })`,
      }];
    }
    const pointer = `${operation.pointer}/responses/${escapePointer(key)}/content/${
      escapePointer(media)
    }/schema`;
    if (head || exchange.body === undefined) return [];
    return this.#validateBody(
      exchange.body,
      media,
      content[media],
      "response",
      pointer,
      `response ${status} body`,
    );
  }

  #validateBody(
    text: string,
    media: string,
    object: unknown,
    direction: "request" | "response",
    pointer: string,
    label: string,
  ): Issue[] {
    if (!isObject(object) || !isObject(object.schema) || !isJson(media)) return [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [{ message: `${label}: not JSON, as ${media} says` }];
    }
    const found = at(this.contract.document, pointer);
    // The server sets readOnly properties, the client writeOnly ones: neither is required back.
    const schema = isObject(found)
      ? directional(
        found,
        direction === "request" ? "readOnly" : "writeOnly",
        this.#views[direction],
      )
      : undefined;
    if (!isObject(schema)) return [];
    return this.#validate(schema, value, label).map(({ message, pointer }) => ({
      message,
      at: { body: direction, pointer },
    }));
  }

  /** @returns each error's message and the JSON pointer of its value */
  #validate(
    schema: Json,
    value: unknown,
    label: string,
  ): { message: string; pointer: string }[] {
    let validator = this.#validators.get(schema);
    if (!validator) {
      validator = new Validator(schema as never, "2020-12", false);
      this.#validators.set(schema, validator);
    }
    const { valid, errors } = validator.validate(value);
    return valid ? [] : describe(errors, value, label, schema);
  }
}

/** Where a request's parameters are. */
interface ParameterSources {
  /** The path template's values, decoded. */
  path: Map<string, string>;
  /** The URL sent. */
  url: URL;
  /** The request's headers. */
  headers: readonly [string, string][];
}

/**
 * A parameter's value as sent, read as its `style` and `explode` serialize it (OpenAPI's
 * table: `simple`, `label`, `matrix`, `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`),
 * scalars read as the schema's types; with `content`, the text itself.
 *
 * @returns the value, or undefined when the request does not carry the parameter
 * @see https://spec.openapis.org/oas/v3.1.0#style-values
 */
function parameterValue(
  parameter: Json,
  where: string,
  schema: Json,
  sources: ParameterSources,
): unknown {
  const name = String(parameter.name);
  const style = String(
    parameter.style ?? (where === "query" || where === "cookie" ? "form" : "simple"),
  );
  const explode = parameter.explode === undefined ? style === "form" : parameter.explode === true;
  const types = typesOf(schema);
  const kind = isObject(parameter.content)
    ? "text"
    : types.includes("array")
    ? "array"
    : types.includes("object")
    ? "object"
    : "scalar";
  const items = isObject(schema.items) ? schema.items : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const typed = (text: string, of: unknown = schema) =>
    kind === "text" ? text : scalar(text, isObject(of) ? of : {});
  const asArray = (parts: string[]) => parts.map((part) => typed(part, items));
  const asObject = (pairs: Array<[string, string]>) =>
    Object.fromEntries(pairs.map(([k, v]) => [k, typed(v, properties[k])]));
  const pairsOf = (parts: string[], exploded: boolean): Array<[string, string]> =>
    exploded
      ? parts.map((part) => {
        const eq = part.indexOf("=");
        return eq < 0 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
      })
      : parts.flatMap((_, i) => i % 2 ? [] : [[parts[i]!, parts[i + 1] ?? ""]]);
  /** A `simple`-style text (`3,4,5`, `R,100,G,200`, `R=100,G=200`). */
  const simple = (text: string, separator = ",") => {
    if (kind === "array") return asArray(text === "" ? [] : text.split(separator));
    if (kind === "object") return asObject(pairsOf(text.split(separator), explode));
    return typed(text);
  };

  if (where === "path") {
    if (!sources.path.has(name)) return undefined;
    const text = sources.path.get(name)!;
    if (style === "label") {
      const body = text.startsWith(".") ? text.slice(1) : text;
      return simple(body, explode && kind !== "scalar" ? "." : ",");
    }
    if (style === "matrix") {
      const parts = text.split(";").slice(1);
      if (kind === "object" && explode) return asObject(pairsOf(parts, true));
      const values = parts.map((part) => part.slice(part.indexOf("=") + 1));
      if (kind === "array" && explode) return asArray(values);
      return simple(values[0] ?? "");
    }
    return simple(text);
  }
  if (where === "header") {
    const values = sources.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase())
      .map(([, v]) => v.trim());
    return values.length ? simple(values.join(",")) : undefined;
  }
  if (where === "cookie") {
    const cookies = sources.headers.filter(([n]) => n.toLowerCase() === "cookie")
      .flatMap(([, v]) => v.split(";").map((pair) => pair.trim()));
    const found = cookies.find((pair) => pair.startsWith(`${name}=`));
    if (found === undefined) return undefined;
    const text = found.slice(name.length + 1);
    return kind === "scalar" || kind === "text" ? typed(text) : simple(text);
  }
  if (where !== "query") return undefined;
  const query = sources.url.searchParams;
  if (style === "deepObject") {
    const pairs: Array<[string, string]> = [];
    for (const [key, value] of query) {
      const inner = key.startsWith(`${name}[`) && key.endsWith("]")
        ? key.slice(name.length + 1, -1)
        : undefined;
      if (inner !== undefined) pairs.push([inner, value]);
    }
    return pairs.length ? asObject(pairs) : undefined;
  }
  if (kind === "object" && explode) {
    // Each property is a parameter of its own (`R=100&G=200`).
    const pairs = Object.keys(properties).flatMap((key): Array<[string, string]> =>
      query.has(key) ? [[key, query.get(key)!]] : []
    );
    return pairs.length ? asObject(pairs) : undefined;
  }
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  if (kind === "array") {
    if (explode) return asArray(values);
    const separator = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
    return asArray(values[0] === "" ? [] : values[0]!.split(separator));
  }
  return simple(values[0]!);
}

function scalar(text: string, schema: Json): unknown {
  const types = typesOf(schema);
  if (
    (types.includes("integer") || types.includes("number")) &&
    /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)
  ) {
    return Number(text);
  }
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  if (types.includes("null") && text === "") return null;
  return text;
}

/** The types a schema allows: its `type`, and those of its `anyOf`/`oneOf`/`allOf` branches. */
function typesOf(schema: Json, depth = 0): unknown[] {
  const own = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (depth > 4) return own;
  const branches = [schema.anyOf, schema.oneOf, schema.allOf].flatMap((b) =>
    Array.isArray(b) ? b : []
  );
  return [...own, ...branches.flatMap((b) => isObject(b) ? typesOf(b, depth + 1) : [])];
}

/** The documented media type a content type matches: exact, `type/*`, then `*\/*`. */
function mediaTypeOf(content: Json, type: string | undefined): string | undefined {
  const essence = (type ?? "").split(";")[0]!.trim().toLowerCase();
  const keys = Object.keys(content);
  const exact = keys.find((k) => k.split(";")[0]!.trim().toLowerCase() === essence);
  if (exact !== undefined) return exact;
  if (!essence) return undefined;
  const range = keys.find((k) => k.toLowerCase() === `${essence.split("/")[0]}/*`);
  return range ?? keys.find((k) => k === "*/*");
}

function isJson(media: string): boolean {
  const essence = media.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json") || essence === "*/*" ||
    essence === "application/*";
}

function headerOf(headers: readonly [string, string][], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** Keywords whose errors only say that an error below them occurred. */
const CONTAINERS = new Set([
  "properties",
  "patternProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "$ref",
  "$dynamicRef",
  "dependentSchemas",
  "then",
  "else",
  "if",
  "contains",
  "false",
]);

/**
 * The validator's errors as violations: `/0/name: required property missing (response 200
 * body)`, or `query parameter "limit": must be <= 100 (maximum)` for a value as a whole. Errors
 * inside an `anyOf`/`oneOf` are summed up by it.
 */
function describe(
  errors: OutputUnit[],
  value: unknown,
  label: string,
  schema: Json,
): { message: string; pointer: string }[] {
  const choices = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf")
    .map((e) => `${e.keywordLocation}/`);
  // Each message once, with the pointer of its value.
  const out = new Map<string, string>();
  const add = (pointer: string, rule: string) =>
    out.set(pointer ? `${pointer}: ${rule} (${label})` : `${label}: ${rule}`, pointer);
  // `items: false` after `prefixItems` (and 2019's `additionalItems: false` after an `items`
  // array): the array is too long, told at the array as Ajv tells it; its extra items' "false
  // schema" errors are that one.
  const closedArrays = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== "items" && error.keyword !== "additionalItems") continue;
    const location = error.keywordLocation.replace(/^#/, "");
    if (at(schema, location) !== false) continue;
    if (choices.some((c) => error.keywordLocation.startsWith(c))) continue;
    const parent = at(schema, location.slice(0, location.lastIndexOf("/")));
    const prefix = isObject(parent) && Array.isArray(parent.prefixItems)
      ? parent.prefixItems.length
      : isObject(parent) && Array.isArray(parent.items)
      ? parent.items.length
      : undefined;
    // Without a prefix, each item is not allowed (told at the item, below).
    if (prefix === undefined) continue;
    const pointer = error.instanceLocation.replace(/^#/, "");
    closedArrays.add(pointer);
    const rule = `must have at most ${prefix} items (${error.keyword}: false), got ${
      Array.isArray(at(value, pointer)) ? (at(value, pointer) as unknown[]).length : "more"
    }`;
    add(pointer, rule);
  }
  // An extra property's "false schema" error is its additionalProperties one.
  const extra = new Set(
    errors.filter((e) =>
      e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties"
    ).map((e) =>
      `${e.instanceLocation.replace(/^#/, "")}/${
        escapePointer(/[Pp]roperty "((?:[^"\\]|\\.)*)"/.exec(e.error)?.[1] ?? "")
      }`
    ),
  );
  for (const error of errors) {
    if (error.keyword === "false") {
      // A property or item whose schema is `false`: not allowed there.
      const at = error.instanceLocation.replace(/^#/, "");
      const parent = at.slice(0, at.lastIndexOf("/"));
      if (closedArrays.has(parent) || extra.has(at)) continue;
      if (choices.some((c) => error.keywordLocation.startsWith(c))) continue;
      add(at, "not allowed here (false schema)");
      continue;
    }
    if (CONTAINERS.has(error.keyword)) continue;
    if (choices.some((c) => error.keywordLocation.startsWith(c))) continue;
    let pointer = error.instanceLocation.replace(/^#/, "");
    const property = /[Pp]roperty "((?:[^"\\]|\\.)*)"/.exec(error.error)?.[1];
    const actual = () => shown(at(value, pointer));
    let rule: string;
    switch (error.keyword) {
      case "required":
        pointer += `/${escapePointer(property ?? "")}`;
        rule = "required property missing";
        break;
      case "additionalProperties":
      case "unevaluatedProperties":
        pointer += `/${escapePointer(property ?? "")}`;
        rule = `property not allowed (${error.keyword})`;
        break;
      case "type": {
        const expected = /Expected (.+)\.$/.exec(error.error)?.[1]?.replaceAll('"', "") ?? "";
        rule = `must be ${expected.split(/,\s*/).join(" or ")}, got ${typeOf(at(value, pointer))}`;
        break;
      }
      case "enum":
        rule = `must be one of ${
          /any of (.+)\.$/.exec(error.error)?.[1] ?? "the listed values"
        }, got ${actual()}`;
        break;
      case "const":
        rule = `must be ${
          /does not match (.+)\.$/.exec(error.error)?.[1] ?? "the constant"
        }, got ${actual()}`;
        break;
      case "format":
        rule = `must be a ${
          /format "([^"]+)"/.exec(error.error)?.[1] ?? "valid value"
        }, got ${actual()}`;
        break;
      default:
        rule = `${error.error.replace(/\.$/, "")} (${error.keyword})`;
    }
    add(pointer, rule);
  }
  return [...out].map(([message, pointer]) => ({ message, pointer }));
}

function at(value: unknown, pointer: string): unknown {
  let current = value;
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * A schema with `readOnly` (or `writeOnly`) properties left out of every `required`.
 *
 * @param schema the schema
 * @param drop which properties are not required in this direction
 * @param done the direction's views so far: the description shares the targets of its `$ref`s,
 *   and each is walked once, its view shared the same way
 */
function directional(
  schema: Json,
  drop: "readOnly" | "writeOnly",
  done: Map<object, unknown>,
): unknown {
  const walk = (value: unknown): unknown => {
    if (!isObject(value) && !Array.isArray(value)) return value;
    const known = done.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const copy = value.map(walk);
      done.set(value, copy);
      return copy;
    }
    const out: Json = {};
    done.set(value, out);
    for (const [k, v] of Object.entries(value)) out[k] = walk(v);
    if (Array.isArray(out.required) && isObject(out.properties)) {
      const properties = out.properties;
      out.required = out.required.filter((name) => {
        const property = properties[String(name)];
        return !(isObject(property) && property[drop] === true);
      });
    }
    return out;
  };
  return walk(schema);
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
