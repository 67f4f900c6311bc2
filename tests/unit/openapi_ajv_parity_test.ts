/**
 * The contract checker against a checker built on Ajv (2020-12 build with `ajv-formats`), the
 * validator issue 40 names as the reference: on the same description, every drift Ajv finds,
 * dial finds at the same JSON pointer, and dial finds nothing Ajv does not (3.0's `nullable` and
 * integer formats, 3.1's `prefixItems`, `const`, `unevaluatedProperties`, the formats OpenAPI
 * names).
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ContractChecker } from "../../src/openapi/contract_check.ts";
import { readContract } from "../../src/openapi/openapi_contract.ts";

// deno-lint-ignore no-explicit-any
const addFormats = addFormatsModule as unknown as (ajv: any) => void;

/** One response schema per operation (`GET /<name>`), 3.0 and 3.1. */
const SCHEMAS: Record<string, Record<string, unknown>> = {
  pet: {
    type: "object",
    required: ["id", "name"],
    additionalProperties: false,
    properties: {
      id: { type: "integer", format: "int32" },
      name: { type: "string", minLength: 1, maxLength: 20 },
      tag: { type: "string", nullable: true },
      status: { type: "string", enum: ["available", "sold"] },
      born: { type: "string", format: "date-time" },
      day: { type: "string", format: "date" },
      uid: { type: "string", format: "uuid" },
      mail: { type: "string", format: "email" },
      home: { type: "string", format: "uri" },
      ip: { type: "string", format: "ipv4" },
      weight: { type: "number", minimum: 0, exclusiveMaximum: 100 },
      code: { type: "string", pattern: "^[A-Z]{3}$" },
      tags: { type: "array", items: { type: "string" }, maxItems: 3, uniqueItems: true },
      owner: {
        type: "object",
        required: ["login"],
        properties: { login: { type: "string" }, age: { type: "integer", minimum: 0 } },
      },
    },
  },
};

const SCHEMAS_31: Record<string, Record<string, unknown>> = {
  point: {
    type: "array",
    prefixItems: [{ type: "number" }, { type: "number" }, { const: "m" }],
    items: false,
  },
  closed: {
    type: "object",
    allOf: [{ properties: { a: { type: "string" } } }],
    properties: { b: { type: ["integer", "null"] } },
    unevaluatedProperties: false,
  },
  forbidden: { type: "object", properties: { secret: false, list: { items: false } } },
};

function description(version: "3.0.3" | "3.1.0", schemas: Record<string, unknown>): string {
  const paths: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    paths[`/${name}`] = {
      get: {
        responses: {
          "200": { description: "ok", content: { "application/json": { schema } } },
        },
      },
    };
  }
  return JSON.stringify({ openapi: version, info: { title: "t", version: "1" }, paths });
}

/** Bodies that keep or break each schema. */
const CASES: Array<[string, unknown]> = [
  ["pet", { id: 1, name: "Rex" }],
  ["pet", { id: 1, name: "Rex", tag: null, status: "sold", born: "2020-01-02T03:04:05Z" }],
  ["pet", { id: "one", name: "Rex" }],
  ["pet", { id: 2 ** 31, name: "Rex" }],
  ["pet", { id: 1 }],
  ["pet", { name: "" }],
  ["pet", { id: 1, name: "Rex", color: "brown" }],
  ["pet", { id: 1, name: "Rex", status: "lost" }],
  ["pet", { id: 1, name: null }],
  ["pet", { id: 1, name: "Rex", born: "yesterday", day: "2020-13-01" }],
  ["pet", { id: 1, name: "Rex", uid: "not-a-uuid", mail: "nobody", home: "no scheme" }],
  ["pet", { id: 1, name: "Rex", ip: "300.1.1.1", weight: 100, code: "abc" }],
  ["pet", { id: 1, name: "Rex", tags: ["a", "a"] }],
  ["pet", { id: 1, name: "Rex", tags: ["a", "b", "c", "d"] }],
  ["pet", { id: 1, name: "Rex", owner: { age: -1 } }],
  ["pet", [{ id: 1, name: "Rex" }]],
  ["point", [1, 2, "m"]],
  ["point", [1, "2", "km"]],
  ["point", [1, 2, "m", 4]],
  ["closed", { a: "x", b: null }],
  ["closed", { a: 1, b: 1.5, c: true }],
  ["forbidden", { other: 1, list: [] }],
  ["forbidden", { secret: "x", list: [1] }],
];

/** Ajv's errors as pointers to the offending value (a missing or extra property included). */
// deno-lint-ignore no-explicit-any
function ajvPointers(errors: any[]): string[] {
  return errors.filter((e) => !["anyOf", "oneOf", "if", "allOf"].includes(e.keyword)).map((e) => {
    const name = e.params.missingProperty ?? e.params.additionalProperty ??
      e.params.unevaluatedProperty;
    return name === undefined ? e.instancePath : `${e.instancePath}/${name}`;
  });
}

Deno.test("openapi: every drift an Ajv-based checker finds, dial finds at the same pointer, and no other", async () => {
  const contracts = [
    await readContract(description("3.0.3", SCHEMAS), { name: "3.0" }),
    await readContract(description("3.1.0", SCHEMAS_31), { name: "3.1" }),
  ];
  let drifts = 0;
  for (const contract of contracts) {
    const checker = new ContractChecker(contract);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(contract.document as object, "doc");
    for (const operation of contract.operations) {
      const name = operation.path.slice(1);
      const validate = ajv.compile({
        $ref: `doc#/paths/~1${name}/get/responses/200/content/application~1json/schema`,
      });
      for (const [which, body] of CASES.filter(([n]) => n === name)) {
        const expected = validate(body) ? [] : ajvPointers(validate.errors ?? []);
        const found = checker.check({
          method: "GET",
          url: `http://api.test/${which}`,
          requestHeaders: [],
          requestBody: "",
          status: 200,
          headers: [["content-type", "application/json"]],
          body: JSON.stringify(body),
        }).map((v) => /^(\/[^:]*): /.exec(v.message)?.[1] ?? "");
        const label = `${contract.source} ${which} ${JSON.stringify(body)}`;
        assert.deepEqual([...new Set(found)].sort(), [...new Set(expected)].sort(), label);
        if (expected.length) drifts++;
      }
    }
  }
  assert.ok(drifts >= 15, `only ${drifts} drifts compared`);
});
