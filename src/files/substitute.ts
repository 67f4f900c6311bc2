/**
 * `{{…}}` substitution in request files: named variables in their scopes, JetBrains dynamic
 * variables (`$uuid`, `$timestamp`, `$random.*`, `$env.NAME` …), REST Client system
 * variables (`$guid`, `$processEnv`, `$datetime` …) and request variables
 * (`{{login.response.body.$.token}}`). An undefined variable is an error naming it and where
 * it is used; nothing is ever sent as `{{name}}`.
 * @module
 */
import { UsageError } from "../errors/mod.ts";
import { Secret } from "../secret.ts";
import { dynamicVariable } from "./dynamic_variables.ts";
import type { FileVariable } from "./http_file_types.ts";
import { placePrefix, requestVariable, type RequestVariableSource } from "./request_variables.ts";

/** A variable's value; a secret (from the private env file or a reference) stays redacted. */
export type VariableValue = string | Secret;

/**
 * Where `{{name}}` looks, highest precedence first: overrides, environment, globals, file,
 * request, below.
 */
export interface VariableScope {
  /** `--var NAME=VALUE`: above everything. */
  overrides?: ReadonlyMap<string, VariableValue>;
  /**
   * Names a `--data` row gives as `null` (and nothing above the row sets): they have no value,
   * whatever the other scopes hold, as in Newman (which sends such a `{{name}}` as written).
   */
  unset?: ReadonlySet<string>;
  /** The chosen environment (private values over public ones). */
  environment?: ReadonlyMap<string, VariableValue>;
  /** `client.global.set` from scripts of this run. */
  globals?: ReadonlyMap<string, string>;
  /** File variables (`@name = value`), values substituted when used. */
  file?: readonly FileVariable[];
  /** `request.variables.set` from the current request's pre-request script. */
  request?: ReadonlyMap<string, string>;
  /** Below everything: Postman's globals in a `# @postman` request (postman_variables.ts). */
  below?: ReadonlyMap<string, VariableValue>;
  /** The process environment, for `$env.NAME` and `$processEnv NAME`. */
  env?: (name: string) => string | undefined;
  /** Named requests that ran in this run, for `{{name.response.body.$.x}}`. */
  responses?: (name: string) => RequestVariableSource | undefined;
  /** The `$shared` environment, for REST Client's `{{$shared NAME}}`. */
  shared?: ReadonlyMap<string, VariableValue>;
  /** The `.env` file beside the request file, for REST Client's `{{$dotenv NAME}}`. */
  dotenv?: ReadonlyMap<string, string>;
  /**
   * Below everything, as httpyac reads them: the nearest `.env` (or `env/.env`) from the file's
   * folder up to the run's folder.
   */
  dotenvDefaults?: ReadonlyMap<string, string>;
  /** `{{$auth.token("id")}}` and `{{$auth.idToken("id")}}`, resolved before substitution. */
  auth?: ReadonlyMap<string, string | Secret>;
  /**
   * Postman's rule (`# @postman` requests): a `{{name}}` no scope defines stays as written, as
   * Newman sends it, instead of being an error.
   */
  undefinedAsWritten?: boolean;
}

/** Where a template is, for messages: `header "Authorization" (api.http:4:16)`. */
export interface TemplatePlace {
  /** e.g. `the URL`, `header "Accept"`, `the body`. */
  what: string;
  /** The file; empty for a text that is in no file (then messages give no position). */
  path: string;
  /** 1-based line of the template's first character. */
  line: number;
  /** 1-based column of the template's first character. */
  column: number;
}

/** A `{{name}}` that no scope defines. */
export class UndefinedVariableError extends UsageError {
  /** The variable's name. */
  readonly variable: string;
  /**
   * Creates the error.
   *
   * @param variable the name
   * @param place where it is used
   */
  constructor(variable: string, place: TemplatePlace) {
    super(
      `${placePrefix(place)}Undefined variable "${variable}" in ${place.what}`,
      {
        details: { name: variable },
        remedy: { give: "variable" },
      },
    );
    this.name = "UndefinedVariableError";
    this.variable = variable;
  }
}

/** The result of {@link substitute}. */
export interface Substituted {
  /** The text with every `{{…}}` replaced. */
  text: string;
  /** Whether a secret went into it (then print it only as `(redacted)`). */
  secret: boolean;
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Replaces every `{{…}}` in a template.
 *
 * @param template the text as written in the file
 * @param scope where names are looked up
 * @param place where the template is, for messages
 * @returns the text and whether it holds a secret
 * @throws {UndefinedVariableError} for a name no scope defines
 * @throws {UsageError} for a malformed dynamic variable or request variable
 */
export function substitute(
  template: string,
  scope: VariableScope,
  place: TemplatePlace,
): Substituted {
  // Most header values and bodies hold no template.
  if (!template.includes("{{")) return { text: unescapeBraces(template), secret: false };
  const resolver = new Resolver(scope);
  const text = resolver.run(template, place, []);
  return { text: unescapeBraces(text), secret: resolver.secret };
}

const ESCAPED = /(?:\\\{){2}([^}]+?)(?:\\\}){2}/g;

/** httpyac's escape: `\{\{name\}\}` is sent as `{{name}}`, not substituted. */
function unescapeBraces(text: string): string {
  return text.includes("\\{\\{") ? text.replace(ESCAPED, "{{$1}}") : text;
}

/**
 * Looks one variable up (without `{{ }}`), as scripts' `request.environment.get` do.
 *
 * @param name the name
 * @param scope the scopes
 * @returns its value, substituted, or undefined
 */
export function lookupVariable(name: string, scope: VariableScope): string | undefined {
  try {
    const place = { what: `variable "${name}"`, path: "", line: 1, column: 1 };
    return new Resolver(scope).name(name, place, []);
  } catch (error) {
    if (error instanceof UndefinedVariableError) return undefined;
    throw error;
  }
}

/**
 * Finds the REST Client request variables of a template.
 *
 * @param template text that may hold `{{…}}`
 * @returns the request names it refers to through request variables (`{{name.response…}}`)
 */
export function referencedRequests(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(TEMPLATE)) {
    const ref = /^([^.\s$]+)\.(?:response|request)\./.exec(match[1]!);
    if (ref) names.push(ref[1]!);
  }
  return names;
}

/** httpyac's `{{name.a.b}}` / `{{name[0].a}}`: a named request's body, then a path in it. */
/** httpyac's `{{process.env.NAME}}`. */
const PROCESS_ENV = /^process\.env\.([A-Za-z_$][\w$]*)$/;
const HTTPYAC_PATH = /^([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*|\[\d+\])+)$/;
/** httpyac's `{{nameResponse.headers.server}}` and `{{nameResponse.parsedBody.a}}`. */
const HTTPYAC_RESPONSE = /^([A-Za-z_][\w-]*)Response\.(headers|parsedBody)\.(.+)$/;

/**
 * The request names a template refers to in httpyac's way (`{{login.token}}`), among a file's.
 *
 * @param template text that may hold `{{…}}`
 * @param names the file's request names
 * @param defined whether a variable of that whole name is defined (it wins)
 * @returns those it refers to
 */
export function httpyacReferences(
  template: string,
  names: ReadonlySet<string>,
  defined: (name: string) => boolean,
): string[] {
  const found: string[] = [];
  for (const match of template.matchAll(TEMPLATE)) {
    const path = HTTPYAC_PATH.exec(match[1]!);
    if (!path || defined(match[1]!)) continue;
    const response = HTTPYAC_RESPONSE.exec(match[1]!)?.[1];
    if (names.has(path[1]!)) found.push(path[1]!);
    else if (response !== undefined && names.has(response)) found.push(response);
  }
  return found;
}

class Resolver {
  secret = false;
  constructor(readonly scope: VariableScope) {}

  run(template: string, place: TemplatePlace, stack: string[]): string {
    let out = "";
    let last = 0;
    for (const match of template.matchAll(TEMPLATE)) {
      out += template.slice(last, match.index);
      last = match.index + match[0].length;
      const at = positionIn(template, match.index, place);
      try {
        out += this.expression(match[1]!, at, stack);
      } catch (error) {
        const plain = !match[1]!.trim().startsWith("$");
        if (!(error instanceof UndefinedVariableError && this.scope.undefinedAsWritten && plain)) {
          throw error;
        }
        out += match[0];
      }
    }
    return out + template.slice(last);
  }

  expression(expr: string, place: TemplatePlace, stack: string[]): string {
    // REST Client: {{%name}} is the value percent-encoded.
    if (expr.startsWith("%") && expr.length > 1) {
      return encodeURIComponent(this.expression(expr.slice(1).trim(), place, stack));
    }
    if (expr.startsWith("$")) {
      // httpyac's `{{$input …}}`, `{{$pick …}}`: the runner asked before the request was built.
      const asked = this.scope.overrides?.get(expr);
      if (asked !== undefined) return this.take(asked);
      if (/^\$(?:global\b|xpath:)/.test(expr)) {
        // httpyac's `{{$global.name}}` and `{{$xpath:NAME …}}`: the runner evaluated them before
        // the request was built.
        const value = this.scope.request?.get(expr);
        if (value === undefined) throw new UndefinedVariableError(expr, place);
        return this.take(value);
      }
      const auth = /^\$auth\.(token|idToken)\(\s*"([^"]*)"\s*\)$/.exec(expr);
      if (auth) {
        const value = this.scope.auth?.get(`${auth[1]}:${auth[2]}`);
        if (value === undefined) throw new UndefinedVariableError(expr, place);
        return this.take(value);
      }
      const words = expr.split(/\s+/);
      if (words[0] === "$shared" && words[1] !== undefined) {
        const value = this.scope.shared?.get(words[1]);
        if (value === undefined) throw new UndefinedVariableError(expr, place);
        return this.expand(value, words[1], place, stack);
      }
      if (words[0] === "$dotenv" && words[1] !== undefined) {
        const name = words[1].startsWith("%")
          ? this.name(words[1].slice(1), place, stack)
          : words[1];
        const value = this.scope.dotenv?.get(name);
        if (value === undefined) throw new UndefinedVariableError(expr, place);
        return value;
      }
      if (words[0] === "$processEnv" && words[1]?.startsWith("%")) {
        // REST Client: the environment variable's name is itself a variable.
        const name = this.name(words[1].slice(1), place, stack);
        const value = this.scope.env?.(name);
        if (value === undefined) throw new UndefinedVariableError(`$processEnv ${name}`, place);
        return value;
      }
      const value = dynamicVariable(expr, this.scope.env ?? (() => undefined), place);
      if (value === undefined) throw new UndefinedVariableError(expr, place);
      return value;
    }
    // httpyac's `{{process.env.NAME}}` (JavaScript it evaluates in Node): the process environment
    // variable, as `$processEnv NAME` reads it; any other use of `process` stays an error.
    const processEnv = PROCESS_ENV.exec(expr);
    if (processEnv && !this.defined(expr)) {
      const value = this.scope.env?.(processEnv[1]!);
      if (value === undefined) throw new UndefinedVariableError(expr, place);
      return value;
    }
    const ref = /^([^.\s]+)\.(response|request)\.(body|headers)\.(.+)$/.exec(expr);
    if (ref && !this.defined(expr)) {
      const source = this.scope.responses?.(ref[1]!);
      if (!source) {
        throw new UsageError(
          `${placePrefix(place)}Request "${ref[1]}" in ${place.what} has not run`,
          { details: { name: ref[1]! }, remedy: { write: "request_name" } },
        );
      }
      return requestVariable(
        source,
        ref[2] as "response" | "request",
        ref[3] as "body" | "headers",
        ref[4]!,
        place,
      );
    }
    // httpyac's: a named request's name is its parsed body (`{{login.token}}`, `{{list[0].id}}`).
    const path = HTTPYAC_PATH.exec(expr);
    if (path && !this.defined(expr)) {
      const source = this.scope.responses?.(path[1]!);
      if (source) return requestVariable(source, "response", "body", `$${path[2]}`, place);
      // httpyac's `{{NAMEResponse.headers.server}}`, `{{NAMEResponse.parsedBody.a}}`: its response.
      const response = HTTPYAC_RESPONSE.exec(expr);
      const named = response && this.scope.responses?.(response[1]!);
      if (named) {
        return response[2] === "headers"
          ? requestVariable(named, "response", "headers", response[3]!, place)
          : requestVariable(named, "response", "body", `$.${response[3]}`, place);
      }
    }
    return this.name(expr, place, stack);
  }

  defined(name: string): boolean {
    const s = this.scope;
    if (s.unset?.has(name)) return false;
    return Boolean(
      s.overrides?.has(name) || s.environment?.has(name) || s.globals?.has(name) ||
        s.file?.some((v) => v.name === name) || s.request?.has(name) || s.below?.has(name) ||
        s.dotenvDefaults?.has(name),
    );
  }

  name(name: string, place: TemplatePlace, stack: string[]): string {
    const s = this.scope;
    if (s.unset?.has(name)) throw new UndefinedVariableError(name, place);
    const override = s.overrides?.get(name);
    if (override !== undefined) return this.take(override);
    // Environment values may refer to other variables (`{{$shared token}}`, `{{host}}`).
    const environment = s.environment?.get(name);
    if (environment !== undefined) return this.expand(environment, name, place, stack);
    const global = s.globals?.get(name);
    if (global !== undefined) return global;
    const file = s.file?.findLast((v) => v.name === name);
    if (file) {
      if (stack.includes(name)) {
        throw new UsageError(
          `${placePrefix(place)}Variable "${name}" refers to itself: ${
            [...stack, name].join(" → ")
          }`,
        );
      }
      const filePlace = {
        what: `variable "${name}"`,
        path: place.path,
        line: file.span.line,
        column: 1,
      };
      return this.run(file.value, filePlace, [...stack, name]);
    }
    const request = s.request?.get(name);
    if (request !== undefined) return request;
    const below = s.below?.get(name);
    if (below !== undefined) return this.expand(below, name, place, stack);
    const dotenv = s.dotenvDefaults?.get(name);
    if (dotenv !== undefined) return dotenv;
    throw new UndefinedVariableError(name, place);
  }

  expand(value: VariableValue, name: string, place: TemplatePlace, stack: string[]): string {
    const text = this.take(value);
    if (!text.includes("{{")) return text;
    if (stack.includes(name)) {
      throw new UsageError(
        `${placePrefix(place)}Variable "${name}" refers to itself: ${[...stack, name].join(" → ")}`,
      );
    }
    return this.run(text, { ...place, what: `variable "${name}"` }, [...stack, name]);
  }

  take(value: VariableValue): string {
    if (typeof value === "string") return value;
    this.secret = true;
    return value.reveal();
  }
}

/** The place of `offset` inside a template that starts at `place`. */
function positionIn(template: string, offset: number, place: TemplatePlace): TemplatePlace {
  let breaks = 0;
  let last = -1;
  for (
    let at = template.indexOf("\n");
    at >= 0 && at < offset;
    at = template.indexOf("\n", at + 1)
  ) {
    breaks++;
    last = at;
  }
  if (breaks === 0) return { ...place, column: place.column + offset };
  return { ...place, line: place.line + breaks, column: offset - last };
}

/**
 * Like {@link substitute}, for callers that need the secret flag and the text together as a
 * header value.
 *
 * @param template the text
 * @param scope the scopes
 * @param place where it is
 * @returns a string, or a Secret when a secret went into it
 */
export function substituteValue(
  template: string,
  scope: VariableScope,
  place: TemplatePlace,
): VariableValue {
  const { text, secret } = substitute(template, scope, place);
  return secret ? new Secret(text) : text;
}
