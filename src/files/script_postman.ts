/**
 * Postman's script API, for the scripts of requests marked `# @postman`: `pm` (tests, chai-style
 * `pm.expect`, the response, the variable scopes, the request, info, iteration data, execution
 * control), `postman` and the legacy globals (`tests[…]`, `responseBody`, `responseCode` …), as
 * dial's own JavaScript in the sandbox's prelude. `pm.sendRequest` queues its request for the
 * host, which sends it by the runner's rule (script_send.ts) and calls back. What a Postman script
 * does that dial cannot (`pm.cookies`, CryptoJS's ciphers …) fails with a message that names it.
 * @module
 */

/**
 * JavaScript evaluated inside the prelude's function: defines `installPostman(input, out, api)`,
 * which `setup` calls for a Postman script. `api` gives the prelude's helpers (`log`,
 * `AssertionError`, `sends`). The API is built once per context (`buildPostman`) and reads the
 * running script's state (`S`); a script gets a fresh `pm` over it and fresh legacy values.
 */
export const POSTMAN_API = String.raw`
var REASONS = { 100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
  203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
  300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
  307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
  402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
  406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
  410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large",
  414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
  417: "Expectation Failed", 418: "I'm a teapot", 422: "Unprocessable Entity", 423: "Locked",
  425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
  431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
  500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
  504: "Gateway Timeout", 505: "HTTP Version Not Supported" };

/* chai's way of showing a value in a message: 'text', [ 1, 2 ], { a: 1 }. */
function inspect(value, depth) {
  depth = depth === undefined ? 0 : depth;
  if (typeof value === "string") return "'" + value.replace(/'/g, "\\'") + "'";
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "number") return value === 0 && 1 / value < 0 ? "-0" : toString(value);
  if (typeof value === "function") return "[Function" + (value.name ? " " + value.name : "") + "]";
  if (typeof value !== "object") return toString(value);
  if (value instanceof RegExp) return toString(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Error) return "[" + (value.name || "Error") + ": " + value.message + "]";
  if (Array.isArray(value)) {
    if (depth > 1) return "[Array]";
    if (value.length === 0) return "[]";
    return "[ " + value.map(function (v) { return inspect(v, depth + 1); }).join(", ") + " ]";
  }
  if (value.__pmResponse) return "response";
  if (depth > 1) return "[Object]";
  var keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  return "{ " + keys.map(function (k) {
    return (/^[A-Za-z_$][\w$]*$/.test(k) ? k : "'" + k + "'") + ": " + inspect(value[k], depth + 1);
  }).join(", ") + " }";
}

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof RegExp) return "regexp";
  if (value instanceof Date) return "date";
  if (value instanceof Error) return "error";
  if (typeof Promise !== "undefined" && value instanceof Promise) return "promise";
  if (typeof Map !== "undefined" && value instanceof Map) return "map";
  if (typeof Set !== "undefined" && value instanceof Set) return "set";
  return typeof value;
}

function deepEqual(a, b) {
  if (a === b) return a !== 0 || 1 / a === 1 / b;
  if (typeof a === "number" && typeof b === "number") return a !== a && b !== b;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp) return toString(a) === toString(b);
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  var ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (var j = 0; j < ka.length; j++) {
    if (!Object.prototype.hasOwnProperty.call(b, ka[j]) || !deepEqual(a[ka[j]], b[ka[j]])) return false;
  }
  return true;
}

function lengthOf(value) {
  if (value === null || value === undefined) return undefined;
  if (typeof Map !== "undefined" && (value instanceof Map || value instanceof Set)) return value.size;
  return value.length;
}

/* A name that Postman's sandbox has and dial's does not: using it fails with a clear message. */
function unavailable(what, why) {
  var thrower = function () { throw new Error(what + " is not available in dial's script sandbox" + (why ? " (" + why + ")" : "")); };
  if (typeof Proxy === "undefined") return thrower;
  return new Proxy(thrower, { get: function (t, p) { if (typeof p === "symbol") return undefined; thrower(); } });
}

/*
 * The larger parts of the API (chai's expect, the JSON Schema check, CryptoJS, Buffer, the reader
 * of pm.sendRequest's argument) are compiled in a context when a script first uses one: most
 * scripts use none, and each file's context would compile them all. Their text comes from the
 * host (dial's own, POSTMAN_PARTS); they see the prelude's helpers as parameters.
 */
var parts = {};
function part(name) {
  if (Object.prototype.hasOwnProperty.call(parts, name)) return parts[name];
  var text = hostPart(name);
  if (typeof text !== "string") throw new Error("dial's script sandbox has no " + name);
  var made = FunctionCtor("parse", "stringify", "toString", "inspect", "typeOf", "deepEqual",
    "lengthOf", "schemaErrors", "unavailable", "hostDigest", "hexBinary", "textHex", "checkedHex",
    "base64Hex", "hexBase64", "btoa", "atob", "btoaUtf8",
    "\"use strict\";\n" + text + "\nreturn " + name + ";")(parse, stringify, toString, inspect,
    typeOf, deepEqual, lengthOf, schemaErrors, unavailable, hostDigest, hexBinary, textHex,
    checkedHex, base64Hex, hexBase64, btoa, atob, btoaUtf8);
  parts[name] = made;
  return made;
}
function schemaErrors(data, schema) { return part("schemaErrors")(data, schema); }

/* What dial's sandbox does not have, made once per context. */
var MISSING = {
  responseCookies: unavailable("pm.response.cookies"),
  cookies: unavailable("pm.cookies"),
  vault: unavailable("pm.vault"),
  responseCookie: unavailable("postman.getResponseCookie"),
};

/*
 * chai's expect, compiled and made when a context's first script asks for it, then kept for its
 * scripts (it holds no script's state: api's AssertionError is pure).
 */
var madeExpect = null;
var expectApi = null;
function expectOf() { return madeExpect || (madeExpect = part("makeExpect")(expectApi)); }
function expect(object, message) { return expectOf()(object, message); }
expect.fail = function (message) { return expectOf().fail(message); };

/* pm.sendRequest: at most this many requests per script. */
var MAX_SENDS = 50;

function btoaUtf8(text) {
  return btoa(unescape(encodeURIComponent(text)));
}

/*
 * What Postman's sandbox has that does not change from one script to the next: tv4, require (and
 * CryptoJS and Buffer, made when first named), _ and the names dial does not have. Installed
 * once in a context and kept while its scripts are Postman's; a script may replace them, and
 * the file's later scripts then see that, as in Newman's one sandbox.
 *
 * @returns require
 */
var postmanRequire = null;
function installStatics() {
  var hasOwn = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
  var tv4 = {
    error: null,
    validate: function (value, schema) {
      var errors = schemaErrors(value, schema);
      tv4.error = errors.length ? { message: errors[0] } : null;
      return errors.length === 0;
    },
    validateResult: function (value, schema) {
      var valid = tv4.validate(value, schema);
      return { valid: valid, error: tv4.error, missing: [] };
    },
  };
  Object.defineProperty(globalThis, "tv4", { configurable: true, writable: true, value: tv4 });
  /* require: the few modules dial has; any other fails naming it. */
  var modules = {
    "postman-collection": {
      Property: {
        replaceSubstitutions: function (text, values) {
          var source = values && typeof values.toObject === "function" ? values.toObject() : values || {};
          return toString(text).replace(/\{\{([^{}]+)\}\}/g, function (whole, key) {
            if (key.charAt(0) === "$") { var made = hostDynamic(key); return made === undefined ? whole : made; }
            return hasOwn(source, key) && source[key] !== undefined ? toString(source[key]) : whole;
          });
        },
      },
    },
  };
  var LIBRARY_MODULES = { lodash: "lodash", moment: "moment" };
  var requireModule = function (name) {
    if (toString(name) === "crypto-js") return cryptoOf();
    if (hasOwn(modules, toString(name))) return modules[toString(name)];
    if (hasOwn(LIBRARY_MODULES, toString(name))) return library(LIBRARY_MODULES[toString(name)], "require(\"" + toString(name) + "\")");
    throw new Error("require(\"" + toString(name) + "\") is not available in dial's script sandbox");
  };
  Object.defineProperty(globalThis, "require", { configurable: true, writable: true, value: requireModule });
  /* CryptoJS and Buffer, made when a script first names them (a script may replace them). */
  var madeCrypto = null;
  var cryptoOf = function () { return madeCrypto || (madeCrypto = part("cryptoJs")()); };
  var lazyGlobal = function (key, make) {
    var put = function (value) {
      Object.defineProperty(globalThis, key, { configurable: true, writable: true, value: value });
      return value;
    };
    Object.defineProperty(globalThis, key, {
      configurable: true,
      get: function () { return put(make()); },
      set: put,
    });
  };
  lazyGlobal("CryptoJS", cryptoOf);
  lazyGlobal("Buffer", function () { return part("makeBuffer")(); });
  /* Postman's deprecated _ is lodash 3, as in Newman 6 (require("lodash") is lodash 4). */
  Object.defineProperty(globalThis, "_", {
    configurable: true,
    get: function () { return library("lodash3", "lodash (_)"); },
  });
  /* moment has no global in Postman's sandbox (require("moment")). */
  ["cheerio", "xml2Json", "setTimeout", "Ajv"].forEach(function (what) {
    var value = unavailable(what);
    Object.defineProperty(globalThis, what, { configurable: true, get: function () { return value; } });
  });
  return requireModule;
}

/*
 * Postman's API is built once per context (postmanApi) and reads the running script's state
 * from S, which installPostman sets before each script: the script's own objects are only pm
 * (a fresh object over the shared parts), tests, and the legacy globals' values.
 */
var S = null;
var postmanApi = null;

function installPostman(input, out, api) {
  expectApi = expectApi || api;
  var pm0 = input.postman;
  var environment = {};
  for (var name in input.environment) environment[name] = input.environment[name];
  /* Values keep their types, as in Postman: the run keeps each as the text a {{name}} becomes
     (Newman's: "5", "true", "[object Object]", "1,2", and "null" for null or undefined) and, for
     a value that is not a string, its JSON (pm0.typed, out.typed) for get() to give back. */
  var typed = pm0.typed || {};
  out.typed = { globals: {}, environment: {}, local: {}, postmanGlobals: {} };
  out.postmanGlobals = {};
  S = {
    out: out,
    pm0: pm0,
    requestVariables: input.requestVariables,
    /* The run's collection variables that scripts set (client.global); Postman's own globals
       (a globals file, pm.globals) are a scope below the collection's, as in Newman. */
    globals: input.globals,
    postmanGlobals: pm0.globals || {},
    environment: environment,
    removed: {},
    fileValues: input.file,
    data: pm0.iterationData || {},
    req: input.request,
    res: input.response,
    request: undefined,
    response: undefined,
  };
  retype(environment, typed.environment);
  retype(S.globals, typed.globals);
  retype(S.postmanGlobals, typed.postmanGlobals);
  retype(S.requestVariables, typed.local);
  var A = postmanApi || (postmanApi = buildPostman(api));
  var pm = {
    test: A.test,
    expect: expect,
    environment: A.env,
    collectionVariables: A.collection,
    globals: A.glob,
    variables: A.variables,
    iterationData: A.iteration,
    info: {
      eventName: S.res ? "test" : "prerequest",
      iteration: pm0.iteration || 0,
      iterationCount: pm0.iterationCount || 1,
      requestName: pm0.requestName,
      requestId: pm0.requestId,
    },
    execution: A.execution,
    sendRequest: A.sendRequest,
    cookies: MISSING.cookies,
    visualizer: A.visualizer,
    vault: MISSING.vault,
  };
  /* The request and the response are made when a script first reads them. */
  Object.defineProperty(pm, "request", { enumerable: true, configurable: true, get: A.requestOf });
  Object.defineProperty(pm, "response", { enumerable: true, configurable: true, get: A.responseNow });
  if (typeof Proxy !== "undefined") {
    pm = new Proxy(pm, {
      get: function (target, property) {
        if (typeof property === "symbol" || property in target) return target[property];
        if (property === "toJSON" || property === "then") return undefined;
        throw new Error("pm." + toString(property) + " is not supported by dial");
      },
    });
  }
  globalThis.pm = pm;

  /* The legacy API. */
  var tests = {};
  out.legacyTests = tests;
  globalThis.tests = tests;
  globalThis.postman = A.postman;
  globalThis.environment = A.env.toObject();
  globalThis.globals = A.glob.toObject();
  globalThis.data = A.iteration.toObject();
  globalThis.iteration = pm0.iteration || 0;
  var req = S.req;
  if (req) {
    var legacyHeaders = {};
    req.headers.forEach(function (h) { legacyHeaders[h[0].toLowerCase()] = h[1]; });
    globalThis.request = { url: req.url, method: req.method, headers: legacyHeaders, data: req.body === "" ? {} : req.body, name: pm0.requestName, id: pm0.requestId };
  }
  var res = S.res;
  if (res) {
    globalThis.responseBody = res.body;
    globalThis.responseCode = { code: res.status, name: REASONS[res.status] || "", detail: REASONS[res.status] || "" };
    var legacyResponseHeaders = {};
    res.headers.forEach(function (h) { legacyResponseHeaders[h[0]] = h[1]; });
    globalThis.responseHeaders = legacyResponseHeaders;
    globalThis.responseTime = pm0.responseTime || 0;
    globalThis.responseCookies = [];
  }
  /* What does not change from one script to the next: once per context (installStatics). */
  if (!postmanStatics) {
    /* The legacy sandbox's responseBody.has("text"). */
    if (!String.prototype.has) {
      Object.defineProperty(String.prototype, "has", {
        configurable: true,
        writable: true,
        value: function (part) { return this.indexOf(part) !== -1; },
      });
    }
    postmanRequire = installStatics();
    postmanStatics = true;
  }
  pm.require = postmanRequire;
}

/* Own names only: a script may have put enumerable names on Object.prototype. */
function retype(values, types) {
  for (var key in types || {}) {
    if (hasOwn(types, key) && hasOwn(values, key)) values[key] = parse(types[key])[0];
  }
}

function textOf(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return value;
  try { return toString(value); } catch (ignored) { return "[object Object]"; }
}

function typeOfValue(value) {
  if (typeof value === "string") return null;
  /* Across scripts undefined is null, as Newman hands values on as JSON. */
  try { return stringify([value]); } catch (ignored) { return stringify([textOf(value)]); }
}

function scopeObject(read, write, remove, names, label) {
  return {
    get: function (key) { return read(toString(key)); },
    has: function (key) { return read(toString(key)) !== undefined; },
    set: function (key, value) { write(toString(key), value); },
    unset: function (key) { remove(toString(key)); },
    clear: function () { names().forEach(remove); },
    toObject: function () {
      var o = {};
      names().forEach(function (k) { var v = read(k); if (v !== undefined) o[k] = v; });
      return o;
    },
    toJSON: function () { return this.toObject(); },
    replaceIn: replaceIn,
    name: label,
  };
}

function replaceIn(template) {
  if (typeof template !== "string") return template;
  return template.replace(/\{\{([^{}]+)\}\}/g, function (whole, key) {
    if (key.charAt(0) === "$") {
      var made = hostDynamic(key);
      return made === undefined ? whole : made;
    }
    var value = postmanApi.variables.get(key);
    if (value !== undefined) return textOf(value);
    /* A variable set to undefined is "" (Newman); one nothing defines stays as written. */
    return defined(key) ? "" : whole;
  });
}

function defined(key) {
  return hasOwn(S.requestVariables, key) || hasOwn(S.data, key) || hasOwn(S.globals, key) ||
    hasOwn(S.fileValues, key) || hasOwn(S.postmanGlobals, key) ||
    (hasOwn(S.environment, key) && !hasOwn(S.removed, key));
}

function headerObject(list) {
  var find = function (key) {
    var lower = toString(key).toLowerCase();
    for (var i = list.length - 1; i >= 0; i--) if (list[i][0].toLowerCase() === lower) return list[i][1];
    return undefined;
  };
  return {
    get: find,
    has: function (key, value) {
      var v = find(key);
      return arguments.length > 1 ? v === value : v !== undefined;
    },
    one: function (key) { var v = find(key); return v === undefined ? undefined : { key: key, value: v }; },
    all: function () { return list.map(function (h) { return { key: h[0], value: h[1] }; }); },
    toObject: function () { var o = {}; list.forEach(function (h) { o[h[0]] = h[1]; }); return o; },
    each: function (fn) { list.forEach(function (h) { fn({ key: h[0], value: h[1] }); }); },
    count: function () { return list.length; },
    toJSON: function () { return this.all(); },
  };
}

/* A response as Postman's scripts see one: pm.response, and pm.sendRequest's answers. */
function responseOf(res, responseTime) {
  var response = {
    __pmResponse: true,
    code: res.status,
    status: REASONS[res.status] || "",
    reason: function () { return REASONS[res.status] || ""; },
    headers: headerObject(res.headers),
    responseTime: responseTime,
    responseSize: res.body.length,
    text: function () { return res.body; },
    json: function () { return parse(res.body); },
    cookies: MISSING.responseCookies,
  };
  Object.defineProperty(response, "to", { get: function () { return expect(response).to; } });
  Object.defineProperty(response, "be", { get: function () { return expect(response).be; } });
  return response;
}

/* pm.request: the request as Postman's scripts see it (a pre-request script may edit its headers). */
function requestOf(req, out, prerequest) {
  var url = req.url;
  /* Postman parses a URL whose host is a {{variable}} too: host, then path and query. */
  var parsed = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#]*)([^?#]*)(\?[^#]*)?/i.exec(url) || [];
  var query = (parsed[4] || "").replace(/^\?/, "");
  var pmRequest = {
    method: req.method,
    url: {
      toString: function () { return url; },
      getHost: function () { return (parsed[2] || "").replace(/:\d+$/, ""); },
      getPath: function () { return parsed[3] || "/"; },
      getQueryString: function () { return query; },
      protocol: (parsed[1] || "").toLowerCase(),
      host: (parsed[2] || "").replace(/:\d+$/, "").split("."),
      path: (parsed[3] || "").split("/").filter(function (p) { return p !== ""; }),
      query: headerObject(query === "" ? [] : query.split("&").map(function (pair) {
        var at = pair.indexOf("=");
        return at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
      })),
    },
    headers: headerObject(req.headers),
    body: { mode: "raw", raw: req.body, toString: function () { return req.body; } },
    getHeaders: function () { var o = {}; req.headers.forEach(function (h) { o[h[0]] = h[1]; }); return o; },
  };
  if (!prerequest) return pmRequest;
  /* A pre-request script may change the headers to send (pm.request.headers.add …). */
  var edits = out.headerEdits = [];
  var list = req.headers;
  var entry = function (item, value) {
    if (typeof item === "string") return [item, value === undefined ? "" : toString(value)];
    if (item && item.key !== undefined) return [toString(item.key), item.value === undefined ? "" : toString(item.value)];
    throw new Error("pm.request.headers: give { key, value }");
  };
  var removeAll = function (key) {
    var lower = key.toLowerCase();
    for (var i = list.length - 1; i >= 0; i--) if (list[i][0].toLowerCase() === lower) list.splice(i, 1);
  };
  pmRequest.headers.add = function (item, value) {
    var h = entry(item, value);
    list.push(h);
    edits.push(["add", h[0], h[1]]);
  };
  pmRequest.headers.upsert = function (item, value) {
    var h = entry(item, value);
    removeAll(h[0]);
    list.push(h);
    edits.push(["upsert", h[0], h[1]]);
  };
  pmRequest.headers.remove = function (key) {
    var name = typeof key === "string" ? key : key && key.key !== undefined ? toString(key.key) : null;
    if (name === null) throw new Error("pm.request.headers.remove: give the header's name");
    removeAll(name);
    edits.push(["remove", name, ""]);
  };
  pmRequest.addHeader = pmRequest.headers.add;
  pmRequest.upsertHeader = pmRequest.headers.upsert;
  pmRequest.removeHeader = pmRequest.headers.remove;
  return pmRequest;
}

/* A script's write to one of S's scopes (environment, globals, postmanGlobals), as the host reads it. */
function setIn(scope, k, v) {
  S[scope][k] = v;
  S.out[scope][k] = textOf(v);
  S.out.typed[scope][k] = typeOfValue(v);
}
function unsetIn(scope, k) {
  delete S[scope][k];
  S.out[scope][k] = null;
  S.out.typed[scope][k] = null;
}

/* The parts of Postman's API that hold no script's state: they read it from S. */
function buildPostman(api) {
  var env = scopeObject(
    function (k) { return hasOwn(S.environment, k) && !hasOwn(S.removed, k) ? S.environment[k] : undefined; },
    function (k, v) {
      delete S.removed[k];
      setIn("environment", k, v);
    },
    function (k) {
      S.removed[k] = true;
      unsetIn("environment", k);
    },
    function () { return Object.keys(S.environment); },
  );
  /* pm.environment.name: the environment's, per script. */
  Object.defineProperty(env, "name", { enumerable: true, get: function () { return S.pm0.environmentName; } });
  /* Collection variables are the file's variables; what scripts set is run-wide (client.global). */
  var collection = scopeObject(
    function (k) {
      if (hasOwn(S.globals, k)) return S.globals[k];
      return hasOwn(S.fileValues, k) ? S.fileValues[k] : undefined;
    },
    function (k, v) { setIn("globals", k, v); },
    function (k) { unsetIn("globals", k); },
    function () { return Object.keys(S.fileValues).concat(Object.keys(S.globals)); },
  );
  var glob = scopeObject(
    function (k) { return hasOwn(S.postmanGlobals, k) ? S.postmanGlobals[k] : undefined; },
    function (k, v) { setIn("postmanGlobals", k, v); },
    function (k) { unsetIn("postmanGlobals", k); },
    function () { return Object.keys(S.postmanGlobals); },
  );
  var iteration = {
    get: function (k) { return hasOwn(S.data, k) ? S.data[k] : undefined; },
    has: function (k) { return hasOwn(S.data, k); },
    toObject: function () { var o = {}; for (var k in S.data) o[k] = S.data[k]; return o; },
    toJSON: function () { return this.toObject(); },
    unset: function (k) { delete S.data[k]; },
  };
  var variables = {
    get: function (k) {
      k = toString(k);
      if (hasOwn(S.requestVariables, k)) return S.requestVariables[k];
      if (hasOwn(S.data, k)) return S.data[k];
      var v = env.get(k);
      if (v !== undefined) return v;
      v = collection.get(k);
      return v !== undefined ? v : glob.get(k);
    },
    has: function (k) { return variables.get(k) !== undefined; },
    set: function (k, value) {
      S.requestVariables[toString(k)] = value;
      S.out.requestVariables[toString(k)] = textOf(value);
      S.out.typed.local[toString(k)] = typeOfValue(value);
    },
    unset: function (k) { delete S.requestVariables[toString(k)]; },
    toObject: function () {
      var o = glob.toObject();
      var c = collection.toObject();
      for (var n in c) o[n] = c[n];
      var e = env.toObject();
      for (var a in e) o[a] = e[a];
      for (var b in S.data) o[b] = S.data[b];
      for (var d in S.requestVariables) o[d] = S.requestVariables[d];
      return o;
    },
    replaceIn: replaceIn,
  };
  api.sends.respond = function (answer) { return responseOf(answer, answer.responseTime || 0); };
  function test(testName, fn) {
    /* Postman reports a test without a function as skipped, not passed. */
    if (typeof fn !== "function") return;
    var started = Date.now();
    var record = { name: toString(testName), passed: true, durationMs: 0 };
    try {
      fn();
    } catch (error) {
      record.passed = false;
      var message = error && error.message !== undefined ? toString(error.message) : toString(error);
      record.message = error && error.name && error.name !== "AssertionError" ? error.name + ": " + message : message;
      if (!(error && error.name === "AssertionError")) record.error = true;
    } finally {
      record.durationMs = Date.now() - started;
      S.out.tests.push(record);
    }
  }
  test.skip = function () {};
  var execution = {
    skipRequest: function () {
      if (S.res) throw new Error("pm.execution.skipRequest() works only in a pre-request script");
      S.out.skipRequest = true;
    },
    setNextRequest: function (next) { S.out.nextRequest = next === null || next === undefined ? null : toString(next); },
  };
  Object.defineProperty(execution, "location", { enumerable: true, get: function () { return [S.pm0.requestName]; } });
  var responseNow = function () {
    if (!S.res) return undefined;
    return S.response || (S.response = responseOf(S.res, S.pm0.responseTime || 0));
  };
  return {
    env: env,
    collection: collection,
    glob: glob,
    iteration: iteration,
    variables: variables,
    test: test,
    execution: execution,
    responseNow: responseNow,
    requestOf: function () {
      if (!S.req) return undefined;
      return S.request || (S.request = requestOf(S.req, S.out, !S.res));
    },
    sendRequest: function (request, callback) {
      var sends = api.sends;
      if (sends.count >= MAX_SENDS) throw new Error("pm.sendRequest: more than " + MAX_SENDS + " requests in one script");
      var id = ++sends.count;
      sends.used = true;
      sends.queue.push({ id: id, request: part("sendable")(request) });
      if (typeof callback === "function") {
        sends.waiting[id] = callback;
        return undefined;
      }
      return new Promise(function (resolve, reject) {
        sends.waiting[id] = function (error, response) { if (error) reject(error); else resolve(response); };
      });
    },
    visualizer: { set: function () {}, clear: function () {} },
    postman: {
      setNextRequest: execution.setNextRequest,
      setEnvironmentVariable: function (k, v) { env.set(k, v); },
      getEnvironmentVariable: function (k) { return env.get(k); },
      clearEnvironmentVariable: function (k) { env.unset(k); },
      clearEnvironmentVariables: function () { env.clear(); },
      setGlobalVariable: function (k, v) { glob.set(k, v); },
      getGlobalVariable: function (k) { return glob.get(k); },
      clearGlobalVariable: function (k) { glob.unset(k); },
      clearGlobalVariables: function () { glob.clear(); },
      getResponseHeader: function (k) { var r = responseNow(); return r ? r.headers.get(k) : undefined; },
      getResponseCookie: MISSING.responseCookie,
    },
  };
}
`;

/**
 * The parts of Postman's API a context compiles when a script first uses one (the prelude's
 * `part(name)`, the host's `part`): each the text of a function declaration of that name.
 */
export const POSTMAN_PARTS: Readonly<Record<string, string>> = {
  schemaErrors: String.raw`
/* JSON Schema (draft 4 to 7, the keywords collections use) for pm.response.to.have.jsonSchema
   and tv4.validate: the list of errors, empty when the data is valid. */
function schemaErrors(data, schema) {
  var errors = [];
  var root = schema;
  function resolve(ref) {
    if (ref.charAt(0) !== "#") throw new Error("JSON Schema: only local $ref is supported, not " + ref);
    var at = root;
    ref.slice(1).split("/").filter(function (p) { return p !== ""; }).forEach(function (part) {
      at = at === undefined ? undefined : at[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    });
    if (at === undefined) throw new Error("JSON Schema: cannot resolve " + ref);
    return at;
  }
  function kind(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
    return typeof value;
  }
  function visit(value, s, path) {
    if (s === true || s === undefined) return;
    if (s === false) { errors.push(path + " should not exist"); return; }
    if (s.$ref !== undefined) { visit(value, resolve(s.$ref), path); return; }
    var k = kind(value);
    if (s.type !== undefined) {
      var types = Array.isArray(s.type) ? s.type : [s.type];
      var ok = types.some(function (t) { return t === k || (t === "number" && k === "integer"); });
      if (!ok) { errors.push(path + " should be " + types.join(",")); return; }
    }
    if (s.enum !== undefined && !s.enum.some(function (e) { return deepEqual(e, value); })) {
      errors.push(path + " should be equal to one of the allowed values");
    }
    if (s.const !== undefined && !deepEqual(s.const, value)) errors.push(path + " should be equal to constant");
    if (k === "number" || k === "integer") {
      if (typeof s.minimum === "number" && (s.exclusiveMinimum === true ? value <= s.minimum : value < s.minimum)) errors.push(path + " should be " + (s.exclusiveMinimum === true ? ">" : ">=") + " " + s.minimum);
      if (typeof s.maximum === "number" && (s.exclusiveMaximum === true ? value >= s.maximum : value > s.maximum)) errors.push(path + " should be " + (s.exclusiveMaximum === true ? "<" : "<=") + " " + s.maximum);
      if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) errors.push(path + " should be > " + s.exclusiveMinimum);
      if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) errors.push(path + " should be < " + s.exclusiveMaximum);
      if (typeof s.multipleOf === "number" && Math.abs(value / s.multipleOf - Math.round(value / s.multipleOf)) > 1e-9) errors.push(path + " should be multiple of " + s.multipleOf);
    }
    if (k === "string") {
      var length = Array.from(value).length;
      if (typeof s.minLength === "number" && length < s.minLength) errors.push(path + " should NOT be shorter than " + s.minLength + " characters");
      if (typeof s.maxLength === "number" && length > s.maxLength) errors.push(path + " should NOT be longer than " + s.maxLength + " characters");
      if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) errors.push(path + " should match pattern \"" + s.pattern + "\"");
    }
    if (k === "array") {
      if (typeof s.minItems === "number" && value.length < s.minItems) errors.push(path + " should NOT have fewer than " + s.minItems + " items");
      if (typeof s.maxItems === "number" && value.length > s.maxItems) errors.push(path + " should NOT have more than " + s.maxItems + " items");
      if (s.uniqueItems === true) {
        for (var i = 0; i < value.length; i++) for (var j = i + 1; j < value.length; j++) {
          if (deepEqual(value[i], value[j])) { errors.push(path + " should NOT have duplicate items (items ## " + j + " and " + i + " are identical)"); i = value.length; break; }
        }
      }
      if (Array.isArray(s.items)) {
        value.forEach(function (item, n) {
          if (n < s.items.length) visit(item, s.items[n], path + "[" + n + "]");
          else if (s.additionalItems !== undefined) visit(item, s.additionalItems, path + "[" + n + "]");
        });
      } else if (s.items !== undefined) {
        value.forEach(function (item, n) { visit(item, s.items, path + "[" + n + "]"); });
      }
      if (s.contains !== undefined) {
        var some = value.some(function (item) { var before = errors.length; visit(item, s.contains, path); var fine = errors.length === before; errors.length = before; return fine; });
        if (!some) errors.push(path + " should contain a valid item");
      }
    }
    if (k === "object") {
      var keys = Object.keys(value);
      (s.required || []).forEach(function (name) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) errors.push(path + " should have required property '" + name + "'");
      });
      if (typeof s.minProperties === "number" && keys.length < s.minProperties) errors.push(path + " should NOT have fewer than " + s.minProperties + " properties");
      if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) errors.push(path + " should NOT have more than " + s.maxProperties + " properties");
      var properties = s.properties || {};
      var patterns = s.patternProperties || {};
      keys.forEach(function (name) {
        var matched = false;
        if (Object.prototype.hasOwnProperty.call(properties, name)) { matched = true; visit(value[name], properties[name], path + "." + name); }
        Object.keys(patterns).forEach(function (p) {
          if (new RegExp(p, "u").test(name)) { matched = true; visit(value[name], patterns[p], path + "." + name); }
        });
        if (!matched && s.additionalProperties !== undefined) {
          if (s.additionalProperties === false) errors.push(path + " should NOT have additional properties");
          else visit(value[name], s.additionalProperties, path + "." + name);
        }
      });
      if (s.dependencies) {
        Object.keys(s.dependencies).forEach(function (name) {
          if (!Object.prototype.hasOwnProperty.call(value, name)) return;
          var dep = s.dependencies[name];
          if (Array.isArray(dep)) dep.forEach(function (other) {
            if (!Object.prototype.hasOwnProperty.call(value, other)) errors.push(path + " should have property " + other + " when property " + name + " is present");
          });
          else visit(value, dep, path);
        });
      }
    }
    var count = function (list) {
      return list.filter(function (sub) { var before = errors.length; visit(value, sub, path); var fine = errors.length === before; errors.length = before; return fine; }).length;
    };
    if (Array.isArray(s.allOf)) s.allOf.forEach(function (sub) { visit(value, sub, path); });
    if (Array.isArray(s.anyOf) && count(s.anyOf) === 0) errors.push(path + " should match some schema in anyOf");
    if (Array.isArray(s.oneOf) && count(s.oneOf) !== 1) errors.push(path + " should match exactly one schema in oneOf");
    if (s.not !== undefined && count([s.not]) === 1) errors.push(path + " should NOT be valid");
    if (s.if !== undefined) {
      if (count([s.if]) === 1) { if (s.then !== undefined) visit(value, s.then, path); }
      else if (s.else !== undefined) visit(value, s.else, path);
    }
  }
  visit(data, schema, "data");
  return errors;
}
`,
  makeExpect: String.raw`
/* pm.expect: the chai BDD chains collections use, with chai's messages. */
function makeExpect(api) {
  var CHAINS = ["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of",
    "same", "but", "does", "still", "also"];
  function Assertion(object, message, flags) {
    this.__object = object;
    this.__message = message;
    this.__flags = flags || {};
  }
  function wrap(assertion) {
    if (typeof Proxy === "undefined") return assertion;
    return new Proxy(assertion, {
      get: function (target, property) {
        if (typeof property === "symbol" || property in target) return target[property];
        if (property === "then" || property === "toJSON" || property === "inspect") return undefined;
        throw new Error("pm.expect(…)." + toString(property) + " is not an assertion dial knows");
      },
    });
  }
  function derive(assertion, object, flags) {
    var f = {};
    for (var k in assertion.__flags) f[k] = assertion.__flags[k];
    for (var m in flags || {}) f[m] = flags[m];
    return wrap(new Assertion(object, assertion.__message, f));
  }
  var proto = Assertion.prototype;
  function fail(assertion, message) {
    var why = assertion.__message ? assertion.__message + ": " + message : message;
    throw api.AssertionError(why);
  }
  /* Checks cond; with "not" it must be false. */
  function check(assertion, cond, positive, negative) {
    if (assertion.__flags.negate ? cond : !cond) {
      fail(assertion, assertion.__flags.negate ? negative : positive);
    }
    return wrap(assertion);
  }
  function subject(a) {
    var object = a.__object;
    return a.__flags.length ? lengthOf(object) : object;
  }
  function shown(a) {
    return a.__flags.length ? inspect(a.__object) + " to have a length" : inspect(a.__object);
  }
  CHAINS.forEach(function (word) {
    Object.defineProperty(proto, word, { get: function () { return wrap(this); } });
  });
  function flag(name, value) {
    Object.defineProperty(proto, name, {
      get: function () { this.__flags[value || name] = true; return wrap(this); },
    });
  }
  flag("not", "negate");
  flag("deep");
  flag("own");
  flag("nested");
  flag("any");
  flag("all");
  flag("ordered");
  /* A word that is both a chain (to.include.members) and a method (to.include(x)). */
  function chainable(names, method, flags) {
    names.forEach(function (name) {
      Object.defineProperty(proto, name, {
        get: function () {
          var self = this;
          for (var k in flags) self.__flags[k] = flags[k];
          var f = function () { return method.apply(self, arguments); };
          Object.setPrototypeOf(f, wrap(self));
          return f;
        },
      });
    });
  }
  function method(names, fn) {
    names.forEach(function (name) {
      Object.defineProperty(proto, name, { value: function () { return fn.apply(this, arguments); } });
    });
  }
  function property(names, fn) {
    names.forEach(function (name) {
      Object.defineProperty(proto, name, { get: function () { return fn.call(this); } });
    });
  }
  function equal(expected) {
    var actual = subject(this);
    if (this.__flags.deep) {
      return check(this, deepEqual(actual, expected), "expected " + shown(this) + " to deeply equal " + inspect(expected), "expected " + shown(this) + " to not deeply equal " + inspect(expected));
    }
    return check(this, actual === expected, "expected " + shown(this) + " to equal " + inspect(expected), "expected " + shown(this) + " to not equal " + inspect(expected));
  }
  method(["equal", "equals", "eq"], equal);
  method(["eql", "eqls"], function (expected) {
    var actual = subject(this);
    return check(this, deepEqual(actual, expected), "expected " + shown(this) + " to deeply equal " + inspect(expected), "expected " + shown(this) + " to not deeply equal " + inspect(expected));
  });
  function compare(names, test, words) {
    method(names, function (n) {
      var actual = subject(this);
      if (this.__flags.length) {
        return check(this, test(actual, n), "expected " + inspect(this.__object) + " to have a length " + words + " " + inspect(n) + " but got " + inspect(actual), "expected " + inspect(this.__object) + " to not have a length " + words + " " + inspect(n));
      }
      return check(this, test(actual, n), "expected " + inspect(actual) + " to be " + words + " " + inspect(n), "expected " + inspect(actual) + " to be not " + words.replace("at ", "at ") + " " + inspect(n));
    });
  }
  compare(["above", "gt", "greaterThan"], function (a, n) { return a > n; }, "above");
  compare(["least", "gte", "greaterThanOrEqual"], function (a, n) { return a >= n; }, "at least");
  compare(["below", "lt", "lessThan"], function (a, n) { return a < n; }, "below");
  compare(["most", "lte", "lessThanOrEqual"], function (a, n) { return a <= n; }, "at most");
  method(["within"], function (low, high) {
    var actual = subject(this);
    return check(this, actual >= low && actual <= high, "expected " + shown(this) + " to be within " + low + ".." + high, "expected " + shown(this) + " to not be within " + low + ".." + high);
  });
  method(["closeTo", "approximately"], function (expected, delta) {
    var actual = this.__object;
    return check(this, Math.abs(actual - expected) <= delta, "expected " + inspect(actual) + " to be close to " + expected + " +/- " + delta, "expected " + inspect(actual) + " not to be close to " + expected + " +/- " + delta);
  });
  function typeCheck(type) {
    type = toString(type).toLowerCase();
    var article = /^[aeiou]/.test(type) ? "an " : "a ";
    var actual = this.__object;
    return check(this, typeOf(actual) === type, "expected " + inspect(actual) + " to be " + article + type, "expected " + inspect(actual) + " not to be " + article + type);
  }
  chainable(["a", "an"], typeCheck, {});
  function includes(expected) {
    var actual = this.__object;
    var deep = this.__flags.deep;
    var found;
    if (typeof actual === "string") found = actual.indexOf(toString(expected)) !== -1;
    else if (Array.isArray(actual)) {
      found = actual.some(function (item) { return deep ? deepEqual(item, expected) : item === expected; });
    } else if (actual !== null && typeof actual === "object" && expected !== null && typeof expected === "object") {
      found = Object.keys(expected).every(function (key) {
        return deep ? deepEqual(actual[key], expected[key]) : actual[key] === expected[key];
      });
    } else if (typeof Map !== "undefined" && actual instanceof Set) found = actual.has(expected);
    else {
      fail(this, "the given combination of arguments (" + typeOf(actual) + " and " + typeOf(expected) + ") is invalid for this assertion. You can use an array, a map, an object, a set, a string, or a weakset instead of a " + typeOf(expected));
    }
    var words = deep ? " to deep include " : " to include ";
    return check(this, found, "expected " + inspect(actual) + words + inspect(expected), "expected " + inspect(actual) + " to not" + words.replace(" to ", " ") + inspect(expected));
  }
  chainable(["include", "includes", "contain", "contains"], includes, { contains: true });
  property(["ok"], function () {
    if (this.__object && this.__object.__pmResponse) return statusIs(this, 200, "ok");
    return check(this, !!this.__object, "expected " + inspect(this.__object) + " to be truthy", "expected " + inspect(this.__object) + " to be falsy");
  });
  function literal(name, value) {
    property([name], function () {
      return check(this, this.__object === value, "expected " + inspect(this.__object) + " to be " + name, "expected " + inspect(this.__object) + " to not be " + name);
    });
  }
  literal("true", true);
  literal("false", false);
  literal("null", null);
  literal("undefined", undefined);
  property(["NaN"], function () {
    return check(this, typeof this.__object === "number" && this.__object !== this.__object, "expected " + inspect(this.__object) + " to be NaN", "expected " + inspect(this.__object) + " not to be NaN");
  });
  property(["exist", "exists"], function () {
    return check(this, this.__object !== null && this.__object !== undefined, "expected " + inspect(this.__object) + " to exist", "expected " + inspect(this.__object) + " to not exist");
  });
  property(["empty"], function () {
    var actual = this.__object;
    var size;
    if (typeof actual === "string" || Array.isArray(actual)) size = actual.length;
    else if (typeof Map !== "undefined" && (actual instanceof Map || actual instanceof Set)) size = actual.size;
    else if (actual !== null && typeof actual === "object") size = Object.keys(actual).length;
    else fail(this, ".empty was passed non-string primitive " + inspect(actual));
    return check(this, size === 0, "expected " + inspect(actual) + " to be empty", "expected " + inspect(actual) + " not to be empty");
  });
  function lengthIs(n) {
    var actual = lengthOf(this.__object);
    return check(this, actual === n, "expected " + inspect(this.__object) + " to have a length of " + inspect(n) + " but got " + inspect(actual), "expected " + inspect(this.__object) + " to not have a length of " + inspect(actual));
  }
  chainable(["length", "lengthOf"], lengthIs, { length: true });
  method(["match", "matches"], function (re) {
    var actual = this.__object;
    return check(this, re.test(actual), "expected " + inspect(actual) + " to match " + toString(re), "expected " + inspect(actual) + " not to match " + toString(re));
  });
  method(["string"], function (part) {
    var actual = this.__object;
    return check(this, typeof actual === "string" && actual.indexOf(part) !== -1, "expected " + inspect(actual) + " to contain " + inspect(part), "expected " + inspect(actual) + " to not contain " + inspect(part));
  });
  method(["oneOf"], function (list) {
    var actual = this.__object;
    var deep = this.__flags.deep;
    var found = list.some(function (item) { return deep ? deepEqual(item, actual) : item === actual; });
    return check(this, found, "expected " + inspect(actual) + " to be one of " + inspect(list), "expected " + inspect(actual) + " to not be one of " + inspect(list));
  });
  method(["instanceof", "instanceOf"], function (ctor) {
    var actual = this.__object;
    var name = ctor && ctor.name ? ctor.name : "constructor";
    return check(this, actual instanceof ctor, "expected " + inspect(actual) + " to be an instance of " + name, "expected " + inspect(actual) + " to not be an instance of " + name);
  });
  method(["satisfy", "satisfies"], function (fn) {
    var actual = this.__object;
    return check(this, !!fn(actual), "expected " + inspect(actual) + " to satisfy " + inspect(fn), "expected " + inspect(actual) + " to not satisfy " + inspect(fn));
  });
  method(["property"], function (name, value) {
    var actual = this.__object;
    var has;
    var found;
    if (this.__flags.nested) {
      var parts = toString(name).replace(/\[(\d+)\]/g, ".$1").split(".");
      var at = actual;
      has = true;
      for (var i = 0; i < parts.length; i++) {
        if (at === null || at === undefined || !(Object(at) instanceof Object) || !(parts[i] in Object(at))) { has = false; break; }
        at = at[parts[i]];
      }
      found = has ? at : undefined;
    } else {
      has = actual !== null && actual !== undefined &&
        (this.__flags.own ? Object.prototype.hasOwnProperty.call(actual, name) : name in Object(actual));
      found = has ? actual[name] : undefined;
    }
    var words = (this.__flags.nested ? "nested " : this.__flags.own ? "own " : "") + (this.__flags.deep ? "deep " : "") + "property " + inspect(name);
    if (arguments.length > 1) {
      var same = has && (this.__flags.deep ? deepEqual(found, value) : found === value);
      check(this, same, "expected " + inspect(actual) + " to have " + words + " of " + inspect(value) + (has ? ", but got " + inspect(found) : ""), "expected " + inspect(actual) + " to not have " + words + " of " + inspect(value));
    } else {
      check(this, has, "expected " + inspect(actual) + " to have " + words, "expected " + inspect(actual) + " to not have " + words);
    }
    return this.__flags.negate ? wrap(this) : derive(this, found, {});
  });
  method(["ownProperty", "haveOwnProperty"], function (name, value) {
    this.__flags.own = true;
    return arguments.length > 1 ? this.property(name, value) : this.property(name);
  });
  function keys() {
    var actual = this.__object;
    var wanted = arguments.length === 1 && Array.isArray(arguments[0]) ? arguments[0]
      : arguments.length === 1 && arguments[0] !== null && typeof arguments[0] === "object" ? Object.keys(arguments[0])
      : Array.prototype.slice.call(arguments);
    var present = typeof Map !== "undefined" && actual instanceof Map ? Array.from(actual.keys()) : Object.keys(actual);
    var ok;
    if (this.__flags.any) ok = wanted.some(function (k) { return present.indexOf(k) !== -1; });
    else {
      ok = wanted.every(function (k) { return present.indexOf(k) !== -1; }) &&
        (this.__flags.contains || wanted.length === present.length);
    }
    var words = (this.__flags.any ? "any of " : "all of ") + "keys " + wanted.map(function (k) { return inspect(k); }).join(", ");
    return check(this, ok, "expected " + inspect(actual) + " to have " + words, "expected " + inspect(actual) + " to not have " + words);
  }
  method(["keys", "key"], keys);
  method(["members"], function (list) {
    var actual = this.__object;
    var deep = this.__flags.deep;
    var has = function (set, item) { return set.some(function (x) { return deep ? deepEqual(x, item) : x === item; }); };
    var ok = this.__flags.contains
      ? list.every(function (item) { return has(actual, item); })
      : list.length === actual.length && list.every(function (item) { return has(actual, item); }) &&
        actual.every(function (item) { return has(list, item); });
    if (ok && this.__flags.ordered) {
      ok = list.every(function (item, i) { return deep ? deepEqual(actual[i], item) : actual[i] === item; });
    }
    var words = this.__flags.contains ? "be a superset of " : "have the same members as ";
    return check(this, ok, "expected " + inspect(actual) + " to " + words + inspect(list), "expected " + inspect(actual) + " to not " + words + inspect(list));
  });
  method(["throw", "throws", "Throw"], function (expected) {
    var threw = false, error;
    try { this.__object(); } catch (e) { threw = true; error = e; }
    var ok = threw;
    if (threw && expected !== undefined) {
      var message = error && error.message !== undefined ? toString(error.message) : toString(error);
      ok = expected instanceof RegExp ? expected.test(message)
        : typeof expected === "string" ? message.indexOf(expected) !== -1
        : typeof expected === "function" ? error instanceof expected : ok;
    }
    return check(this, ok, "expected [Function] to throw " + (expected === undefined ? "an error" : inspect(expected)), "expected [Function] to not throw " + (expected === undefined ? "an error" : inspect(expected)));
  });
  method(["fail"], function (message) { fail(this, message === undefined ? "expect.fail()" : toString(message)); });

  /* Postman's own assertions on pm.response (chai-postman). */
  function response(a) {
    if (!a.__object || !a.__object.__pmResponse) fail(a, "expected a response, got " + inspect(a.__object));
    return a.__object;
  }
  function statusIs(a, code, name) {
    var r = response(a);
    return check(a, r.code === code, "expected response to be " + name + " but got " + r.code, "expected response to not be " + name + " but got " + r.code);
  }
  function statusClass(names, low, high) {
    property(names, function () {
      var r = response(this);
      return check(this, r.code >= low && r.code <= high, "expected response code to be " + low / 100 + "XX but found " + r.code, "expected response code to not be " + low / 100 + "XX but found " + r.code);
    });
  }
  statusClass(["info"], 100, 199);
  statusClass(["success"], 200, 299);
  statusClass(["redirection"], 300, 399);
  statusClass(["clientError"], 400, 499);
  statusClass(["serverError"], 500, 599);
  property(["error"], function () {
    var r = response(this);
    return check(this, r.code >= 400 && r.code <= 599, "expected response code to be 4XX or 5XX but found " + r.code, "expected response code to not be 4XX or 5XX but found " + r.code);
  });
  [["accepted", 202], ["badRequest", 400], ["unauthorized", 401], ["forbidden", 403],
    ["notFound", 404], ["rateLimited", 429]].forEach(function (pair) {
    property([pair[0]], function () { return statusIs(this, pair[1], pair[0]); });
  });
  method(["status"], function (expected) {
    var r = response(this);
    if (typeof expected === "string") {
      return check(this, r.status === expected, "expected response to have status reason " + inspect(expected) + " but got " + inspect(r.status), "expected response to not have status reason " + inspect(expected));
    }
    return check(this, r.code === expected, "expected response to have status code " + inspect(expected) + " but got " + inspect(r.code), "expected response to not have status code " + inspect(expected));
  });
  method(["header"], function (name, value) {
    var r = response(this);
    var has = r.headers.has(name);
    if (arguments.length < 2) {
      return check(this, has, "expected response to have header with key " + inspect(name), "expected response to not have header with key " + inspect(name));
    }
    var actual = r.headers.get(name);
    return check(this, has && actual === value, "expected '" + name + "' response header to be " + inspect(value) + " but got " + inspect(actual), "expected '" + name + "' response header to not be " + inspect(value));
  });
  method(["body"], function (expected) {
    var r = response(this);
    var text = r.text();
    if (arguments.length === 0) {
      return check(this, text.length > 0, "expected response to have content in body", "expected response to not have content in body");
    }
    if (expected instanceof RegExp) {
      return check(this, expected.test(text), "expected response body text to match " + toString(expected), "expected response body text to not match " + toString(expected));
    }
    if (typeof expected === "string") {
      return check(this, text === expected, "expected response body to equal " + inspect(expected) + " but got " + inspect(text), "expected response body to not equal " + inspect(expected));
    }
    var json;
    try { json = parse(text); } catch (ignored) { json = undefined; }
    return check(this, deepEqual(json, expected), "expected response body json to equal " + inspect(expected) + " but got " + inspect(json), "expected response body json to not equal " + inspect(expected));
  });
  property(["json"], function () {
    var r = response(this);
    var ok = true;
    try { parse(r.text()); } catch (ignored) { ok = false; }
    return check(this, ok, "expected response body to be a valid json but got error " + "Unexpected token", "expected response body not to be a valid json");
  });
  method(["jsonBody"], function (path, value) {
    var r = response(this);
    var json;
    try { json = parse(r.text()); } catch (ignored) { fail(this, "expected response body to be a valid json"); }
    if (arguments.length === 0) return check(this, true, "", "expected response body not to be a valid json");
    var parts = toString(path).replace(/\[(\d+)\]/g, ".$1").split(".");
    var at = json, has = true;
    for (var i = 0; i < parts.length; i++) {
      if (at === null || typeof at !== "object" || !(parts[i] in at)) { has = false; break; }
      at = at[parts[i]];
    }
    if (arguments.length === 1) {
      return check(this, has, "expected " + inspect(json) + " in response to contain property " + inspect(path), "expected " + inspect(json) + " in response to not contain property " + inspect(path));
    }
    return check(this, has && deepEqual(at, value), "expected " + inspect(json) + " in response to contain property " + inspect(path) + " with value " + inspect(value) + " but got " + inspect(at), "expected " + inspect(json) + " in response to not contain property " + inspect(path) + " with value " + inspect(value));
  });
  /* pm.response.to.have.responseTime.below(200): the assertion goes on with the number. */
  ["responseTime", "responseSize"].forEach(function (name) {
    property([name], function () { return derive(this, response(this)[name], {}); });
  });
  method(["jsonSchema"], function (schema) {
    var json = this.__object;
    if (json && json.__pmResponse) {
      try { json = parse(json.text()); } catch (ignored) { fail(this, "expected response body to be a valid json"); }
    }
    var errors = schemaErrors(json, schema);
    return check(this, errors.length === 0, "expected data to satisfy schema but found following errors: \n" + errors.join(", "), "expected data to not satisfy schema");
  });
  property(["withBody"], function () {
    var r = response(this);
    return check(this, r.text().length > 0, "expected response to have content in body", "expected response to not have content in body");
  });
  ["cookie"].forEach(function (name) {
    method([name], function () { throw new Error("pm.response.to.have." + name + " is not supported by dial"); });
  });

  function expect(object, message) { return wrap(new Assertion(object, message)); }
  expect.fail = function (message) { throw api.AssertionError(message === undefined ? "expect.fail()" : toString(message)); };
  return expect;
}
`,
  cryptoJs: String.raw`
/* CryptoJS's hashes, HMACs and encoders (what collections sign requests with), over the host's
   digests; its ciphers are not there. A WordArray is kept as hex. */
function cryptoJs() {
  function words(hex) {
    return {
      __hex: hex,
      sigBytes: hex.length / 2,
      toString: function (encoder) { return (encoder || Hex).stringify(this); },
      concat: function (other) { this.__hex += bytesOf(other); this.sigBytes = this.__hex.length / 2; return this; },
    };
  }
  function bytesOf(value) {
    if (value && typeof value.__hex === "string") return value.__hex;
    return textHex(value === undefined || value === null ? "" : toString(value));
  }
  var Hex = {
    stringify: function (w) { return w.__hex; },
    parse: function (text) { return words(checkedHex(text)); },
  };
  var Base64 = {
    stringify: function (w) { return hexBase64(w.__hex, false); },
    parse: function (text) { return words(base64Hex(text, false)); },
  };
  var Base64url = {
    stringify: function (w) { return hexBase64(w.__hex, true); },
    parse: function (text) { return words(base64Hex(text, true)); },
  };
  var Utf8 = {
    stringify: function (w) { return decodeURIComponent(escape(hexBinary(w.__hex))); },
    parse: function (text) { return words(textHex(text)); },
  };
  var Latin1 = {
    stringify: function (w) { return hexBinary(w.__hex); },
    parse: function (text) { return words(textHex(text, "latin1")); },
  };
  var api = { enc: { Hex: Hex, Base64: Base64, Base64url: Base64url, Utf8: Utf8, Latin1: Latin1 }, lib: { WordArray: { create: function () { return words(""); } } } };
  [["MD5", "md5"], ["SHA1", "sha1"], ["SHA256", "sha256"], ["SHA384", "sha384"], ["SHA512", "sha512"]].forEach(function (pair) {
    api[pair[0]] = function (message) { return words(hostDigest(pair[1], bytesOf(message), "", false)); };
    api["Hmac" + pair[0]] = function (message, key) {
      return words(hostDigest(pair[1], bytesOf(message), bytesOf(key), true));
    };
  });
  ["AES", "DES", "TripleDES", "RC4", "Rabbit", "PBKDF2", "SHA3", "RIPEMD160"].forEach(function (name) {
    api[name] = unavailable("CryptoJS." + name);
  });
  return api;
}
`,
  makeBuffer: String.raw`
/*
 * Postman's Buffer (its sandbox has Node's, as a browser polyfill): bytes from text (utf8, base64,
 * hex, latin1/binary, ascii) or a list, and back; what collections use to write Basic and JWT
 * values. Another encoding is a TypeError, as there.
 */
function makeBuffer() {
  function encoding(name) {
    var e = toString(name === undefined ? "utf8" : name).toLowerCase();
    if (e === "utf-8") e = "utf8";
    if (e === "binary") e = "latin1";
    if (["utf8", "base64", "hex", "latin1", "ascii"].indexOf(e) < 0) throw new TypeError("Unknown encoding: " + toString(name));
    return e;
  }
  function binary(text, how) {
    if (how === "utf8") return unescape(encodeURIComponent(text));
    if (how === "base64") {
      var clean = text.replace(/[^A-Za-z0-9+/\-_]/g, "").replace(/-/g, "+").replace(/_/g, "/");
      return atob(clean);
    }
    if (how === "hex") {
      var out = "";
      for (var i = 0; i + 1 < text.length; i += 2) {
        var n = parseInt(text.substr(i, 2), 16);
        if (isNaN(n)) break;
        out += String.fromCharCode(n);
      }
      return out;
    }
    return text;
  }
  function Buffer() { throw new TypeError("Use Buffer.from(…) in dial's script sandbox"); }
  function make(bytes) {
    var b = new Uint8Array(bytes);
    Object.setPrototypeOf(b, Buffer.prototype);
    return b;
  }
  Buffer.prototype = Object.create(Uint8Array.prototype);
  Buffer.prototype.constructor = Buffer;
  Buffer.prototype.toString = function (name) {
    var how = encoding(name);
    var bin = "";
    for (var i = 0; i < this.length; i++) bin += String.fromCharCode(this[i]);
    if (how === "base64") return btoa(bin);
    if (how === "hex") return Array.prototype.map.call(this, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
    if (how === "ascii") return bin.replace(/[\x80-\xff]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) & 127); });
    if (how === "latin1") return bin;
    try { return decodeURIComponent(escape(bin)); } catch (e) { return bin; }
  };
  Buffer.prototype.toJSON = function () { return { type: "Buffer", data: Array.prototype.slice.call(this) }; };
  Buffer.prototype.equals = function (other) {
    if (!other || other.length !== this.length) return false;
    for (var i = 0; i < this.length; i++) if (this[i] !== other[i]) return false;
    return true;
  };
  Buffer.from = function (value, name) {
    if (typeof value === "string") {
      var bin = binary(value, encoding(name));
      var bytes = new Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i) & 255;
      return make(bytes);
    }
    if (value && typeof value.length === "number") return make(Array.prototype.slice.call(value));
    if (value && value.type === "Buffer" && Array.isArray(value.data)) return make(value.data);
    throw new TypeError("Buffer.from needs a string, an array or a buffer");
  };
  Buffer.alloc = function (size, fill) {
    var bytes = new Array(size);
    for (var i = 0; i < size; i++) bytes[i] = typeof fill === "number" ? fill & 255 : 0;
    return make(bytes);
  };
  Buffer.isBuffer = function (value) { return value instanceof Buffer; };
  Buffer.byteLength = function (value, name) { return Buffer.from(value, name).length; };
  Buffer.concat = function (list) {
    var bytes = [];
    list.forEach(function (b) { Array.prototype.push.apply(bytes, Array.prototype.slice.call(b)); });
    return make(bytes);
  };
  return Buffer;
}
`,
  sendable: String.raw`
/* pm.sendRequest's argument (a URL, or Postman's request object) as dial sends it. */
function sendable(request) {
  if (typeof request === "string") return { method: "GET", url: request, headers: [] };
  if (request === null || typeof request !== "object") throw new TypeError("pm.sendRequest needs a URL or a request object");
  var url = request.url;
  if (url !== null && typeof url === "object" && typeof url.raw === "string") url = url.raw;
  url = toString(url);
  var method = toString(request.method || "GET").toUpperCase();
  var headers = [];
  var header = request.header || request.headers;
  if (Array.isArray(header)) {
    header.forEach(function (h) { if (h && !h.disabled && h.key !== undefined) headers.push([toString(h.key), toString(h.value)]); });
  } else if (typeof header === "string") {
    header.split(/\r?\n/).forEach(function (line) {
      var at = line.indexOf(":");
      if (at > 0) headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    });
  } else if (header && typeof header === "object") {
    Object.keys(header).forEach(function (k) { headers.push([k, toString(header[k])]); });
  }
  var has = function (name) { return headers.some(function (h) { return h[0].toLowerCase() === name; }); };
  var auth = request.auth;
  if (auth && typeof auth === "object" && !has("authorization")) {
    var param = function (key) {
      var list = auth[auth.type];
      if (Array.isArray(list)) { for (var i = 0; i < list.length; i++) if (list[i].key === key) return toString(list[i].value); return ""; }
      return list && typeof list === "object" && list[key] !== undefined ? toString(list[key]) : "";
    };
    if (auth.type === "bearer") headers.push(["Authorization", "Bearer " + param("token")]);
    else if (auth.type === "basic") headers.push(["Authorization", "Basic " + btoaUtf8(param("username") + ":" + param("password"))]);
    else if (auth.type !== "noauth") throw new Error("pm.sendRequest: auth type \"" + toString(auth.type) + "\" is not available in dial's script sandbox");
  }
  var out = { method: method, url: url, headers: headers };
  var body = request.body;
  if (body && typeof body === "object" && body.mode) {
    var pairs = function (list) {
      return (Array.isArray(list) ? list : []).filter(function (p) { return p && !p.disabled; });
    };
    if (body.mode === "raw") {
      out.body = typeof body.raw === "string" ? body.raw : body.raw === undefined ? "" : stringify(body.raw);
      var language = body.options && body.options.raw && body.options.raw.language;
      if (language === "json" && !has("content-type")) headers.push(["Content-Type", "application/json"]);
    } else if (body.mode === "urlencoded") {
      out.body = pairs(body.urlencoded).map(function (p) {
        return encodeURIComponent(toString(p.key)) + "=" + encodeURIComponent(toString(p.value === undefined ? "" : p.value));
      }).join("&");
      if (!has("content-type")) headers.push(["Content-Type", "application/x-www-form-urlencoded"]);
    } else if (body.mode === "formdata") {
      var boundary = "----DialFormBoundary" + Date.now().toString(16);
      out.body = pairs(body.formdata).map(function (p) {
        if (p.type === "file" || p.src !== undefined) throw new Error("pm.sendRequest: a form-data file part is not available in dial's script sandbox (scripts cannot read files)");
        return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + toString(p.key).replace(/"/g, "%22") + "\"\r\n\r\n" + toString(p.value === undefined ? "" : p.value) + "\r\n";
      }).join("") + "--" + boundary + "--\r\n";
      if (!has("content-type")) headers.push(["Content-Type", "multipart/form-data; boundary=" + boundary]);
    } else {
      throw new Error("pm.sendRequest: body mode \"" + toString(body.mode) + "\" is not available in dial's script sandbox");
    }
  }
  return out;
}
`,
};
