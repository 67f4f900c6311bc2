/**
 * `dial test --openapi SPEC`: every exchange checked against an OpenAPI description (3.0 with a
 * cross-file `$ref`, 3.1, Swagger 2.0), violations as failed tests with the JSON pointer, the
 * rule and the value, in every reporter; coverage; bad descriptions stop the run before
 * anything is sent.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { project, reportCases } from "./_files.ts";
import { oneGetSpec, petProject, petServer, petTest } from "./_openapi_pets.ts";

Deno.test("openapi: exchanges that keep a 3.0 description (cross-file $ref, nullable, readOnly) pass, with coverage", async () => {
  await using server = petServer();
  const dir = await petProject(
    server.origin,
    `GET {{origin}}/v1/pets?limit=10\n\n###\nGET {{origin}}/v1/pets/1\n\n###\nPOST {{origin}}/v1/pets\nContent-Type: application/json\n\n{"name": "Rex", "tag": null}\n`,
  );
  const result = await dial(petTest(dir));
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /openapi: 3\/4 operations exercised\nnever called: GET \/owners/);
  const json = await dial([...petTest(dir), "--reporter", "json"]);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.openapi, { exercised: 3, total: 4, missing: ["GET /owners"] });
});

const DRIFTS: Array<[string, RegExp]> = [
  ["type", /\/id: must be integer, got string \(response 200 body\)/],
  ["int32", /\/id: 4294967296 is greater than 2147483647 \(maximum\)/],
  ["missing", /\/name: required property missing \(response 200 body\)/],
  ["extra", /\/color: property not allowed \(additionalProperties\) \(response 200 body\)/],
  ["enum", /\/status: must be one of \["available","sold"\], got "lost"/],
  ["date", /\/born: must be a date-time, got "yesterday"/],
  ["null", /\/name: must be string, got null/],
  ["status", /status 418 is not documented \(200, 404\)/],
  [
    "type-header",
    /response 200: content type "text\/plain" is not documented \(application\/json\)/,
  ],
];

for (const [drift, expected] of DRIFTS) {
  Deno.test(`openapi: a response that drifts (${drift}) is a failed test named after the operation`, async () => {
    await using server = petServer();
    const dir = await petProject(server.origin, `GET {{origin}}/v1/pets/1?drift=${drift}\n`);
    const result = await dial([...petTest(dir), "--reporter", "junit"]);
    assert.equal(result.code, 11, result.stdout + result.stderr);
    assert.match(result.stdout, /<testcase [^>]*name="[^"]* › GET \/pets\/\{id\}"/);
    assert.match(result.stdout.replaceAll("&quot;", '"'), expected);
  });
}

Deno.test("openapi: bad requests (parameters, body, unknown operation) are violations; the requests' own tests still count", async () => {
  await using server = petServer();
  const dir = await petProject(
    server.origin,
    `GET {{origin}}/v1/pets?limit=1000\n\n###\nGET {{origin}}/v1/pets/abc\n\n###\nPOST {{origin}}/v1/pets\nContent-Type: application/json\n\n{"tag": 5}\n\n###\nDELETE {{origin}}/v1/pets/1\n\n> {% client.test("own test", function () {}); %}\n`,
  );
  const result = await dial([...petTest(dir), "--reporter", "tap"]);
  assert.equal(result.code, 11, result.stdout + result.stderr);
  const out = result.stdout;
  assert.match(
    out,
    /not ok .* › GET \/pets\n[\s\S]*?query parameter \\"limit\\": 1000 is greater than 100 \(maximum\)/,
  );
  assert.match(out, /path parameter \\"id\\": must be integer, got string/);
  assert.match(out, /\/name: required property missing \(request body\)/);
  assert.match(
    out,
    /\/tag: must be string or null, got integer \(request body\)/,
  );
  assert.match(out, /undocumented: no operation of .* matches DELETE \/v1\/pets\/1/);
  assert.match(out, /ok \d+ .*own test/);
});

Deno.test("openapi: a 3.1 description's keywords (prefixItems, const, unevaluatedProperties) and a Swagger 2.0 one, each with a cross-file $ref", async () => {
  await using server = serve((request) => {
    const drift = new URL(request.url).searchParams.get("drift");
    return Response.json(
      drift ? { pair: [1, 2], kind: "other", extra: true } : { pair: ["a", 2], kind: "point" },
    );
  });
  const spec31 = oneGetSpec("/thing", {
    type: "object",
    properties: { pair: { $ref: "./schemas31.json#/$defs/Pair" }, kind: { const: "point" } },
    unevaluatedProperties: false,
  });
  const swagger = `swagger: "2.0"
info: { title: t, version: "1" }
basePath: /
paths:
  /thing:
    get:
      produces: [application/json]
      responses:
        "200":
          description: ok
          schema:
            type: object
            required: [kind]
            properties:
              kind: { $ref: "./defs.yaml#/Kind" }
`;
  const dir = await project({
    "spec31.json": spec31,
    "swagger.yaml": swagger,
    "schemas31.json": JSON.stringify({
      $defs: { Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] } },
    }),
    "defs.yaml": "Kind: { type: string, enum: [point] }\n",
    "ok.http": `GET ${server.origin}/thing\n`,
    "drift.http": `GET ${server.origin}/thing?drift=1\n`,
  });
  const ok31 = await dial(["test", `${dir}/ok.http`, "--openapi", `${dir}/spec31.json`]);
  assert.equal(ok31.code, 0, ok31.stdout);
  const drift31 = await dial(["test", `${dir}/drift.http`, "--openapi", `${dir}/spec31.json`]);
  assert.equal(drift31.code, 11);
  assert.match(drift31.stdout, /\/pair\/0: must be string, got integer/);
  assert.match(drift31.stdout, /\/kind: must be "point", got "other"/);
  assert.match(drift31.stdout, /\/extra: property not allowed \(unevaluatedProperties\)/);
  const ok20 = await dial(["test", `${dir}/ok.http`, "--openapi", `${dir}/swagger.yaml`]);
  assert.equal(ok20.code, 0, ok20.stdout);
  const drift20 = await dial(["test", `${dir}/drift.http`, "--openapi", `${dir}/swagger.yaml`]);
  assert.equal(drift20.code, 11);
  assert.match(drift20.stdout, /\/kind: must be one of \["point"\], got "other"/);
});

Deno.test("openapi: an unreadable, unparseable or non-OpenAPI description, or a $ref out of its folder, stops the run before anything is sent", async () => {
  await using server = serve(() => new Response("ok"));
  const dir = await project({
    "api.http": `GET ${server.origin}/x\n`,
    "broken.yaml": "openapi: 3.0.0\npaths: [unclosed\n",
    "other.json": JSON.stringify({ hello: "world" }),
    "spec/escape.yaml":
      `openapi: 3.0.0\ninfo: { title: t, version: "1" }\npaths:\n  /x:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: "../outside.yaml#/S" }\n`,
    "outside.yaml": "S: { type: string }\n",
  });
  const cases: Array<[string, RegExp]> = [
    [`${dir}/missing.yaml`, /Cannot read ".*missing\.yaml": no such file/],
    [
      `${dir}/broken.yaml`,
      /Cannot read the OpenAPI description ".*broken\.yaml": line \d+, column \d+: Flow sequence/,
    ],
    [`${dir}/other.json`, /not an OpenAPI 3 or Swagger 2\.0 description/],
    [`${dir}/spec/escape.yaml`, /outside the description's folder/],
  ];
  for (const [spec, message] of cases) {
    const result = await dial(["test", `${dir}/api.http`, "--openapi", spec]);
    assert.equal(result.code, 2, `${spec}: ${result.stderr}`);
    assert.match(result.stderr, message);
  }
  assert.equal(server.requests.length, 0);
});

Deno.test("openapi: a violation is a failed case of the JSON and HTML reports too", async () => {
  await using server = petServer();
  const dir = await petProject(server.origin, `GET {{origin}}/v1/pets/1?drift=missing\n`);
  const args = petTest(dir);
  const json = await dial([...args, "--reporter", "json"]);
  assert.equal(json.code, 11);
  const failed = reportCases(json.stdout).filter((c) => c.outcome === "failed");
  assert.deepEqual(failed.map((c) => [c.name, c.message]), [
    ["GET /pets/{id}", "/name: required property missing (response 200 body)"],
  ]);
  const html = await dial([...args, "--reporter", "html"]);
  assert.equal(html.code, 11);
  assert.match(html.stdout, /GET \/pets\/\{id\}/);
  assert.match(html.stdout, /\/name: required property missing \(response 200 body\)/);
});
