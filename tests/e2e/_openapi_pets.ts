/**
 * The pet store of the OpenAPI tests: a 3.0 description with a cross-file `$ref`
 * (`spec/openapi.yaml` + `spec/schemas.yaml`) and a server that keeps it or drifts on demand.
 * @module
 */
import { serve, type TestServer } from "../_helpers.ts";
import { project } from "./_files.ts";

/** The description: /pets (GET, POST), /pets/{id} (GET), /owners (GET), under /v1. */
export const PETSTORE_30 = `openapi: 3.0.3
info: { title: Pets, version: "1" }
servers:
  - url: http://127.0.0.1/v1
paths:
  /pets:
    get:
      parameters:
        - { name: limit, in: query, schema: { type: integer, maximum: 100 } }
      responses:
        "200":
          description: the pets
          content:
            application/json:
              schema:
                type: array
                items: { $ref: "./schemas.yaml#/Pet" }
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "./schemas.yaml#/Pet" }
      responses:
        "201": { description: created }
  /pets/{id}:
    get:
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, format: int32 } }
      responses:
        "200":
          description: one pet
          content:
            application/json:
              schema: { $ref: "./schemas.yaml#/Pet" }
        "404": { description: no such pet }
  /owners:
    get:
      responses:
        "200": { description: owners }
`;

/** The pet schema, in its own file. */
export const SCHEMAS_30 = `Pet:
  type: object
  required: [id, name]
  additionalProperties: false
  properties:
    id: { type: integer, format: int32, readOnly: true }
    name: { type: string }
    tag: { type: string, nullable: true }
    status: { type: string, enum: [available, sold] }
    born: { type: string, format: date-time }
`;

/**
 * Answers each operation as described, or drifts as `?drift=` (or `X-Drift:`) says.
 *
 * @returns the server
 */
export function petServer(): TestServer {
  return serve(async (request) => {
    const url = new URL(request.url);
    const drift = url.searchParams.get("drift") ?? request.headers.get("x-drift");
    const pet: Record<string, unknown> = {
      id: 1,
      name: "Rex",
      tag: null,
      status: "available",
      born: "2020-01-02T03:04:05Z",
    };
    if (request.method === "POST") {
      await request.text();
      return new Response(null, { status: 201 });
    }
    if (drift === "type") pet.id = "one";
    if (drift === "int32") pet.id = 2 ** 32;
    if (drift === "missing") delete pet.name;
    if (drift === "extra") pet.color = "brown";
    if (drift === "enum") pet.status = "lost";
    if (drift === "date") pet.born = "yesterday";
    if (drift === "null") pet.name = null;
    if (drift === "status") return Response.json(pet, { status: 418 });
    if (drift === "type-header") {
      return new Response(JSON.stringify(pet), { headers: { "content-type": "text/plain" } });
    }
    if (url.pathname === "/v1/pets") return Response.json([pet, { ...pet, id: 2 }]);
    return Response.json(pet);
  });
}

/**
 * @param origin the pet server's origin
 * @param requests the `api.http` text, `{{origin}}` replaced
 * @returns a folder with `spec/openapi.yaml`, `spec/schemas.yaml` and `api.http`
 */
export async function petProject(origin: string, requests: string): Promise<string> {
  return await project({
    "spec/openapi.yaml": PETSTORE_30,
    "spec/schemas.yaml": SCHEMAS_30,
    "api.http": requests.replaceAll("{{origin}}", origin),
  });
}

/**
 * @param dir a folder made by {@link petProject}
 * @returns the arguments of `dial test DIR/api.http --openapi DIR/spec/openapi.yaml`
 */
export function petTest(dir: string): string[] {
  return ["test", `${dir}/api.http`, "--openapi", `${dir}/spec/openapi.yaml`];
}

/**
 * @param path the one path, e.g. `/item`
 * @param schema the JSON Schema of its GET's 200 `application/json` answer
 * @returns an OpenAPI 3.1 description (JSON text) of that one operation
 */
export function oneGetSpec(path: string, schema: Record<string, unknown>): string {
  const ok = { description: "ok", content: { "application/json": { schema } } };
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { [path]: { get: { responses: { "200": ok } } } },
  });
}

/**
 * Two requests of a {@link petProject}'s `api.http` under its description (`# @openapi`):
 * `pet` keeps it, `lost` answers a status outside its enum.
 */
export const PET_REQUESTS = `# @openapi ./spec/openapi.yaml
# @name pet
GET {{origin}}/v1/pets/1

###
# @name lost
GET {{origin}}/v1/pets/1?drift=enum
`;
