/**
 * `dial mcp` honours a file's `# @openapi` and an environment's `openapi` entry: a tool's
 * exchange is checked as `dial run` checks it, its violations in the result (an error result),
 * and a description a file names follows the trust rule (a local path inside the run's folders,
 * never a URL): a refused one fails the call with nothing sent.
 */
import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { project } from "./_files.ts";
import { mcpSession, resultText } from "./_mcp_client.ts";
import { PET_REQUESTS, petProject, petServer, PETSTORE_30, SCHEMAS_30 } from "./_openapi_pets.ts";

const REQUESTS = `${PET_REQUESTS}
###
# @name post
POST {{origin}}/v1/pets
Content-Type: application/json

{"name": 7}
`;

Deno.test("openapi: a dial mcp tool's exchange is checked against its file's # @openapi", async () => {
  await using server = petServer();
  const dir = await petProject(server.origin, REQUESTS);
  await using session = await mcpSession([], { cwd: dir });
  const pet = await session.client.callTool({ name: "api_pet", arguments: {} });
  assert.equal(pet.isError, false, resultText(pet));
  assert.match(resultText(pet), /"name": ?"Rex"/);
  const lost = await session.client.callTool({ name: "api_lost", arguments: {} });
  assert.equal(lost.isError, true);
  assert.match(
    resultText(lost),
    /✗ lost: GET \/pets\/\{id\}: \/status: must be one of \["available","sold"\], got "lost" \(response 200 body\)/,
  );
  // The request's side too: the body sent breaks the schema.
  const post = await session.client.callTool({ name: "api_post", arguments: {} });
  assert.equal(post.isError, true);
  assert.match(resultText(post), /✗ post: POST \/pets: \/name: must be string, got integer/);
  assert.equal(server.requests.length, 3);
});

Deno.test("openapi: dial mcp reads an environment's openapi entry; a description a file names out of its folder or as a URL fails the call, nothing sent", async () => {
  await using server = petServer();
  await using specs = serve(() => new Response(PETSTORE_30));
  const dir = await project({
    "outside/openapi.yaml": PETSTORE_30,
    "outside/schemas.yaml": SCHEMAS_30,
    "repo/env/spec/openapi.yaml": PETSTORE_30,
    "repo/env/spec/schemas.yaml": SCHEMAS_30,
    "repo/up.http":
      `# @openapi ../outside/openapi.yaml\n# @name up\nGET ${server.origin}/v1/pets/1\n`,
    "repo/url.http":
      `# @openapi ${specs.origin}/openapi.yaml\n# @name url\nGET ${server.origin}/v1/pets/1\n`,
    "repo/env/lost.http": `# @name lost\nGET ${server.origin}/v1/pets/1?drift=missing\n`,
    "repo/env/http-client.env.json": JSON.stringify({ dev: { openapi: "spec/openapi.yaml" } }),
  });
  {
    await using session = await mcpSession([], { cwd: `${dir}/repo` });
    const up = await session.client.callTool({ name: "up_up", arguments: {} });
    assert.equal(up.isError, true);
    assert.match(resultText(up), /Refused the OpenAPI description named by .*up\.http:1/);
    assert.match(resultText(up), /outside the run's folder/);
    const url = await session.client.callTool({ name: "url_url", arguments: {} });
    assert.equal(url.isError, true);
    assert.match(
      resultText(url),
      /is not a local path \(a file names a path; a URL is read only when/,
    );
  }
  assert.equal(server.requests.length, 0, "nothing was sent");
  assert.equal(specs.requests.length, 0, "no description was fetched because a file said so");
  {
    await using session = await mcpSession(["--env", "dev"], { cwd: `${dir}/repo/env` });
    const lost = await session.client.callTool({ name: "lost_lost", arguments: {} });
    assert.equal(lost.isError, true);
    assert.match(
      resultText(lost),
      /✗ lost: GET \/pets\/\{id\}: \/name: required property missing/,
    );
  }
  assert.equal(server.requests.length, 1);
});
