import assert from "node:assert/strict";
import { ContractChecker } from "../../src/openapi/contract_check.ts";
import { readContract } from "../../src/openapi/openapi_contract.ts";

/** Descriptions of `@readme/oas-examples` whose JSON responses carry examples. */
const FILES = [
  "3.0/json/response-examples.json",
  "3.0/json/request-examples.json",
  "3.0/json/polymorphism.json",
  "3.0/json/discriminators.json",
  "3.0/json/schema-types.json",
  "3.0/json/star-trek.json",
  "3.1/json/train-travel.json",
  "3.1/json/petstore.json",
  "3.1/json/schema-types.json",
];

Deno.test("openapi: the documented response examples of public descriptions keep their own contract (no false alarms)", async () => {
  let checked = 0;
  for (const file of FILES) {
    const specifier = `@readme/oas-examples/${file}`;
    const { default: document } = await import(specifier, { with: { type: "json" } });
    const contract = await readContract(JSON.stringify(document), { name: file });
    const checker = new ContractChecker(contract);
    for (const operation of contract.operations) {
      const responses = (operation.operation.responses ?? {}) as Record<string, unknown>;
      for (const [status, response] of Object.entries(responses)) {
        if (!/^\d{3}$/.test(status)) continue;
        const content = ((response as { content?: unknown }).content ?? {}) as Record<
          string,
          { example?: unknown; examples?: Record<string, { value?: unknown }> }
        >;
        for (const [media, object] of Object.entries(content)) {
          if (!/json/.test(media)) continue;
          const examples = [
            object.example,
            ...Object.values(object.examples ?? {}).map((e) => e?.value),
          ].filter((e) => e !== undefined);
          for (const example of examples) {
            // Some descriptions write an example as the JSON text itself.
            const body = typeof example === "string" && /^\s*[[{]/.test(example)
              ? example
              : JSON.stringify(example);
            const url = `http://api.test${contract.basePath}${
              operation.path.replace(/\{[^}]+\}/g, "1")
            }`;
            const violations = checker.check({
              method: operation.method,
              url,
              requestHeaders: [],
              requestBody: "",
              status: Number(status),
              headers: [["content-type", media]],
              body,
            }).filter((v) => /^\/|response/.test(v.message));
            assert.deepEqual(violations, [], `${file} ${operation.name} ${status}`);
            checked++;
          }
        }
      }
    }
  }
  assert.ok(checked >= 40, `only ${checked} examples checked`);
});

Deno.test("openapi: a discriminator picks the branch: overlapping branches are no error, the picked one is checked", async () => {
  const spec = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/pet": {
        get: {
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Pet: {
          oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
          discriminator: {
            propertyName: "petType",
            mapping: { cat: "#/components/schemas/Cat", dog: "Dog" },
          },
        },
        Cat: {
          type: "object",
          required: ["petType", "name"],
          properties: { petType: { type: "string" }, name: { type: "string" } },
        },
        Dog: {
          type: "object",
          required: ["petType"],
          properties: { petType: { type: "string" }, bark: { type: "boolean" } },
        },
      },
    },
  };
  const checker = new ContractChecker(await readContract(JSON.stringify(spec), { name: "t" }));
  const check = (body: unknown) =>
    checker.check({
      method: "GET",
      url: "http://api.test/pet",
      requestHeaders: [],
      requestBody: "",
      status: 200,
      headers: [["content-type", "application/json"]],
      body: JSON.stringify(body),
    }).map((v) => v.message);
  // A cat is a valid Dog too: with oneOf alone that would be "2 matches".
  assert.deepEqual(check({ petType: "cat", name: "Tom" }), []);
  const dog = check({ petType: "dog", bark: "loud" });
  assert.ok(dog.includes("/bark: must be boolean, got string (response 200 body)"), dog.join("\n"));
});
