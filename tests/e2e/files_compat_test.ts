/**
 * Request files nobody here wrote: the examples of the JetBrains spec and of REST Client's
 * README (fixtures/http/, each naming its source), run by dial against local servers, and
 * side by side with httpyac (npm) on the same files and the same servers.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { httpyac, project } from "./_files.ts";
import { makeCertificates, serveTls } from "./_tls.ts";

const FIXTURES = new URL("./fixtures/http/", import.meta.url).pathname;

interface Seen {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  from: string | null;
  body: string;
}

async function recorder() {
  const seen: Seen[] = [];
  const handler = async (request: Request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: url.pathname + url.search,
      authorization: request.headers.get("authorization"),
      contentType: request.headers.get("content-type"),
      from: request.headers.get("from"),
      body: await request.text(),
    });
    if (url.pathname.endsWith("/login") || url.pathname === "/auth") {
      return Response.json({ token: "t-123" }, { headers: { "X-AuthToken": "tok-h" } });
    }
    if (url.pathname === "/api/comments" && request.method === "POST") {
      return Response.json({ id: "c1" });
    }
    return Response.json({ ok: true });
  };
  const certificates = await makeCertificates();
  const plain = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const tls = serveTls(certificates.leaf, certificates.leafKey, handler);
  return {
    seen,
    ca: certificates.ca,
    http: `127.0.0.1:${plain.addr.port}`,
    https: `127.0.0.1:${tls.addr.port}`,
    async [Symbol.asyncDispose]() {
      await Promise.all([plain.shutdown(), tls.shutdown()]);
    },
  };
}

/** Runs httpyac (npm) on a fixture, with the environment dial's test runs get. */
async function runHttpyac(file: string, vars: string[], env: Record<string, string> = {}) {
  const output = await httpyac(
    [file, "--all", "--insecure", "-o", "none", ...vars.flatMap((v) => ["--var", v])],
    { cwd: FIXTURES, env },
  );
  return { code: output.code, text: output.stdout + output.stderr };
}

const JSON_ADD = "{\n  “name”: “entity”,\n  “value”: “content”\n}";
const MULTIPART = [
  "--abcd",
  'Content-Disposition: form-data; name="text"',
  "",
  "Text",
  "--abcd",
  'Content-Disposition: form-data; name="file_to_send"; filename="input.txt"',
  "",
  "file contents\n",
  "--abcd--",
].join("\r\n");

Deno.test("compat: the JetBrains spec's examples, by dial and by httpyac", async () => {
  await using server = await recorder();
  const vars = [`host=${server.http}`, "element-id=42"];
  const result = await dial([
    "run",
    `${FIXTURES}jetbrains_spec.http`,
    ...vars.flatMap((v) => ["--var", v]),
  ]);
  assert.equal(result.code, 0, result.stderr);
  const get = (path: string, from: string | null = null) => ({
    method: "GET",
    path,
    authorization: null,
    contentType: null,
    from,
    body: "",
  });
  const post = (path: string, body: string, contentType: string | null) => ({
    method: "POST",
    path,
    authorization: null,
    contentType,
    from: null,
    body,
  });
  const expected: Seen[] = [
    post("/api/add", JSON_ADD, "application/json"),
    get("/"),
    get("/"),
    post("/auth", '{"user": "ann"}\n', "application/json"),
    get("/"),
    get("/"),
    get("/api/get"),
    get("/api/get?id=15", "user@example.com"),
    post("/api/add", "{ “key”: “value” }", "application/json"),
    post("/api/add", '{"user": "ann"}\n', "application/json"),
    post("/api/upload", MULTIPART, "multipart/form-data; boundary=abcd"),
    get("/auth"),
    get("/"),
    get("/api/get?id=42"),
    // Spec 4.2.1: indented lines continue the path; spaces around them are dropped.
    get("/api/get"),
    get("/%20api%20+/get+"),
    // Spec 4.2.2: blank lines around an in-place body are not sent.
    post("/add", "message-body", null),
  ];
  assert.deepEqual(server.seen, expected);

  const dialSeen = server.seen.splice(0);
  const peer = await runHttpyac("jetbrains_spec.http", vars);
  assert.equal(peer.code, 0, peer.text);
  assert.equal(server.seen.length, dialSeen.length);
  // httpyac 6.16.7 does not read the spec's multi-line paths (4.2.1): it sends "/". The rest is
  // the same request for request.
  const differ = new Set([14, 15]);
  server.seen.forEach((seen, i) => {
    if (differ.has(i)) assert.equal(seen.path, "/");
    else assert.deepEqual(seen, dialSeen[i], `request ${i + 1}`);
  });
});

Deno.test("compat: REST Client's README examples over TLS (--cacert), by dial and by httpyac", async () => {
  await using server = await recorder();
  const vars = [`host=${server.https}`];
  const env = { USERNAME: "ann" };
  const result = await dial(
    ["run", `${FIXTURES}rest_client_readme.http`, "--cacert", server.ca, "--var", vars[0]!],
    { env },
  );
  assert.equal(result.code, 0, result.stderr);
  const seen = server.seen.splice(0);
  assert.deepEqual(seen.map((s) => `${s.method} ${s.path}`), [
    "GET /comments/1",
    "POST /comments",
    "GET /topics/1",
    "GET /comments?page=2&pageSize=10",
    "GET /comments?page=2&pageSize=10",
    "POST /comments",
    "POST /comments",
    "POST /comments",
    "POST /user/upload",
    "POST /login",
    "POST /graphql",
    "GET /basic-auth/user/passwd",
    "GET /basic-auth/user/passwd",
    "GET /basic-auth/user/passwd",
    "GET /authors/hello",
    "PATCH /authors/hello",
  ]);
  // < file is sent as it is; <@ file with its variables substituted (file variables are
  // file-wide in REST Client, so @name = hello further down counts).
  assert.equal(seen[6]!.body, "<request><name>{{name}}</name></request>\n");
  assert.equal(seen[7]!.body, "<request><name>hello</name></request>\n");
  assert.equal(seen[9]!.body, "name=foo&password=bar");
  assert.deepEqual(JSON.parse(seen[10]!.body).variables, {
    name: "vscode-restclient",
    owner: "Huachao",
  });
  assert.deepEqual(
    seen.slice(11, 14).map((s) => s.authorization),
    Array(3).fill(`Basic ${btoa("user:passwd")}`),
  );
  const patch = JSON.parse(seen[15]!.body);
  assert.equal(patch.modified_by, "ann");
  assert.ok(!Number.isNaN(Date.parse(patch.created_at)));

  const peer = await runHttpyac("rest_client_readme.http", vars, env);
  assert.equal(peer.code, 0, peer.text);
  assert.equal(server.seen.length, seen.length);
  server.seen.forEach((theirs, i) => {
    const ours = seen[i]!;
    if (i === 7) {
      // httpyac scopes @name = hello to its own request: it substitutes nothing.
      assert.equal(theirs.body, "<request><name></name></request>\n");
    } else if (i === 15) {
      assert.equal(JSON.parse(theirs.body).modified_by, "ann");
    } else {
      assert.deepEqual(theirs, ours, `request ${i + 1}`);
    }
  });
});

Deno.test("compat: REST Client's request variables chain (httpyac 6.16.7 cannot run this example)", async () => {
  await using server = await recorder();
  const result = await dial([
    "run",
    `${FIXTURES}rest_client_chaining.http`,
    "--cacert",
    server.ca,
    "--var",
    `host=${server.https}`,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.seen.map((s) => [s.method, s.path, s.authorization]), [
    ["POST", "/api/api/login", null],
    ["POST", "/api/comments", "tok-h"],
    ["GET", "/api/comments/c1", "tok-h"],
  ]);
  const peer = await runHttpyac("rest_client_chaining.http", [`host=${server.https}`]);
  assert.notEqual(peer.code, 0);
  assert.match(peer.text, /createComment\.response\.body\.\$\.id/);
});

Deno.test("compat: httpyac's guide examples, by dial and by httpyac", async () => {
  await using server = await recorder();
  const vars = [`host=${server.https}`];
  const result = await dial([
    "run",
    `${FIXTURES}httpyac_guide.http`,
    "--cacert",
    server.ca,
    "--var",
    vars[0]!,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /httpyac_guide\.http:40:3: Directive "@title" is not supported by dial and is ignored/,
  );
  const seen = server.seen.splice(0);
  assert.deepEqual(seen.map((s) => `${s.method} ${s.path} ${s.authorization ?? "-"}`), [
    "GET / -",
    "GET / -",
    "GET /get -",
    "GET /anything?q=httpyac -",
    "GET /anything?q=httpyac&ie=UTF-8 -",
    "GET /anything Bearer token",
    "GET /anything?q=bar -",
    "GET /anything?q=bar_Extendend -",
    "GET /json -",
    "GET /json -",
  ]);
  const peer = await runHttpyac("httpyac_guide.http", vars);
  assert.equal(peer.code, 0, peer.text);
  assert.deepEqual(server.seen, seen);
});

Deno.test("compat: httpyac's lenient files (a block comment, {{host}} before /paths, request lines under each other, bodies without a blank line, a GraphQL body, a version after a multi-line target, {{name.path}} of a named request, request lines in bodies, # @injectVariables, an example response and a request line under it), by dial and by httpyac", async () => {
  await using server = await recorder();
  const vars = [`base=http://${server.http}`];
  const result = await dial([
    "run",
    `${FIXTURES}httpyac_lenient.http`,
    ...vars.flatMap((v) => ["--var", v]),
  ]);
  assert.equal(result.code, 0, result.stderr);
  // Each construct JetBrains would not read is a warning naming its line.
  assert.match(
    result.stderr,
    /:12:1: A request line inside the request above .* start it with ###/,
  );
  assert.match(result.stderr, /:14:1: A request line inside the request above/);
  for (const line of [19, 26, 32]) {
    assert.match(result.stderr, new RegExp(`:${line}:1: The body starts with no blank line`));
  }
  const seen = server.seen.splice(0);
  assert.deepEqual(seen.map((s) => `${s.method} ${s.path} ${s.contentType ?? "-"}`), [
    "GET /actuator/info -",
    "GET /actuator/env -",
    "GET /actuator/health -",
    "POST /session application/json",
    "POST /soap text/xml",
    "POST /anything application/json",
    "POST /graphql application/json",
    "GET /get?param1=value1&param2=value -",
    "POST /login application/json",
    "GET /me?token=t-123 -",
    "GET /status/200 -",
    "GET /status/201 -",
    "POST /post application/json",
    "PUT /put -",
    "PROPFIND /dav -",
    "GET /spaced?q=5 -",
    "POST /inject application/json",
    "DELETE /delete -",
    // A request line under an example response starts a request, as httpyac reads it.
    "GET /after-example -",
    "POST /body-var -",
  ]);
  assert.equal(seen.at(-4)!.body, `{"origin": "http://${server.http}"}\n`);
  assert.equal(seen.at(-3)!.body, "");
  assert.equal(seen.at(-1)!.body, "t-123");
  assert.equal(seen[3]!.body, '{\n    "username": "admin"\n}');
  assert.equal(seen[4]!.body, '<?xml version="1.0"?>\n<a>b</a>');
  assert.equal(seen[5]!.body, '{"user": "ann"}\n');
  // httpyac's GraphQL body: the query, its name as the operation's, the variables.
  assert.deepEqual(JSON.parse(seen[6]!.body), {
    query:
      "query Continents($code: String!) {\n    continents(filter: {code: {eq: $code}}) {\n      code\n    }\n}",
    operationName: "Continents",
    variables: { code: "EU" },
  });

  const peer = await runHttpyac("httpyac_lenient.http", vars);
  assert.equal(peer.code, 0, peer.text);
  assert.deepEqual(server.seen, seen);
});

Deno.test("compat: kulala's request variable path without $ (its demo 3.access-token.http; kulala runs only inside Neovim, so no peer run)", async () => {
  await using server = await recorder();
  const dir = await project({
    "token.http": [
      "### login",
      `POST http://${server.http}/login`,
      "Content-Type: application/json",
      "",
      '{"username": "demo"}',
      "",
      "### Access protected resource with Bearer token",
      `GET http://${server.http}/bearer`,
      "Authorization: Bearer {{login.response.body.token}}",
      "",
    ].join("\n"),
  });
  const result = await dial(["run", `${dir}/token.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.seen.map((s) => [s.path, s.authorization]), [
    ["/login", null],
    ["/bearer", "Bearer t-123"],
  ]);
});

Deno.test("compat: kulala skips a block with a pre-request script or directives and no request line (its demo 5.script.http, fixtures/format.http); the file's requests run", async () => {
  // kulala.nvim's parser (lua/kulala/parser/document_core.lua, block_to_request; the Lua
  // parser before it likewise) leaves a block without a URL out of the run, scripts and all.
  await using server = await recorder();
  const dir = await project({
    "script.http": [
      "### Get token (simulating login)",
      "",
      "< {%",
      "  request.variables.set('NONCE', 'n-1');",
      "%}",
      "### login",
      `POST http://${server.http}/login`,
      "",
      "###",
      "# @curl-connect-timeout 200",
      "",
      "### second",
      `GET http://${server.http}/after`,
      "",
    ].join("\n"),
  });
  const result = await dial(["test", `${dir}/script.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /script\.http:3:1: Directives or a pre-request script with no request line below them before the next ### are skipped/,
  );
  assert.match(result.stderr, /script\.http:10:1: Directives or a pre-request script/);
  assert.deepEqual(server.seen.map((s) => s.path), ["/login", "/after"]);
});

Deno.test("compat: httpyac's escaped braces (\\{\\{name\\}\\}) are sent as {{name}}, by dial and by httpyac", async () => {
  await using server = await recorder();
  const dir = await project({
    // httpyac's examples/variables/escapeVariableSubstituion.http, with a header and a variable.
    "escape.http": [
      "@verb = sends",
      `POST http://${server.http}/anything`,
      "From: \\{\\{who\\}\\}",
      "",
      "{",
      '  "template": "My \\{\\{someVerb\\}\\} template {{verb}}!!"',
      "}",
      "",
    ].join("\n"),
  });
  const result = await dial(["run", `${dir}/escape.http`]);
  assert.equal(result.code, 0, result.stderr);
  const seen = server.seen.splice(0);
  assert.deepEqual(seen.map((s) => [s.from, s.body]), [
    ["{{who}}", '{\n  "template": "My {{someVerb}} template sends!!"\n}'],
  ]);
  const peer = await httpyac(["escape.http", "--all", "-o", "none"], { cwd: dir });
  assert.equal(peer.code, 0, peer.stdout + peer.stderr);
  assert.deepEqual(server.seen, seen);
});

Deno.test("compat: httpyac's OAuth 2.0 Authorization forms (oauth2 …, openid …) without a token endpoint, or of a flow dial does not run, fail naming the line, nothing sent", async () => {
  await using server = await recorder();
  const dir = await project({
    // httpyac's examples/api/microsoftIdentify.http and examples/auth/oauth2.http, shortened.
    "oauth.http": [
      `GET http://${server.http}/json`,
      "Authorization: oauth2 device_code",
      "",
      "###",
      `GET http://${server.http}/info`,
      "Authorization: openid implicit local",
      "",
      "###",
      `GET http://${server.http}/after`,
      // A scheme of that name with a token is sent as it is.
      "Authorization: OAuth2 abc123",
      "",
    ].join("\n"),
  });
  const result = await dial(["test", `${dir}/oauth.http`]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stdout + result.stderr,
    /oauth\.http:2: "Authorization: oauth2 device_code": no token endpoint: define oauth2_tokenEndpoint/,
  );
  assert.match(
    result.stdout + result.stderr,
    /oauth\.http:6: "Authorization: openid implicit local": dial runs httpyac's client_credentials, password, device_code and authorization_code flows, not implicit/,
  );
  assert.deepEqual(server.seen.map((s) => [s.path, s.authorization]), [[
    "/after",
    "OAuth2 abc123",
  ]]);
});

Deno.test("compat: httpyac's # @forceRef runs the named request again before its request; # @ref only once; by dial and by httpyac", async () => {
  await using server = await recorder();
  const dir = await project({
    // httpyac.github.io's examples/metaData/ref.http, with a login that answers a token.
    "ref.http": [
      "# @name login",
      `POST http://${server.http}/login`,
      "",
      "###",
      "# @ref login",
      `GET http://${server.http}/a?t={{login.token}}`,
      "",
      "###",
      "# @forceRef login",
      `GET http://${server.http}/b?t={{login.token}}`,
      "",
    ].join("\n"),
  });
  const result = await dial(["test", `${dir}/ref.http`]);
  assert.equal(result.code, 0, result.stderr);
  const seen = server.seen.splice(0);
  assert.deepEqual(seen.map((s) => s.path), ["/login", "/a?t=t-123", "/login", "/b?t=t-123"]);
  const peer = await httpyac(["ref.http", "--all", "-o", "none"], { cwd: dir });
  assert.equal(peer.code, 0, peer.stdout + peer.stderr);
  assert.deepEqual(server.seen, seen);
});

Deno.test("compat: httpyac's .env variables of the project's folders (host before /paths), by dial test of the folder and by httpyac", async () => {
  await using server = await recorder();
  const dir = await project({
    ".httpyac.json": "{}\n",
    ".env": `host=http://${server.http}\nwho=root\n`,
    "api/env/.env": "who=api\n",
    "api/health.http": "GET /health\n",
    "api/users.http": "@id = 7\n\nGET /users/{{id}}?who={{who}}\n",
  });
  const result = await dial(["test", dir]);
  assert.equal(result.code, 0, result.stderr);
  const seen = server.seen.splice(0);
  // The nearer .env wins; a file variable wins over both.
  assert.deepEqual(seen.map((s) => s.path), ["/health", "/users/7?who=api"]);
  const peer = await httpyac(["api/health.http", "api/users.http", "--all", "-o", "none"], {
    cwd: dir,
  });
  assert.equal(peer.code, 0, peer.stdout + peer.stderr);
  assert.deepEqual(server.seen, seen);
  // dial run of the file alone: the folder above is outside the run's folder, its .env unread.
  const alone = await dial(["run", `${dir}/api/users.http`]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /needs a Host header, or a \{\{host\}\} variable/);
});

Deno.test("compat: a # line of a GraphQL query is sent with it when it is under a line of the query, dropped above it or after a blank line; by dial and by httpyac", async () => {
  await using server = await recorder();
  const dir = await project({
    "gql.http": `### inside
GRAPHQL {{base}}/graphql

# above the query: the file's comment
query Viewer {
  # inside
# unindented
  viewer { login }
}
# right under the query

{"n": 1}

### httpyac
POST {{base}}/graphql
Content-Type: application/json

query Viewer {
  viewer { login } # after a field
  # last
}

# after a blank line
`,
  });
  const vars = ["--var", `base=http://${server.http}`];
  const result = await dial(["run", `${dir}/gql.http`, ...vars]);
  assert.equal(result.code, 0, result.stderr);
  const seen = server.seen.splice(0);
  assert.deepEqual(seen.map((s) => JSON.parse(s.body)), [
    {
      query:
        "query Viewer {\n  # inside\n# unindented\n  viewer { login }\n}\n# right under the query",
      operationName: "Viewer",
      variables: { n: 1 },
    },
    {
      query: "query Viewer {\n  viewer { login } # after a field\n  # last\n}",
      operationName: "Viewer",
    },
  ]);
  const peer = await httpyac(["gql.http", "--all", "-o", "none", ...vars], { cwd: dir });
  assert.equal(peer.code, 0, peer.stdout + peer.stderr);
  assert.deepEqual(server.seen.map((s) => JSON.parse(s.body)), seen.map((s) => JSON.parse(s.body)));
});
