/**
 * OpenAPI `$ref`s to other documents: relative files and URLs, each read once, cycles kept,
 * depth and the folder/origin rule enforced and reported. The documents are written here (no
 * npm package ships a multi-file description).
 * @module
 */
import assert from "node:assert/strict";
import type { ImportLoss } from "../../src/import/import_model.ts";
import { MAX_REF_DEPTH, resolveRefs } from "../../src/import/openapi_refs.ts";
import { readImport } from "../../src/import/read_import.ts";

function loader(files: Record<string, string>) {
  const read: string[] = [];
  const load = (url: URL) => {
    read.push(url.href);
    const text = files[url.href];
    return text === undefined ? Promise.reject(new Error("no such file")) : Promise.resolve(text);
  };
  return { load, read };
}

const ROOT = "file:///api/openapi.yaml";

Deno.test("openapi refs: files relative to the document that names them, each read once; cycles stay", async () => {
  const { load, read } = loader({
    "file:///api/schemas/pet.yaml": [
      "Pet:",
      "  type: object",
      "  properties:",
      "    name: { type: string, example: doggie }",
      "    category: { $ref: './category.json#/Category' }",
      "    parent: { $ref: '#/Pet' }",
      "    owner: { $ref: '../owners.yaml' }",
    ].join("\n"),
    "file:///api/schemas/category.json": JSON.stringify({
      Category: { type: "object", properties: { id: { type: "integer", example: 7 } } },
    }),
    "file:///api/owners.yaml":
      "type: object\nproperties:\n  pets: { $ref: 'schemas/pet.yaml#/Pet' }\n",
  });
  const losses: ImportLoss[] = [];
  const root = {
    components: {
      schemas: {
        Pet: { $ref: "schemas/pet.yaml#/Pet" },
        Again: { $ref: "./schemas/pet.yaml#/Pet" },
      },
    },
  };
  const resolved = await resolveRefs(root, { base: new URL(ROOT), load, losses });
  // deno-lint-ignore no-explicit-any -- a resolved document of known shape, read in a test
  const pet = (resolved as any).components.schemas.Pet;
  assert.equal(pet.properties.name.example, "doggie");
  assert.equal(pet.properties.category.properties.id.example, 7);
  // Pet → parent is Pet again: the cycle keeps its $ref where it closes.
  assert.deepEqual(pet.properties.parent, { $ref: "#/Pet" });
  // Pet → owner (another file) → pets → Pet: a cycle across documents.
  assert.deepEqual(pet.properties.owner.properties.pets, { $ref: "schemas/pet.yaml#/Pet" });
  assert.deepEqual(read.sort(), [
    "file:///api/owners.yaml",
    "file:///api/schemas/category.json",
    "file:///api/schemas/pet.yaml",
  ]);
  assert.deepEqual(losses, []);
});

Deno.test("openapi refs: outside the folder or on another origin is reported and never read", async () => {
  const { load, read } = loader({});
  const losses: ImportLoss[] = [];
  const root = {
    a: { $ref: "../secret.yaml#/x" },
    b: { $ref: "/etc/passwd" },
    c: { $ref: "https://example.test/common.yaml#/x" },
    d: { $ref: "missing.yaml#/x" },
    e: { $ref: "#/nowhere" },
  };
  const resolved = await resolveRefs(root, { base: new URL(ROOT), load, losses });
  assert.deepEqual(resolved, root);
  assert.deepEqual(read, ["file:///api/missing.yaml"]);
  assert.deepEqual(losses.map((l) => l.what), [
    "a $ref outside the description's folder: ../secret.yaml#/x",
    "a $ref outside the description's folder: /etc/passwd",
    "a $ref outside the description's folder, not fetched: https://example.test/common.yaml#/x",
    "a $ref that could not be read (no such file): missing.yaml#/x",
    "a $ref to nothing: #/nowhere",
  ]);
  const web = loader({ "https://api.test/v1/common.json": '{"X": {"type": "string"}}' });
  const webLosses: ImportLoss[] = [];
  const fromWeb = await resolveRefs(
    { x: { $ref: "common.json#/X" }, y: { $ref: "https://other.test/y.json" } },
    { base: new URL("https://api.test/v1/openapi.json"), load: web.load, losses: webLosses },
  );
  assert.deepEqual(fromWeb.x, { type: "string" });
  assert.deepEqual(web.read, ["https://api.test/v1/common.json"]);
  assert.deepEqual(webLosses.map((l) => l.what), [
    "a $ref on another origin, not fetched: https://other.test/y.json",
  ]);
});

Deno.test("openapi refs: a chain deeper than the limit stops there, reported", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < MAX_REF_DEPTH + 10; i++) {
    files[`file:///api/d${i}.json`] = JSON.stringify({ $ref: `d${i + 1}.json` });
  }
  const { load } = loader(files);
  const losses: ImportLoss[] = [];
  await resolveRefs({ x: { $ref: "d0.json" } }, { base: new URL(ROOT), load, losses });
  assert.deepEqual(losses.map((l) => l.what), [
    `a $ref chain deeper than ${MAX_REF_DEPTH}: d${MAX_REF_DEPTH}.json`,
  ]);
});

Deno.test("openapi refs: without a loader (the UI's drop) other documents are reported as before", async () => {
  const text = JSON.stringify({
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    servers: [{ url: "http://127.0.0.1:1" }],
    paths: {
      "/pets": {
        post: {
          operationId: "addPet",
          requestBody: {
            content: { "application/json": { schema: { $ref: "pet.yaml#/Pet" } } },
          },
        },
      },
    },
  });
  const result = await readImport([{ name: "api.json", text, url: new URL(ROOT) }]);
  assert.deepEqual(result.losses.map((l) => l.what), [
    "a $ref to another document: pet.yaml#/Pet",
  ]);
  const withLoader = await readImport([{ name: "api.json", text, url: new URL(ROOT) }], {
    load: loader({
      "file:///api/pet.yaml":
        "Pet:\n  type: object\n  properties:\n    name: { type: string, example: rex }\n",
    }).load,
  });
  assert.deepEqual(withLoader.losses, []);
  assert.deepEqual(JSON.parse(withLoader.requests[0]!.body as string), { name: "rex" });
});

Deno.test("openapi refs: a target is resolved once and shared; one whose $refs close a cycle reads as seen from each path", async () => {
  const losses: ImportLoss[] = [];
  const root = {
    paths: {
      a: { $ref: "#/components/schemas/Pet" },
      b: { $ref: "#/components/schemas/Pet" },
      c: { items: { $ref: "#/components/schemas/Pet" } },
      // A → B → A: seen from A, B's A stays a $ref; seen from B, A's B does.
      d: { $ref: "#/components/schemas/A" },
      e: { $ref: "#/components/schemas/B" },
      f: { $ref: "#/components/schemas/A" },
    },
    components: {
      schemas: {
        Pet: { type: "object", properties: { tag: { $ref: "#/components/schemas/Tag" } } },
        Tag: { type: "string" },
        A: { properties: { b: { $ref: "#/components/schemas/B" } } },
        B: { properties: { a: { $ref: "#/components/schemas/A" } } },
      },
    },
  };
  // deno-lint-ignore no-explicit-any -- a resolved document of known shape, read in a test
  const resolved = await resolveRefs(root, { losses }) as any;
  const { a, b, c, d, e, f } = resolved.paths;
  assert.equal(a, b);
  assert.equal(c.items, a);
  assert.deepEqual(a, { type: "object", properties: { tag: { type: "string" } } });
  assert.deepEqual(d, {
    properties: { b: { properties: { a: { $ref: "#/components/schemas/A" } } } },
  });
  assert.deepEqual(e, {
    properties: { a: { properties: { b: { $ref: "#/components/schemas/B" } } } },
  });
  assert.deepEqual(f, d);
  assert.deepEqual(losses, []);
});

Deno.test("openapi refs: a shared target too deep for where it is met again is cut there, as a copy would be", async () => {
  // d0 → d1 → … → d62 → x → tail: x is met first at depth 0, then at depth 63, where its $ref to
  // tail.json is one too deep.
  const files: Record<string, string> = {};
  const last = MAX_REF_DEPTH - 1;
  for (let i = 0; i < last; i++) {
    files[`file:///api/d${i}.json`] = JSON.stringify({
      next: { $ref: i + 1 < last ? `d${i + 1}.json` : "x.json" },
    });
  }
  files["file:///api/x.json"] = JSON.stringify({ end: { $ref: "tail.json" } });
  files["file:///api/tail.json"] = JSON.stringify({ type: "string" });
  const { load } = loader(files);
  const losses: ImportLoss[] = [];
  const root = { early: { $ref: "x.json" }, late: { $ref: "d0.json" } };
  // deno-lint-ignore no-explicit-any -- a resolved document of known shape, read in a test
  const resolved = await resolveRefs(root, { base: new URL(ROOT), load, losses }) as any;
  assert.deepEqual(resolved.early, { end: { type: "string" } });
  let node = resolved.late;
  for (let i = 0; i < last; i++) node = node.next;
  assert.deepEqual(node, { end: { $ref: "tail.json" } });
  assert.deepEqual(losses.map((l) => l.what), [
    `a $ref chain deeper than ${MAX_REF_DEPTH}: tail.json`,
  ]);
});
