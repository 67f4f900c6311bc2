/**
 * The JavaScript that request-file scripts see: the JetBrains HTTP Client's `client`,
 * `request` and `response` objects, `console.log`, `crypto`, `jsonPath` and `Window.btoa/atob`,
 * written in plain JavaScript (digests and JSONPath are the host's functions, given to the
 * prelude). The prelude is evaluated once per sandbox context, before any script, to a function
 * of those host functions; calling it gives `{ exec, take, describe, … }`: the host keeps those
 * functions' handles (no global a script could replace) and runs each script with
 * `exec(fn, …input)`, which gives the script fresh objects (holding the API's functions, made
 * once per context, which read the running script's input as it asks for it), calls it, and
 * answers what it did as JSON text (or what it threw, through `describe`). They use
 * `JSON.parse`, `JSON.stringify` and `Object.keys` as they were when the prelude ran, not as a
 * script may have left them. Nothing else crosses the sandbox's wall.
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
var keys = Object.keys;
var out = null;
var toString = String;
var hostDigest = host.digest;
var hostJsonPath = host.jsonPath;
var hostDynamic = host.dynamic;
var hostLibrary = host.library;
var hostPart = host.part;
var hostInput = host.input;
var hostZone = host.zone;
var hostMarkup = host.markup;
/*
 * A date's text names its time zone after the offset ("GMT+0000 (Coordinated Universal Time)"),
 * as V8's does in httpyac's, Postman's and JetBrains' scripts; QuickJS's stops at the offset.
 */
(function () {
  var proto = Date.prototype, dateText = proto.toString, timeText = proto.toTimeString;
  var getTime = proto.getTime;
  function named(text, date) {
    var ms = getTime.call(date);
    var name = ms === ms ? hostZone(ms) : undefined;
    return name ? text + " (" + name + ")" : text;
  }
  Object.defineProperty(proto, "toString", { writable: true, configurable: true,
    value: function toString() { return named(dateText.call(this), this); } });
  Object.defineProperty(proto, "toTimeString", { writable: true, configurable: true,
    value: function toTimeString() { return named(timeText.call(this), this); } });
})();
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
/*
 * httpyac's require("crypto") (httpyac_script.ts): Node's createHash, createHmac, randomUUID and
 * randomBytes over the same digests (pure functions of strings) and the host's random values.
 * A digest or randomBytes without an encoding is a byte string that knows toString(encoding).
 */
var NODE_DIGESTS = { md5: true, sha1: true, sha256: true, sha384: true, sha512: true };
function NodeBytes(hex) { this.hex = hex; this.length = hex.length / 2; }
NodeBytes.prototype.toString = function (encoding) { return nodeEncode(this.hex, encoding); };
function nodeEncode(hex, encoding) {
  var name = encoding === undefined ? "utf8" : toString(encoding).toLowerCase().replace(/-/g, "");
  if (name === "hex") return hex;
  if (name === "base64" || name === "base64url") return hexBase64(hex, name === "base64url");
  if (name === "latin1" || name === "binary") return hexBinary(hex);
  if (name === "utf8") {
    try { return decodeURIComponent(escape(hexBinary(hex))); } catch (ignored) { return hexBinary(hex); }
  }
  throw new TypeError("Unknown encoding: " + toString(encoding));
}
function nodeData(value, encoding) {
  if (value instanceof NodeBytes) return value.hex;
  if (value instanceof Uint8Array) {
    var hex = "";
    for (var i = 0; i < value.length; i++) hex += (value[i] < 16 ? "0" : "") + value[i].toString(16);
    return hex;
  }
  if (typeof value !== "string") {
    throw new TypeError("The \"data\" argument must be of type string or an instance of Buffer, TypedArray, or DataView.");
  }
  var name = encoding === undefined ? "utf8" : toString(encoding).toLowerCase().replace(/-/g, "");
  if (name === "hex") return checkedHex(value);
  if (name === "base64" || name === "base64url") return base64Hex(value, name === "base64url");
  return textHex(value, name === "binary" ? "latin1" : name);
}
function nodeDigest(algorithm, keyHex) {
  var name = toString(algorithm).toLowerCase().replace(/-/g, "");
  if (!hasOwn(NODE_DIGESTS, name)) {
    throw new Error("Digest method not supported: " + toString(algorithm) + " (dial's crypto has md5, sha1, sha256, sha384, sha512)");
  }
  var data = "", done = false;
  var self = {
    update: function (value, encoding) {
      if (done) throw new Error("Digest already called");
      data += nodeData(value, encoding);
      return self;
    },
    digest: function (encoding) {
      if (done) throw new Error("Digest already called");
      done = true;
      var hex = hostDigest(name, data, keyHex === null ? "" : keyHex, keyHex !== null);
      return encoding === undefined ? new NodeBytes(hex) : nodeEncode(hex, encoding);
    },
  };
  return self;
}
var NODE_CRYPTO = {
  createHash: function (algorithm) { return nodeDigest(algorithm, null); },
  createHmac: function (algorithm, key) { return nodeDigest(algorithm, nodeData(key)); },
  randomUUID: function () { return hostDynamic("$uuid"); },
  randomBytes: function (size) {
    if (typeof size !== "number" || !(size >= 0 && size <= 5000) || size % 1 !== 0) {
      throw new RangeError("The \"size\" argument must be an integer from 0 to 5000 in dial's crypto");
    }
    return new NodeBytes(size === 0 ? "" : hostDynamic("$random.hexadecimal(" + size * 2 + ")").toLowerCase());
  },
};
/*
 * httpyac's Buffer (httpyac_script.ts): Postman's (script_postman.ts, from, toString of utf8,
 * base64, hex, latin1), made the first time httpyac's code names it.
 */
var nodeBuffer = null;
Object.defineProperty(globalThis, "__dialNodeBuffer", {
  get: function () {
    if (nodeBuffer) return nodeBuffer;
    var text = hostPart("makeBuffer");
    if (typeof text !== "string") throw new Error("dial's script sandbox has no Buffer");
    nodeBuffer = FunctionCtor("toString", "btoa", "atob", "\"use strict\";\n" + text + "\nreturn makeBuffer;")(toString, btoa, atob)();
    return nodeBuffer;
  },
  enumerable: false,
  configurable: false,
});
Object.defineProperty(globalThis, "__dialNodeCrypto", { value: Object.freeze(NODE_CRYPTO), enumerable: false, writable: false, configurable: false });
/*
 * require in a JetBrains-form script: kulala runs them in Node, whose crypto module they name
 * (require("crypto").randomBytes(8)); JetBrains has no require. No other module.
 */
function nodeModule(id) {
  id = toString(id);
  if (/^(node:)?crypto$/.test(id)) return globalThis.__dialNodeCrypto;
  throw new Error("require(" + stringify(id) + ") is Node code: a script of this form has Node's crypto module only in dial's sandbox");
}
/* jsonPath(data, expression): RFC 9535; one match is the value, several an array, none null. */
function jsonPath(data, expression) {
  var document = typeof data === "string" ? parse(data) : data;
  var found = parse(hostJsonPath(stringify(document === undefined ? null : document), toString(expression)));
  return found.length === 0 ? null : found.length === 1 ? found[0] : found;
}
/*
 * What the running script did, as JSON text ("" when it did nothing). A JetBrains script's is
 * written out field by field (QuickJS's JSON.stringify of the whole object costs more than the
 * script); a Postman script's, whose API writes more kinds of results, is stringified. Reading
 * it changes nothing: the host may read it again after the script's promises have run.
 */
function take() {
  if (out.postman) {
    var copy = {}, names = keys(out), legacy = globalThis.tests;
    for (var k = 0; k < names.length; k++) {
      if (names[k] !== "postman" && names[k] !== "legacyTests") copy[names[k]] = out[names[k]];
    }
    if (legacy !== null && typeof legacy === "object") {
      var tests = [], legacyNames = keys(legacy);
      for (var t = 0; t < out.tests.length; t++) tests[t] = out.tests[t];
      for (var l = 0; l < legacyNames.length; l++) {
        tests[tests.length] = { name: legacyNames[l], passed: !!legacy[legacyNames[l]], durationMs: 0 };
      }
      copy.tests = tests;
    }
    return stringify(copy);
  }
  var globalsText = mapText(out.globals), variablesText = mapText(out.requestVariables);
  if (!globalsText && !variablesText && !out.tests.length && !out.logs.length) return "";
  var text = '{"globals":{' + globalsText + '},"requestVariables":{' + variablesText + '},"tests":[';
  for (var i = 0; i < out.tests.length; i++) {
    var t = out.tests[i];
    text += (i ? "," : "") + '{"name":' + stringify(t.name) + ',"passed":' + (t.passed ? "true" : "false") +
      (t.message === undefined ? "" : ',"message":' + stringify(t.message)) + (t.error ? ',"error":true' : "") +
      ',"durationMs":' + t.durationMs + "}";
  }
  text += '],"logs":[';
  for (var j = 0; j < out.logs.length; j++) text += (j ? "," : "") + stringify(out.logs[j]);
  return text + "]}";
}
/* The members of a map of names to strings (or null), as JSON without the braces. */
function mapText(values) {
  var text = "", names = keys(values);
  for (var i = 0; i < names.length; i++) {
    var name = names[i], value = values[name];
    text += (text ? "," : "") + stringify(name) + ":" + (value === null ? "null" : stringify(value));
  }
  return text;
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
var globals = null;
var requestVariables = null;
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
  if (globals) globals[name] = v;
  out.globals[name] = v;
}
/*
 * client.global reads the run's values under what the script set (out.globals); a Postman
 * script's are one object its API shares (globals), changed in place.
 */
function storeGet(name) {
  if (globals) return hasOwn(globals, name) ? globals[name] : null;
  if (hasOwn(out.globals, name)) return out.globals[name];
  var run = input.globals;
  return hasOwn(run, name) ? run[name] : null;
}
function storeIsEmpty() {
  if (globals) return Object.keys(globals).length === 0;
  var set = out.globals, run = input.globals;
  for (var name in set) if (set[name] !== null) return false;
  for (var known in run) if (hasOwn(run, known) && !hasOwn(set, known)) return false;
  return true;
}
function storeClear(name) { if (globals) delete globals[name]; out.globals[name] = null; }
function storeClearAll() {
  Object.keys(globals || input.globals).forEach(function (name) { out.globals[name] = null; });
  Object.keys(out.globals).forEach(function (name) { out.globals[name] = null; });
  if (globals) globals = {};
}
function environmentGet(name) { return hasOwn(input.environment, name) ? input.environment[name] : null; }
function fileGet(name) { return hasOwn(input.file, name) ? input.file[name] : null; }
function requestVariableGet(name) {
  if (requestVariables) return hasOwn(requestVariables, name) ? requestVariables[name] : null;
  if (hasOwn(out.requestVariables, name)) return out.requestVariables[name];
  var run = input.requestVariables;
  return hasOwn(run, name) ? run[name] : null;
}
function requestVariableSet(name, value) {
  var v = typeof value === "string" ? value : stringify(value);
  if (requestVariables) requestVariables[name] = v;
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
/* A global of the script's API, defined (not assigned: no setter a script left runs). */
function setGlobal(name, value) {
  defineProperty(globalThis, name, { value: value, writable: true, enumerable: true, configurable: true });
}
/* The globals of the API a script read or assigned (made its own): set afresh for the next script. */
var touched = {};
function lazyGlobal(name, make) {
  function value(v) {
    touched[name] = true;
    defineProperty(globalThis, name, { value: v, writable: true, enumerable: true, configurable: true });
    return v;
  }
  return { get: function () { return value(make()); }, set: value, enumerable: true, configurable: true };
}
/* A lazy global for the next script: defined again only when the last script made it its own. */
function renewLazy(name, descriptor) {
  if (touched[name] !== false || !(name in globalThis)) {
    defineProperty(globalThis, name, descriptor);
    touched[name] = false;
  }
}
/* A function of the API as a global: defined again only when a script replaced it. */
function renewGlobal(name, value) {
  if (globalThis[name] !== value) setGlobal(name, value);
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
/*
 * The running script's input: exec gets the response's status, media type, charset and body as
 * they are and whether there is a request. A JetBrains script's other parts (PART_NAMES) are
 * JSON texts the host gives when the script first reads them (hostInput), most scripts reading
 * few of them; each is parsed then and kept while its text stays the same (the API only reads
 * them). A Postman script, whose API changes them in place, gets them all afresh as one JSON
 * text with exec (postmanText).
 */
var PART_NAMES = ["globals", "requestVariables", "environment", "file", "request", "responseHeaders"];
var HEADERS_PART = 5;
var partTexts = [];
var partValues = [];
/* The script that last read each part (partRead[i] === scriptCount: this script's is known). */
var partRead = [];
var scriptCount = 0;
var postmanText = "";
var status = null, mimeType = "", charset = "", bodyText = "", responseNow = null;
function partText(i) {
  if (partRead[i] !== scriptCount) {
    var text = hostInput(i);
    if (text !== partTexts[i]) {
      partTexts[i] = text;
      partValues[i] = undefined;
    }
    partRead[i] = scriptCount;
  }
  return partTexts[i];
}
function inputPart(i) {
  var text = partText(i), value = partValues[i];
  if (value === undefined) value = partValues[i] = text === "" ? null : parse(text);
  return value;
}
/* A JetBrains script's input: its parts parsed on first read. */
var lazyInput = {};
PART_NAMES.forEach(function (name, i) {
  if (i < HEADERS_PART) defineProperty(lazyInput, name, { get: function () { return inputPart(i); } });
});
defineProperty(lazyInput, "response", {
  get: function () {
    return responseNow || (responseNow = {
      status: status, headers: inputPart(HEADERS_PART), mimeType: mimeType, charset: charset, body: bodyText,
    });
  },
});
/* A Postman script's input: every part parsed afresh. */
function freshInput() {
  var given = parse(postmanText), fresh = given.input;
  if (status !== null) {
    fresh.response = { status: status, headers: given.headers, mimeType: mimeType, charset: charset, body: bodyText };
  }
  return fresh;
}
var JSON_TYPE = /^application\/([\w.+-]+\+)?json/i;
var jsonType = { mimeType: null, json: false };
/* Whether the response's media type is JSON (the last answer kept: most are the same). */
function isJson(type) {
  if (jsonType.mimeType !== type) {
    jsonType.mimeType = type;
    jsonType.json = JSON_TYPE.test(type);
  }
  return jsonType.json;
}
/*
 * The script's response: its body parsed (JSON) or as text when the script first reads it (a
 * data property from then on; a frozen response keeps the accessor, which gives the same value).
 */
function scriptResponse(text) {
  var made = false, body, type = mimeType;
  function keep(object, value) {
    made = true;
    body = value;
    try {
      defineProperty(object, "body", { value: value, writable: true, enumerable: true, configurable: true });
    } catch (ignored) {
      /* Frozen. */
    }
    return value;
  }
  return {
    status: status,
    get body() {
      if (made) return body;
      var value = text;
      if (isJson(type)) {
        try { value = parse(text); } catch (ignored) { value = text; }
      }
      return keep(this, value);
    },
    set body(value) { keep(this, value); },
    headers: headerList(responseHeaders),
    contentType: { mimeType: mimeType, charset: charset },
  };
}
function setup(responseStatus, responseType, responseCharset, body, hasRequest, postmanInput) {
  status = responseStatus;
  mimeType = responseType;
  charset = responseCharset;
  bodyText = body;
  responseNow = null;
  scriptCount++;
  postmanText = postmanInput;
  var postman = postmanText !== "";
  input = postman ? freshInput() : lazyInput;
  /* Only Postman's API sets the environment; only a script that queued for the host leaves any. */
  out = postman
    ? { globals: {}, requestVariables: {}, tests: [], logs: [], environment: {} }
    : { globals: {}, requestVariables: {}, tests: [], logs: [] };
  if (sends.used) {
    sends.queue = [];
    sends.waiting = {};
    sends.count = 0;
    sends.used = false;
  }
  globals = postman ? input.globals : null;
  requestVariables = postman ? input.requestVariables : null;
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
  if (hasRequest) defineProperty(globalThis, "request", LAZY_REQUEST);
  if (status !== null) setGlobal("response", scriptResponse(bodyText));
  setGlobal("client", client);
  renewLazy("console", LAZY_CONSOLE);
  renewLazy("crypto", LAZY_CRYPTO);
  renewGlobal("jsonPath", jsonPath);
  renewGlobal("btoa", btoa);
  renewGlobal("atob", atob);
  renewLazy("Window", LAZY_WINDOW);
  /* A Postman script keeps what does not change (installStatics); another script sees none of it. */
  if (postmanInstalled) {
    POSTMAN_GLOBALS.forEach(function (name) {
      if (!postman || POSTMAN_STATICS.indexOf(name) < 0) delete globalThis[name];
    });
  }
  if (!postman) postmanStatics = false;
  postmanInstalled = postman;
  if (!postman) renewGlobal("require", nodeModule);
  if (postman) {
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
/*
 * Runs one script: its setup, the script (a function compiled by the host), and what it did
 * (take), in one call from the host. Answers "#" when the setup failed (an earlier script broke
 * what it needs; nothing of the script ran), "!" and describe's text when the script threw, "?"
 * when a pm.sendRequest is waiting (the host answers it, then takes), else take's text.
 */
var stage = "";
function exec(fn, responseStatus, responseType, responseCharset, body, hasRequest, postmanInput) {
  stage = "setup";
  try {
    setup(responseStatus, responseType, responseCharset, body, hasRequest, postmanInput);
  } catch (ignored) {
    return "#";
  }
  stage = "script";
  try {
    fn();
  } catch (error) {
    try {
      return "!" + describe(error);
    } catch (ignored) {
      return "!";
    }
  }
  stage = "take";
  return sends.queue.length ? "?" : take();
}
/*
 * Lets go of the last script's input (the host calls it before compiling a script after one
 * given a large body): the memory is the next compile's, and nothing of that script runs again.
 */
function release() {
  try {
    delete globalThis.response;
    delete globalThis.request;
  } catch (ignored) {
    /* A script made them its own: the next setup fails and the host starts afresh. */
  }
  status = null;
  bodyText = "";
  responseNow = null;
  postmanText = "";
  partTexts = [];
  partValues = [];
  partRead = [];
  markupCache = null;
  return "";
}
/* Where exec was when something escaped it (the host asks after an interrupt). */
function stageNow() { return stage; }
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
var sends = { queue: [], waiting: {}, count: 0, used: false, respond: null };
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
  if (answer.waited) callback();
  else if (answer.error !== undefined) callback(new Error(answer.error), null);
  else callback(null, sends.respond(answer.response));
  return "";
}
/*
 * httpyac's sleep(ms): a promise dial resolves once the time has passed (the host waits between
 * the script's jobs, as it answers pm.sendRequest).
 */
var sleeps = 0;
function sleep(ms) {
  return new Promise(function (resolve) {
    var id = "sleep" + ++sleeps;
    sends.used = true;
    sends.waiting[id] = resolve;
    sends.queue.push({ id: id, wait: Number(ms) || 0 });
  });
}
Object.defineProperty(globalThis, "__dialSleep", { value: sleep, configurable: true });
/*
 * httpyac's parsedBody of an XML or HTML response (httpyac_script.ts): the DOM Document that
 * @xmldom/xmldom's DOMParser makes of the body, as httpyac makes it, made when a script first
 * reads it (the library evaluated then, once per context; its text offered by the host before
 * a script with such a response runs). One document per exchange, as httpyac has one: the
 * "?? js" lines and blocks of a response (and NAMEResponse after it) share the last one made,
 * until another exchange's is made or the host lets the last script's input go (release). A
 * body xmldom refuses is undefined, as in httpyac. The host is told while the library loads and
 * the body is parsed, so that a body too large for the script's time or memory fails with an
 * error that says so.
 */
var markupCache = null;
function markupDocument(text, mimeType, exchange) {
  if (markupCache && markupCache.exchange === exchange) return markupCache.document;
  markupCache = null;
  hostMarkup(text.length, mimeType);
  var xmldom = library("xmldom", "@xmldom/xmldom"), document;
  try {
    document = new xmldom.DOMParser({ onError: function () {} }).parseFromString(text, mimeType);
  } catch (error) {
    /* The engine's own failures (no memory, a stack overflow) are not xmldom's refusal. */
    if (error === null || (error && error.name === "InternalError")) throw error;
    document = undefined;
  }
  hostMarkup(0, "");
  markupCache = { exchange: exchange, document: document };
  return document;
}
/* target[key] is the document, made when first read (a response's parsedBody, a block's NAME). */
function lazyDocument(target, key, text, mimeType, exchange) {
  function own(value) {
    defineProperty(target, key, { value: value, writable: true, enumerable: true, configurable: true });
  }
  defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: function () {
      var document = markupDocument(text, mimeType, exchange);
      own(document);
      return document;
    },
    set: own
  });
}
/*
 * httpyac's response in the sandbox (httpyac_script.ts's code calls it): the meta the host sent,
 * the body's text, parsedBody (the JSON body parsed; an XML or HTML body's DOM document, made
 * when a script first reads it).
 */
function httpyacResponse(meta, text) {
  if (!meta) return undefined;
  var json = meta.json, markup = meta.markup;
  delete meta.json;
  delete meta.markup;
  meta.body = text;
  try { meta.parsedBody = json && text ? parse(text) : undefined; } catch (ignored) {}
  if (markup && text) lazyDocument(meta, "parsedBody", text, markup.type, markup.exchange);
  return meta;
}
/*
 * A block's variable NAME of a named request of an XML or HTML body: its document, as httpyac's
 * NAME is the response's parsedBody; NAMEResponse: its parsedBody, as above. Sets it in the
 * block's context; false for any other variable.
 */
function httpyacVariable(context, name, value) {
  if (!value || typeof value !== "object") return false;
  var markup = value.__dialDocument;
  if (markup) {
    lazyDocument(context, name, value.body, markup.type, markup.exchange);
    return true;
  }
  markup = value.__dialMarkup;
  if (!markup) return false;
  delete value.__dialMarkup;
  lazyDocument(value, "parsedBody", value.body, markup.type, markup.exchange);
  context[name] = value;
  return true;
}
/* An expression's variable (as above): NAME of an XML or HTML response is its document. */
function httpyacValue(value) {
  var markup = value && typeof value === "object" && value.__dialDocument;
  return markup ? markupDocument(value.body, markup.type, markup.exchange) : value;
}
/* A "?? js" expression's answer: a value JSON cannot write (a DOM node, whose nodes refer to each other) is its text. */
function httpyacOutput(value, values) {
  try {
    return stringify({ value: value, values: values });
  } catch (ignored) {
    return stringify({ value: toString(value), text: true, values: values });
  }
}
/* A block's require("@xmldom/xmldom") or require("xpath"), as httpyac's require gives them. */
function httpyacLibrary(name) {
  return library(name, name === "xmldom" ? "@xmldom/xmldom" : name);
}
[["__dialResponse", httpyacResponse], ["__dialHttpyacVariable", httpyacVariable],
  ["__dialHttpyacOutput", httpyacOutput], ["__dialHttpyacLibrary", httpyacLibrary],
  ["__dialHttpyacValue", httpyacValue]].forEach(function (entry) {
  Object.defineProperty(globalThis, entry[0], { value: entry[1], configurable: true });
});
var POSTMAN_STATICS = ["_", "CryptoJS", "tv4", "cheerio", "xml2Json", "require", "setTimeout", "Ajv",
  "Buffer"];
var POSTMAN_GLOBALS = ["pm", "postman", "tests", "responseBody", "responseCode", "responseHeaders",
  "responseTime", "responseCookies", "environment", "globals", "data", "iteration", "_", "CryptoJS",
  "tv4", "cheerio", "xml2Json", "moment", "require", "setTimeout", "Ajv", "Buffer"];
`;

const PRELUDE_END = String.raw`
return { exec: exec, stage: stageNow, release: release, take: take, describe: describe, pending: pending, settle: settle, preload: preload };
})
`;

/**
 * A script's input as the prelude's `exec` takes it: the response's status (null: none), media
 * type, charset and body, whether there is a request (1 or 0), and for a Postman script its
 * other parts as one JSON text ("" for another script, whose parts the prelude asks for as the
 * script reads them: {@link inputPart}).
 *
 * @param input what the script sees
 * @returns the arguments after the script's function
 */
export function inputArguments(
  input: ScriptInput,
): [number | null, string, string, string, number, string] {
  const response = input.response;
  return [
    response ? response.status : null,
    response?.mimeType ?? "",
    response?.charset ?? "",
    response?.body ?? "",
    input.request ? 1 : 0,
    input.postman ? postmanInput(input, input.postman) : "",
  ];
}

/** A Postman script's input but the response's status, type and body, as one JSON text. */
function postmanInput(input: ScriptInput, postman: PostmanInput): string {
  const { globals, requestVariables, environment, file, request } = input;
  return JSON.stringify({
    input: {
      globals,
      requestVariables,
      environment,
      file,
      ...(request ? { request } : {}),
      postman,
    },
    headers: input.response?.headers ?? [],
  });
}

/**
 * A part of a script's input as JSON text, when the script first reads it: 0 the globals, 1 the
 * request variables, 2 the environment, 3 the file variables, 4 the request ("" for none), 5 the
 * response's headers.
 *
 * @param input what the script sees
 * @param part which part
 * @returns its JSON text, or undefined for another number
 */
export function inputPart(input: ScriptInput, part: number): string | undefined {
  switch (part) {
    case 0:
      return JSON.stringify(input.globals);
    case 1:
      return JSON.stringify(input.requestVariables);
    case 2:
      return JSON.stringify(input.environment);
    case 3:
      return JSON.stringify(input.file);
    case 4:
      return input.request ? JSON.stringify(input.request) : "";
    case 5:
      return JSON.stringify(input.response?.headers ?? []);
  }
  return undefined;
}

/** What a script receives ({@link inputArguments}, and {@link inputPart} as the prelude reads it). */
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
