import assert from "node:assert/strict";
import { runScript } from "../../../src/files/script_sandbox.ts";
import { type ScriptInput, scriptPrelude } from "../../../src/files/script_api.ts";
import { POSTMAN_API } from "../../../src/files/script_postman.ts";

const input: ScriptInput = {
  globals: { cv0: "C0" },
  requestVariables: {},
  environment: { base: "http://x", token: "" },
  file: { coll: "C" },
  request: {
    method: "GET",
    url: "http://127.0.0.1:1/users/7?a=1&b=2",
    headers: [["Accept", "application/json"]],
    body: "",
  },
  response: {
    status: 200,
    headers: [["Content-Type", "application/json; charset=utf-8"], ["X-Id", "7"]],
    body: '{"id":7,"name":"pen","tags":["a","b"],"nested":{"x":[1,2]}}',
    mimeType: "application/json",
    charset: "utf-8",
  },
  postman: {
    requestName: "Get user",
    requestId: "r1",
    environmentName: "dev",
    responseTime: 12,
    globals: { g1: "G" },
  },
};

async function outcomes(code: string, given: ScriptInput = input) {
  const output = await runScript({ code, file: "api.http", line: 1, column: 1 }, given, {
    postman: true,
  });
  return { output, tests: output.tests.map((t) => [t.name, t.passed, t.message ?? ""]) };
}

Deno.test("postman: pm.expect's chains pass and fail as chai does, with chai's messages", async () => {
  const { tests } = await outcomes(`
    var j = pm.response.json();
    pm.test("chains", function () {
      pm.expect(j).to.have.property("id", 7);
      pm.expect(j.name).to.be.a("string").and.to.equal("pen");
      pm.expect(j.tags).to.be.an("array").that.includes("a");
      pm.expect(j.tags).to.have.lengthOf(2);
      pm.expect(j.tags).to.have.length.above(1);
      pm.expect(j).to.have.nested.property("nested.x[1]", 2);
      pm.expect(j).to.deep.include({ name: "pen" });
      pm.expect(j.nested).to.eql({ x: [1, 2] });
      pm.expect(j).to.include.keys("id", "name");
      pm.expect(j).to.have.all.keys("id", "name", "tags", "nested");
      pm.expect(j.tags).to.have.members(["b", "a"]);
      pm.expect(j.id).to.be.oneOf([7, 8]);
      pm.expect(j.name).to.match(/^p/);
      pm.expect([]).to.be.empty;
      pm.expect(j.missing).to.be.undefined;
      pm.expect(true).to.be.true;
      pm.expect(j.id).to.be.within(1, 10).and.above(3).and.at.most(7);
      pm.expect(function () { throw new Error("boom"); }).to.throw("boom");
    });
    pm.test("response", function () {
      pm.response.to.have.status(200);
      pm.response.to.have.status("OK");
      pm.response.to.be.ok;
      pm.response.to.be.success;
      pm.response.to.not.be.error;
      pm.response.to.have.header("x-id", "7");
      pm.response.to.have.jsonBody("nested.x");
      pm.response.to.be.json;
      pm.response.to.have.responseTime.below(1000);
    });
    pm.test("equal", function () { pm.expect(j.id).to.equal(8); });
    pm.test("property", function () { pm.expect({ a: 1 }).to.have.property("b"); });
    pm.test("include", function () { pm.expect("abc").to.include("x"); });
    pm.test("not", function () { pm.expect(1).to.not.equal(1); });
    pm.test("deep", function () { pm.expect([1, 2]).to.eql([2, 1]); });
    pm.test("status", function () { pm.response.to.have.status(404); });
    pm.test("a", function () { pm.expect(5).to.be.a("string"); });
    pm.test("length", function () { pm.expect([1]).to.have.lengthOf(2); });
    pm.test("above", function () { pm.expect(1).to.be.above(2); });
    pm.test("message", function () { pm.expect(1, "custom").to.equal(2); });
    pm.test("not chai", function () { pm.expect(1).to.be.frobnicated; });
  `);
  assert.deepEqual(tests, [
    ["chains", true, ""],
    ["response", true, ""],
    ["equal", false, "expected 7 to equal 8"],
    ["property", false, "expected { a: 1 } to have property 'b'"],
    ["include", false, "expected 'abc' to include 'x'"],
    ["not", false, "expected 1 to not equal 1"],
    ["deep", false, "expected [ 1, 2 ] to deeply equal [ 2, 1 ]"],
    ["status", false, "expected response to have status code 404 but got 200"],
    ["a", false, "expected 5 to be a string"],
    ["length", false, "expected [ 1 ] to have a length of 2 but got 1"],
    ["above", false, "expected 1 to be above 2"],
    ["message", false, "custom: expected 1 to equal 2"],
    ["not chai", false, "Error: pm.expect(…).frobnicated is not an assertion dial knows"],
  ]);
});

Deno.test("postman: variable scopes, the request, info, execution and the legacy API", async () => {
  const { output, tests } = await outcomes(`
    pm.test("scopes", function () {
      pm.environment.set("token", "T1");
      pm.expect(pm.environment.get("token")).to.equal("T1");
      pm.expect(pm.environment.has("base")).to.be.true;
      pm.expect(pm.environment.name).to.equal("dev");
      pm.collectionVariables.set("cv", 5);
      pm.expect(pm.collectionVariables.get("coll")).to.equal("C");
      pm.expect(pm.globals.get("g1")).to.equal("G");
      pm.expect(pm.globals.get("cv0")).to.be.undefined;
      pm.expect(pm.collectionVariables.get("cv0")).to.equal("C0");
      pm.expect(pm.variables.get("g1")).to.equal("G");
      pm.variables.set("loc", "L");
      pm.expect(pm.variables.get("loc")).to.equal("L");
      pm.expect(pm.variables.get("nothing")).to.be.undefined;
      pm.expect(pm.variables.replaceIn("{{base}}/{{token}}/{{nope}}")).to.equal("http://x/T1/{{nope}}");
      pm.environment.unset("base");
      pm.expect(pm.environment.get("base")).to.be.undefined;
    });
    pm.test("request and info", function () {
      pm.expect(pm.info.requestName).to.equal("Get user");
      pm.expect(pm.info.eventName).to.equal("test");
      pm.expect(pm.request.url.getPath()).to.equal("/users/7");
      pm.expect(pm.request.url.query.get("b")).to.equal("2");
      pm.expect(pm.request.headers.get("accept")).to.equal("application/json");
    });
    tests["legacy passes"] = responseCode.code === 200 && responseBody.indexOf("pen") > 0;
    tests["legacy fails"] = responseHeaders["X-Id"] === "8";
    postman.setEnvironmentVariable("legacy", "yes");
    postman.setGlobalVariable("lg", 1);
    postman.setNextRequest("Next one");
    console.log(postman.getEnvironmentVariable("legacy"), postman.getResponseHeader("x-id"), request.url);
  `);
  assert.deepEqual(tests, [
    ["scopes", true, ""],
    ["request and info", true, ""],
    ["legacy passes", true, ""],
    ["legacy fails", false, ""],
  ]);
  assert.deepEqual(output.environment, { token: "T1", base: null, legacy: "yes" });
  assert.deepEqual(output.globals, { cv: "5" });
  assert.deepEqual(output.postmanGlobals, { lg: "1" });
  assert.deepEqual(output.requestVariables, { loc: "L" });
  assert.equal(output.nextRequest, "Next one");
  assert.deepEqual(output.logs, ["yes 7 http://127.0.0.1:1/users/7?a=1&b=2"]);
});

Deno.test("postman: a pre-request script skips its request and edits its headers", async () => {
  const { response: _response, ...prerequest } = input;
  const { output } = await outcomes(
    `
    pm.request.headers.add({ key: "X-A", value: "{{token}}" });
    pm.request.headers.upsert({ key: "Accept", value: "text/plain" });
    pm.request.headers.remove("X-None");
    pm.execution.skipRequest();
  `,
    prerequest,
  );
  assert.equal(output.skipRequest, true);
  assert.deepEqual(output.headerEdits, [
    ["add", "X-A", "{{token}}"],
    ["upsert", "Accept", "text/plain"],
    ["remove", "X-None", ""],
  ]);
});

Deno.test("postman: JSON Schema through jsonSchema and tv4", async () => {
  const { tests } = await outcomes(`
    var schema = {
      type: "object",
      required: ["id", "name"],
      properties: {
        id: { type: "integer", minimum: 1 },
        name: { type: "string", minLength: 2, pattern: "^p" },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
        nested: { $ref: "#/definitions/n" },
      },
      definitions: { n: { type: "object", properties: { x: { type: "array", maxItems: 3 } } } },
    };
    pm.test("holds", function () { pm.response.to.have.jsonSchema(schema); });
    pm.test("fails", function () {
      pm.response.to.have.jsonSchema({ required: ["missing"], properties: { id: { type: "string" } } });
    });
    pm.test("tv4", function () { pm.expect(tv4.validate(pm.response.json(), schema)).to.be.true; });
    pm.test("anyOf", function () {
      pm.expect({ a: 1 }).to.have.jsonSchema({ anyOf: [{ required: ["b"] }, { properties: { a: { const: 1 } } }], additionalProperties: false, properties: { a: {} } });
    });
  `);
  assert.deepEqual(tests, [
    ["holds", true, ""],
    [
      "fails",
      false,
      "expected data to satisfy schema but found following errors: \ndata should have required property 'missing', data.id should be string",
    ],
    ["tv4", true, ""],
    ["anyOf", true, ""],
  ]);
});

Deno.test("postman: replaceIn gives dynamic variables but never the process environment", async () => {
  const { output, tests } = await outcomes(`
    console.log(pm.variables.replaceIn("{{$guid}} {{$randomInt}} {{$processEnv HOME}} {{$env.HOME}} {{$nope}}"));
    pm.test("a test without a function is skipped, as in Postman");
  `);
  assert.deepEqual(tests, []);
  assert.match(
    output.logs[0]!,
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} \d+ \{\{\$processEnv HOME\}\} \{\{\$env\.HOME\}\} \{\{\$nope\}\}$/,
  );
});

Deno.test("postman: CryptoJS's hashes, HMACs and encoders give the standards' answers", async () => {
  const { output } = await outcomes(`
    console.log(CryptoJS.HmacSHA256("what do ya want for nothing?", "Jefe").toString());
    console.log(CryptoJS.enc.Base64.stringify(CryptoJS.SHA1("abc")), CryptoJS.MD5("abc") + "");
    console.log(CryptoJS.enc.Base64.parse("aMOpbGxv").toString(CryptoJS.enc.Utf8));
    try { CryptoJS.AES.encrypt("a", "b"); } catch (e) { console.log(e.message); }
  `);
  assert.deepEqual(output.logs, [
    // RFC 4231, test case 2; FIPS 180 "abc"; RFC 1321 "abc".
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    "qZk+NkcGgWq6PiVxeFDCbJzQ2J0= 900150983cd24fb0d6963f7d28e17f72",
    "héllo",
    "CryptoJS.AES is not available in dial's script sandbox",
  ]);
});

Deno.test("postman: the prelude and Postman's API declare no top-level name twice", () => {
  // Both are evaluated in one function scope: a second `function part` would replace the first.
  const names = (text: string) =>
    [...text.matchAll(/^(?:function|var) ([\w$]+)/gm)].map((m) => m[1]!);
  const prelude = names(scriptPrelude(false));
  const postman = names(POSTMAN_API);
  assert.ok(prelude.includes("exec") && postman.includes("installPostman"));
  assert.deepEqual(prelude.filter((name) => postman.includes(name)), []);
  assert.deepEqual(postman.filter((name, i) => postman.indexOf(name) !== i), []);
  assert.deepEqual(prelude.filter((name, i) => prelude.indexOf(name) !== i), []);
});
