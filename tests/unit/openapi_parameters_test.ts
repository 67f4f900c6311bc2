/**
 * Parameters read as OpenAPI's `style` and `explode` serialize them (path `simple`, `label`,
 * `matrix`; query `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`; headers; cookies;
 * `content` instead of `schema`): values that keep their schema pass, drifted ones are
 * violations naming the parameter.
 * @see https://spec.openapis.org/oas/v3.1.0#style-examples
 */
import assert from "node:assert/strict";
import { ContractChecker } from "../../src/openapi/contract_check.ts";
import { readContract } from "../../src/openapi/openapi_contract.ts";

const INTS = { type: "array", items: { type: "integer" }, maxItems: 3 };
const RGB = {
  type: "object",
  properties: { R: { type: "integer" }, G: { type: "integer" }, B: { type: "integer" } },
  required: ["R"],
  additionalProperties: false,
};

const PARAMETERS: Record<string, unknown[]> = {
  "/simple/{ids}/{color}": [
    { name: "ids", in: "path", required: true, schema: INTS },
    { name: "color", in: "path", required: true, explode: true, schema: RGB },
  ],
  "/label/{ids}/{color}": [
    { name: "ids", in: "path", required: true, style: "label", schema: INTS },
    { name: "color", in: "path", required: true, style: "label", explode: true, schema: RGB },
  ],
  "/matrix/{ids}/{color}": [
    { name: "ids", in: "path", required: true, style: "matrix", explode: true, schema: INTS },
    { name: "color", in: "path", required: true, style: "matrix", schema: RGB },
  ],
  "/query": [
    { name: "ids", in: "query", schema: INTS },
    { name: "csv", in: "query", explode: false, schema: INTS },
    { name: "spaced", in: "query", style: "spaceDelimited", explode: false, schema: INTS },
    { name: "piped", in: "query", style: "pipeDelimited", explode: false, schema: INTS },
    { name: "color", in: "query", style: "deepObject", explode: true, schema: RGB },
    { name: "filter", in: "query", content: { "application/json": { schema: RGB } } },
    { name: "either", in: "query", schema: { oneOf: [{ type: "integer" }, { type: "boolean" }] } },
  ],
  "/exploded": [{ name: "color", in: "query", schema: RGB }],
  "/headers": [
    { name: "X-Ids", in: "header", required: true, schema: INTS },
    { name: "X-Color", in: "header", explode: true, schema: RGB },
    { name: "session", in: "cookie", required: true, schema: { type: "string", minLength: 4 } },
    { name: "page", in: "cookie", schema: { type: "integer", minimum: 1 } },
  ],
};

async function checker(): Promise<ContractChecker> {
  const paths: Record<string, unknown> = {};
  for (const [path, parameters] of Object.entries(PARAMETERS)) {
    paths[path] = { get: { parameters, responses: { "200": { description: "ok" } } } };
  }
  const spec = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths };
  return new ContractChecker(await readContract(JSON.stringify(spec), { name: "t" }));
}

function check(c: ContractChecker, target: string, headers: [string, string][] = []): string[] {
  return c.check({
    method: "GET",
    url: `http://api.test${target}`,
    requestHeaders: headers,
    requestBody: "",
    status: 200,
    headers: [],
    body: "",
  }).map((v) => v.message);
}

Deno.test("openapi: path parameters in simple, label and matrix style, arrays and objects", async () => {
  const c = await checker();
  assert.deepEqual(check(c, "/simple/3,4,5/R=100,G=200"), []);
  assert.deepEqual(check(c, "/label/.3,4,5/.R=100.G=200"), []);
  assert.deepEqual(check(c, "/matrix/;ids=3;ids=4/;color=R,100,G,200"), []);
  assert.deepEqual(check(c, "/simple/3,x/R=100"), [
    '/1: must be integer, got string (path parameter "ids")',
  ]);
  assert.deepEqual(check(c, "/label/.3,4,5,6/.G=1"), [
    'path parameter "ids": Array has too many items (4 > 3) (maxItems)',
    '/R: required property missing (path parameter "color")',
  ]);
  assert.deepEqual(check(c, "/matrix/;ids=3;ids=x/;color=R,1,Z,2"), [
    '/1: must be integer, got string (path parameter "ids")',
    '/Z: property not allowed (additionalProperties) (path parameter "color")',
  ]);
});

Deno.test("openapi: query parameters in form, spaceDelimited, pipeDelimited and deepObject style, and as JSON content", async () => {
  const c = await checker();
  assert.deepEqual(
    check(
      c,
      "/query?ids=1&ids=2&csv=1,2&spaced=1%202&piped=1|2&color[R]=1&color[G]=2&filter=%7B%22R%22%3A1%7D&either=true",
    ),
    [],
  );
  assert.deepEqual(check(c, "/exploded?R=1&G=2"), []);
  assert.deepEqual(
    check(c, "/query?csv=1,x&spaced=1%20y&piped=1|2|3|4"),
    [
      '/1: must be integer, got string (query parameter "csv")',
      '/1: must be integer, got string (query parameter "spaced")',
      'query parameter "piped": Array has too many items (4 > 3) (maxItems)',
    ],
  );
  assert.deepEqual(
    check(c, "/query?color[G]=x&filter=%7B%22R%22%3A%22a%22%7D&either=maybe"),
    [
      '/R: required property missing (query parameter "color")',
      '/G: must be integer, got string (query parameter "color")',
      '/R: must be integer, got string (query parameter "filter")',
    ].concat(check(c, "/query?either=maybe")),
  );
  assert.deepEqual(check(c, "/query?filter=%7Bnot"), [
    'query parameter "filter": not JSON, as application/json says',
  ]);
  assert.deepEqual(check(c, "/exploded?G=x"), [
    '/R: required property missing (query parameter "color")',
    '/G: must be integer, got string (query parameter "color")',
  ]);
});

Deno.test("openapi: header and cookie parameters", async () => {
  const c = await checker();
  assert.deepEqual(
    check(c, "/headers", [["X-Ids", "1,2"], ["X-Color", "R=1,B=3"], [
      "Cookie",
      "a=b; session=abcd; page=2",
    ]]),
    [],
  );
  assert.deepEqual(check(c, "/headers", [["X-Ids", "1,2,3,4"], ["Cookie", "session=ab; page=0"]]), [
    'header parameter "X-Ids": Array has too many items (4 > 3) (maxItems)',
    'cookie parameter "session": String is too short (2 < 4) (minLength)',
    'cookie parameter "page": 0 is less than 1 (minimum)',
  ]);
  assert.deepEqual(check(c, "/headers"), [
    'header parameter "X-Ids": required, not sent',
    'cookie parameter "session": required, not sent',
  ]);
});
