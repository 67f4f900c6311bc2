/**
 * httpyac's JavaScript in dial's sandbox: its `{{ … }}` script blocks and its `?? js` / `?? body
 * PATH` expressions, run as httpyac runs them (its `runScript`: the code inside
 * `with (context)`, `this` the context, `exports`/`module.exports` setting variables) through
 * the JetBrains API's one input and output channel: the host gives the script a request
 * variable holding what httpyac puts in the context (the variables the code names, httpyac's
 * `response` without its body), the body as the response's text, and reads back a request
 * variable holding what the code exported. The code of a block or an expression is the same on
 * every run, so the sandbox compiles it once per file, whatever the body.
 *
 * What httpyac gives a script and dial's sandbox does too: the variables, `request`, `response`
 * (`statusCode`, `headers`, `body`, `parsedBody`, `contentType`, `timings` …), `test(name, fn)`
 * and its helpers (`test.status`, `test.header`, `test.headerContains`, `test.responseBody`,
 * `test.hasResponseBody`, `test.hasNoResponseBody`, `test.totalTime`, with httpyac's own checks),
 * `console`, `require("assert")` (Node's assertion module, written here in plain JavaScript),
 * `require("crypto")`'s `createHash`, `createHmac`, `randomUUID` and `randomBytes` and `Buffer`'s
 * `from` and `toString` (pure functions of strings, no authority). Any other `require` (`chai`,
 * `fs`, a file), `process` or the file system is Node code a file from a repository does not
 * get: an error naming it and its line.
 * @module
 */
import type { HttpyacResponse } from "./assertions.ts";

/** The request variable that carries httpyac's context in, and the exports out. */
export const HTTPYAC_CHANNEL = "__dial_httpyac";

/**
 * Node's modules a script may `require`: `assert`, and `crypto`'s pure functions (createHash,
 * createHmac, randomUUID, randomBytes; script_api.ts), written for the sandbox.
 */
const ALLOWED_MODULES = new Set([
  "@xmldom/xmldom",
  "xpath",
  "assert",
  "node:assert",
  "assert/strict",
  "node:assert/strict",
  "crypto",
  "node:crypto",
]);

/**
 * @param code a block's code
 * @returns the libraries of httpyac's it requires (`require("@xmldom/xmldom")`, `require("xpath")`),
 *   as the sandbox names them
 */
export function requiredLibraries(code: string): ("xmldom" | "xpath")[] {
  const found = new Set<"xmldom" | "xpath">();
  for (
    const [, , module] of code.matchAll(/\brequire\s*\(\s*(["'`])(@xmldom\/xmldom|xpath)\1\s*\)/g)
  ) {
    found.add(module === "xpath" ? "xpath" : "xmldom");
  }
  return [...found];
}

/** Each exchange's number, for the sandbox's one document per exchange. */
const exchanges = new WeakMap<object, number>();
let exchangeCount = 0;

/** @returns the exchange's number, the same for every response object made of it */
export function exchangeNumber(outcome: object): number {
  let number = exchanges.get(outcome);
  if (number === undefined) exchanges.set(outcome, number = ++exchangeCount);
  return number;
}

/**
 * httpyac's rule for a DOM document as `parsedBody` (its xmlResponseInterceptor): the media type
 * as written (httpyac compares it without changing its case) `application/xml`, `text/xml` or
 * one with `+xml` is parsed as XML, `text/html` as HTML.
 *
 * @param mimeType the Content-Type header's media type, as written
 * @returns DOMParser's media type for the body, or undefined when httpyac parses none
 */
export function markupType(mimeType: string): "text/xml" | "text/html" | undefined {
  if (mimeType === "text/html") return "text/html";
  if (mimeType === "application/xml" || mimeType === "text/xml" || mimeType.includes("+xml")) {
    return "text/xml";
  }
  return undefined;
}

/** What an httpyac block is given (as the channel's JSON). */
export interface HttpyacBlockInput {
  /** The variables its code names, by name (strings, exported values with their type). */
  variables: Record<string, unknown>;
  /** httpyac's `response` without its body (the body is the JetBrains response's text). */
  response?: Omit<HttpyacResponse, "body">;
  /** `__filename` and `__dirname`. */
  file: string;
  dir: string;
  /** httpyac's `httpRegion`, as far as the file says it: its name and directives (`metaData`). */
  region?: { metaData: Record<string, string | true> };
}

/** What an httpyac block did. */
export interface HttpyacBlockOutput {
  /** `exports.x = …` and `module.exports`, by name (functions left out). */
  exports: Record<string, unknown>;
  /** The code returned a promise that was rejected: what it threw. */
  error?: string;
  /** `request.headers` as the code left them (a block before the request may change them). */
  headers?: Record<string, unknown>;
  /** The object-valued variables it was given (`$global` …), as the code left them. */
  values?: Record<string, unknown>;
}

/**
 * The sandbox code of an httpyac block: the block's own lines where they are (the code's first
 * line is the block's first line, so errors name the file's lines), inside httpyac's wrapper.
 *
 * @param code the lines between `{{` and `}}`
 * @returns the code for the sandbox
 */
export function httpyacBlockCode(code: string): string {
  // httpyac's wrapper is an async function; dial's is one only when the code awaits, so that
  // what a plain block throws stops it at once, with its line.
  const kind = /\bawait\b/.test(code) ? "async function" : "function";
  return `return __dialHttpyac(${kind} (exports, require, module, __filename, __dirname, __context) { with (__context) {${code}\n} });\n${BLOCK_HELPERS}`;
}

/**
 * The sandbox code of a `?? js` expression: the expression on the code's second line, with
 * httpyac's `response` and the variables it names in scope, its value written to the channel.
 *
 * @param expression the JavaScript expression
 * @param names the variables it names, in the order of the channel's `values`
 * @returns the code for the sandbox
 */
export function httpyacExpressionCode(expression: string, names: string[]): string {
  // Node's Buffer (its from/toString), when the expression names it and no variable is so named.
  const buffer = /\bBuffer\b/.test(expression) && !names.includes("Buffer");
  const parameters = names.map((name) => `, ${name}`).join("") + (buffer ? ", Buffer" : "");
  const values = buffer ? ".concat([__dialNodeBuffer])" : "";
  // httpyac's response and the channel's answer are the prelude's (script_api.ts): compiled
  // once per sandbox, not with each expression.
  return `var __input = JSON.parse(request.variables.get("${HTTPYAC_CHANNEL}")); request.variables.set("${HTTPYAC_CHANNEL}", __dialHttpyacOutput((function (response${parameters}) {
return (${expression}\n); }).apply(null, [__input.response && __dialResponse(__input.response, response.body)].concat(__input.values.map(__dialHttpyacValue))${values}), __input.values));`;
}

/**
 * @param expression the text between `{{` and `}}`, trimmed
 * @returns whether httpyac reads it as JavaScript (`{{JSON.stringify(user)}}`, `{{6 + n}}`)
 *   rather than as a variable, a path in one, or a dynamic variable (`$…`, `%…`)
 */
export function isJavaScriptExpression(expression: string): boolean {
  if (/^[$%]/.test(expression)) return false;
  // A name, a path in a named request's body (`login.token`, `list[0].id`), a request variable.
  if (/^[\w-]+(?:\.[\w$-]+|\[\d+\])*$/.test(expression)) return false;
  if (/^[^.\s]+\.(?:response|request)\.(?:body|headers)\./.test(expression)) return false;
  return /[()+*/?:'"`!=<>&|,]/.test(expression);
}

/**
 * The first `require` of a module the sandbox does not have, to refuse before the code runs.
 *
 * @param code the block's code
 * @param firstLine the file's line of the code's first line
 * @returns the module and its line in the file, if there is one
 */
export function nodeRequire(
  code: string,
  firstLine: number,
): { module: string; line: number } | undefined {
  const lines = code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (/^\s*(\/\/|\*)/.test(text)) continue;
    for (const [, , module] of text.matchAll(/\brequire\s*\(\s*(["'`])([^"'`]*)\1\s*\)/g)) {
      if (!ALLOWED_MODULES.has(module!)) return { module: module!, line: firstLine + i };
    }
  }
  return undefined;
}

/**
 * @param code the block's code
 * @returns the names its code may read from httpyac's context: identifiers not after a dot,
 *   and `this.name`'s names (the context is `this`), as text to scan for variables
 */
export function namesText(code: string): string {
  const own = [...code.matchAll(/\bthis\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
  return own.length ? `${code}\n${own.join(" ")}` : code;
}

/*
 * The block's wrapper: httpyac's context (the variables, request, response, test, console,
 * sleep), the code run with it as `this`, then what it exported, written to the channel.
 * httpyac's test helpers keep httpyac's own checks (test.headerContains passes unless the value
 * starts with the text; test.hasResponseBody only logs), as httpyac 6.16.7 evaluates them.
 */
const BLOCK_HELPERS = String.raw`function __dialHttpyac(run) {
  var host = request, jetbrains = client, scriptConsole = console, parse = JSON.parse, stringify = JSON.stringify;
  var input = parse(host.variables.get("${HTTPYAC_CHANNEL}"));
  var context = {}, names = Object.keys(input.variables), responses = {};
  for (var i = 0; i < names.length; i++) {
    var given = input.variables[names[i]];
    // A named request of an XML or HTML body: NAME its document, NAMEResponse's parsedBody too.
    if (__dialHttpyacVariable(context, names[i], given)) responses[names[i]] = true;
    else context[names[i]] = given;
  }
  var headers = {};
  host.headers.all().forEach(function (h) { headers[h.name] = h.value; });
  context.request = { method: host.method, url: host.url.getRaw(), headers: headers, body: host.body.getRaw() };
  if (input.response) context.response = __dialResponse(input.response, response.body);
  context.console = scriptConsole;
  Object.defineProperty(context, "Buffer", { get: function () { return __dialNodeBuffer; }, configurable: true });
  context.sleep = __dialSleep;
  context.test = __dialTest(jetbrains, context.response);
  context.$context = context;
  // httpyac's objects of the file and the request, as far as the file says them.
  context.httpFile = { fileName: input.file };
  context.httpRegion = input.region || { metaData: {} };
  // $httpyac.execute and $httpyac.import of a written name or path: the host did them before the block.
  context.$httpyac = {
    execute: function () { return Promise.resolve(context); },
    setVariables: function (vars) { for (var key in vars) module.exports[key] = vars[key]; },
    import: function () { return Promise.resolve(); }
  };
  var module = { exports: {} };
  function failed(error) {
    host.variables.set("${HTTPYAC_CHANNEL}", stringify({ exports: {}, error: String(error && error.message !== undefined ? error.message : error) }));
  }
  // What was exported as a promise is exported as what it resolves to, as httpyac awaits it.
  function finish() {
    var value = module.exports, keys = value && typeof value === "object" ? Object.keys(value) : [];
    var pending = [];
    keys.forEach(function (key) {
      var one = value[key];
      if (one && typeof one.then === "function") pending.push(one.then(function (done) { value[key] = done; }));
    });
    if (pending.length) Promise.all(pending).then(write, failed);
    else write();
  }
  function write() {
    var exported = {}, value = module.exports, keys = value && typeof value === "object" ? Object.keys(value) : [];
    for (var k = 0; k < keys.length; k++) {
      // Not a function, nor a DOM node of a parsedBody (kept by neither: they are not data).
      var one = value[keys[k]];
      if (typeof one !== "function" && !(one && typeof one.nodeName === "string" && typeof one.cloneNode === "function")) exported[keys[k]] = one;
    }
    var values = {};
    for (var n = 0; n < names.length; n++) {
      var given = input.variables[names[n]];
      if (given !== null && typeof given === "object" && !responses[names[n]]) values[names[n]] = context[names[n]];
    }
    host.variables.set("${HTTPYAC_CHANNEL}", stringify({ exports: exported, headers: context.request && context.request.headers, values: values }));
  }
  var done = run.call(context, module.exports, __dialRequire, module, input.file, input.dir, context);
  if (done && typeof done.then === "function") {
    done.then(finish, failed);
    return;
  }
  finish();
}
function __dialRequire(id) {
  id = String(id);
  if (/^(node:)?assert(\/strict)?$/.test(id)) return __dialAssert(/strict$/.test(id));
  if (/^(node:)?crypto$/.test(id)) return __dialNodeCrypto;
  if (id === "@xmldom/xmldom") return __dialHttpyacLibrary("xmldom");
  if (id === "xpath") return __dialHttpyacLibrary("xpath");
  throw new Error("require(" + JSON.stringify(id) + ") is Node code: dial's sandbox has Node's assert and crypto modules, and httpyac's @xmldom/xmldom and xpath, only");
}
function __dialTest(jetbrains, response) {
  function test(name, fn) { jetbrains.test(String(name), typeof fn === "function" ? fn : function () {}); }
  function check(condition, message) {
    if (condition) return;
    var error = new Error(message);
    error.name = "AssertionError";
    throw error;
  }
  function header(name) {
    var value = response.headers[String(name).toLowerCase()];
    return value;
  }
  test.status = function (status) {
    if (response) test("response status equals to " + status, function () { check(response.statusCode === status, "response status is " + response.statusCode + " (expected: " + status + ")"); });
  };
  test.totalTime = function (max) {
    if (response) test("total time exceeded " + max, function () { check(response.timings && response.timings.total ? response.timings.total < max : true, "total time is " + (response.timings && response.timings.total) + " (expected max " + max + ")"); });
  };
  test.header = function (name, value) {
    if (response) test("response header " + name + " equals " + value, function () { var found = header(name); check(found === value, "response header " + name + " is " + found + " (expected: " + value + ")"); });
  };
  test.headerContains = function (name, value) {
    if (response) test("response header " + name + " contains " + value, function () { var found = header(name); if (typeof found === "string" || Array.isArray(found)) check(!!found.indexOf(value), "response header contains " + value); });
  };
  test.responseBody = function (value) {
    if (response) test("response body equals " + value, function () { check(response.body === value, "response body equals " + value); });
  };
  test.hasResponseBody = function () {
    if (response) test("response body exists", function () {});
  };
  test.hasNoResponseBody = function () {
    if (response) test("response body does not exists", function () { check(!response.body, "response body does not exists"); });
  };
  return test;
}
function __dialAssert(strict) {
  function show(value) {
    if (typeof value === "string") return "'" + value + "'";
    try { var text = JSON.stringify(value); return text === undefined ? String(value) : text; } catch (e) { return String(value); }
  }
  function fail(message, fallback, actual, expected, operator) {
    if (message instanceof Error) throw message;
    var error = new Error(message === undefined ? fallback : String(message));
    error.name = "AssertionError";
    error.code = "ERR_ASSERTION";
    error.actual = actual;
    error.expected = expected;
    error.operator = operator;
    error.generatedMessage = message === undefined;
    throw error;
  }
  function deep(a, b, exact) {
    if (exact ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (exact && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    var ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (var i = 0; i < ka.length; i++) {
      if (!Object.prototype.hasOwnProperty.call(b, ka[i]) || !deep(a[ka[i]], b[ka[i]], exact)) return false;
    }
    return true;
  }
  function ok(value, message) {
    if (!value) fail(message, arguments.length ? "The expression evaluated to a falsy value:\n\n  assert.ok(" + show(value) + ")\n" : "No value argument passed to ` +
  "`assert.ok()`" + String.raw`", value, true, "==");
  }
  function equal(a, b, message) { if (!(a == b || (a !== a && b !== b))) fail(message, show(a) + " == " + show(b), a, b, "=="); }
  function notEqual(a, b, message) { if (a == b || (a !== a && b !== b)) fail(message, show(a) + " != " + show(b), a, b, "!="); }
  function strictEqual(a, b, message) { if (!Object.is(a, b)) fail(message, "Expected values to be strictly equal:\n\n" + show(a) + " !== " + show(b) + "\n", a, b, "strictEqual"); }
  function notStrictEqual(a, b, message) { if (Object.is(a, b)) fail(message, "Expected \"actual\" to be strictly unequal to: " + show(b), a, b, "notStrictEqual"); }
  function deepEqual(a, b, message) { if (!deep(a, b, false)) fail(message, "Expected values to be loosely deep-equal:\n\n" + show(a) + "\n\nshould loosely deep-equal\n\n" + show(b), a, b, "deepEqual"); }
  function deepStrictEqual(a, b, message) { if (!deep(a, b, true)) fail(message, "Expected values to be strictly deep-equal:\n" + show(a) + " !== " + show(b), a, b, "deepStrictEqual"); }
  function notDeepEqual(a, b, message) { if (deep(a, b, false)) fail(message, "\"actual\" deepEqual \"expected\"", a, b, "notDeepEqual"); }
  function notDeepStrictEqual(a, b, message) { if (deep(a, b, true)) fail(message, "Expected \"actual\" not to be strictly deep-equal to: " + show(b), a, b, "notDeepStrictEqual"); }
  function match(text, pattern, message) { if (typeof text !== "string" || !pattern.test(text)) fail(message, "The input did not match the regular expression " + String(pattern) + ". Input:\n\n" + show(text) + "\n", text, pattern, "match"); }
  function doesNotMatch(text, pattern, message) { if (typeof text === "string" && pattern.test(text)) fail(message, "The input was expected to not match the regular expression " + String(pattern) + ". Input:\n\n" + show(text) + "\n", text, pattern, "doesNotMatch"); }
  function throws(fn, expected, message) {
    try { fn(); } catch (error) { if (typeof expected === "function" && expected.prototype === undefined) { if (!expected(error)) throw error; } return; }
    fail(typeof expected === "string" ? expected : message, "Missing expected exception.", undefined, expected, "throws");
  }
  function doesNotThrow(fn, message) {
    try { fn(); } catch (error) { fail(message, "Got unwanted exception.\nActual message: \"" + (error && error.message) + "\"", error, undefined, "doesNotThrow"); }
  }
  var assert = function (value, message) { ok.apply(null, arguments); };
  assert.ok = ok;
  assert.equal = strict ? strictEqual : equal;
  assert.notEqual = strict ? notStrictEqual : notEqual;
  assert.strictEqual = strictEqual;
  assert.notStrictEqual = notStrictEqual;
  assert.deepEqual = strict ? deepStrictEqual : deepEqual;
  assert.notDeepEqual = strict ? notDeepStrictEqual : notDeepEqual;
  assert.deepStrictEqual = deepStrictEqual;
  assert.notDeepStrictEqual = notDeepStrictEqual;
  assert.match = match;
  assert.doesNotMatch = doesNotMatch;
  assert.throws = throws;
  assert.doesNotThrow = doesNotThrow;
  assert.fail = function (message) { fail(message, "Failed", undefined, undefined, "fail"); };
  assert.strict = strict ? assert : __dialAssert(true);
  return assert;
}`;
