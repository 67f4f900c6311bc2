/**
 * What the held-out sweep of session 16 found (143 public files dial had not been tuned against:
 * openmeter's httpyac e2e files, alekdavis/httpyac-extras, zed-kulala-http, AxonIQ's workshop,
 * ASP.NET Core and Spring projects; manifest in the session's notes), written as tests and run by
 * dial and by httpyac 6.16.7 (npm) on the same files against the same python3-httpbin:
 * `{{process.env.NAME}}`, spaces in a request line's query, `NAMEResponse` in a block, a request
 * that refers to a skipped one, and the blocks above a `# @loop` line.
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { httpyac, project, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";
import { unusedPort } from "../_ports.ts";

/** The `METHOD url` of each httpbin echo (`/anything`) in a tool's printed bodies, in order. */
function echoed(stdout: string): string[] {
  return [...stdout.matchAll(/"method":\s*"(\w+)",[\s\S]*?"url":\s*"([^"]+)"/g)].map((m) =>
    `${m[1]} ${new URL(m[2]!).pathname}${new URL(m[2]!).search}`
  );
}

/** Runs FILE of DIR by both tools, each printing the response bodies. */
async function both(dir: string, file: string, base: string, env: Record<string, string> = {}) {
  const ours = await dial(["run", `${dir}/${file}`, "--var", `base=${base}`], { env });
  const theirs = await httpyac([file, "--all", "-o", "body", "--var", `base=${base}`], {
    cwd: dir,
    env,
  });
  return { ours, theirs };
}

Deno.test("held-out sweep: {{process.env.NAME}} is the process environment variable, as httpyac reads it; unset, an error naming it and nothing sent", async () => {
  await using httpbin = await startHttpbin();
  // openmeter's e2e/http files: the address comes from the shell, not an environment file.
  const dir = await project({
    "feature.http": `@api_base = {{process.env.SWEEP_ADDRESS}}/anything/v3
@key = 01HXYZABCDEFGHJKMNPQRSTV01

###
# @name get_unknown_id
GET {{api_base}}/features/{{key}}

?? status == 200
?? js response.parsedBody.url includes /anything/v3/features/01HXYZ
`,
  });
  const env = { SWEEP_ADDRESS: httpbin.origin };
  const ours = await dial(["test", `${dir}/feature.http`, "--reporter", "json"], { env });
  assert.equal(ours.code, 0, ours.stderr);
  const cases = reportCases(ours.stdout).filter((c) => c.name !== "HTTP 200");
  assert.deepEqual(cases.map((c) => [c.name, c.outcome]), [
    ["status == 200", "passed"],
    ["js response.parsedBody.url includes /anything/v3/features/01HXYZ", "passed"],
  ]);
  const theirs = await httpyac(["feature.http", "--all", "-o", "body"], { cwd: dir, env });
  assert.equal(theirs.code, 0, theirs.stdout + theirs.stderr);
  const printed = await dial(["run", `${dir}/feature.http`], { env });
  assert.deepEqual(echoed(printed.stdout), echoed(theirs.stdout));
  assert.deepEqual(echoed(printed.stdout), [
    "GET /anything/v3/features/01HXYZABCDEFGHJKMNPQRSTV01",
  ]);

  // Unset: dial names it and sends nothing (httpyac sends "undefined/anything/…", an error too).
  const unset = await dial(["run", `${dir}/feature.http`], { env: { SWEEP_ADDRESS_OTHER: "x" } });
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /feature\.http:1:1: Undefined variable "process\.env\.SWEEP_ADDRESS"/);
  assert.deepEqual(echoed(unset.stdout), []);
});

Deno.test("held-out sweep: spaces in a request line's query (and its continuation lines) are sent percent-encoded, as httpyac, REST Client and kulala send them; in the path, a parse error", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // AxonIQ/bike-rental-workshop's requests.http and zed-kulala-http's test/test.http shapes.
    "spaces.http": `### Return bike
POST {{base}}/anything/returnBike?location=New York&bikeId=40208d8f HTTP/1.1
Accept: application/json

### Query params with spaces multiline
GET {{base}}/anything/get
 ?id=123
 &value=some "longer" content HTTP/1.1
`,
    "path.http": "GET {{base}}/anything/a b?x=1\n",
  });
  const { ours, theirs } = await both(dir, "spaces.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(theirs.code, 0, theirs.stdout + theirs.stderr);
  assert.deepEqual(echoed(ours.stdout), echoed(theirs.stdout));
  assert.deepEqual(echoed(ours.stdout), [
    "POST /anything/returnBike?location=New%20York&bikeId=40208d8f",
    "GET /anything/get?id=123&value=some%20%22longer%22%20content",
  ]);
  const path = await dial(["run", `${dir}/path.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(path.code, 2);
  assert.match(path.stderr, /path\.http:1:\d+: Cannot parse request line: unexpected "b\?x=1"/);
});

Deno.test("held-out sweep: NAMEResponse in a block is the named request's response; a request that refers to a skipped one is skipped, as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  // alekdavis/httpyac-extras Tests/Demos/demo-2-Conditional-Basic.http's shape.
  const dir = await project({
    "conditional.http": `@host={{base}}

### Test 1
# @name test1
POST /anything?test=1
{"a":"x"}

### Test 4 (test 1's status is 200: not skipped)
# @name test4
# @ref test1
{{
  exports.$cancel = !(test1Response?.statusCode == 200);
}}
POST /anything?test=4

### Test 5 (test 1's status is 200: skipped)
# @name test5
# @ref test1
{{
  exports.$cancel = (test1Response?.statusCode == 200);
}}
POST /anything?test=5

### Test 7 (refers to test 5, which was skipped: skipped)
# @name test7
# @ref test5
POST /anything?test=7

### Test 8 (test 4's parsed body)
# @ref test4
{{
  exports.$cancel = test4Response.parsedBody.args.test !== "4";
}}
POST /anything?test=8
`,
  });
  const { ours, theirs } = await both(dir, "conditional.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(theirs.code, 0, theirs.stdout + theirs.stderr);
  assert.deepEqual(echoed(ours.stdout), echoed(theirs.stdout));
  assert.deepEqual(echoed(ours.stdout), [
    "POST /anything?test=1",
    "POST /anything?test=4",
    "POST /anything?test=8",
  ]);
  const report = await dial([
    "test",
    `${dir}/conditional.http`,
    "--reporter",
    "json",
    "--var",
    `base=${httpbin.origin}`,
  ]);
  const skipped = reportCases(report.stdout).filter((c) => c.name === "skipped");
  assert.deepEqual(skipped.map((c) => c.request), ["test5", "test7"]);
});

Deno.test("held-out sweep: a request's blocks above its # @loop line run once, before the loop reads its list or condition; the ones below it in every pass, as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  // alekdavis/httpyac-extras Tests/Demos/demo-4-Loops.http's shape.
  const dir = await project({
    "loops.http": `@host={{base}}

### FOR item OF data
# @name ofData
{{
  exports.data = [1, 2, 3];
}}
# @loop for item of data
{{
  httpRegion.metaData.title += " (" + item + ")";
}}
GET /anything?item={{item}}

### WHILE condition
# @name whileCondition
{{
  exports.expression = { index: 0 };
}}
# @loop while expression.index < 3
GET /anything?while={{expression.index++}}
`,
  });
  const { ours, theirs } = await both(dir, "loops.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(theirs.code, 0, theirs.stdout + theirs.stderr);
  assert.deepEqual(echoed(ours.stdout), echoed(theirs.stdout));
  assert.deepEqual(echoed(ours.stdout), [
    "GET /anything?item=1",
    "GET /anything?item=2",
    "GET /anything?item=3",
    "GET /anything?while=0",
    "GET /anything?while=1",
    "GET /anything?while=2",
  ]);
});

Deno.test("held-out sweep: a word alone on a line that names no method is the short form's URL: that request fails when sent, the file's others run, as in httpyac; POST alone is still a parse error", async () => {
  await using httpbin = await startHttpbin();
  // DataSamuraii/Note-taking-app tests/test_main.http's shape.
  const dir = await project({
    "main.http": `# Test your FastAPI endpoints
USERS
###
POST {{base}}/anything?x=1
Content-Type: application/json

{"username": "string1"}

###
GET {{base}}/anything?x=2
`,
    "post.http": "POST\n",
  });
  const { theirs } = await both(dir, "main.http", httpbin.origin);
  const ours = await dial([
    ...["test", `${dir}/main.http`, "--reporter", "json", "--var", `base=${httpbin.origin}`],
    // USERS is a host (JetBrains: a URL without a scheme is http://): kept on loopback, refused.
    ...["--connect-to", `users:80:127.0.0.1:${unusedPort()}`],
  ]);
  // 7: a request could not connect (as curl's exit code).
  assert.equal(ours.code, 7, ours.stderr);
  const cases = reportCases(ours.stdout);
  assert.deepEqual(cases.map((c) => [c.request, c.outcome]), [
    ["GET USERS", "error"],
    ["POST {{base}}/anything?x=1", "passed"],
    ["GET {{base}}/anything?x=2", "passed"],
  ]);
  // httpyac sends the same two (dial run stops at the first request that fails; test goes on).
  assert.deepEqual(echoed(theirs.stdout), ["POST /anything?x=1", "GET /anything?x=2"]);
  const post = await dial(["run", `${dir}/post.http`]);
  assert.equal(post.code, 2);
  assert.match(post.stderr, /post\.http:1:5: Missing URL after method "POST"/);
});

Deno.test("held-out sweep: a form body's lines that end with & go on the next line, as kulala documents them and httpyac sends them (REST Client's lines that start with & too)", async () => {
  await using httpbin = await startHttpbin();
  // kulala's documented form (docs/usage/sending-form-data) and zed-kulala-http's test file.
  const dir = await project({
    "form.http": `@name=John
@age=30

POST {{base}}/post HTTP/1.1
Content-Type: application/x-www-form-urlencoded
Accept: application/json

name={{name}}&
age={{age}}&
client_id=foo
&grant_type=password
`,
  });
  const { ours, theirs } = await both(dir, "form.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(theirs.code, 0, theirs.stdout + theirs.stderr);
  const sent = (stdout: string) => {
    const echo = JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1));
    return { form: echo.form, length: echo.headers["Content-Length"] };
  };
  assert.deepEqual(sent(ours.stdout), sent(theirs.stdout));
  assert.deepEqual(sent(ours.stdout), {
    form: { name: "John", age: "30", client_id: "foo", grant_type: "password" },
    length: "50",
  });
});

Deno.test("held-out sweep: REST Client's environments in .vscode/settings.json (JSON with comments): $shared and the chosen one, {{$shared NAME}}, found from a request file below, as REST Client's README describes them", async () => {
  await using httpbin = await startHttpbin();
  const authority = new URL(httpbin.origin).host;
  const dir = await project({
    ".vscode/settings.json": `{
  // REST Client's environments (its README, "Environment Variables")
  "editor.tabSize": 2,
  "rest-client.environmentVariables": {
    "$shared": {
      "version": "v1",
      "token": "shared-token",
    },
    "local": {
      "version": "v2",
      "host": "${authority}", /* no scheme: the request line writes it */
      "token": "{{$shared token}}-local",
    },
  },
}
`,
    // Another settings file nearer the request, without REST Client's key: not where they are.
    "requests/.vscode/settings.json": `{ "editor.tabSize": 4 }`,
    "requests/api.http": `GET http://{{host}}/anything/{{version}}?shared={{$shared version}}
Authorization: Bearer {{token}}
`,
  });
  const ours = await dial(["run", "requests/api.http", "--env", "local"], { cwd: dir });
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(echoed(ours.stdout), ["GET /anything/v2?shared=v1"]);
  assert.match(ours.stdout, /"Authorization":\s*"Bearer shared-token-local"/);
  const unknown = await dial(["run", "requests/api.http", "--env", "prod"], { cwd: dir });
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /Unknown environment "prod": .*\.vscode\/settings\.json define "local"/,
  );
});

Deno.test("held-out sweep: Visual Studio's http-client.env.json.user is read beside http-client.env.json (its values over the shared file's, secrets); a provider's value is skipped saying so", async () => {
  await using httpbin = await startHttpbin();
  // An ASP.NET Core project's shape: the environments in the solution's folder, above the
  // project's .http file (Visual Studio looks up from the file's folder).
  const dir = await project({
    "http-client.env.json": JSON.stringify({
      dev: { HostAddress: httpbin.origin, ApiKey: "shared-placeholder" },
    }),
    "http-client.env.json.user": JSON.stringify({
      dev: {
        ApiKey: "user-key",
        Secret: { provider: "AspnetUserSecrets", secretName: "config:ApiSecret" },
      },
    }),
    "WebApi/WebApi.http": `@WebApi_HostAddress = {{HostAddress}}

GET {{WebApi_HostAddress}}/anything/weatherforecast/
Accept: application/json
X-Api-Key: {{ApiKey}}

###
`,
  });
  const ours = await dial(["run", "WebApi/WebApi.http", "--env", "dev"], { cwd: dir });
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(echoed(ours.stdout), ["GET /anything/weatherforecast/"]);
  assert.match(ours.stdout, /"X-Api-Key":\s*"user-key"/);
  assert.match(
    ours.stderr,
    /http-client\.env\.json\.user: variable "Secret" is read by Visual Studio's "AspnetUserSecrets" provider, which dial does not run, and is skipped/,
  );
  // A value of the user's file is a secret: -v shows it redacted.
  const verbose = await dial(["run", "WebApi/WebApi.http", "--env", "dev", "-v"], { cwd: dir });
  assert.doesNotMatch(verbose.stderr, /user-key/);
});

Deno.test("held-out sweep: a request's ?? lines run before its blocks after the response, wherever they are written, as httpyac runs them: a ?? reads the variables as they were before the blocks", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "order.http": `@seen = 1

GET {{base}}/anything?n=1

?? status == 200
?? js seen == 1
{{
  exports.seen = 2;
  test("block after two assertions", () => {});
}}
?? js seen == 2
`,
  });
  const ours = await dial([
    ...["test", `${dir}/order.http`, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  // 11: a test failed (`seen == 2`, read before the block that sets it).
  assert.equal(ours.code, 11, ours.stdout + ours.stderr);
  const theirs = await httpyac(
    ["order.http", "--all", "-o", "none", "--json", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  const report = JSON.parse(theirs.stdout.slice(theirs.stdout.indexOf("{"))) as {
    requests: { testResults: { message: string; status: string }[] }[];
  };
  const httpyacTests = report.requests.flatMap((r) =>
    r.testResults.map((t) => [t.message, t.status === "SUCCESS"])
  );
  assert.deepEqual(httpyacTests, [
    ["status == 200", true],
    ["seen == 1", true],
    ["seen == 2", false],
    ["block after two assertions", true],
  ]);
  const cases = reportCases(ours.stdout).filter((c) => c.name !== "HTTP 200");
  assert.deepEqual(cases.map((c) => [c.name, c.outcome === "passed"]), [
    ["status == 200", true],
    ["js seen == 1", true],
    ["js seen == 2", false],
    ["block after two assertions", true],
  ]);
});
