/**
 * The OpenAPI check outside `dial test --openapi`: a single request (`dial GET URL --openapi
 * SPEC`: the response printed as usual, violations on stderr, exit 11), a file's
 * `# @openapi PATH` and an environment's `openapi` entry for `dial run` and `dial test`, and the
 * trust rule on descriptions a file names (a local path inside the run's folders, never a URL).
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { project } from "./_files.ts";
import { hasLighttpd, startFileServer } from "./_lighttpd.ts";
import { PET_REQUESTS, petProject, petServer, PETSTORE_30, SCHEMAS_30 } from "./_openapi_pets.ts";

Deno.test("openapi: dial GET --openapi prints the response, then its violations on stderr, and exits 11", async () => {
  await using server = petServer();
  const dir = await petProject(server.origin, "");
  const spec = `${dir}/spec/openapi.yaml`;

  const ok = await dial(["GET", `${server.origin}/v1/pets/1`, "--openapi", spec]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).name, "Rex");
  assert.equal(ok.stderr, "");

  const drift = await dial(["GET", `${server.origin}/v1/pets/1?drift=missing`, "--openapi", spec]);
  assert.equal(drift.code, 11);
  assert.equal(JSON.parse(drift.stdout).id, 1, "the response is printed as usual");
  assert.equal(
    drift.stderr,
    "✗ GET /pets/{id}: /name: required property missing (response 200 body)\n",
  );

  // The request's side: a query parameter over its maximum, a body that breaks its schema.
  const limit = await dial(["GET", `${server.origin}/v1/pets`, "limit==1000", "--openapi", spec]);
  assert.equal(limit.code, 11);
  assert.match(limit.stderr, /^✗ GET \/pets: query parameter "limit": 1000 is greater than 100/);
  const body = await dial([
    "POST",
    `${server.origin}/v1/pets`,
    "--json",
    '{"tag": 5}',
    "--openapi",
    spec,
  ]);
  assert.equal(body.code, 11);
  assert.match(body.stderr, /✗ POST \/pets: \/name: required property missing \(request body\)/);
  assert.match(
    body.stderr,
    /✗ POST \/pets: \/tag: must be string or null, got integer \(request body\)/,
  );

  // Undocumented status; -f's status code comes first.
  const status = await dial([
    "GET",
    `${server.origin}/v1/pets/1`,
    "X-Drift:status",
    "--openapi",
    spec,
  ]);
  assert.equal(status.code, 11);
  assert.match(status.stderr, /status 418 is not documented \(200, 404\)/);
  const failing = await dial([
    "GET",
    `${server.origin}/v1/pets/1`,
    "X-Drift:status",
    "--openapi",
    spec,
    "--check-status",
  ]);
  assert.equal(failing.code, 4);
  assert.match(failing.stderr, /status 418 is not documented/);
});

Deno.test("openapi: dial GET --openapi with a bad description or a printing flag sends nothing", async () => {
  await using server = petServer();
  const dir = await project({ "bad.yaml": "openapi: [3.0\n", "other.json": '{"swagger": 1}' });
  for (const spec of [`${dir}/missing.yaml`, `${dir}/bad.yaml`, `${dir}/other.json`]) {
    const result = await dial(["GET", `${server.origin}/v1/pets/1`, "--openapi", spec]);
    assert.equal(result.code, 2, `${spec}: ${result.stderr}`);
    assert.match(result.stderr, /^error: /);
  }
  const offline = await dial([
    "GET",
    `${server.origin}/v1/pets/1`,
    "--openapi",
    `${dir}/bad.yaml`,
    "--curl",
  ]);
  assert.equal(offline.code, 2);
  assert.match(offline.stderr, /Conflicting flags --openapi and --curl/);
  assert.equal(server.requests.length, 0);
});

Deno.test("openapi: a file's # @openapi checks dial test and dial run without a flag; --openapi wins", async () => {
  await using server = petServer();
  const dir = await petProject(server.origin, PET_REQUESTS);
  const tested = await dial(["test", dir]);
  assert.equal(tested.code, 11, tested.stdout + tested.stderr);
  assert.match(tested.stdout, /✓ .*api\.http › pet › HTTP 200/);
  assert.match(
    tested.stdout,
    /✗ .*api\.http › lost › GET \/pets\/\{id\}: \/status: must be one of/,
  );
  assert.match(tested.stdout, /openapi: 1\/4 operations exercised/);

  const ran = await dial(["run", `${dir}/api.http`]);
  assert.equal(ran.code, 11);
  assert.match(ran.stderr, /^✗ lost: GET \/pets\/\{id\}: \/status: must be one of/m);
  assert.doesNotMatch(ran.stderr, /✗ pet:/);
  const pet = await dial(["run", `${dir}/api.http`, "pet"]);
  assert.equal(pet.code, 0, pet.stderr);

  // The command line's description wins: one that documents no /pets/{id}.
  await Deno.writeTextFile(
    `${dir}/owners.yaml`,
    `openapi: 3.0.3\ninfo: { title: O, version: "1" }\nservers: [{ url: http://x/v1 }]\npaths:\n  /owners:\n    get:\n      responses: { "200": { description: ok } }\n`,
  );
  const other = await dial(["run", `${dir}/api.http`, "pet", "--openapi", `${dir}/owners.yaml`]);
  assert.equal(other.code, 11);
  assert.match(
    other.stderr,
    /undocumented: no operation of ".*owners\.yaml" matches GET \/v1\/pets\/1/,
  );
});

Deno.test("openapi: an environment's openapi entry sets the description of its requests", async () => {
  await using server = petServer();
  const dir = await petProject(
    server.origin,
    PET_REQUESTS.replace("# @openapi ./spec/openapi.yaml\n", ""),
  );
  await Deno.writeTextFile(
    `${dir}/http-client.env.json`,
    JSON.stringify({ dev: { openapi: "spec/openapi.yaml" }, bare: {} }),
  );
  const json = await dial(["test", dir, "--env", "dev", "--reporter", "json"]);
  assert.equal(json.code, 11, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.openapi.exercised, 1);
  assert.equal(report.openapi.total, 4);
  // Another environment names none: nothing is checked.
  const bare = await dial(["test", dir, "--env", "bare"]);
  assert.equal(bare.code, 0, bare.stdout + bare.stderr);
  assert.doesNotMatch(bare.stdout, /openapi:/);
});

Deno.test("openapi: a description a file names is a local path inside the run's folder, never a URL", async () => {
  await using server = petServer();
  // Serves a description, and records whether anyone asked for it.
  await using specs = serve((request) =>
    new Response(new URL(request.url).pathname.endsWith("/schemas.yaml") ? SCHEMAS_30 : PETSTORE_30)
  );
  const dir = await project({
    "outside/openapi.yaml": PETSTORE_30,
    "outside/schemas.yaml": SCHEMAS_30,
    "repo/pets.http": "",
  });
  await Deno.symlink(`${dir}/outside/openapi.yaml`, `${dir}/repo/link.yaml`);
  const file = `${dir}/repo/pets.http`;
  const attempts: Array<[string, RegExp]> = [
    ["../outside/openapi.yaml", /is outside the run's folder/],
    [`${dir}/outside/openapi.yaml`, /is outside the run's folder/],
    ["./link.yaml", /is outside the run's folder/],
    [
      `${specs.origin}/openapi.yaml`,
      /is not a local path [^]*hint: give the URL on the command line: --openapi URL/,
    ],
  ];
  for (const [written, refusal] of attempts) {
    await Deno.writeTextFile(file, `# @openapi ${written}\nGET ${server.origin}/v1/pets/1\n`);
    for (const command of ["run", "test"]) {
      const result = await dial([command, file]);
      assert.equal(result.code, 2, `${command} ${written}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /Refused the OpenAPI description named by .*pets\.http:1/);
      assert.match(result.stderr, refusal);
    }
  }
  // The same from a shared environment file.
  await Deno.writeTextFile(file, `GET ${server.origin}/v1/pets/1\n`);
  await Deno.writeTextFile(
    `${dir}/repo/http-client.env.json`,
    JSON.stringify({ dev: { openapi: `${specs.origin}/openapi.yaml` } }),
  );
  const env = await dial(["test", file, "--env", "dev"]);
  assert.equal(env.code, 2);
  assert.match(env.stderr, /named by .*http-client\.env\.json \("openapi" of environment "dev"\)/);
  assert.equal(server.requests.length, 0, "nothing was sent");
  assert.equal(specs.requests.length, 0, "no description was fetched because a file said so");

  // The person widens the folder, or gives the URL on the command line.
  await Deno.writeTextFile(
    file,
    `# @openapi ../outside/openapi.yaml\nGET ${server.origin}/v1/pets/1\n`,
  );
  const allowed = await dial(["run", file, "--allow-path", `${dir}/outside`]);
  assert.equal(allowed.code, 0, allowed.stderr);
  const url = await dial(["run", file, "--openapi", `${specs.origin}/openapi.yaml`]);
  assert.equal(url.code, 0, url.stderr);
  assert.deepEqual(specs.requests.map((r) => new URL(r.url).pathname), [
    "/openapi.yaml",
    "/schemas.yaml",
  ]);

  // Two different descriptions in one file are an error.
  await Deno.writeTextFile(
    file,
    `# @openapi ./a.yaml\nGET ${server.origin}/v1/pets/1\n\n###\n# @openapi ./b.yaml\nGET ${server.origin}/v1/pets/2\n`,
  );
  const two = await dial(["test", file]);
  assert.equal(two.code, 2);
  assert.match(
    two.stderr,
    /names two OpenAPI descriptions \("\.\/a\.yaml" at line 1, "\.\/b\.yaml" at line 5\)/,
  );
});

/** A file lighttpd serves as an operation: GET answers a pet. */
const petFile = (path: string) =>
  `  ${path}:
    get:
      responses:
        "200":
          description: a pet
          content:
            application/json:
              schema: { $ref: "./schemas.yaml#/Pet" }
`;

/** Files lighttpd serves, each an operation of its own. */
const FILES_SPEC = `openapi: 3.0.3
info: { title: Files, version: "1" }
servers:
  - url: http://127.0.0.1/files
paths:
${petFile("/pet.json")}${petFile("/lost.json")}`;

Deno.test({
  name: "openapi: --download and -C check the body saved to the file, a resumed one whole",
  ignore: !hasLighttpd,
  fn: async () => {
    const pet = JSON.stringify({ id: 1, name: "Rex", status: "available" }, null, 2);
    const lost = JSON.stringify({ id: 1, status: "lost" }, null, 2);
    await using files = await startFileServer({ "files/pet.json": pet, "files/lost.json": lost });
    const dir = await project({ "spec/openapi.yaml": FILES_SPEC, "spec/schemas.yaml": SCHEMAS_30 });
    const spec = `${dir}/spec/openapi.yaml`;
    const out = `${dir}/out`;
    await Deno.mkdir(out);
    const get = (path: string, ...flags: string[]) =>
      dial(["GET", `${files.origin}/files/${path}`, "--openapi", spec, ...flags], { cwd: out });

    const saved = await get("pet.json", "--download");
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(await Deno.readTextFile(`${out}/pet.json`), pet);
    const drift = await get("lost.json", "--download");
    assert.equal(drift.code, 11, drift.stderr);
    assert.equal(await Deno.readTextFile(`${out}/lost.json`), lost, "saved all the same");
    assert.match(drift.stderr, /✗ GET \/lost\.json: \/name: required property missing/);
    assert.match(drift.stderr, /✗ GET \/lost\.json: \/status: must be one of/);

    // -C: lighttpd sends the rest (206); the whole file is checked, not the rest alone (which
    // is not JSON on its own).
    for (const [name, text, code] of [["pet.json", pet, 0], ["lost.json", lost, 11]] as const) {
      await Deno.writeTextFile(`${out}/${name}`, text.slice(0, 12));
      const resumed = await get(name, "-C", "-", "-o", name);
      assert.equal(resumed.code, code, resumed.stderr);
      assert.match(resumed.stderr, /Resumed .* at 12 B/);
      assert.equal(await Deno.readTextFile(`${out}/${name}`), text);
      assert.doesNotMatch(resumed.stderr, /not JSON|206/);
    }
  },
});
