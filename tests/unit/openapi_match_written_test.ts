/**
 * The operation a URL matches as a request file writes it (the UI's OpenAPI side): its
 * `{{variables}}` unknown, each one path segment, or, starting the URL, its origin and base path.
 */
import assert from "node:assert/strict";
import { matchWritten, readContract } from "../../src/openapi/openapi_contract.ts";

const SPEC = `openapi: 3.0.3
info: { title: Pets, version: "1" }
servers: [{ url: "http://api.test/v1" }]
paths:
  /pets: { get: { responses: { "200": { description: ok } } } }
  /pets/mine: { get: { responses: { "200": { description: ok } } } }
  /pets/{id}: { get: { responses: { "200": { description: ok } } } }
  /pets/{id}/toys: { post: { responses: { "201": { description: ok } } } }
`;

Deno.test("openapi: a URL as written matches its operation, its variables unknown", async () => {
  const contract = await readContract(SPEC, { name: "pets.yaml" });
  const name = (method: string, url: string) => matchWritten(contract, method, url)?.name;
  assert.equal(name("GET", "http://api.test/v1/pets?limit=5"), "GET /pets");
  assert.equal(name("GET", "http://localhost:8080/v1/pets/mine"), "GET /pets/mine");
  assert.equal(name("GET", "{{origin}}/v1/pets/{{id}}"), "GET /pets/{id}");
  assert.equal(name("GET", "{{base}}/pets/7"), "GET /pets/{id}");
  assert.equal(name("POST", "{{base}}/pets/{{id}}/toys"), "POST /pets/{id}/toys");
  assert.equal(name("get", "https://{{host}}/v1/pets"), "GET /pets");
  // Under the base path only, when the origin is written out; the method counts.
  assert.equal(name("GET", "http://api.test/pets"), undefined);
  assert.equal(name("DELETE", "{{base}}/pets/7"), undefined);
  assert.equal(name("GET", "{{base}}/toys"), undefined);
});
