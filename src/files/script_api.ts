/**
 * The JavaScript that request-file scripts see: the JetBrains HTTP Client's `client`,
 * `request` and `response` objects, `console.log`, `crypto`, `jsonPath` and `Window.btoa/atob`,
 * written in plain JavaScript (digests and JSONPath are the host's functions, given to the
 * prelude). The prelude is evaluated once per sandbox context, before any script, to a function
 * of those host functions; calling it gives `{ setup, take, describe }`: the
 * host keeps those functions' handles (no global a script could replace) and calls
 * `setup(inputJson)` before each script, to give it fresh objects (holding the API's functions,
 * made once per context, which read the running script's input), `take()` after it, for what
 * the script did as JSON text, and `describe(error)` for what it threw. They use `JSON.parse`
 * and `JSON.stringify` as they were when the prelude ran, not as a script may have left them.
 * Nothing else crosses the sandbox's wall.
 * @module
 */

import type { DataRow } from "./data_rows.ts";
import { POSTMAN_API, POSTMAN_PARTS } from "./script_postman.ts";

/**
 * The prelude, evaluated once in each sandbox context.
 *
 * @param postman with Postman's API (`script_postman.ts`), for files with `# @postman` requests
 * @returns its JavaScript
 */
export function scriptPrelude(postman: boolean): string {
  return PRELUDE_START + (postman ? POSTMAN_API : "") + PRELUDE_END;
}

/**
 * A part of Postman's API that a context compiles when a script first uses it.
 *
 * @param name its function's name (`makeExpect`, `schemaErrors`, `cryptoJs`, …)
 * @returns its text, or undefined for another name
 */
export function postmanPart(name: string): string | undefined {
  return Object.hasOwn(POSTMAN_PARTS, name) ? POSTMAN_PARTS[name] : undefined;
}

const PRELUDE_START = String.raw`
(function (host) {
"use strict";
var parse = JSON.parse;
var stringify = JSON.stringify;
var out = null;
var toString = String;
var hostDigest = host.digest;
var hostJsonPath = host.jsonPath;
var hostDynamic = host.dynamic;
var hostLibrary = host.library;
var hostPart = host.part;
var FunctionCtor = Function;
var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
function btoa(binary) {
  binary = toString(binary);
  var result = "";
  for (var i = 0; i < binary.length; i += 3) {
    var a = binary.charCodeAt(i), b = binary.charCodeAt(i + 1), c = binary.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) throw new Error("btoa: the string has characters outside Latin-1");
    var n = (a << 16) | ((b || 0) << 8) | (c || 0);
    result += B64.charAt(n >> 18) + B64.charAt((n >> 12) & 63) +
      (i + 1 < binary.length ? B64.charAt((n >> 6) & 63) : "=") +
      (i + 2 < binary.length ? B64.charAt(n & 63) : "=");
  }
  return result;
}
function atob(text) {
  text = toString(text).replace(/[\t\n\f\r ]/g, "");
  if (text.length % 4 === 0) text = text.replace(/==?$/, "");
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw new Error("atob: not valid Base64");
  var result = "", bits = 0, count = 0;
  for (var i = 0; i < text.length; i++) {
    bits = (bits << 6) | B64.indexOf(text.charAt(i));
    count += 6;
    if (count >= 8) {
      count -= 8;
      result += String.fromCharCode((bits >> count) & 255);
    }
  }
  return result;
}
function binaryHex(binary) {
  var hex = "";
  for (var i = 0; i < binary.length; i++) {
    var c = binary.charCodeAt(i);
    hex += (c < 16 ? "0" : "") + c.toString(16);
  }
  return hex;
}
function hexBinary(hex) {
  var binary = "";
  for (var i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.substr(i, 2), 16));
  return binary;
}
function textHex(text, encoding) {
  var name = encoding === undefined ? "utf8" : toString(encoding).toLowerCase().replace(/[-_]/g, "");
  text = toString(text);
  if (name === "utf8") return binaryHex(unescape(encodeURIComponent(text)));
  if (name === "iso88591" || name === "latin1" || name === "ascii" || name === "usascii") {
    var hex = "";
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i) & 255;
      hex += (c < 16 ? "0" : "") + c.toString(16);
    }
    return hex;
  }
  throw new Error("Unsupported encoding " + stringify(toString(encoding)) + " (UTF-8 and ISO-8859-1 are)");
}
function checkedHex(hex) {
  hex = toString(hex);
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("Not a hexadecimal string: " + stringify(hex));
  return hex.toLowerCase();
}
function base64Hex(text, urlSafe) {
  text = toString(text);
  if (urlSafe) text = text.replace(/-/g, "+").replace(/_/g, "/");
  return binaryHex(atob(text));
}
function hexBase64(hex, urlSafe) {
  var text = btoa(hexBinary(hex));
  return urlSafe ? text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : text;
}
/* JetBrains' crypto.sha256().updateWithText(…).digest().toHex(); crypto.hmac.sha256()
   .withTextSecret(…) gives the same builder, keyed. */
function digestBuilder(algorithm, key) {
  var data = "";
  var self = {
    updateWithText: function (text, encoding) { data += textHex(text, encoding); return self; },
    updateWithHex: function (hex) { data += checkedHex(hex); return self; },
    updateWithBase64: function (text, urlSafe) { data += base64Hex(text, urlSafe); return self; },
    digest: function () {
      var hex = hostDigest(algorithm, data, key === null ? "" : key, key !== null);
      return {
        toHex: function () { return hex; },
        toBase64: function (urlSafe) { return hexBase64(hex, urlSafe); },
      };
    },
  };
  return self;
}
/* JetBrains' crypto: its functions made once per context; each script gets fresh objects. */
var DIGEST_NAMES = ["sha1", "sha256", "sha384", "sha512", "md5"];
var digests = {}, keyedDigests = {};
DIGEST_NAMES.forEach(function (algorithm) {
  digests[algorithm] = function () { return digestBuilder(algorithm, null); };
  keyedDigests[algorithm] = function () {
    return {
      withTextSecret: function (text, encoding) { return digestBuilder(algorithm, textHex(text, encoding)); },
      withHexSecret: function (hex) { return digestBuilder(algorithm, checkedHex(hex)); },
      withBase64Secret: function (text, urlSafe) { return digestBuilder(algorithm, base64Hex(text, urlSafe)); },
    };
  };
});
function cryptoApi() {
  var api = { hmac: {} };
  for (var i = 0; i < DIGEST_NAMES.length; i++) {
    api[DIGEST_NAMES[i]] = digests[DIGEST_NAMES[i]];
    api.hmac[DIGEST_NAMES[i]] = keyedDigests[DIGEST_NAMES[i]];
  }
  return api;
}
/* jsonPath(data, expression): RFC 9535; one match is the value, several an array, none null. */
function jsonPath(data, expression) {
  var document = typeof data === "string" ? parse(data) : data;
  var found = parse(hostJsonPath(stringify(document === undefined ? null : document), toString(expression)));
  return found.length === 0 ? null : found.length === 1 ? found[0] : found;
}
function take() {
  var legacy = out.postman ? globalThis.tests : null;
  if (legacy !== null && typeof legacy === "object") {
    Object.keys(legacy).forEach(function (name) {
      out.tests.push({ name: name, passed: !!legacy[name], durationMs: 0 });
    });
  }
  delete out.postman;
  delete out.legacyTests;
  return stringify(out);
}
/* What a script threw, as JSON text: dump-safe fields only. */
function describe(error) {
  if (typeof error !== "object" || error === null) {
    return stringify({ name: "Error", message: toString(error), stack: "", isNull: error === null });
  }
  if (error.__dialExit === true) return stringify({ exit: true });
  var name = error.name, message = error.message, stack = error.stack;
  return stringify({
    name: typeof name === "string" ? name : "Error",
    message: message === undefined ? toString(error) : toString(message),
    stack: typeof stack === "string" ? stack : "",
  });
}
/*
 * The JetBrains API's functions, made once per context: they read the running script's state
 * (below, replaced by setup), and setup gives each script fresh objects holding them, so that
 * what a script does to client, request or response stays its own.
 */
var globals = {};
var requestVariables = {};
var current = null;
var input = null;
function hasOwn(values, name) { return Object.prototype.hasOwnProperty.call(values, name); }
function text(value) {
  return typeof value === "string" ? value : value === undefined ? "undefined" : stringify(value);
}
function AssertionError(message) {
  var error = new Error(message);
  error.name = "AssertionError";
  return error;
}
function log() {
  out.logs.push(Array.prototype.map.call(arguments, text).join(" "));
}
function storeSet(name, value) {
  var v = value === null || value === undefined ? "" : typeof value === "string" ? value : String(value);
  if (typeof value === "object" && value !== null) v = stringify(value);
  globals[name] = v;
  out.globals[name] = v;
}
function storeGet(name) { return hasOwn(globals, name) ? globals[name] : null; }
function storeIsEmpty() { return Object.keys(globals).length === 0; }
function storeClear(name) { delete globals[name]; out.globals[name] = null; }
function storeClearAll() {
  Object.keys(globals).forEach(function (name) { out.globals[name] = null; });
  globals = {};
}
function environmentGet(name) { return hasOwn(input.environment, name) ? input.environment[name] : null; }
function fileGet(name) { return hasOwn(input.file, name) ? input.file[name] : null; }
function requestVariableGet(name) { return hasOwn(requestVariables, name) ? requestVariables[name] : null; }
function requestVariableSet(name, value) {
  var v = typeof value === "string" ? value : stringify(value);
  requestVariables[name] = v;
  out.requestVariables[name] = v;
}
function clientTest(name, fn) {
  var started = Date.now();
  var record = { name: String(name), passed: true, durationMs: 0 };
  current = record;
  try {
    fn();
  } catch (error) {
    record.passed = false;
    record.message = error && error.message !== undefined ? String(error.message) : String(error);
    if (!(error && error.name === "AssertionError")) record.error = true;
  } finally {
    current = null;
    record.durationMs = Date.now() - started;
    out.tests.push(record);
  }
}
function clientAssert(condition, message) {
  if (condition) return;
  var why = message === undefined ? "Assertion failed" : String(message);
  if (current) throw AssertionError(why);
  out.tests.push({ name: why, passed: false, message: why, durationMs: 0 });
}
function clientExit() { throw { __dialExit: true }; }
function urlRaw() { return input.request.url; }
function bodyRaw() { return input.request.body; }
/* request.headers and response.headers: the functions of one list (which: "request"/"response"). */
function headerFunctions(which) {
  function valueOf(name) {
    var list = input[which].headers, lower = String(name).toLowerCase();
    for (var i = 0; i < list.length; i++) if (list[i][0].toLowerCase() === lower) return list[i][1];
    return null;
  }
  return {
    valueOf: valueOf,
    valuesOf: function (name) {
      var lower = String(name).toLowerCase();
      return input[which].headers.filter(function (h) { return h[0].toLowerCase() === lower; }).map(function (h) { return h[1]; });
    },
    all: function () { return input[which].headers.map(function (h) { return { name: h[0], value: h[1] }; }); },
    findByName: function (name) {
      var value = valueOf(name);
      return value === null ? null : { name: name, getRawValue: function () { return value; }, tryGetSubstitutedValue: function () { return value; } };
    },
  };
}
var requestHeaders = headerFunctions("request");
var responseHeaders = headerFunctions("response");
function headerList(functions) {
  return { valueOf: functions.valueOf, valuesOf: functions.valuesOf, all: functions.all, findByName: functions.findByName };
}
/*
 * The globals most scripts never read (request, console, crypto, Window) are made when a script
 * first reads them, from the running script's input, each script its own; assigning one replaces
 * it. The descriptors are made once per context.
 */
var defineProperty = Object.defineProperty;
function lazyGlobal(name, make) {
  function value(v) {
    defineProperty(globalThis, name, { value: v, writable: true, enumerable: true, configurable: true });
    return v;
  }
  return { get: function () { return value(make()); }, set: value, enumerable: true, configurable: true };
}
var LAZY_REQUEST = lazyGlobal("request", function () {
  var req = input.request;
  return {
    method: req.method,
    url: { getRaw: urlRaw, tryGetSubstituted: urlRaw },
    body: { getRaw: bodyRaw, tryGetSubstituted: bodyRaw },
    headers: headerList(requestHeaders),
    environment: { get: environmentGet },
    variables: { set: requestVariableSet, get: requestVariableGet },
  };
});
var LAZY_CONSOLE = lazyGlobal("console", function () {
  return { log: log, info: log, warn: log, error: log, debug: log };
});
var LAZY_CRYPTO = lazyGlobal("crypto", cryptoApi);
var LAZY_WINDOW = lazyGlobal("Window", function () { return { btoa: btoa, atob: atob }; });
function setup(inputJson) {
  input = parse(inputJson);
  out = { globals: {}, requestVariables: {}, tests: [], logs: [], environment: {} };
  sends.queue = [];
  sends.waiting = {};
  sends.count = 0;
  globals = input.globals;
  requestVariables = input.requestVariables;
  current = null;
  var store = { set: storeSet, get: storeGet, isEmpty: storeIsEmpty, clear: storeClear, clearAll: storeClearAll };
  var client = {
    global: store,
    variables: {
      global: store,
      environment: { get: environmentGet },
      file: { get: fileGet },
      request: { get: requestVariableGet },
    },
    log: log,
    test: clientTest,
    assert: clientAssert,
    exit: clientExit,
  };
  delete globalThis.request;
  delete globalThis.response;
  if (input.request) defineProperty(globalThis, "request", LAZY_REQUEST);
  var res = input.response;
  if (res) {
    var body = res.body;
    if (/^application\/([\w.+-]+\+)?json/i.test(res.mimeType)) {
      try { body = parse(res.body); } catch (ignored) { body = res.body; }
    }
    globalThis.response = {
      status: res.status,
      body: body,
      headers: headerList(responseHeaders),
      contentType: { mimeType: res.mimeType, charset: res.charset },
    };
  }
  globalThis.client = client;
  defineProperty(globalThis, "console", LAZY_CONSOLE);
  defineProperty(globalThis, "crypto", LAZY_CRYPTO);
  globalThis.jsonPath = jsonPath;
  globalThis.btoa = btoa;
  globalThis.atob = atob;
  defineProperty(globalThis, "Window", LAZY_WINDOW);
  /* A Postman script keeps what does not change (installStatics); another script sees none of it. */
  if (postmanInstalled) {
    POSTMAN_GLOBALS.forEach(function (name) {
      if (!input.postman || POSTMAN_STATICS.indexOf(name) < 0) delete globalThis[name];
    });
  }
  if (!input.postman) postmanStatics = false;
  postmanInstalled = !!input.postman;
  if (input.postman) {
    if (typeof installPostman !== "function") throw new Error("The sandbox was made without Postman's API");
    out.postman = true;
    installPostman(input, out, { AssertionError: AssertionError, log: log, sends: sends });
  }
}
/*
 * Postman's libraries (lodash, moment), evaluated in this context before the first script that
 * names one runs (preload; their text comes from the host), and kept for the file's scripts.
 */
var libraries = {};
function library(name, what) {
  if (Object.prototype.hasOwnProperty.call(libraries, name)) return libraries[name];
  var text = hostLibrary(name);
  if (typeof text !== "string") throw new Error(what + " is not available in dial's script sandbox here");
  var module = { exports: {} };
  /* lodash reads the global _ (its noConflict) while it loads: undefined then, not itself. */
  libraries[name] = undefined;
  try {
    FunctionCtor("module", "exports", "define", "global", text).call(globalThis, module, module.exports, undefined, undefined);
  } catch (error) {
    delete libraries[name];
    throw error;
  }
  libraries[name] = module.exports;
  return module.exports;
}
function preload(name) {
  library(name, name);
  return "";
}
var postmanInstalled = false;
var postmanStatics = false;
/*
 * pm.sendRequest's requests: the script queues them (queue), dial takes them (pending), sends
 * them and hands each answer back (settle), which calls the script's callback. respond makes
 * the script's response object from an answer (installPostman sets it).
 */
var sends = { queue: [], waiting: {}, count: 0, respond: null };
function pending() {
  var queued = sends.queue;
  if (queued.length === 0) return "";
  sends.queue = [];
  return stringify(queued);
}
function settle(answerJson) {
  var answer = parse(answerJson);
  var callback = sends.waiting[answer.id];
  delete sends.waiting[answer.id];
  if (typeof callback !== "function") return "";
  if (answer.error !== undefined) callback(new Error(answer.error), null);
  else callback(null, sends.respond(answer.response));
  return "";
}
var POSTMAN_STATICS = ["_", "CryptoJS", "tv4", "cheerio", "xml2Json", "require", "setTimeout", "Ajv",
  "Buffer"];
var POSTMAN_GLOBALS = ["pm", "postman", "tests", "responseBody", "responseCode", "responseHeaders",
  "responseTime", "responseCookies", "environment", "globals", "data", "iteration", "_", "CryptoJS",
  "tv4", "cheerio", "xml2Json", "moment", "require", "setTimeout", "Ajv", "Buffer"];
`;

const PRELUDE_END = String.raw`
return { setup: setup, take: take, describe: describe, pending: pending, settle: settle, preload: preload };
})
`;

/** What a script receives (made JSON and parsed by the prelude inside the sandbox). */
export interface ScriptInput {
  /** `client.global` values. */
  globals: Record<string, string>;
  /** `request.variables` values (pre-request scripts). */
  requestVariables: Record<string, string>;
  /** The environment's variables, for `request.environment.get`. */
  environment: Record<string, string>;
  /** The file variables, for `client.variables.file.get`. */
  file: Record<string, string>;
  /** The request (substituted for handlers; as written for pre-request scripts). */
  request?: { method: string; url: string; headers: [string, string][]; body: string };
  /** The response, for handlers. */
  response?: {
    status: number;
    headers: [string, string][];
    body: string;
    mimeType: string;
    charset: string;
  };
  /** Set for the scripts of a `# @postman` request: what Postman's API needs besides the above. */
  postman?: PostmanInput;
}

/** What Postman's `pm.info`, `pm.iterationData` and `pm.response` need. */
export interface PostmanInput {
  /** The request's name (`pm.info.requestName`). */
  requestName: string;
  /** A stable id of the request in its file (`pm.info.requestId`). */
  requestId: string;
  /** The chosen environment's name (`pm.environment.name`). */
  environmentName?: string;
  /** 0-based iteration (`pm.info.iteration`). */
  iteration?: number;
  /** Iterations of the run (`pm.info.iterationCount`). */
  iterationCount?: number;
  /** The `--data` row of this iteration (`pm.iterationData`). */
  iterationData?: DataRow;
  /** Milliseconds the exchange took (`pm.response.responseTime`). */
  responseTime?: number;
  /**
   * Postman's globals (`pm.globals`): a globals file's values (the environment's `$shared` ones
   * the chosen environment does not give) and what scripts set there; below the collection's.
   */
  globals?: Record<string, string>;
  /** The typed values of the run's globals and environment (their JSON, by name). */
  typed?: PostmanTypes<string>;
}

/** Typed values of Postman's variables, by store and name. */
export interface PostmanTypes<T> {
  /** The run's globals (the collection variables scripts set). */
  globals: Record<string, T>;
  /** The environment's variables. */
  environment: Record<string, T>;
  /** The request's own variables (`pm.variables.set`). */
  local: Record<string, T>;
  /** Postman's globals (`pm.globals`). */
  postmanGlobals?: Record<string, T>;
}

/** One `client.test` (or a failed `client.assert` outside a test). */
export interface TestOutcome {
  /** The test's name. */
  name: string;
  /** Whether it passed. */
  passed: boolean;
  /** The failure's message. */
  message?: string;
  /** Set when the test failed by an error other than an assertion. */
  error?: boolean;
  /** How long it took. */
  durationMs: number;
}

/** What a script did. */
export interface ScriptOutput {
  /** Globals set (a value) or cleared (null). */
  globals: Record<string, string | null>;
  /** `request.variables.set` values. */
  requestVariables: Record<string, string>;
  /** Tests, in order. */
  tests: TestOutcome[];
  /** `client.log` lines. */
  logs: string[];
  /** Environment values set (a value) or unset (null) by `pm.environment` (Postman scripts). */
  environment?: Record<string, string | null>;
  /** Postman's globals set (a value) or unset (null) by `pm.globals` (Postman scripts). */
  postmanGlobals?: Record<string, string | null>;
  /**
   * Postman scripts: the JSON (`[value]`) of each global and environment
   * value they set that is not a string, null for one set to a string or unset.
   */
  typed?: PostmanTypes<string | null>;
  /** `postman.setNextRequest(name)`: the request to run next; null stops the file. */
  nextRequest?: string | null;
  /** `pm.execution.skipRequest()` in a pre-request script: the request is not sent. */
  skipRequest?: boolean;
  /**
   * `pm.request.headers.add/upsert/remove` in a pre-request script, in order: what to do, the
   * header's name and value (values may hold `{{…}}`, substituted when the request is built).
   */
  headerEdits?: ["add" | "upsert" | "remove", string, string][];
}
