import assert from "node:assert/strict";
import {
  newModule,
  runScript,
  ScriptError,
  ScriptSession,
  type ScriptSource,
} from "../../../src/files/script_sandbox.ts";
import type { ScriptInput } from "../../../src/files/script_api.ts";

const input: ScriptInput = {
  globals: { existing: "1" },
  requestVariables: {},
  environment: { host: "example.com" },
  file: {},
  response: {
    status: 201,
    headers: [["Content-Type", "application/json"], ["Set-Cookie", "a=1"], ["set-cookie", "b=2"]],
    body: '{"id": 7, "tags": ["x"]}',
    mimeType: "application/json",
    charset: "utf-8",
  },
};

function at(code: string, line = 1) {
  return { code, file: "api.http", line, column: 1 };
}

Deno.test("sandbox: the JetBrains client and response API", async () => {
  const output = await runScript(
    at(`
    client.global.set("id", response.body.id);
    client.global.clear("existing");
    client.test("created", function () {
      client.assert(response.status === 201, "status");
      client.assert(response.headers.valueOf("content-type") === "application/json");
      client.assert(response.headers.valuesOf("Set-Cookie").join() === "a=1,b=2");
      client.assert(response.contentType.mimeType === "application/json");
    });
    client.test("fails", function () { client.assert(response.body.tags.length === 2, "two tags"); });
    client.test("throws", function () { null.x; });
    client.log("env", typeof request === "undefined" ? "no request" : "?", client.variables.environment.get("host"));
  `),
    input,
  );
  assert.deepEqual(output.globals, { id: "7", existing: null });
  assert.deepEqual(output.tests.map((t) => [t.name, t.passed, t.message ?? "", t.error ?? false]), [
    ["created", true, "", false],
    ["fails", false, "two tags", false],
    ["throws", false, "cannot read property 'x' of null", true],
  ]);
  assert.deepEqual(output.logs, ["env no request example.com"]);
});

Deno.test("sandbox: a handler cannot reach the environment, files, the network or subprocesses", async () => {
  const attempts = {
    "Deno.env": 'Deno.env.get("HOME")',
    "a file": 'Deno.readTextFileSync("/etc/passwd")',
    "fetch": 'fetch("http://127.0.0.1:1/")',
    "a subprocess": 'new Deno.Command("true").outputSync()',
    "require": 'require("fs").readFileSync("/etc/passwd")',
    "process.env": "process.env.HOME",
    "globalThis.Deno": "globalThis.Deno.env",
    "std": 'std.loadFile("/etc/passwd")',
    "os": 'os.exec(["true"])',
  };
  for (const [what, code] of Object.entries(attempts)) {
    await assert.rejects(runScript(at(code), input), (error: unknown) => {
      assert.ok(error instanceof ScriptError, `${what}: ${error}`);
      // require has Node's crypto only (kulala's scripts name it): fs is refused by name.
      const refused = what === "require"
        ? /^api\.http:1: Error: require\("fs"\) is Node code/
        : /^api\.http:1: (ReferenceError|TypeError): /;
      assert.match(error.message, refused, what);
      return true;
    });
  }
  // A dynamic import is refused too (no module loader): nothing loads code from outside.
  const output = await runScript(
    at(
      'import("data:text/javascript,export default 1").then(function(){ client.global.set("imported","yes"); }, function(e){ client.global.set("imported", String(e)); });',
    ),
    input,
  );
  assert.notEqual(output.globals.imported, "yes");
});

Deno.test("sandbox: errors name the script's line in the file", async () => {
  await assert.rejects(
    runScript({
      code: "\n  client.log(1);\n  response.body.nope.x;\n",
      file: "api.http",
      line: 12,
      column: 5,
    }, input),
    (error: unknown) => {
      assert.ok(error instanceof ScriptError);
      assert.equal(error.message, "api.http:14: TypeError: cannot read property 'x' of undefined");
      return true;
    },
  );
  // A syntax error names its own line too, and an error in a function an earlier script of the
  // file defined names that function's line, not the running script's.
  using session = disposable(new ScriptSession());
  await assert.rejects(
    session.run(
      { code: "client.log(1);\n\n  var x = ;", file: "api.http", line: 30, column: 4 },
      input,
    ),
    /^ScriptError: api\.http:32: SyntaxError: /,
  );
  await session.run({
    code: "\n  globalThis.helper = function () {\n    return null.x;\n  };",
    file: "api.http",
    line: 40,
    column: 1,
  }, input);
  await assert.rejects(
    session.run({ code: "\n\n\n  helper();", file: "api.http", line: 60, column: 1 }, input),
    /^ScriptError: api\.http:42: TypeError: cannot read property 'x' of null$/,
  );
  // The same script run again (a file's next iteration) gets a fresh scope each time.
  const again = at(
    'var n = typeof n === "number" ? n + 1 : 1; client.log(n, ++globalThis.runs);',
    7,
  );
  await session.run(at("globalThis.runs = 0;"), input);
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(...(await session.run(again, input)).logs);
  assert.deepEqual(runs, ["1 1", "1 2", "1 3"]);
});

Deno.test("sandbox: a script that never ends is stopped by the time limit", async () => {
  await assert.rejects(
    runScript(at("while (true) {}"), input, { timeoutMs: 50 }),
    /api\.http:1: Script timed out after 0\.05 s/,
  );
  await assert.rejects(
    runScript(at('var s = "x"; while (true) s += s;'), input, { memoryBytes: 8 * 1024 * 1024 }),
    /api\.http:1: (Script ran out of memory|RangeError|InternalError)/,
  );
});

Deno.test("sandbox: pre-request scripts set request variables", async () => {
  const output = await runScript(
    at('request.variables.set("n", 41 + 1); request.variables.set("s", "x");'),
    {
      ...withoutResponse(input),
      request: { method: "GET", url: "http://x/{{n}}", headers: [], body: "" },
    },
  );
  assert.deepEqual(output.requestVariables, { n: "42", s: "x" });
});

Deno.test("sandbox: scripts of a file share only what they put on the global object; a broken sandbox is replaced", async () => {
  using session = disposable(new ScriptSession({ timeoutMs: 100 }));
  await session.run(
    at('var leaked = 1; globalThis.shared = 2; client.global.set("g", "kept");'),
    input,
  );
  const next = await session.run(
    at(
      'client.log(typeof leaked, typeof shared, typeof response, typeof request, client.global.get("g"));',
    ),
    { ...withoutResponse(input), globals: { g: "kept" } },
  );
  assert.deepEqual(next.logs, ["undefined number undefined undefined kept"]);
  // dial's objects are the script's own: what it does to them, the next script does not see.
  await session.run(
    at(
      "console.log = null; client.global.get = null; response.headers.valueOf = null; crypto.hmac.sha1 = null;",
    ),
    input,
  );
  const own = await session.run(
    at(
      'console.log(client.global.get("g"), response.headers.valueOf("content-type"), typeof crypto.hmac.sha1);',
    ),
    { ...input, globals: { g: "kept" } },
  );
  assert.deepEqual(own.logs, ["kept application/json function"]);
  await assert.rejects(session.run(at("while (true) {}"), input), /timed out/);
  const fresh = await session.run(at("client.log(typeof shared);"), input);
  assert.deepEqual(fresh.logs, ["undefined"]);
  await assert.rejects(
    session.run(at("(function f() { f(); })()"), input),
    /api\.http:1: InternalError/,
  );
  const after = await session.run(at('client.log("alive", response.status);'), input);
  assert.deepEqual(after.logs, ["alive 201"]);
});

Deno.test("sandbox: what a script queued for dial and did not wait for (it threw) is not the next script's", async () => {
  // httpyac's sleep(ms): a wait beyond the bound would fail the next script if it were its own.
  using session = disposable(new ScriptSession());
  await assert.rejects(
    session.run(at('__dialSleep(300001); throw new Error("boom");'), input),
    /api\.http:1: Error: boom/,
  );
  const next = await session.run(at('client.global.set("b", "1");'), input);
  assert.deepEqual(next.globals, { b: "1" });
  // Postman's pm.sendRequest: the next script sends nothing, and may send its own.
  const sent: string[] = [];
  using postman = disposable(
    new ScriptSession({
      postman: true,
      sendRequest: (request) => {
        sent.push(request.url);
        return Promise.resolve({ error: "not here" });
      },
    }),
  );
  const asPostman = { ...input, postman: { requestName: "r", requestId: "r1" } };
  await assert.rejects(
    postman.run(
      at('pm.sendRequest("http://127.0.0.1:1/first", function () {}); throw new Error("boom");'),
      asPostman,
    ),
    /api\.http:1: Error: boom/,
  );
  await postman.run(at('pm.globals.set("b", "1");'), asPostman);
  assert.deepEqual(sent, []);
  await postman.run(
    at('pm.sendRequest("http://127.0.0.1:1/second", function () {});'),
    asPostman,
  );
  assert.deepEqual(sent, ["http://127.0.0.1:1/second"]);
});

Deno.test("sandbox: a file's script that replaces JSON, prototypes or dial's globals never sees another file's data", async () => {
  const hijack = at(`
    globalThis.loot = [];
    var parse = JSON.parse;
    JSON.parse = function (text) { globalThis.loot.push(String(text)); return parse(text); };
    JSON.stringify = function () { while (true) {} };
    Object.defineProperty(Object.prototype, "secret", { set: function (v) { globalThis.loot.push(v); }, configurable: true });
  `);
  using attacker = disposable(new ScriptSession({ timeoutMs: 2000 }));
  await attacker.run(hijack, input);
  using victim = disposable(new ScriptSession({ timeoutMs: 2000 }));
  const secret = { ...input, environment: { secret: "victim-key" } };
  const victimOutput = await victim.run(
    at(
      'client.test("key", function () { client.assert(request.environment.get("secret") === "victim-key"); });',
    ),
    {
      ...secret,
      request: { method: "GET", url: "http://x/", headers: [["X-Key", "victim-key"]], body: "" },
    },
  );
  assert.deepEqual(victimOutput.tests.map((t) => t.passed), [true]);
  // The attacker's next script sees nothing of the victim's, and dial read its results with the
  // JSON it captured before any script ran (the replaced stringify never ends).
  const after = await attacker.run(
    at('client.global.set("loot", globalThis.loot.join("|"));'),
    input,
  );
  assert.equal(after.globals.loot?.includes("victim-key"), false);
});

Deno.test("sandbox: dial's own evaluations run under the deadline too", async () => {
  using session = disposable(new ScriptSession({ timeoutMs: 100 }));
  // A JetBrains script's results are read without calling anything a script can replace.
  const read = await session.run(
    at('Object.prototype.toJSON = function () { while (true) {} }; client.global.set("a", "1");'),
    input,
  );
  assert.deepEqual(read.globals, { a: "1" });
  // A Postman script's are stringified: a getter on what dial reads stops, and is refused.
  using postman = disposable(new ScriptSession({ timeoutMs: 100, postman: true }));
  await assert.rejects(
    postman.run(
      at("Object.prototype.toJSON = function () { while (true) {} };"),
      { ...input, postman: { requestName: "r", requestId: "api.http#0" } },
    ),
    /api\.http:1: The script replaced what dial reads its results with/,
  );
  // An error whose message never ends stops.
  await assert.rejects(
    session.run(at("throw { get message() { while (true) {} } };"), input),
    /api\.http:1: Script timed out after 0\.1 s/,
  );
  // What the next script's setup calls, made endless: that script gets a fresh sandbox.
  const postmanInput = { ...input, postman: { requestName: "r", requestId: "api.http#0" } };
  await postman.run(at("Array.prototype.forEach = function () { while (true) {} };"), postmanInput);
  const after = await postman.run(at('console.log("alive", typeof [].forEach);'), postmanInput);
  assert.deepEqual(after.logs, ["alive function"]);
});

Deno.test("sandbox: a script's input is read as it uses it, each script its own", async () => {
  using session = disposable(new ScriptSession());
  // The body is parsed when first read; a script may replace it first, or freeze the response.
  const replaced = await session.run(
    at('response.body = "mine"; client.log(response.body, JSON.stringify(response).length > 50);'),
    input,
  );
  assert.deepEqual(replaced.logs, ["mine true"]);
  const frozen = await session.run(
    at("Object.freeze(response); client.log(response.body.id, response.body === response.body);"),
    input,
  );
  assert.deepEqual(frozen.logs, ["7 true"]);
  // A response kept by one script keeps its own body when a later script reads it.
  await session.run(at("globalThis.kept = response;"), input);
  const later = await session.run(
    at('client.log(kept.body.id, response.body, response.headers.valueOf("x"));'),
    {
      ...input,
      environment: { host: "other.example" },
      response: { ...input.response!, headers: [["X", "2"]], body: "text", mimeType: "text/plain" },
    },
  );
  assert.deepEqual(later.logs, ["7 text 2"]);
  // The same environment again, then another: each script reads its own.
  for (const host of ["example.com", "example.com", "other.example"]) {
    const read = await session.run(
      at('client.log(request.environment.get("host"), request.url.getRaw());'),
      {
        ...input,
        environment: { host },
        request: { method: "GET", url: host, headers: [], body: "" },
      },
    );
    assert.deepEqual(read.logs, [`${host} ${host}`]);
  }
  // client.global reads the run's values under what the script set and cleared.
  const store = await session.run(
    at(`
    var g = client.global;
    client.log(g.get("existing"), g.isEmpty(), g.get("nope"));
    g.set("n", 5); g.clear("existing");
    client.log(g.get("n"), g.get("existing"), g.isEmpty());
    g.clearAll();
    client.log(g.get("n"), g.isEmpty());
    g.set("m", "x");
    client.log(g.get("m"), g.isEmpty());
  `),
    input,
  );
  assert.deepEqual(store.logs, ["1 false null", "5 null false", "null true", "x false"]);
  assert.deepEqual(store.globals, { n: null, existing: null, m: "x" });
  // A gRPC call's response has status 0 (OK).
  const grpc = await session.run(at("client.log(typeof response, response.status);"), {
    ...input,
    response: { ...input.response!, status: 0 },
  });
  assert.deepEqual(grpc.logs, ["object 0"]);
  const nothing = await session.run(at("var x = 1;"), input);
  assert.deepEqual(nothing, { globals: {}, requestVariables: {}, tests: [], logs: [] });
});

Deno.test("sandbox: a file's scripts compiled together run as their own and name their own lines", async () => {
  using session = disposable(new ScriptSession());
  const scripts = [
    at('client.log("a");', 3),
    at('client.log("b");\n\nnull.x;', 10),
    at("var v = 1; client.log(typeof w);", 20),
    at('client.log("d");\nundefinedName;', 40),
    at("var w = 2; client.log(typeof v);", 60),
  ];
  session.expect(scripts);
  const logs = async (script: ScriptSource) => (await session.run(script, input)).logs;
  assert.deepEqual(await logs(scripts[0]!), ["a"]);
  await assert.rejects(session.run(scripts[1]!, input), /^ScriptError: api\.http:12: TypeError/);
  assert.deepEqual(await logs(scripts[2]!), ["undefined"]);
  await assert.rejects(
    session.run(scripts[3]!, input),
    /^ScriptError: api\.http:41: ReferenceError: 'undefinedName' is not defined/,
  );
  assert.deepEqual(await logs(scripts[4]!), ["undefined"]);
  // Run again (a file's next iteration): the compiled functions, the same lines.
  await assert.rejects(session.run(scripts[1]!, input), /^ScriptError: api\.http:12: TypeError/);
  // A script that does not compile, or that closes its function (the batch then gives more
  // functions than scripts): each is compiled alone, as the others of its batch.
  const odd = [
    at("this is ( not JavaScript", 70),
    at('}, function () { client.log("out");', 80),
    at('client.log("h");\nnull.y;', 90),
  ];
  session.expect(odd);
  await assert.rejects(session.run(odd[0]!, input), /^ScriptError: api\.http:70: SyntaxError/);
  assert.deepEqual(await logs(odd[1]!), ["out"]);
  await assert.rejects(session.run(odd[2]!, input), /^ScriptError: api\.http:91: TypeError/);
});

Deno.test("sandbox: a memory bomb is refused at the limit, and the next script runs", async () => {
  using session = disposable(new ScriptSession());
  await assert.rejects(
    session.run(at("var a = []; while (true) a.push(new Array(1e5).fill(1));"), input),
    /^ScriptError: api\.http:1: Script ran out of memory \(64 MiB\)$/,
  );
  await assert.rejects(
    session.run(at('var a = []; while (true) a.push({ x: [1, 2], y: "n" + a.length });'), input),
    /api\.http:1: Script ran out of memory \(64 MiB\)/,
  );
  const after = await session.run(at('client.log("alive");'), input);
  assert.deepEqual(after.logs, ["alive"]);
});

Deno.test("sandbox: a run's abort stops a script that has not finished", async () => {
  const controller = new AbortController();
  controller.abort();
  using session = disposable(new ScriptSession({ signal: controller.signal }));
  await assert.rejects(
    session.run(at("while (true) {}"), input),
    /api\.http:1: Script stopped: dial was told to end/,
  );
});

/** A session that `using` disposes. */
function disposable(session: ScriptSession): ScriptSession & Disposable {
  return Object.assign(session, { [Symbol.dispose]: () => session.dispose() });
}

/** The input of a pre-request script: no response yet. */
function withoutResponse<T extends { response?: unknown }>(value: T): Omit<T, "response"> {
  const { response: _response, ...rest } = value;
  return rest;
}

Deno.test("sandbox: crypto digests and HMACs give the standards' answers", async () => {
  const output = await runScript(
    at(`
    console.log(crypto.sha1().updateWithText("abc").digest().toHex());
    console.log(crypto.sha256().updateWithText("ab").updateWithText("c").digest().toHex());
    console.log(crypto.sha384().updateWithHex("616263").digest().toHex());
    console.log(crypto.sha512().updateWithBase64("YWJj").digest().toHex());
    console.log(crypto.md5().updateWithText("abc").digest().toBase64());
    console.log(crypto.hmac.sha256().withTextSecret("Jefe").updateWithText("what do ya want for nothing?").digest().toHex());
    console.log(crypto.hmac.sha256().withHexSecret("4a656665").updateWithText("what do ya want for nothing?").digest().toBase64(true));
    console.log(crypto.sha256().updateWithText("\\u00ff", "ISO-8859-1").digest().toHex() === crypto.sha256().updateWithHex("ff").digest().toHex());
    try { crypto.sha1().updateWithHex("abc"); } catch (e) { console.log(e.message); }
    try { crypto.sha1().updateWithText("x", "EBCDIC"); } catch (e) { console.log(e.message); }
    console.log(btoa("\\u00ff\\u00fe"), atob("//4=") === "\\u00ff\\u00fe", Window.btoa("a"));
    console.info({ a: [1] }, null);
  `),
    input,
  );
  assert.deepEqual(output.logs, [
    "a9993e364706816aba3e25717850c26c9cd0d89d",
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    "kAFQmDzST7DWlj99KOF/cg==",
    // RFC 4231, test case 2.
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM",
    "true",
    'Not a hexadecimal string: "abc"',
    'Unsupported encoding "EBCDIC" (UTF-8 and ISO-8859-1 are)',
    "//4= true YQ==",
    '{"a":[1]} null',
  ]);
});

Deno.test("sandbox: QuickJS's loader takes its plain path, not Node's (globalThis.process stays unread)", async () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, "process")!;
  let reads = 0;
  Object.defineProperty(globalThis, "process", {
    configurable: true,
    get() {
      reads++;
      return original.get!.call(globalThis);
    },
  });
  try {
    // A new sandbox per script: the loader runs each time.
    const output = await runScript(at(`client.global.set("a", "1");`), input);
    assert.deepEqual(output.globals, { a: "1" });
    assert.equal(reads, 0);
    // The descriptor the loader found is back.
    assert.equal(typeof Object.getOwnPropertyDescriptor(globalThis, "process")!.get, "function");
    assert.equal(globalThis.process === original.get!.call(globalThis), true);
  } finally {
    Object.defineProperty(globalThis, "process", original);
  }
});

Deno.test("sandbox: a QuickJS runtime that aborts when freed writes nothing to the terminal", async () => {
  // Emscripten binds its error printer when the module is made: the stub must be in place first.
  const written: unknown[][] = [];
  const terminal: Record<"error" | "log", (...args: unknown[]) => void> = globalThis.console;
  const { error, log } = terminal;
  terminal.error = terminal.log = (...args: unknown[]) => void written.push(args);
  try {
    const quickjs = await newModule(new WebAssembly.Memory({ initial: 256, maximum: 2048 }));
    const runtime = quickjs.newRuntime();
    const context = runtime.newContext();
    context.newObject(); // never disposed: freeing the runtime fails QuickJS's assertion
    assert.throws(() => {
      context.dispose();
      runtime.dispose();
    }, /Aborted\(Assertion failed: list_empty/);
  } finally {
    Object.assign(terminal, { error, log });
  }
  assert.deepEqual(written, []);
});
