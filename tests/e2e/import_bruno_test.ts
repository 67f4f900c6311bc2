/**
 * Bruno collections, Bruno's own CLI as the oracle: files of Bruno's test collection
 * (fixtures/bruno-testbench, hosts pointed at loopback) run by `bru run` and, imported, by
 * `dial test` against one recording server send the same requests in the same order (the
 * collection's headers, inherited bearer auth, Basic auth from the environment, JSON and XML
 * bodies); the same collection as OpenCollection YAML and as Bruno's JSON export imports to the
 * same requests.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { CLIENT_HEADERS, otherHeaders } from "./_newman.ts";
import { type RawRequest, rawServer } from "./_raw_server.ts";
import { readImport } from "../../src/import/read_import.ts";

const decoder = new TextDecoder();
const FIXTURE = new URL("./fixtures/bruno-testbench/", import.meta.url).pathname;

/** Headers each client adds by itself. */
const OWN = new Set([...CLIENT_HEADERS, "request-start-time"]);

function seen(r: RawRequest) {
  return { line: r.line, headers: otherHeaders(r.headers, OWN), body: decoder.decode(r.body) };
}

async function copyFixture(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-bruno-" });
  const copy = async (from: string, to: string) => {
    for await (const e of Deno.readDir(from)) {
      if (e.isDirectory) {
        await Deno.mkdir(`${to}/${e.name}`);
        await copy(`${from}/${e.name}`, `${to}/${e.name}`);
      } else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
    }
  };
  await Deno.mkdir(`${dir}/collection`);
  await copy(FIXTURE, `${dir}/collection`);
  return dir;
}

Deno.test("import: a Bruno collection folder sends under dial test what it sends under bru run, in its order", async () => {
  await using server = rawServer();
  const dir = await copyFixture();
  const vars = { host: server.origin, request_pre_var_token: "rpt" };
  // --no-config and --no-lock: Bruno's CLI is a peer the test runs, not a dependency of dial's.
  await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      "--quiet",
      "npm:@usebruno/cli@4.1.0",
      "run",
      "--env",
      "Local",
      ...Object.entries(vars).flatMap(([k, v]) => ["--env-var", `${k}=${v}`]),
    ],
    cwd: `${dir}/collection`,
    stdout: "piped",
    stderr: "piped",
  }).output();
  // bru's exit code counts its assertions against this server; what it sent is what counts.
  const byBruno = server.requests.splice(0).map(seen);
  assert.equal(byBruno.length, 4);

  const imported = await dial(["import", "collection", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /Imported 4 requests from bruno/);
  // Scripts, tests and assertions of Bruno's bru/res API are reported, never dropped silently.
  assert.match(imported.stderr, /echo \/ echo json: script:pre-request \(1 lines\), tests/);
  assert.match(imported.stderr, /secret values \(github_client_secret, github_client_id\)/);
  const ran = await dial([
    "test",
    "api",
    "--env",
    "Local",
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}=${v}`]),
  ], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(server.requests.map(seen), byBruno);
});

Deno.test("import: OpenCollection YAML and Bruno's JSON export import to the requests the .bru folder does", async () => {
  const yaml = new Map([
    ["opencollection.yml", "opencollection: 1.0.0\ninfo:\n  name: shop\n"],
    [
      "environments/Local.yml",
      "name: Local\nvariables:\n  - name: host\n    value: http://127.0.0.1:9\n  - name: token\n    value: ''\n    secret: true\n",
    ],
    [
      "users/folder.yml",
      "info:\n  name: Users\n  seq: 1\nhttp:\n  auth:\n    type: bearer\n    token: '{{token}}'\n",
    ],
    [
      "users/create.yml",
      [
        "info:",
        "  name: Create",
        "  seq: 2",
        "http:",
        "  method: POST",
        "  url: '{{host}}/users'",
        "  headers:",
        "    - name: X-Trace",
        "      value: abc",
        "  body:",
        "    type: json",
        '    data: \'{"name": "ann"}\'',
        "  auth: inherit",
      ].join("\n"),
    ],
    [
      "users/list.yml",
      "info:\n  name: List\n  seq: 1\nhttp:\n  method: GET\n  url: '{{host}}/users?page=2'\n  auth: inherit\n",
    ],
  ]);
  const fromYaml = await readImport([{ name: "shop", text: "", files: yaml }]);
  const exported = {
    name: "shop",
    version: "1",
    items: [{
      type: "folder",
      name: "Users",
      root: { request: { auth: { mode: "bearer", bearer: { token: "{{token}}" } } } },
      items: [
        {
          type: "http-request",
          name: "Create",
          seq: 2,
          request: {
            method: "POST",
            url: "{{host}}/users",
            headers: [{ name: "X-Trace", value: "abc", enabled: true }],
            body: { mode: "json", json: '{"name": "ann"}' },
            auth: { mode: "inherit" },
          },
        },
        {
          type: "http-request",
          name: "List",
          seq: 1,
          request: { method: "GET", url: "{{host}}/users?page=2", auth: { mode: "inherit" } },
        },
      ],
    }],
    environments: [{
      name: "Local",
      variables: [
        { name: "host", value: "http://127.0.0.1:9", enabled: true },
        { name: "token", value: "", enabled: true, secret: true },
      ],
    }],
  };
  const fromJson = await readImport([{ name: "shop.json", text: JSON.stringify(exported) }]);
  const shape = (r: typeof fromYaml) => ({
    requests: r.requests.map(({ name, folder, method, url, headers, body }) => ({
      name,
      folder,
      method,
      url,
      headers,
      body,
    })),
    environments: r.environments,
    privateEnvironments: r.privateEnvironments,
  });
  assert.deepEqual(shape(fromYaml), shape(fromJson));
  assert.deepEqual(shape(fromYaml).requests, [
    {
      name: "List",
      folder: ["Users"],
      method: "GET",
      url: "{{host}}/users?page=2",
      headers: [{ name: "Authorization", value: "Bearer {{token}}" }],
      body: undefined,
    },
    {
      name: "Create",
      folder: ["Users"],
      method: "POST",
      url: "{{host}}/users",
      headers: [
        { name: "X-Trace", value: "abc" },
        { name: "Authorization", value: "Bearer {{token}}" },
        { name: "Content-Type", value: "application/json" },
      ],
      body: '{"name": "ann"}',
    },
  ]);
  assert.deepEqual(fromYaml.privateEnvironments, { Local: { token: "" } });
});
