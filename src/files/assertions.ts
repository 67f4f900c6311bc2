/**
 * httpyac's `??` assertions, evaluated as httpyac evaluates them: the subject's value (`status`,
 * `header NAME`, `body [PATH]`, `duration`, `js EXPR`, `xpath EXPR`, and dial's JSONPath `$…`), the expected
 * text converted to the value's type, then the operator. Each assertion is one test of its
 * request, named by its line. JavaScript (`js`, `body PATH`) runs in the script sandbox.
 * @module
 */
import { createHash } from "node:crypto";
import { query } from "jsonpath-rfc9535";
import { load } from "../load.ts";
import type { Assertion } from "./http_file_types.ts";
import type { Outcome, Timings } from "./_run_parts.ts";
import type { TestOutcome } from "./script_api.ts";
import { exchangeNumber, markupType } from "./httpyac_script.ts";

/**
 * A value of httpyac's JavaScript that JSON cannot write (a DOM node of `parsedBody`, whose
 * nodes refer to each other): an object, whose text is what `String` made of it in the sandbox
 * (xmldom's serialization), as httpyac's failure messages show it.
 */
export class ObjectText {
  /**
   * @param text the value's text
   */
  constructor(readonly text: string) {}
  /** @returns the value's text */
  toString(): string {
    return this.text;
  }
}

/** What an assertion reads of an exchange. */
export interface AssertedResponse {
  status: number;
  headers: [string, string][];
  /** The body as text. */
  body: string;
  /** The body's media type, without parameters. */
  mimeType: string;
  /** Milliseconds from sending to the end of the body. */
  durationMs: number;
  /** The phases, where the transport measured them (`?? duration firstByte`, `tcp`, `tls` …). */
  timings?: Timings;
}

/** What evaluating an assertion needs from the runner. */
export interface AssertionContext {
  /** Substitutes `{{…}}` in the expected text. */
  substitute: (text: string, assertion: Assertion) => string;
  /** Evaluates a JavaScript expression with httpyac's `response` in scope (in the sandbox). */
  evaluate: (expression: string, assertion: Assertion) => Promise<unknown>;
  /** Namespace prefixes of `?? xpath` expressions (the request's `# @xpath_ns prefix=uri`). */
  xpathNamespaces?: Record<string, string>;
}

type Match = (value: unknown, expected: unknown) => boolean;

const numeric = (compare: (a: number, b: number) => boolean): Match => (value, expected) => {
  const a = toNumber(value);
  const b = toNumber(expected);
  return a !== undefined && b !== undefined && compare(a, b);
};
const textual = (compare: (a: string, b: string) => boolean): Match => (value, expected) => {
  const a = toText(value);
  const b = toText(expected);
  return !!a && !!b && compare(a, b);
};
const digest = (algorithm: string): Match => (value, expected) => {
  const text = toText(value);
  return !!text && createHash(algorithm).update(text).digest("base64") === expected;
};

/** The operators: how each matches, and whether the expected text keeps its type. */
const PREDICATES: Record<string, { match: Match; raw?: boolean }> = {
  "==": {
    match: (v, e) => typeof v === "object" ? JSON.stringify(v) === JSON.stringify(e) : v === e,
  },
  "!=": { match: (v, e) => v !== e },
  ">": { match: numeric((a, b) => a > b) },
  ">=": { match: numeric((a, b) => a >= b) },
  "<": { match: numeric((a, b) => a < b) },
  "<=": { match: numeric((a, b) => a <= b) },
  startsWith: { match: textual((a, b) => a.startsWith(b)) },
  endsWith: { match: textual((a, b) => a.endsWith(b)) },
  includes: {
    match: (v, e) => {
      const a = toText(v);
      const b = toText(e);
      if (a && b) return a.includes(b);
      return Array.isArray(v) && v.includes(e);
    },
  },
  matches: { match: textual((a, b) => new RegExp(b, "u").test(a)), raw: true },
  exists: { match: (v) => !!v },
  isFalse: { match: (v) => !v },
  isArray: { match: (v) => Array.isArray(v) },
  isBoolean: { match: (v) => typeof v === "boolean" },
  isNumber: { match: (v) => typeof v === "number" },
  isString: { match: (v) => typeof v === "string" },
  sha256: { match: digest("sha256"), raw: true },
  sha512: { match: digest("sha512"), raw: true },
  md5: { match: digest("md5"), raw: true },
};
const ALIASES: Record<string, string> = {
  "===": "==",
  equals: "==",
  "!==": "!=",
  "not equals": "!=",
  isTrue: "exists",
  contains: "includes",
};

/**
 * Evaluates one assertion.
 *
 * @param assertion the parsed line
 * @param response what it reads
 * @param context substitution and the sandbox
 * @returns its test outcome (never throws: an error is a failed test saying why)
 */
export async function evaluateAssertion(
  assertion: Assertion,
  response: AssertedResponse,
  context: AssertionContext,
): Promise<TestOutcome> {
  const started = performance.now();
  const name = assertion.text;
  const operator = ALIASES[assertion.operator] ?? assertion.operator;
  const predicate = PREDICATES[operator]!;
  try {
    const value = await subjectValue(assertion, response, context);
    // httpyac's expected text is never absent: nothing after the operator is "".
    const written = assertion.expected === undefined
      ? ""
      : context.substitute(assertion.expected, assertion);
    const expected = predicate.raw ? written : convertToType(value, written);
    const passed = predicate.match(value, expected);
    return {
      name,
      passed,
      // httpyac's wording: `status (404) == 200`.
      ...(passed ? {} : {
        message: [
          `${assertion.argument ?? assertion.subject} (${show(value)})`,
          assertion.operator,
          ...(expected === undefined || expected === "" ? [] : [show(expected)]),
        ].join(" "),
      }),
      durationMs: performance.now() - started,
    };
  } catch (error) {
    return {
      name,
      passed: false,
      message: (error as Error).message,
      durationMs: performance.now() - started,
    };
  }
}

/**
 * The subject's value as httpyac's value providers give it: a subject none of them knows, or
 * one without the argument it needs, is `false` (the parser warned about an unknown subject).
 */
async function subjectValue(
  assertion: Assertion,
  response: AssertedResponse,
  context: AssertionContext,
): Promise<unknown> {
  const { subject, argument } = assertion;
  if (subject.startsWith("$")) {
    return jsonPathValue(argument === undefined ? subject : `${subject} ${argument}`, response);
  }
  switch (subject) {
    case "status":
      return response.status;
    case "header":
      return argument === undefined ? false : headerValue(response.headers, argument);
    case "duration":
      return durationValue(argument, response);
    case "body":
      return argument === undefined
        ? response.body
        : await context.evaluate(`(response.parsedBody || response.body).${argument}`, assertion);
    case "js":
      return argument === undefined ? false : await context.evaluate(argument, assertion);
    case "xpath": {
      // httpyac reads no value from an empty body.
      if (argument === undefined || !response.body) return false;
      const { xpathValue } = await load.xpath();
      return xpathValue(argument, response.body, context.xpathNamespaces);
    }
    default:
      return false;
  }
}

/**
 * `?? duration [PHASE]`: httpyac's phases (got's), from dial's: `firstByte` is the wait for the
 * first byte after sending, `download` the body, `tcp` the connect, `tls` the handshake, `wait`
 * the time before the connection was there; anything else the whole exchange. A phase the
 * transport did not measure (`request`, the upload) is undefined.
 */
function durationValue(phase: string | undefined, response: AssertedResponse): unknown {
  const timings = response.timings;
  const phases = timings?.phases;
  switch (phase) {
    case "firstByte":
      return phases?.waitMs ?? timings?.firstByteMs;
    case "download":
      return timings && timings.totalMs - timings.firstByteMs;
    case "wait":
      return phases?.blockedMs;
    case "request":
      return undefined;
    case "tcp":
      return phases?.connectMs;
    case "tls":
      return phases?.tlsMs;
    default:
      return response.durationMs;
  }
}

/** What `?? js` and `?? body PATH` see as `response`: httpyac's response object (got's). */
export interface HttpyacResponse {
  statusCode: number;
  status: number;
  statusMessage?: string;
  /** `1.1`, `2.0`. */
  httpVersion?: string;
  /** `HTTP/1.1`. */
  protocol?: string;
  /** By lower-case name; several values joined by `, `, `set-cookie` a list. */
  headers: Record<string, string | string[]>;
  body: string;
  /** Whether `parsedBody` is the body parsed as JSON (httpyac: a JSON media type). */
  json: boolean;
  /**
   * When `parsedBody` is a DOM document (made in the sandbox when a script reads it): the media
   * type it is parsed with (httpyac's XML media types: `text/xml`; `text/html`), and the
   * exchange's number (the sandbox keeps one document per exchange).
   */
  markup?: { type: "text/xml" | "text/html"; exchange: number };
  contentType: { mimeType: string; charset?: string; contentType: string };
  /** got's phases: `wait`, `tcp`, `tls`, `firstByte`, `download`, `total` (milliseconds). */
  timings: Record<string, number | undefined>;
  request: { method: string; url: string; headers: Record<string, string>; body: string };
}

/**
 * @param response what the assertions read
 * @param sent the request as sent and the outcome (version, reason, request headers)
 * @returns httpyac's `response` for JavaScript assertions
 */
export function httpyacResponse(
  response: AssertedResponse,
  sent: {
    fileRequest: { spec: { method: string }; bodyText: string };
    outcome: Outcome;
  },
): HttpyacResponse {
  const headers: Record<string, string | string[]> = {};
  for (const [name] of response.headers) {
    const key = name.toLowerCase();
    headers[key] ??= headerValue(response.headers, key) as string | string[];
  }
  const { outcome } = sent;
  const contentType = outcome.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1] ??
    "";
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  const version = outcome.version?.replace(/^HTTP\//, "");
  const httpVersion = version === "2" ? "2.0" : version;
  // httpyac compares the media type as written, without changing its case.
  const mime = contentType.split(";")[0]!.trim();
  const markup = markupType(mime);
  return {
    statusCode: response.status,
    status: response.status,
    ...(outcome.reason !== undefined ? { statusMessage: outcome.reason } : {}),
    ...(httpVersion ? { httpVersion, protocol: `HTTP/${httpVersion}` } : {}),
    headers,
    body: response.body,
    json: mime === "application/json" || mime === "text/json" || mime.includes("+json") ||
      mime.includes("x-amz-json"),
    ...(markup && response.body
      ? { markup: { type: markup, exchange: exchangeNumber(outcome) } }
      : {}),
    contentType: { mimeType: response.mimeType, ...(charset ? { charset } : {}), contentType },
    timings: {
      wait: durationValue("wait", response) as number | undefined,
      tcp: durationValue("tcp", response) as number | undefined,
      tls: durationValue("tls", response) as number | undefined,
      firstByte: durationValue("firstByte", response) as number | undefined,
      download: durationValue("download", response) as number | undefined,
      total: response.durationMs,
    },
    request: {
      method: sent.fileRequest.spec.method,
      url: outcome.url,
      headers: Object.fromEntries(outcome.requestHeaders.map(([n, v]) => [n.toLowerCase(), v])),
      body: sent.fileRequest.bodyText,
    },
  };
}

/** A header as httpyac reads one: the value, several joined with `, ` (Set-Cookie: a list). */
function headerValue(headers: [string, string][], name: string): unknown {
  const wanted = name.toLowerCase();
  const values = headers.filter(([n]) => n.toLowerCase() === wanted).map(([, v]) => v);
  if (!values.length) return undefined;
  if (wanted === "set-cookie") return values;
  return values.join(", ");
}

/** RFC 9535 over the JSON body: nothing is undefined, one node its value, several a list. */
function jsonPathValue(path: string, response: AssertedResponse): unknown {
  let document: unknown;
  try {
    document = JSON.parse(response.body);
  } catch {
    throw new Error(`The body is not JSON, so "${path}" cannot select from it`);
  }
  let found: unknown[];
  try {
    found = query(document as Parameters<typeof query>[0], path);
  } catch (error) {
    throw new Error(`Invalid JSONPath "${path}": ${(error as Error).message}`);
  }
  return found.length === 0 ? undefined : found.length === 1 ? found[0] : found;
}

/** httpyac's conversion of the expected text to the type of the value. */
function convertToType(value: unknown, expected: string | undefined): unknown {
  if (expected === undefined) return expected;
  if (typeof value === "number") return toNumber(expected);
  if (typeof value === "boolean") return toBoolean(expected, !!expected);
  if (typeof value === "string") return expected;
  if (value === null && expected === "null") return null;
  if (value === undefined && expected === "undefined") return undefined;
  if (typeof value === "object") {
    try {
      return JSON.parse(expected);
    } catch {
      return expected;
    }
  }
  return expected;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !value) return undefined;
  const number = Number.parseFloat(value.trim());
  return Number.isNaN(number) ? undefined : number;
}

function toBoolean(value: string, fallback: boolean): boolean {
  const text = value.trim();
  if (!text) return fallback;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  const number = Number.parseFloat(text);
  return Number.isNaN(number) ? fallback : !!number;
}

function toText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value instanceof ObjectText) return value.text;
  if (typeof value === "number") return `${value}`;
  if (value) return JSON.stringify(value);
  return undefined;
}

function show(value: unknown): string {
  // A string is shown as it is, unless it spans lines (a body): then as JSON, on one line.
  const text = value instanceof ObjectText
    ? value.text
    : typeof value === "string" && !/[\n\r]/.test(value)
    ? value
    : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}
