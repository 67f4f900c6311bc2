/**
 * `dial import URL` and OpenAPI descriptions in several documents: downloaded from Python's
 * http.server through dial's transport (TLS flags apply; size and time are bounded), `$ref`s to
 * other files followed in the description's folder or origin, never out of it.
 * @module
 */
import assert from "node:assert/strict";
import { pythonFileServer } from "../_process.ts";
import { dial, serve } from "../_helpers.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

/** A description in three files, with a cycle across two of them and refs that must not be read. */
async function writeDescription(dir: string, api: string): Promise<void> {
  await Deno.mkdir(`${dir}/api/schemas`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/api/openapi.yaml`,
    [
      "openapi: 3.0.3",
      "info: { title: Pets, version: '1' }",
      `servers: [{ url: '${api}' }]`,
      "paths:",
      "  /pets:",
      "    post:",
      "      operationId: addPet",
      "      tags: [pets]",
      "      requestBody:",
      "        content:",
      "          application/json:",
      "            schema: { $ref: 'schemas/pet.yaml#/Pet' }",
      "      responses: { '200': { description: ok } }",
      "  /owners:",
      "    get:",
      "      operationId: listOwners",
      "      tags: [pets]",
      "      parameters:",
      "        - $ref: '../outside.yaml#/components/parameters/Secret'",
      "        - $ref: 'http://127.0.0.2:1/common.yaml#/Limit'",
      "      responses: { '200': { description: ok } }",
    ].join("\n"),
  );
  await Deno.writeTextFile(
    `${dir}/api/schemas/pet.yaml`,
    [
      "Pet:",
      "  type: object",
      "  properties:",
      "    name: { type: string, example: doggie }",
      "    owner: { $ref: 'owner.json#/Owner' }",
    ].join("\n"),
  );
  await Deno.writeTextFile(
    `${dir}/api/schemas/owner.json`,
    JSON.stringify({
      Owner: {
        type: "object",
        properties: {
          email: { type: "string", example: "ann@example.com" },
          pets: { type: "array", items: { $ref: "pet.yaml#/Pet" } },
        },
      },
    }),
  );
  await Deno.writeTextFile(
    `${dir}/outside.yaml`,
    "components: { parameters: { Secret: { name: leaked, in: query } } }",
  );
}

Deno.test("import URL: a description in three files, from Python's http.server, runs against a local API", async () => {
  const bodies: string[] = [];
  await using api = serve(async (request) => {
    bodies.push(await request.text());
    return Response.json({ id: 1 });
  });
  const served = await Deno.makeTempDir({ prefix: "dial-import-url-" });
  await writeDescription(served, api.origin);
  await using files = await pythonFileServer(served);
  const out = await Deno.makeTempDir({ prefix: "dial-import-out-" });
  const imported = await dial(["import", `${files.origin}/api/openapi.yaml`, "--out", out]);
  assert.equal(imported.code, 0, imported.stderr);
  // Over HTTP the rule is the origin: a document above the description's path on the same
  // server is the server's own and is read; another origin is not.
  assert.match(
    imported.stderr,
    /Not carried \(1\):\n.*a \$ref on another origin, not fetched: http:\/\/127\.0\.0\.2:1\//,
  );
  const http = await Deno.readTextFile(`${out}/pets.http`);
  assert.match(http, /# optional query parameter: leaked\nGET \{\{baseUrl\}\}\/owners\n/);
  const ran = await dial(["run", `${out}/pets.http`, "--env", "default"]);
  assert.equal(ran.code, 0, ran.stderr);
  const sent = JSON.parse(bodies[0]!);
  assert.equal(sent.name, "doggie");
  assert.equal(sent.owner.email, "ann@example.com");
});

Deno.test("import: a description file's refs are read in its folder only, symbolic links included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-import-refs-" });
  await writeDescription(dir, "http://127.0.0.1:1");
  // A link inside the folder that leads out of it.
  await Deno.writeTextFile(
    `${dir}/secret.yaml`,
    "Pet: { properties: { key: { example: s3cret } } }",
  );
  await Deno.writeTextFile(
    `${dir}/api/schemas/pet.yaml`,
    "Pet:\n  type: object\n  properties:\n    name: { type: string, example: doggie }\n    extra: { $ref: 'link.yaml#/Pet' }\n",
  );
  await Deno.symlink(`${dir}/secret.yaml`, `${dir}/api/schemas/link.yaml`);
  const imported = await dial(["import", `${dir}/api/openapi.yaml`, "--dry-run"]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.doesNotMatch(imported.stdout, /s3cret|leaked/);
  assert.match(imported.stdout, /doggie/);
  assert.match(imported.stderr, /a \$ref outside the description's folder: \.\.\/outside\.yaml/);
  assert.match(
    imported.stderr,
    /a \$ref that could not be read \(outside the description's folder\): link\.yaml#\/Pet/,
  );
});

Deno.test("import URL: over TLS the --cacert flag applies; without it the certificate is refused", async () => {
  const certs = await makeCertificates();
  const description = JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Tls", version: "1" },
    paths: { "/x": { get: { operationId: "getX" } } },
  });
  const server = serveTls(certs.leaf, certs.leafKey, () => new Response(description));
  try {
    const url = `https://localhost:${server.addr.port}/openapi.json`;
    const refused = await dial(["import", url, "--dry-run"]);
    assert.equal(refused.code, 60, refused.stderr);
    assert.match(refused.stderr, /Cannot verify the TLS certificate/);
    const trusted = await dial(["import", url, "--dry-run", "--cacert", certs.ca]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(trusted.stdout, /GET \{\{baseUrl\}\}\/x/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("import URL: a download over the size bound or the time bound stops with its error", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const chunk = new Uint8Array(1024 * 1024).fill(0x20);
  await using server = serve(async (request) => {
    if (new URL(request.url).pathname === "/slow") {
      await held;
      return new Response("{}");
    }
    let sent = 0;
    return new Response(
      new ReadableStream({
        pull(controller) {
          if (sent++ > 60) controller.close();
          else controller.enqueue(chunk);
        },
      }),
    );
  });
  const big = await dial(["import", `${server.origin}/big`, "--dry-run"]);
  assert.notEqual(big.code, 0);
  assert.match(
    big.stderr,
    /Cannot import http:\/\/127\.0\.0\.1:\d+\/big: it is larger than 50 MiB/,
  );
  const slow = await dial(["import", `${server.origin}/slow`, "--timeout", "0.3"]);
  release();
  assert.equal(slow.code, 8, slow.stderr);
  assert.match(slow.stderr, /Timed out after 0\.3 s reading http:\/\/127\.0\.0\.1:\d+\/slow/);
});
