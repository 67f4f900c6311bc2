/**
 * Postman's script API in dial's sandbox, side by side with Newman (npm) on the same collection's
 * scripts and the same loopback server: the same requests sent and the same assertion outcomes.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { project } from "./_files.ts";
import { dialOutcomes, newman, type Outcome, postmanCollection } from "./_newman.ts";

function itemServer() {
  return serve(async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/items") {
      const body = await request.json();
      return Response.json({ id: 7, name: body.name, tags: ["a", "b"] }, {
        status: 201,
        headers: { "X-Request-Id": "r-1" },
      });
    }
    if (url.pathname === "/items/7") {
      return Response.json({ id: 7, name: "pen", stamp: request.headers.get("x-stamp") });
    }
    return Response.json({ error: "missing" }, { status: 404 });
  });
}

/** Each request's scripts, as Postman holds them (exec lines) and as dial's `.http` holds them. */
const REQUESTS = [
  {
    name: "Create item",
    method: "POST",
    path: "/items",
    body: '{"name": "pen"}',
    prerequest: [
      'pm.environment.set("stamp", "s-" + "1");',
      'pm.variables.set("local", "L");',
    ],
    test: [
      'pm.test("Status code is 201", function () { pm.response.to.have.status(201); });',
      'pm.test("Status code is 200 (fails)", function () { pm.response.to.have.status(200); });',
      'pm.test("Body has the name", function () {',
      "  var json = pm.response.json();",
      '  pm.expect(json).to.have.property("name", "pen");',
      '  pm.expect(json.tags).to.be.an("array").that.includes("a").and.has.lengthOf(2);',
      "  pm.expect(json).to.deep.include({ id: 7 });",
      "});",
      'pm.test("Header is there", function () { pm.response.to.have.header("X-Request-Id", "r-1"); });',
      'pm.test("Deep equal fails", function () { pm.expect(pm.response.json().tags).to.eql(["b", "a"]); });',
      'pm.test("Response time is a number", function () { pm.expect(pm.response.responseTime).to.be.a("number"); });',
      'pm.test("Schema holds", function () {',
      '  pm.response.to.have.jsonSchema({ type: "object", required: ["id", "name"], properties: { id: { type: "integer", minimum: 1 }, tags: { type: "array", items: { type: "string" }, uniqueItems: true } } });',
      "});",
      'pm.test("Schema fails", function () { pm.response.to.have.jsonSchema({ type: "object", required: ["missing"] }); });',
      'pm.test("tv4 holds", function () { pm.expect(tv4.validate(pm.response.json(), { properties: { name: { type: "string", enum: ["pen"] } } })).to.be.true; });',
      'pm.environment.set("itemId", pm.response.json().id);',
      'tests["legacy: code is 201"] = responseCode.code === 201;',
      'tests["legacy: body has pen (fails)"] = responseBody.indexOf("pencil") !== -1;',
    ],
  },
  {
    name: "Get item",
    method: "GET",
    path: "/items/{{itemId}}",
    headers: [["X-Stamp", "{{stamp}}"], ["X-Gone", "soon"]],
    prerequest: [
      'pm.request.headers.add({ key: "X-Added", value: "{{stamp}}-added" });',
      'pm.request.headers.remove("X-Gone");',
      'pm.request.headers.upsert({ key: "X-Stamp", value: pm.environment.get("stamp") });',
      'var signature = CryptoJS.HmacSHA256("GET /items/7 " + CryptoJS.SHA256("héllo").toString(), "secret");',
      'pm.request.headers.add({ key: "X-Signature", value: CryptoJS.enc.Base64.stringify(signature) });',
      'pm.request.headers.add({ key: "X-Md5", value: CryptoJS.MD5(CryptoJS.enc.Utf8.parse("a")).toString(CryptoJS.enc.Hex) });',
    ],
    test: [
      'pm.test("Status is OK", function () { pm.response.to.be.ok; pm.response.to.be.success; });',
      'pm.test("Stamp came from the pre-request script", function () {',
      '  pm.expect(pm.response.json().stamp).to.equal(pm.environment.get("stamp"));',
      "});",
      'pm.test("Name is not pencil", function () { pm.expect(pm.response.json().name).to.not.equal("pencil"); });',
      'pm.test("Globals round trip", function () {',
      '  pm.globals.set("seen", "yes");',
      '  pm.expect(pm.globals.get("seen")).to.equal("yes");',
      '  pm.expect(postman.getGlobalVariable("seen")).to.equal("yes");',
      "});",
      'postman.setNextRequest("Missing");',
    ],
  },
  {
    name: "Jumped over",
    method: "GET",
    path: "/never",
    test: ['pm.test("never runs", function () {});'],
  },
  {
    name: "Missing",
    method: "GET",
    path: "/missing",
    test: [
      'pm.test("Not found", function () { pm.response.to.be.notFound; pm.response.to.be.clientError; });',
      'pm.test("One of", function () { pm.expect(pm.response.code).to.be.oneOf([200, 404]); });',
      'pm.test("Ok fails", function () { pm.response.to.be.ok; });',
      'pm.test("Replace in", function () {',
      '  pm.expect(pm.variables.replaceIn("{{baseUrl}}/items/{{itemId}}")).to.match(/\\/items\\/7$/);',
      "});",
      'pm.test("Info", function () { pm.expect(pm.info.requestName).to.equal("Missing"); pm.expect(pm.info.eventName).to.equal("test"); });',
    ],
  },
  {
    name: "Legacy",
    method: "GET",
    path: "/items/7",
    headers: [["X-A", "1"]],
    test: [
      "var data = JSON.parse(responseBody);",
      'tests["has"] = responseBody.has("pen");',
      'tests["header"] = postman.getResponseHeader("Content-Type");',
      'tests["response time"] = responseTime < 60000;',
      'tests["environment"] = environment.baseUrl !== undefined;',
      'tests["data"] = data.id === 7;',
      'tests["iteration"] = iteration === 0;',
      'tests["code name"] = responseCode.name === "OK";',
      'tests["zero fails"] = 0;',
      'tests["request"] = request.url.indexOf("/items/7") > 0 && request.headers["x-a"] === "1";',
      'postman.setEnvironmentVariable("legacyId", data.id);',
      'tests["set and get"] = postman.getEnvironmentVariable("legacyId") == 7;',
    ],
  },
  {
    name: "Broken pre-request",
    method: "GET",
    path: "/items/7",
    prerequest: [
      'pm.environment.set("sub", require("postman-collection").Property.replaceSubstitutions("{{$randomInt}}"));',
      "notAFunction();",
    ],
    test: [
      'pm.test("sent anyway, as Newman does", function () { pm.response.to.have.status(200); });',
      'pm.test("require worked", function () { pm.expect(pm.environment.get("sub")).to.match(/^\\d+$/); });',
    ],
  },
  {
    name: "Skipped",
    method: "GET",
    path: "/skipped",
    prerequest: ["pm.execution.skipRequest();"],
    test: ['pm.test("never runs either", function () {});'],
  },
];

function collection() {
  return postmanCollection("parity", {
    item: REQUESTS.map((r) => ({
      name: r.name,
      event: [
        ...(r.prerequest
          ? [{ listen: "prerequest", script: { type: "text/javascript", exec: r.prerequest } }]
          : []),
        { listen: "test", script: { type: "text/javascript", exec: r.test } },
      ],
      request: {
        method: r.method,
        header: (r.headers ?? []).map(([key, value]) => ({ key, value })),
        ...(r.body
          ? { body: { mode: "raw", raw: r.body, options: { raw: { language: "json" } } } }
          : {}),
        url: `{{baseUrl}}${r.path}`,
      },
    })),
  });
}

/** The same requests and scripts as a `.http` file: `# @postman`, scripts unchanged. */
function httpFile(): string {
  return REQUESTS.map((r) =>
    [
      `### ${r.name}`,
      "# @postman",
      ...(r.prerequest ? ["< {%", ...r.prerequest, "%}"] : []),
      `${r.method} {{baseUrl}}${r.path}`,
      ...(r.body ? ["Content-Type: application/json"] : []),
      ...(r.headers ?? []).map(([k, v]) => `${k}: ${v}`),
      ...(r.body ? ["", r.body] : []),
      "",
      "> {%",
      ...r.test,
      "%}",
      "",
    ].join("\n")
  ).join("\n");
}

/** An outcome as passed or not (dial's `error` and `failed` alike, as Newman knows no errors). */
function passed({ request, test, outcome }: Outcome) {
  return { request, test, passed: outcome === "passed" };
}

Deno.test("postman: pm and the legacy API reach Newman's outcomes on the same collection and server", async () => {
  await using server = itemServer();
  const dir = await project({
    "parity.postman_collection.json": JSON.stringify(collection()),
    "parity.postman_environment.json": JSON.stringify({
      name: "test",
      values: [
        { key: "baseUrl", value: server.origin, enabled: true },
        { key: "itemId", value: "", enabled: true },
      ],
    }),
    "http/parity.http": httpFile(),
    "http/http-client.env.json": JSON.stringify({ test: { baseUrl: server.origin, itemId: "" } }),
  });
  const newmanRun = await newman(
    ["parity.postman_collection.json", "-e", "parity.postman_environment.json"],
    { cwd: dir, clean: true, report: true },
  );
  const newmanText = newmanRun.stdout + newmanRun.stderr;
  const theirs = newmanRun.outcomes.map(passed);
  const theirPaths = server.requests.map((r) => new URL(r.url).pathname);
  const headersOf = (requests: Request[]) =>
    requests.map((r) =>
      ["x-stamp", "x-added", "x-gone", "x-signature", "x-md5"].map((h) => r.headers.get(h))
    );
  const theirHeaders = headersOf(server.requests);
  server.requests.length = 0;

  const result = await dial([
    "test",
    `${dir}/http`,
    "--env",
    "test",
    "--reporter",
    "json",
    "--report-file",
    `${dir}/dial.json`,
  ]);
  const ours = dialOutcomes(await Deno.readTextFile(`${dir}/dial.json`))
    // "skipped": a request skipRequest skipped; "prerequest-script": the failure Newman lists
    // apart from its assertions.
    .filter((c) => c.test !== "skipped" && c.test !== "prerequest-script").map(passed);
  assert.equal(theirs.length, 32, newmanText);
  assert.ok(theirs.some((t) => !t.passed) && theirs.some((t) => t.passed), newmanText);
  assert.deepEqual(ours, theirs, result.stdout + result.stderr);
  // The same requests: "Jumped over" skipped by setNextRequest, "Skipped" by skipRequest.
  const ourPaths = server.requests.map((r) => new URL(r.url).pathname);
  assert.deepEqual(theirPaths, ["/items", "/items/7", "/missing", "/items/7", "/items/7"]);
  assert.deepEqual(ourPaths, theirPaths);
  // pm.request.headers.add/remove/upsert in a pre-request script change what is sent.
  assert.deepEqual(theirHeaders[1]!.slice(0, 3), ["s-1", "s-1-added", null]);
  assert.equal(theirHeaders[1]![4], "0cc175b9c0f1b6a831c399e269772661");
  assert.deepEqual(headersOf(server.requests), theirHeaders);
  assert.equal(result.code, 11, result.stdout + result.stderr);
});

Deno.test("postman: an API dial does not have fails its test with a message, and the run goes on", async () => {
  await using server = itemServer();
  const dir = await project({
    "a.http": `### one
# @postman
GET ${server.origin}/items/7

> {%
pm.test("uses a package", function () { pm.require("@team/utils"); });
pm.test("uses lodash", function () { _.get({}, "a"); });
pm.test("unknown chai word", function () { pm.expect(1).to.be.frobnicated; });
pm.test("still fine", function () { pm.response.to.have.status(200); });
pm.cookies.get("a");
%}

### two
# @postman
GET ${server.origin}/items/7

> {%
pm.test("second request runs", function () { pm.response.to.have.status(200); });
%}

### three (no @postman)
GET ${server.origin}/items/7

> {%
pm.test("x", function () {});
%}
`,
  });
  const result = await dial(["test", dir]);
  const out = result.stdout;
  assert.match(
    out,
    /✗ .*uses a package: Error: require\("@team\/utils"\) is not available in dial's script sandbox/,
  );
  assert.match(out, /✓ .*uses lodash/);
  assert.match(
    out,
    /✗ .*unknown chai word: Error: pm\.expect\(…\)\.frobnicated is not an assertion dial knows/,
  );
  assert.match(out, /✓ .*still fine/);
  // Outside a test, the script's error is its request's error; the next requests still run.
  assert.match(out, /pm\.cookies is not available in dial's script sandbox/);
  assert.match(out, /✓ .*two › second request runs/);
  assert.match(
    out,
    /'pm' is not defined \(add `# @postman` to the request for Postman's script API\)/,
  );
  assert.equal(server.requests.length, 3);
});
