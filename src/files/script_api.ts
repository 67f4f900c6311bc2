/**
 * The JavaScript that request-file scripts see: the JetBrains HTTP Client's `client`,
 * `request` and `response` objects, written in plain JavaScript. The prelude is evaluated once
 * per sandbox context, before any script, and evaluates to `{ setup, take, describe }`: the
 * host keeps those functions' handles (no global a script could replace) and calls
 * `setup(inputJson)` before each script, to build fresh objects from its input, `take()` after
 * it, for what the script did as JSON text, and `describe(error)` for what it threw. Both use `JSON.parse` and `JSON.stringify` as they were when the
 * prelude ran, not as a script may have left them. Nothing else crosses the sandbox's wall.
 * @module
 */

/** The prelude, evaluated once in each sandbox context. */
export const SCRIPT_PRELUDE = String.raw`
(function () {
"use strict";
var parse = JSON.parse;
var stringify = JSON.stringify;
var out = null;
var toString = String;
function take() { return stringify(out); }
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
function setup(inputJson) {
  var input = parse(inputJson);
  out = { globals: {}, requestVariables: {}, tests: [], logs: [] };
  var globals = input.globals;
  var requestVariables = input.requestVariables;
  function text(value) {
    return typeof value === "string" ? value : value === undefined ? "undefined" : stringify(value);
  }
  function AssertionError(message) {
    var error = new Error(message);
    error.name = "AssertionError";
    return error;
  }
  var current = null;
  var store = {
    set: function (name, value) {
      var v = value === null || value === undefined ? "" : typeof value === "string" ? value : String(value);
      if (typeof value === "object" && value !== null) v = stringify(value);
      globals[name] = v;
      out.globals[name] = v;
    },
    get: function (name) { return Object.prototype.hasOwnProperty.call(globals, name) ? globals[name] : null; },
    isEmpty: function () { return Object.keys(globals).length === 0; },
    clear: function (name) { delete globals[name]; out.globals[name] = null; },
    clearAll: function () {
      Object.keys(globals).forEach(function (name) { out.globals[name] = null; });
      globals = {};
    },
  };
  function scope(values) {
    return { get: function (name) { return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : null; } };
  }
  var client = {
    global: store,
    variables: {
      global: store,
      environment: scope(input.environment),
      file: scope(input.file),
      request: scope(requestVariables),
    },
    log: function () {
      out.logs.push(Array.prototype.map.call(arguments, text).join(" "));
    },
    test: function (name, fn) {
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
    },
    assert: function (condition, message) {
      if (condition) return;
      var why = message === undefined ? "Assertion failed" : String(message);
      if (current) throw AssertionError(why);
      out.tests.push({ name: why, passed: false, message: why, durationMs: 0 });
    },
    exit: function () { throw { __dialExit: true }; },
  };
  var req = input.request;
  function headerList(list) {
    return {
      valueOf: function (name) {
        var lower = String(name).toLowerCase();
        for (var i = 0; i < list.length; i++) if (list[i][0].toLowerCase() === lower) return list[i][1];
        return null;
      },
      valuesOf: function (name) {
        var lower = String(name).toLowerCase();
        return list.filter(function (h) { return h[0].toLowerCase() === lower; }).map(function (h) { return h[1]; });
      },
      all: function () { return list.map(function (h) { return { name: h[0], value: h[1] }; }); },
      findByName: function (name) {
        var value = this.valueOf(name);
        return value === null ? null : { name: name, getRawValue: function () { return value; }, tryGetSubstitutedValue: function () { return value; } };
      },
    };
  }
  delete globalThis.request;
  delete globalThis.response;
  if (req) {
    globalThis.request = {
      method: req.method,
      url: { getRaw: function () { return req.url; }, tryGetSubstituted: function () { return req.url; } },
      body: { getRaw: function () { return req.body; }, tryGetSubstituted: function () { return req.body; } },
      headers: headerList(req.headers),
      environment: scope(input.environment),
      variables: {
        set: function (name, value) {
          var v = typeof value === "string" ? value : stringify(value);
          requestVariables[name] = v;
          out.requestVariables[name] = v;
        },
        get: function (name) { return Object.prototype.hasOwnProperty.call(requestVariables, name) ? requestVariables[name] : null; },
      },
    };
  }
  var res = input.response;
  if (res) {
    var body = res.body;
    if (/^application\/([\w.+-]+\+)?json/i.test(res.mimeType)) {
      try { body = parse(res.body); } catch (ignored) { body = res.body; }
    }
    globalThis.response = {
      status: res.status,
      body: body,
      headers: headerList(res.headers),
      contentType: { mimeType: res.mimeType, charset: res.charset },
    };
  }
  globalThis.client = client;
}
return { setup: setup, take: take, describe: describe };
})()
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
}
