/**
 * The import readers on documents nobody here wrote (the OpenAPI Petstore in 2.0, 3.0 and 3.1
 * from @readme/oas-examples, Scalar's Galaxy description) and on small collections shaped as
 * Postman, Insomnia and Chromium write them.
 * @module
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { readImport } from "../../src/import/read_import.ts";
import type { ImportResult } from "../../src/import/import_model.ts";
import { insomnia, insomniaExport } from "../_insomnia.ts";
// Static imports put the fixture packages in the module graph, so their files resolve to paths.
import "@readme/oas-examples/package.json" with { type: "json" };
import "@scalar/galaxy/3.1.json" with { type: "json" };

async function fixture(specifier: string): Promise<string> {
  return await Deno.readTextFile(new URL(import.meta.resolve(specifier)));
}

const byName = (result: ImportResult, name: string) => {
  const found = result.requests.find((r) => r.name === name);
  assert.ok(found, `no request ${name} in ${result.requests.map((r) => r.name).join(", ")}`);
  return found;
};

for (const version of ["2.0", "3.0", "3.1"]) {
  Deno.test(`import: the OpenAPI ${version} Petstore (YAML) gives one request per operation`, async () => {
    const text = await fixture(`@readme/oas-examples/${version}/yaml/petstore.yaml`);
    const spec = parseYaml(text) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(spec.paths).flatMap((item) =>
      Object.keys(item).filter((k) => ["get", "put", "post", "delete", "patch"].includes(k))
    );
    const result = await readImport([{ name: "petstore.yaml", text }]);
    assert.equal(result.format, "openapi");
    assert.equal(result.requests.length, operations.length);
    const get = byName(result, "getPetById");
    assert.equal(get.method, "GET");
    assert.equal(get.url.split("?")[0], "{{baseUrl}}/pet/{{petId}}");
    assert.deepEqual(get.folder, ["pet"]);
    // The API key scheme becomes a header whose value lives in the private environment.
    const key = get.headers.find((h) => h.name === "api_key");
    assert.ok(key, JSON.stringify(get.headers));
    assert.match(key.value, /^\{\{\w+\}\}$/);
    const add = byName(result, "addPet");
    assert.equal(add.method, "POST");
    const body = JSON.parse(add.body as string);
    assert.equal(body.name, "doggie");
    assert.ok(result.environments[Object.keys(result.environments)[0]!]!.baseUrl);
    assert.ok(
      result.losses.some((l) => /petstore_auth/.test(l.what)),
      "the OAuth scheme is reported",
    );
  });
}

Deno.test("import: Scalar's Galaxy (OpenAPI 3.1, a large real description) reads whole", async () => {
  const text = await fixture("@scalar/galaxy/3.1.yaml");
  const result = await readImport([{ name: "galaxy.json", text }]);
  assert.ok(result.requests.length >= 10, String(result.requests.length));
  for (const r of result.requests) assert.match(r.url, /^\{\{baseUrl\}\}\//);
});

const POSTMAN = {
  info: {
    name: "Shop API",
    schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
  },
  auth: { type: "bearer", bearer: [{ key: "token", value: "s3cr3t-token", type: "string" }] },
  variable: [{ key: "base", value: "http://127.0.0.1:8080" }],
  item: [
    {
      name: "Users",
      item: [
        {
          name: "List users",
          event: [{ listen: "test", script: { exec: ["pm.test('ok', () => {});"] } }],
          request: { method: "GET", url: { raw: "{{base}}/users?page=1", query: [] } },
        },
        {
          name: "Create user",
          request: {
            method: "POST",
            auth: {
              type: "basic",
              basic: [{ key: "username", value: "ann" }, { key: "password", value: "pw" }],
            },
            header: [{ key: "X-Trace", value: "1" }, { key: "X-Off", value: "0", disabled: true }],
            body: { mode: "raw", raw: '{"name":"ann"}', options: { raw: { language: "json" } } },
            url: "{{base}}/users",
          },
        },
      ],
    },
    {
      name: "Login",
      request: {
        method: "POST",
        auth: { type: "noauth" },
        body: {
          mode: "urlencoded",
          urlencoded: [{ key: "u", value: "ann" }, { key: "p", value: "x", disabled: true }],
        },
        url: "{{base}}/login",
      },
    },
    {
      name: "Signed",
      request: { method: "GET", auth: { type: "hawk", hawk: [] }, url: "{{base}}/hawk" },
    },
  ],
};

const ENVIRONMENT = {
  name: "staging",
  _postman_variable_scope: "environment",
  values: [
    { key: "base", value: "https://staging.test", enabled: true },
    { key: "apiSecret", value: "hunter2", type: "secret", enabled: true },
  ],
};

Deno.test("import: Postman v2.1 with folders, inherited auth, an environment and a loss report", async () => {
  const result = await readImport([
    { name: "c.json", text: JSON.stringify(POSTMAN) },
    { name: "e.json", text: JSON.stringify(ENVIRONMENT) },
  ]);
  const list = byName(result, "List users");
  assert.deepEqual(list.folder, ["Users"]);
  assert.equal(list.url, "{{base}}/users?page=1");
  // The collection's bearer token is inherited, and moved to the private environment.
  const auth = list.headers.find((h) => h.name === "Authorization")!;
  assert.match(auth.value, /^Bearer \{\{(\w+)\}\}$/);
  const variable = /\{\{(\w+)\}\}/.exec(auth.value)![1]!;
  assert.equal(result.privateEnvironments.staging![variable], "s3cr3t-token");
  assert.ok(!JSON.stringify(result.environments).includes("s3cr3t-token"));
  const create = byName(result, "Create user");
  assert.deepEqual(create.headers.map((h) => h.name), ["X-Trace", "Authorization", "Content-Type"]);
  assert.match(create.headers[1]!.value, /^Basic ann \{\{\w+\}\}$/);
  assert.equal(create.body, '{"name":"ann"}');
  const login = byName(result, "Login");
  assert.equal(login.body, "u=ann");
  assert.ok(!login.headers.some((h) => h.name === "Authorization"));
  assert.equal(result.variables.base, "http://127.0.0.1:8080");
  assert.equal(result.environments.staging!.base, "https://staging.test");
  assert.equal(result.privateEnvironments.staging!.apiSecret, "hunter2");
  // The test script is carried (a # @postman handler); the Hawk auth is not.
  assert.deepEqual(result.losses.map((l) => `${l.where}: ${l.what}`), [
    'Signed: auth type "hawk" (add it by hand)',
  ]);
  assert.equal(byName(result, "List users").scripts?.test.length, 1);
});

Deno.test("import: Insomnia v4 with a base and a sub environment, {{ _.var }} converted", async () => {
  const v4 = insomniaExport("My API", [
    insomnia("environment", "env_1", "wrk_1", { name: "Base", data: { base: "http://x.test" } }),
    insomnia("environment", "env_2", "env_1", {
      name: "Prod",
      data: { base: "https://prod.test" },
    }),
    insomnia("request_group", "fld_1", "wrk_1", { name: "Things" }),
    insomnia("request", "req_1", "fld_1", {
      name: "Get thing",
      method: "GET",
      url: "{{ _.base }}/things/1",
      headers: [{ name: "Accept", value: "application/json" }],
      authentication: { type: "bearer", token: "{{ _.token }}" },
      body: {},
    }),
  ]);
  const result = await readImport([{ name: "i.json", text: JSON.stringify(v4) }]);
  const get = byName(result, "Get thing");
  assert.equal(get.url, "{{base}}/things/1");
  assert.deepEqual(get.folder, ["Things"]);
  assert.deepEqual(get.headers[1], { name: "Authorization", value: "Bearer {{token}}" });
  assert.equal(result.variables.base, "http://x.test");
  assert.equal(result.environments.Prod!.base, "https://prod.test");
});

Deno.test("import: curl commands, secrets moved out, -k and cookie files reported", async () => {
  const text = [
    "curl -k -u ann:pw https://api.test/me",
    "curl -X POST https://api.test/items -H 'Authorization: Bearer abc' --json '{\"a\":1}' -b jar.txt",
  ].join("\n");
  const result = await readImport([{ name: "-", text }]);
  assert.equal(result.requests.length, 2);
  assert.match(result.requests[0]!.headers[0]!.value, /^Basic ann \{\{password\}\}$/);
  assert.equal(result.privateEnvironments.imported!.password, "pw");
  assert.deepEqual(result.requests[1]!.headers[0], {
    name: "Authorization",
    value: "Bearer {{token}}",
  });
  assert.equal(result.requests[1]!.body, '{"a":1}');
  assert.deepEqual(result.losses.map((l) => l.what), [
    "-k (run with dial run -k)",
    "cookie file jar.txt",
  ]);
});

Deno.test("import: an unknown format is a usage error naming the file", async () => {
  await assert.rejects(
    () => readImport([{ name: "x.json", text: '{"hello":1}' }]),
    /Cannot tell the format of "x.json"/,
  );
});

Deno.test("import: Postman OAuth 2.0 becomes Security.Auth, secrets private, the rest reported", async () => {
  const oauth2 = (params: Record<string, string>) => ({
    type: "oauth2",
    oauth2: Object.entries(params).map(([key, value]) => ({ key, value, type: "string" })),
  });
  const collection = {
    info: {
      name: "OAuth",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    auth: oauth2({
      grant_type: "client_credentials",
      accessTokenUrl: "https://id.test/token",
      clientId: "app",
      clientSecret: "cs-123",
      scope: "read write",
      client_authentication: "body",
      addTokenTo: "header",
      audience: "https://api.test",
    }),
    item: [
      { name: "A", request: { method: "GET", url: "https://api.test/a" } },
      { name: "B", request: { method: "GET", url: "https://api.test/b" } },
      {
        name: "Login",
        request: {
          method: "GET",
          url: "https://api.test/me",
          auth: oauth2({
            grant_type: "authorization_code_with_pkce",
            authUrl: "https://id.test/authorize",
            accessTokenUrl: "https://id.test/token",
            clientId: "web",
            redirect_uri: "https://oauth.pstmn.io/v1/callback",
            challengeAlgorithm: "S256",
            tokenName: "web login",
            headerPrefix: "Token",
          }),
        },
      },
      {
        name: "Legacy",
        request: {
          method: "GET",
          url: "https://api.test/legacy",
          auth: oauth2({
            grant_type: "password_credentials",
            accessTokenUrl: "https://id.test/token",
            clientId: "old",
            username: "ann",
            password: "pw-456",
            addTokenTo: "queryParams",
          }),
        },
      },
      {
        name: "Implicit",
        request: {
          method: "GET",
          url: "https://api.test/i",
          auth: oauth2({ grant_type: "implicit", authUrl: "https://id.test/authorize" }),
        },
      },
    ],
  };
  const result = await readImport([{ name: "c.json", text: JSON.stringify(collection) }]);
  assert.deepEqual(result.auth, {
    app: {
      "Type": "OAuth2",
      "Grant Type": "Client Credentials",
      "Token URL": "https://id.test/token",
      "Client ID": "app",
      "Client Secret": "{{app_client_secret}}",
      "Scope": "read write",
      "Client Credentials": "in body",
    },
    web_login: {
      "Type": "OAuth2",
      "Grant Type": "Authorization Code",
      "Token URL": "https://id.test/token",
      "Client ID": "web",
      "Auth URL": "https://id.test/authorize",
    },
    old: {
      "Type": "OAuth2",
      "Grant Type": "Password",
      "Token URL": "https://id.test/token",
      "Client ID": "old",
      "Username": "ann",
      "Password": "{{old_password}}",
    },
  });
  assert.equal(result.privateEnvironments.imported!.app_client_secret, "cs-123");
  assert.equal(result.privateEnvironments.imported!.old_password, "pw-456");
  // Both requests that inherit the collection's auth share one configuration (one token).
  for (const name of ["A", "B"]) {
    assert.deepEqual(byName(result, name).headers, [
      { name: "Authorization", value: 'Bearer {{$auth.token("app")}}' },
    ]);
  }
  assert.deepEqual(byName(result, "Login").headers, [
    { name: "Authorization", value: 'Token {{$auth.token("web_login")}}' },
  ]);
  assert.equal(
    byName(result, "Legacy").url,
    'https://api.test/legacy?access_token={{$auth.token("old")}}',
  );
  assert.deepEqual(byName(result, "Implicit").headers, []);
  assert.deepEqual(result.losses.map((l) => `${l.where}: ${l.what}`), [
    "A: OAuth 2.0 settings dial does not send: audience",
    "B: OAuth 2.0 settings dial does not send: audience",
    'Login: the callback URL https://oauth.pstmn.io/v1/callback (dial listens on http://localhost:8484/; register that one, or set "Redirect URL" to a loopback URL)',
    'Implicit: OAuth 2.0 grant "implicit" (dial runs client credentials, authorization code and password)',
  ]);
  const { importFiles } = await import("../../src/import/write_import.ts");
  const env = importFiles(result).find((f) => f.name === "http-client.env.json")!;
  assert.deepEqual(JSON.parse(env.text).$shared.Security.Auth, result.auth);
  const priv = importFiles(result).find((f) => f.name === "http-client.private.env.json")!;
  assert.ok(!env.text.includes("cs-123") && priv.text.includes("cs-123"));
});

Deno.test("import: an Insomnia multipart body becomes a .http multipart body with < file parts", async () => {
  const v4 = insomniaExport("Uploads", [
    insomnia("request", "req_1", "wrk_1", {
      name: "Upload",
      method: "POST",
      url: "{{ _.base }}/upload",
      headers: [{ name: "Content-Type", value: "multipart/form-data" }],
      body: {
        mimeType: "multipart/form-data",
        params: [
          { name: "title", value: "{{ _.title }}" },
          { name: "skip", value: "x", disabled: true },
          { name: "file", type: "file", fileName: "/tmp/photo.png" },
        ],
      },
    }),
  ]);
  const result = await readImport([{ name: "i.json", text: JSON.stringify(v4) }]);
  const upload = byName(result, "Upload");
  assert.deepEqual(upload.headers, [
    { name: "Content-Type", value: "multipart/form-data; boundary=----dialImportBoundary" },
  ]);
  assert.deepEqual(upload.body, {
    parts: [
      [
        "------dialImportBoundary",
        'Content-Disposition: form-data; name="title"',
        "",
        "{{title}}",
        "------dialImportBoundary",
        'Content-Disposition: form-data; name="file"; filename="photo.png"',
        "",
      ].join("\n"),
      { file: "/tmp/photo.png" },
      "------dialImportBoundary--",
    ],
  });
  assert.deepEqual(result.losses, []);
});
