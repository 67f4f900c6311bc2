/**
 * Hoppscotch and Yaak exports: imported with their environments, run by `dial test` against a
 * recording server, each request arrives as the source describes it (Hoppscotch's `<<var>>`,
 * inherited folder auth and headers, request variables, key-value form bodies; Yaak's
 * `${[ var ]}`, base and named environments, `sortPriority` order), secrets in the private file.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { CLIENT_HEADERS, otherHeaders } from "./_newman.ts";
import { type RawRequest, rawServer, requestPath } from "./_raw_server.ts";

const decoder = new TextDecoder();

const OWN = new Set(CLIENT_HEADERS);

function seen(r: RawRequest) {
  return {
    target: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    headers: otherHeaders(r.headers, OWN),
    body: decoder.decode(r.body),
  };
}

const hoppRequest = (name: string, extra: Record<string, unknown>) => ({
  v: "6",
  name,
  method: "GET",
  params: [],
  headers: [],
  preRequestScript: "",
  testScript: "",
  auth: { authType: "inherit", authActive: true },
  body: { contentType: null, body: null },
  requestVariables: [],
  ...extra,
});

Deno.test("import: a Hoppscotch collection and environment run as Hoppscotch describes them", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  const collection = {
    v: 6,
    name: "Shop",
    auth: { authType: "none", authActive: true },
    headers: [],
    requests: [hoppRequest("Ping", {
      endpoint: "<<base>>/ping",
      auth: {
        authType: "api-key",
        authActive: true,
        key: "X-Api-Key",
        value: "k-1",
        addTo: "HEADERS",
      },
    })],
    folders: [{
      v: 6,
      name: "Users",
      auth: { authType: "bearer", authActive: true, token: "<<token>>" },
      headers: [{ key: "X-Folder", value: "users", active: true }],
      folders: [],
      requests: [
        hoppRequest("List", {
          endpoint: "<<base>>/users",
          params: [{ key: "page", value: "2", active: true }, {
            key: "off",
            value: "x",
            active: false,
          }],
          testScript: "pw.test('ok', () => pw.expect(pw.response.status).toBe(200));",
        }),
        hoppRequest("Create", {
          method: "POST",
          endpoint: "<<base>>/users",
          auth: { authType: "basic", authActive: true, username: "ann", password: "pw1" },
          body: { contentType: "application/json", body: '{"name": "<<who>>"}' },
          requestVariables: [{ key: "who", value: "bob", active: true }],
        }),
        hoppRequest("Form", {
          method: "POST",
          endpoint: "<<base>>/form",
          auth: { authType: "none", authActive: true },
          body: { contentType: "application/x-www-form-urlencoded", body: "a: 1\nb: x y\n#c: off" },
        }),
      ],
    }],
  };
  const environment = {
    v: 1,
    id: "e1",
    name: "Local",
    variables: [
      { key: "base", value: server.origin, secret: false },
      { key: "token", value: "tok-1", secret: true },
    ],
  };
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection));
  await Deno.writeTextFile(`${dir}/e.json`, JSON.stringify(environment));
  const imported = await dial(["import", "c.json", "e.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /Users \/ List: test script \(1 lines, Hoppscotch's pw API\)/);
  const priv = JSON.parse(await Deno.readTextFile(`${dir}/api/http-client.private.env.json`));
  assert.deepEqual(priv, { Local: { token: "tok-1", X_Api_Key: "k-1", create_password: "pw1" } });
  const ran = await dial(["test", "api", "--env", "Local"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(server.requests.map(seen), [
    { target: "GET /ping", headers: ["x-api-key: k-1"], body: "" },
    {
      target: "GET /users?page=2",
      headers: ["authorization: Bearer tok-1", "x-folder: users"],
      body: "",
    },
    {
      target: "POST /users",
      headers: [
        "authorization: Basic YW5uOnB3MQ==",
        "content-type: application/json",
        "x-folder: users",
      ],
      body: '{"name": "bob"}',
    },
    {
      target: "POST /form",
      headers: ["content-type: application/x-www-form-urlencoded", "x-folder: users"],
      body: "a=1&b=x%20y",
    },
  ]);
});

Deno.test("import: a Yaak export runs in Yaak's order with its base and named environments and response references", async () => {
  await using server = rawServer(() => ({
    headers: [["Content-Type", "application/json"], ["X-Token", "t-9"]],
    body: '{"id":42}',
  }));
  const dir = await Deno.makeTempDir();
  const request = (id: string, extra: Record<string, unknown>) => ({
    model: "http_request",
    id,
    workspaceId: "wk_1",
    folderId: "fl_1",
    method: "GET",
    urlParameters: [],
    headers: [],
    bodyType: null,
    body: {},
    authenticationType: null,
    authentication: {},
    ...extra,
  });
  const yaak = {
    yaakVersion: "2024.10.1",
    yaakSchema: 3,
    resources: {
      workspaces: [{ model: "workspace", id: "wk_1", name: "Shop API" }],
      environments: [
        {
          id: "ev_base",
          workspaceId: "wk_1",
          name: "Global",
          base: true,
          variables: [{ name: "base", value: server.origin, enabled: true }],
        },
        {
          id: "ev_2",
          workspaceId: "wk_1",
          name: "Prod",
          base: false,
          variables: [{ name: "token", value: "prod-tok", enabled: true }],
        },
      ],
      folders: [{
        id: "fl_1",
        workspaceId: "wk_1",
        folderId: null,
        name: "Users",
        sortPriority: 1,
      }],
      httpRequests: [
        request("rq_2", {
          name: "Create",
          method: "POST",
          url: "${[ base ]}/users",
          headers: [{ name: "Content-Type", value: "application/json", enabled: true }],
          bodyType: "application/json",
          body: { text: '{"name": "ann"}' },
          authenticationType: "bearer",
          authentication: { token: "${[ token ]}" },
          sortPriority: 2,
        }),
        request("rq_1", {
          name: "List",
          url: "${[ base ]}/users",
          urlParameters: [{ name: "page", value: "2", enabled: true }, {
            name: "x",
            value: "y",
            enabled: false,
          }],
          sortPriority: 1,
        }),
        request("rq_0", {
          folderId: null,
          name: "Ping",
          url: "${[ base ]}/ping",
          authenticationType: "basic",
          authentication: { username: "u", password: "p-1" },
          sortPriority: 0,
        }),
        request("rq_3", {
          name: "Follow up",
          url: "${[ base ]}/next?id=${[ response.body.path(request='rq_1', path='$.id') ]}",
          headers: [{
            name: "X-Tok",
            value: '${[ response.header(request="rq_1", header="X-Token") ]}',
            enabled: true,
          }],
          sortPriority: 3,
        }),
      ],
    },
  };
  await Deno.writeTextFile(`${dir}/y.json`, JSON.stringify(yaak));
  const imported = await dial(["import", "y.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const ran = await dial(["test", "api", "--env", "Prod"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(server.requests.map(seen), [
    { target: "GET /ping", headers: ["authorization: Basic dTpwLTE="], body: "" },
    { target: "GET /users?page=2", headers: [], body: "" },
    {
      target: "POST /users",
      headers: ["authorization: Bearer prod-tok", "content-type: application/json"],
      body: '{"name": "ann"}',
    },
    // Yaak's response functions, as request variables read from List's response.
    { target: "GET /next?id=42", headers: ["x-tok: t-9"], body: "" },
  ]);
});
