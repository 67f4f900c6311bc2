/**
 * httpyac's constructs the held-out sweep of session 14 found dial without (httpyac.github.io's
 * examples/metaData/loopWithRef.http, loop*.http, refWithHttpyacJsApi.http, sleep.http,
 * variables/globalVariables.http, project/http/cookies.http), written as tests and run by dial
 * and by httpyac 6.16.7 (npm) on the same files against the same python3-httpbin: a named region
 * without a request line, a named loop's NAME and NAMEList, `$global`, `$httpyac.execute`,
 * `# @sleep`, and the order of the jar's cookies and a request's own `Cookie` header; and of
 * session 15 (the 15 files not sent and 38 sent differently): `sleep(ms)` in a block, a date's
 * zone name, httpyac's `Authorization: oauth2 …` (beside oauth2-mock-server), `require("crypto")`
 * in kulala's scripts, `{{@streaming`, each `{{expression}}` evaluated where it is.
 */
import assert from "node:assert/strict";
import { dial, dialEnv, serve } from "../_helpers.ts";
import { httpyac, project, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";
import { spawnDial } from "./_spawn.ts";
import { oauthHome, startMockServer } from "./_oauth_servers.ts";

/** Each test's outcome in httpyac's JSON report, in the order httpyac ran them. */
function httpyacTests(stdout: string): boolean[] {
  const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
    requests: { name: string; testResults?: { message: string; status: string }[] }[];
  };
  return report.requests.flatMap((r) => (r.testResults ?? []).map((t) => t.status === "SUCCESS"));
}

/** Each test's name and outcome in dial's JSON report (requests' own status cases left out). */
function dialTests(stdout: string): [string, boolean][] {
  return reportCases(stdout).filter((c) => !/^(HTTP \d+|ran|sent)$/.test(c.name)).map((
    c,
  ) => [c.name, c.outcome === "passed"]);
}

/** Runs a file of the project by both tools: `dial test` and `httpyac send --all`. */
async function both(dir: string, file: string, base: string) {
  const ours = await dial([
    "test",
    `${dir}/${file}`,
    "--reporter",
    "json",
    "--var",
    `base=${base}`,
  ]);
  const theirs = await httpyac([file, "--all", "-o", "none", "--json", "--var", `base=${base}`], {
    cwd: dir,
  });
  return { ours, theirs };
}

/** The `METHOD url` of each httpbin echo (`/anything`, `/headers`) in a tool's printed bodies. */
function echoed(stdout: string): string[] {
  return [...stdout.matchAll(/"method":\s*"(\w+)",[\s\S]*?"url":\s*"([^"]+)"/g)].map((m) =>
    `${m[1]} ${new URL(m[2]!).pathname}${new URL(m[2]!).search}`
  );
}

// loopWithRef.http's shape, with a list httpbin echoes back (Debian's httpbin has no /json).
const LOOP_WITH_REF = `# @name data
POST {{base}}/anything
Content-Type: application/json

{"slides": [{"title": "a"}, {"title": "b"}]}

### loop
# @ref data
# @loop for item of data.json.slides

GET {{base}}/anything?item={{item.title}}

### test
# @ref loop
{{
  test("the region ran after the loop", () => {
    if (typeof loopList === "undefined") throw new Error("loopList is not defined");
  });
  test("NAMEList holds every pass's response", () => {
    const items = loopList.map((r) => r.parsedBody.args.item).join(",");
    if (items !== "a,b") throw new Error(items);
  });
  test("NAME is the first pass's response", () => {
    if (loop.statusCode !== 200 || loop.parsedBody.args.item !== "a") throw new Error("not a");
  });
  test("the passes are NAME0 and NAME1", () => {
    if (loop1.args.item !== "b") throw new Error(JSON.stringify(loop1));
  });
}}
`;

Deno.test("httpyac sweep: a named region without a request runs after the loop it refers to; NAME and NAMEList, as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({ "loopWithRef.http": LOOP_WITH_REF });
  const { ours, theirs } = await both(dir, "loopWithRef.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stdout + ours.stderr);
  const expected: [string, boolean][] = [
    ["the region ran after the loop", true],
    ["NAMEList holds every pass's response", true],
    ["NAME is the first pass's response", true],
    ["the passes are NAME0 and NAME1", true],
  ];
  assert.deepEqual(dialTests(ours.stdout), expected);
  assert.deepEqual(httpyacTests(theirs.stdout), expected.map(([, passed]) => passed));
  // The region is a case of its own, after the requests it refers to.
  assert.deepEqual(
    [...new Set(reportCases(ours.stdout).map((c) => c.request))],
    ["data", "loop0", "loop1", "test"],
  );
});

Deno.test("httpyac sweep: a named region runs in its place in the whole file only, once; unnamed blocks still run before the first request", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "regions.http": `{{
  exports.count = 0;
}}

###
GET {{base}}/anything?count={{count}}

### bump
{{
  exports.count = count + 1;
}}

###
GET {{base}}/anything?count={{count}}

###
GET {{base}}/anything?again={{count}}
`,
  });
  const ours = await dial(["run", `${dir}/regions.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["regions.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  const sent = ["GET /anything?count=0", "GET /anything?count=1", "GET /anything?again=1"];
  assert.deepEqual(echoed(ours.stdout), sent);
  assert.deepEqual(echoed(theirs.stdout), sent);
  // One request chosen: the region is not in its way (httpyac's --line runs it alone too).
  const one = await dial(["run", `${dir}/regions.http`, "2", "--var", `base=${httpbin.origin}`]);
  assert.deepEqual(echoed(one.stdout), ["GET /anything?count=0"]);
});

Deno.test("httpyac sweep: $global is one object for the run, across requests and files, as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // variables/globalVariables.http, and a second file that reads what the first kept.
    "a.http": `GET {{base}}/anything?foo=bar

{{
  $global.foo = response.parsedBody.args.foo;
}}

###
GET {{base}}/anything?bar={{$global.foo}}

?? body args.bar == bar
`,
    "b.http": `GET {{base}}/anything?again={{$global.foo}}

?? body args.again == bar
`,
  });
  const ours = await dial(["test", dir, "--reporter", "json", "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stdout + ours.stderr);
  const theirs = await httpyac(
    ["a.http", "b.http", "--all", "-o", "none", "--json", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  const expected: [string, boolean][] = [["body args.bar == bar", true], [
    "body args.again == bar",
    true,
  ]];
  assert.deepEqual(dialTests(ours.stdout), expected);
  assert.deepEqual(httpyacTests(theirs.stdout), expected.map(([, passed]) => passed));
});

Deno.test('httpyac sweep: $httpyac.execute("NAME") runs the named request again before the block, as in httpyac', async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // metaData/refWithHttpyacJsApi.http, with a count of the named request's runs.
    "execute.http": `# @name json
GET {{base}}/anything?id={{$guid}}

{{
  exports.runs = (typeof runs === "undefined" ? 0 : runs) + 1;
}}

###
{{
  await $httpyac.execute("json");
}}
POST {{base}}/anything

{{json.args.id}}

?? js runs == 2
?? js response.parsedBody.data == {{json.args.id}}
`,
  });
  const { ours, theirs } = await both(dir, "execute.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stdout + ours.stderr);
  const expected: [string, boolean][] = [
    ["js runs == 2", true],
    ["js response.parsedBody.data == {{json.args.id}}", true],
  ];
  assert.deepEqual(dialTests(ours.stdout), expected);
  assert.deepEqual(httpyacTests(theirs.stdout), expected.map(([, passed]) => passed));

  // A name that is not written out is refused, naming the line; nothing else is run for it.
  const computed = await project({
    "computed.http":
      `###\n{{\n  const name = "json";\n  await $httpyac.execute(name);\n}}\nGET ${httpbin.origin}/anything\n`,
  });
  const refused = await dial(["run", `${computed}/computed.http`]);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /computed\.http:4: \$httpyac\.execute takes the name of a request of this file, written as a string/,
  );
});

Deno.test("httpyac sweep: # @sleep waits before the request (a lower bound, in both tools); more than 5 minutes is refused", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "sleep.http":
      `GET {{base}}/anything?first\n\n###\n# @sleep 700\nGET {{base}}/anything?second\n`,
    "long.http": `# @sleep 300001\nGET {{base}}/anything\n`,
  });
  // A lower bound only: a loaded machine may take longer, never less.
  let started = performance.now();
  const ours = await dial(["run", `${dir}/sleep.http`, "--var", `base=${httpbin.origin}`]);
  assert.ok(performance.now() - started >= 700);
  assert.equal(ours.code, 0, ours.stderr);
  started = performance.now();
  const theirs = await httpyac(
    ["sleep.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.ok(performance.now() - started >= 700);
  for (const stdout of [ours.stdout, theirs.stdout]) {
    assert.deepEqual(echoed(stdout), ["GET /anything?first", "GET /anything?second"]);
  }

  const long = await dial(["run", `${dir}/long.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(long.code, 2);
  assert.match(
    long.stderr,
    /long\.http:1:1: "# @sleep 300001" would wait 300001 ms: dial waits at most 300000 ms for a file/,
  );
});

for (
  const [what, wait] of [
    ["a # @sleep", "# @sleep 200000\n"],
    ["a block's sleep(ms)", "{{\n  await sleep(200000);\n}}\n"],
  ]
) {
  Deno.test(`httpyac sweep: Ctrl-C ends ${what}: exit 130, the request after it never sent`, async () => {
    const arrived = Promise.withResolvers<void>();
    await using server = serve((request) => {
      if (new URL(request.url).pathname === "/first") arrived.resolve();
      return Response.json({ ok: true });
    });
    const dir = await project({
      "sleep.http": `GET {{origin}}/first\n\n###\n${wait}GET {{origin}}/second\n`,
    });
    const child = spawnDial(["run", `${dir}/sleep.http`, "--var", `origin=${server.origin}`], {
      stdin: "null",
    });
    const output = child.output();
    // dial ending before its first request (a failure) ends the wait too; the assertions say so.
    await Promise.race([arrived.promise, output]);
    child.kill("SIGINT");
    const { code, stderr } = await output;
    assert.equal(code, 130, new TextDecoder().decode(stderr));
    assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), ["/first"]);
  });
}

Deno.test("httpyac sweep: the jar's cookies come before a request's own Cookie header, as httpyac and curl send them", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // project/http/cookies.http, the own Cookie echoed by /headers.
    "cookies.http": `GET {{base}}/cookies/set?foo=bar

###
GET {{base}}/headers
Cookie: bar=foo
`,
  });
  const cookieOf = (stdout: string) => [...stdout.matchAll(/"Cookie":\s*"([^"]*)"/g)].at(-1)?.[1];
  const ours = await dial(["run", `${dir}/cookies.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["cookies.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.equal(cookieOf(ours.stdout), "foo=bar; bar=foo");
  assert.equal(cookieOf(theirs.stdout), "foo=bar; bar=foo");
});

Deno.test("httpyac sweep: .env files are read up to httpyac's project root (its configuration file), as httpyac reads them", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    ".env": `host=${httpbin.origin}\n`,
    "top.http": "GET /anything?top\n",
    // project/formats/xml.http's place: a folder below httpyac.config.cjs, above it the .env.
    "project/httpyac.config.json": "{}\n",
    "project/formats/below.http": "GET /anything?below\n",
  });
  const ours = await dial(["test", dir, "--reporter", "json"], { cwd: dir });
  const outcomes = reportCases(ours.stdout).map((c) => [c.file.replace(/^.*\//, ""), c.outcome]);
  assert.deepEqual(outcomes, [["below.http", "error"], ["top.http", "passed"]]);
  const top = await httpyac(["top.http", "--all", "-o", "body"], { cwd: dir });
  assert.deepEqual(echoed(top.stdout), ["GET /anything?top"]);
  const below = await httpyac(["below.http", "--all", "-o", "body"], {
    cwd: `${dir}/project/formats`,
  });
  assert.deepEqual(echoed(below.stdout), []);
  assert.match(below.stdout + below.stderr, /must not start with a slash/);
});

Deno.test("httpyac sweep: SSE URL is a GET with Cache-Control: no-cache, its Event: lines not sent, each event's data printed, as httpyac sends it", async () => {
  const seen: string[] = [];
  const twice = Promise.withResolvers<void>();
  await using server = serve((request) => {
    const headers = [...request.headers].filter(([n]) =>
      ["accept", "cache-control", "event"].includes(n)
    );
    seen.push(`${request.method} ${new URL(request.url).pathname} ${JSON.stringify(headers)}`);
    if (seen.length === 2) twice.resolve();
    return new Response("event: message\ndata: one\n\nevent: message\ndata: two\n\n", {
      headers: { "content-type": "text/event-stream" },
    });
  });
  const dir = await project({
    // request/sse/sse.dev.http.
    "sse.http": `# @keepStreaming\nSSE ${server.origin}/test\nEvent: message\n`,
  });
  const ours = await dial(["run", `${dir}/sse.http`]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(ours.stdout.trim().split("\n"), ["one", "two"]);
  // httpyac's EventSource reconnects when the stream ends, for as long as it keeps streaming:
  // its first request is compared, and it is stopped once it has sent it.
  const theirs = new Deno.Command(Deno.execPath(), {
    args: [
      ...["run", "-A", "--quiet", "--no-config", "--no-lock", "npm:httpyac@6.16.7", "send"],
      ...["sse.http", "--all"],
    ],
    cwd: dir,
    clearEnv: true,
    env: dialEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  // httpyac ending before its request (a failure) ends the wait too; the assertion says so.
  const ended = await Promise.race([
    twice.promise.then(() => false),
    theirs.status.then(() => true),
  ]);
  if (!ended) theirs.kill("SIGKILL");
  await theirs.status;
  const expected = `GET /test [["accept","*/*"],["cache-control","no-cache"]]`;
  assert.deepEqual(seen.slice(0, 2), [expected, expected]);
});

Deno.test("httpyac sweep: a `< {{dir}}file` body path takes its variables, and stays inside the run's folder", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // request/requestBody/requestBodyImportVariable.http.
    "import.http": `@assetsDir=./
###

POST {{base}}/anything
Content-Type: application/json

< {{assetsDir}}body.json
`,
    "body.json": `{"from": "file"}\n`,
    // `dial run FILE` reads inside the file's folder: the project's top is outside it.
    "inner/outside.http": `@up=../\n###\nPOST {{base}}/anything\n\n< {{up}}secret.txt\n`,
    "secret.txt": "not yours\n",
  });
  const data = (stdout: string) =>
    [...stdout.matchAll(/"data":\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`));
  const ours = await dial(["run", `${dir}/import.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["import.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.deepEqual(data(ours.stdout), ['{"from": "file"}\n']);
  assert.deepEqual(data(theirs.stdout), data(ours.stdout));

  const outside = await dial([
    ...["run", `${dir}/inner/outside.http`, "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(outside.code, 2);
  assert.match(outside.stderr, /outside\.http:5.*secret\.txt/);
  assert.doesNotMatch(outside.stdout, /not yours/);
});

Deno.test("httpyac sweep: a ...NAME header line adds the object's entries as headers, as httpyac sends them", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // request/headersSpread.http.
    "spread.http": `{{+
  const token = "test"
  exports.defaultHeaders = {
    'Content-Type': 'text/html',
    'Authorization': \`Bearer \${token}\`
  };
}}
###
GET {{base}}/anything
...defaultHeaders
X-Written: yes
`,
  });
  const sent = (stdout: string) =>
    [...stdout.matchAll(/"headers":\s*(\{[^}]*\})/g)].map((m) => {
      const headers = JSON.parse(m[1]!) as Record<string, string>;
      return [headers["Authorization"], headers["Content-Type"], headers["X-Written"]];
    });
  const ours = await dial(["run", `${dir}/spread.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["spread.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.deepEqual(sent(ours.stdout), [["Bearer test", "text/html", "yes"]]);
  assert.deepEqual(sent(theirs.stdout), sent(ours.stdout));
});

Deno.test("httpyac sweep: {{$xpath:NAME EXPRESSION}} reads a named response's XML, as httpyac reads it", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // variables/xpath.http (httpbin's /xml: a slideshow by "Yours Truly").
    "xpath.http": `### foo
GET {{base}}/xml

###
# @ref foo
GET {{base}}/anything?q={{$xpath:foo //@author}}
`,
    "none.http":
      `### foo\nGET {{base}}/xml\n\n###\n# @ref foo\nGET {{base}}/anything?q={{$xpath:foo //none}}\n`,
  });
  const ours = await dial(["run", `${dir}/xpath.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["xpath.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  const sent = ["GET /anything?q=Yours%20Truly"];
  assert.deepEqual(echoed(ours.stdout), sent);
  assert.deepEqual(echoed(theirs.stdout), sent);
  // Nothing selected: an error in both, the request not sent.
  const none = await dial(["run", `${dir}/none.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /none\.http:6: \{\{\$xpath:foo \/\/none\}\} selects nothing/);
  const theirNone = await httpyac(
    ["none.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.deepEqual(echoed(none.stdout + theirNone.stdout), []);
  assert.match(theirNone.stdout + theirNone.stderr, /1 errored/);
});

Deno.test("httpyac sweep: an exported promise is exported as what it resolves to, as httpyac awaits it", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // script/scriptPromise.http's shape, without its ten-second wait.
    "promise.http": `{{
  async function answer() {
    await sleep(1);
    return "forty-two";
  }
  exports.wait = answer();
}}
GET {{base}}/anything?answer={{wait}}
`,
  });
  const ours = await dial(["run", `${dir}/promise.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["promise.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  const sent = ["GET /anything?answer=forty-two"];
  assert.deepEqual(echoed(ours.stdout), sent);
  assert.deepEqual(echoed(theirs.stdout), sent);
});

Deno.test("httpyac sweep: a block sees httpFile and httpRegion (the file's name, the request's directives), as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // script/scriptVariablesHttpFile.http and scriptVariablesHttpRegion.http, as tests.
    "objects.http": `# @name which
# @no-log
GET {{base}}/anything

{{
  test("the file", () => {
    if (!httpFile.fileName.endsWith("objects.http")) throw new Error(httpFile.fileName);
  });
  test("the region", () => {
    if (httpRegion.metaData.name !== "which" || httpRegion.metaData.noLog !== true) {
      throw new Error(JSON.stringify(httpRegion.metaData));
    }
  });
}}
`,
  });
  const { ours, theirs } = await both(dir, "objects.http", httpbin.origin);
  assert.equal(ours.code, 0, ours.stdout + ours.stderr);
  assert.deepEqual(dialTests(ours.stdout), [["the file", true], ["the region", true]]);
  assert.deepEqual(httpyacTests(theirs.stdout), [true, true]);
});

Deno.test("httpyac sweep: gql NAME < file above a request is a fragment its query from a file spreads, as httpyac sends it", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // request/graphql/graphqlPartsFile.http, sent to httpbin's echo.
    "parts.http": `gql ContinentParts < continentParts.gql

POST {{base}}/anything
Content-Type: application/json

gql Continents < continents.gql

{
    "code": "EU"
}
`,
    "continentParts.gql": "fragment ContinentParts on Continent {\n  code\n  name\n}",
    "continents.gql": "query Continents {\n    continents {\n      ...ContinentParts\n    }\n}",
  });
  const posted = (stdout: string) =>
    [...stdout.matchAll(/"data":\s*"((?:[^"\\]|\\.)*)"/g)].map((m) =>
      JSON.parse(JSON.parse(`"${m[1]}"`))
    );
  const ours = await dial(["run", `${dir}/parts.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["parts.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.deepEqual(posted(ours.stdout), [{
    query:
      "query Continents {\n    continents {\n      ...ContinentParts\n    }\n}\nfragment ContinentParts on Continent {\n  code\n  name\n}",
    operationName: "Continents",
    variables: { code: "EU" },
  }]);
  assert.deepEqual(posted(theirs.stdout), posted(ours.stdout));
});

Deno.test('httpyac sweep: $httpyac.import("./other.http") then $httpyac.execute("NAME") runs the other file\'s request, as in httpyac', async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // script/importWithJs.http and the file it imports, script/refWithJs.http's named request.
    "other.http": `# @name json\nGET {{base}}/anything?id={{$guid}}\n`,
    "importer.http": `{{
  exports.wait = (async function test() {
    await $httpyac.import("./other.http");
    await $httpyac.execute("json");
  })();
}}
POST {{base}}/anything

{{json.args.id}}
`,
  });
  const run = async (tool: "dial" | "httpyac") => {
    const result = tool === "dial"
      ? await dial(["run", `${dir}/importer.http`, "--var", `base=${httpbin.origin}`])
      : await httpyac(
        ["importer.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
        { cwd: dir },
      );
    const sent = echoed(result.stdout);
    const id = /"id":\s*"([^"]+)"/.exec(result.stdout)?.[1];
    const data = /"data":\s*"([^"]+)"/.exec(result.stdout)?.[1];
    return { sent, same: id !== undefined && id === data };
  };
  for (const tool of ["dial", "httpyac"] as const) {
    const { sent, same } = await run(tool);
    assert.deepEqual(sent.map((s) => s.replace(/id=.*/, "id=…")), [
      "GET /anything?id=…",
      "POST /anything",
    ], tool);
    assert.ok(same, `${tool}: the POST sends the imported request's id`);
  }
});

Deno.test("httpyac sweep: a loop whose list cannot be read fails, and so does the region that refers to it; the file goes on, as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // loopWithRef.http against a server whose /json is not the slideshow (Debian's httpbin).
    "broken.http": LOOP_WITH_REF.replace("data.json.slides", "data.json.missing.slides") +
      "\n###\nGET {{base}}/anything?after\n",
  });
  const { ours, theirs } = await both(dir, "broken.http", httpbin.origin);
  const cases = reportCases(ours.stdout).map((c) => [c.request, c.outcome]);
  assert.deepEqual(cases, [
    ["data", "passed"],
    ["loop", "error"],
    ["test", "error"],
    ["GET {{base}}/anything?after", "passed"],
  ]);
  assert.match(
    reportCases(ours.stdout)[2]!.message!,
    /Request "loop", which test refers to, failed/,
  );
  // httpyac: the loop's error (recorded twice), then the region skipped (a failed test).
  assert.deepEqual(httpyacTests(theirs.stdout), [false, false, false]);
});

Deno.test("httpyac sweep: sleep(ms) in a block waits (a lower bound, in both tools); more than 5 minutes in one block is refused", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // script/scriptPromise.http, waiting 700 ms instead of 10 s.
    "promise.http": `{{
  async function wait(){
    const date = new Date();
    await sleep(700);
    const afterDate = new Date();
    return afterDate.getTime() - date.getTime();
  }
  exports.wait = wait();
}}
GET {{base}}/anything?delay={{wait}}
`,
    // Together: 1 ms, then 300,000 more is refused before it waits.
    "long.http": `{{\n  await sleep(1);\n  await sleep(300000);\n}}\nGET {{base}}/anything\n`,
  });
  const ours = await dial(["run", `${dir}/promise.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["promise.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  // The time the script measured around its sleep: never less than asked, in either tool.
  for (const stdout of [ours.stdout, theirs.stdout]) {
    const sent = echoed(stdout);
    assert.equal(sent.length, 1, stdout);
    assert.ok(Number(/delay=(\d+)/.exec(sent[0]!)?.[1]) >= 700, sent[0]);
  }

  const long = await dial(["run", `${dir}/long.http`, "--var", `base=${httpbin.origin}`]);
  assert.notEqual(long.code, 0);
  assert.match(long.stderr, /long\.http:2: sleep\(\) would wait more than 300000 ms in one script/);
  assert.deepEqual(echoed(long.stdout), []);
});

Deno.test("httpyac sweep: a date's text names its time zone after the offset, as httpyac's (V8's) does", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // variables/nodeJsScript.http and script/scriptReplaceInBody.http, at fixed instants.
    "date.http":
      `GET {{base}}/anything?w={{new Date(Date.UTC(2026, 0, 15)).toString()}}&s={{new Date(Date.UTC(2026, 6, 15)).toString()}}&t={{new Date(0).toTimeString()}}\n`,
  });
  const env = { TZ: "Europe/Berlin" };
  const ours = await dial(["run", `${dir}/date.http`, "--var", `base=${httpbin.origin}`], {
    process: true,
    env,
  });
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["date.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir, env },
  );
  const sent = [
    "GET /anything?w=Thu%20Jan%2015%202026%2001:00:00%20GMT+0100%20(Central%20European%20Standard%20Time)" +
    "&s=Wed%20Jul%2015%202026%2002:00:00%20GMT+0200%20(Central%20European%20Summer%20Time)" +
    "&t=01:00:00%20GMT+0100%20(Central%20European%20Standard%20Time)",
  ];
  assert.deepEqual(echoed(ours.stdout), sent);
  assert.deepEqual(echoed(theirs.stdout), sent);
});

/** The claims of a JWT (its payload, base64url JSON). */
function claims(jwt: string): Record<string, unknown> {
  const payload = jwt.split(".")[1]!.replaceAll("-", "+").replaceAll("_", "/");
  return JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, "=")));
}

Deno.test("httpyac sweep: Authorization: oauth2 FLOW [PREFIX] gets a token with the PREFIX_ (else oauth2_) variables and sends it as Bearer, as httpyac does", async () => {
  await using httpbin = await startHttpbin();
  await using mock = await startMockServer();
  const dir = await project({
    // api/arbeitsagentur.http's shape: the secret in the body, a prefix.
    "client.http": `@job_clientId=job-client
@job_clientSecret=job-secret
@job_tokenEndpoint={{tokenUrl}}
@job_useAuthorizationHeader=false

GET {{base}}/bearer
Authorization: oauth2 client_credentials job
`,
    // variables/oauth2/password.http's shape: oauth2_ variables, Basic client authentication.
    "password.http": `@oauth2_clientId=httpyac
@oauth2_clientSecret=s3cret
@oauth2_tokenEndpoint={{tokenUrl}}
@oauth2_username=john
@oauth2_password=doe

GET {{base}}/bearer
Authorization: oauth2 password
`,
    // variables/oauth2/clientcredentials.http's shape: openid (client_credentials), the
    // variables in the .env file of httpyac's project (its configuration file's folder).
    "auth/.httpyac.json": "{}",
    "auth/.env": "oauth2_clientId=env-client\noauth2_clientSecret=env-secret\n",
    "auth/openid.http": `@oauth2_tokenEndpoint={{tokenUrl}}

GET {{base}}/bearer
Authorization: openid
`,
  });
  const vars = ["--var", `base=${httpbin.origin}`, "--var", `tokenUrl=${mock.tokenUrl}`];
  for (const file of ["client.http", "password.http", "auth/openid.http"]) {
    const ours = await dial(["run", `${dir}/${file}`, ...vars], {
      env: { HOME: await oauthHome() },
    });
    assert.equal(ours.code, 0, ours.stderr);
    const cwd = `${dir}/${file}`.replace(/\/[^/]*$/, "");
    const name = file.replace(/^.*\//, "");
    const theirs = await httpyac([name, "--all", "-o", "body", ...vars], { cwd });
    // httpbin's /bearer answer: the token each tool sent is one the token endpoint issued.
    for (const stdout of [ours.stdout, theirs.stdout]) {
      const token = /"token":\s*"([^"]+)"/.exec(stdout)?.[1];
      assert.ok(token, stdout);
      assert.equal(claims(token).iss, mock.origin);
    }
  }
  // The token requests, dial's then httpyac's for each file: the same form, the same client
  // authentication.
  const seen = mock.tokenRequests.map((r) => ({
    authorization: r.authorization,
    form: Object.fromEntries(r.body),
  }));
  assert.equal(seen.length, 6);
  assert.deepEqual(seen[0], {
    authorization: undefined,
    form: {
      grant_type: "client_credentials",
      client_id: "job-client",
      client_secret: "job-secret",
    },
  });
  assert.deepEqual(seen[1], seen[0]);
  assert.deepEqual(seen[2], {
    authorization: `Basic ${btoa("httpyac:s3cret")}`,
    form: { grant_type: "password", username: "john", password: "doe" },
  });
  assert.deepEqual(seen[3], seen[2]);
  assert.deepEqual(seen[4], {
    authorization: `Basic ${btoa("env-client:env-secret")}`,
    form: { grant_type: "client_credentials" },
  });
  assert.deepEqual(seen[5], seen[4]);
});

Deno.test('httpyac sweep: a < {% %} script\'s require("crypto") is Node\'s crypto, as kulala and httpyac run it; require("fs") fails naming the line', async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // kulala.nvim's http-runable-demo/usecases/5.script.http, with a digest both tools agree on.
    "script.http": `< {%
  const crypto = require('crypto');
  request.variables.set('DIGEST', crypto.createHash('sha256').update('abc').digest('hex'));
%}
POST {{base}}/anything?digest={{DIGEST}}

###
GET {{base}}/anything?second

> {%
  var fs = require('fs');
  fs.writeFileSync('TOKEN.txt', "written");
%}
`,
  });
  const ours = await dial(["test", `${dir}/script.http`, "--var", `base=${httpbin.origin}`]);
  const digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  const run = await dial(["run", `${dir}/script.http`, "--var", `base=${httpbin.origin}`]);
  assert.deepEqual(echoed(run.stdout), [
    `POST /anything?digest=${digest}`,
    "GET /anything?second",
  ]);
  assert.match(
    ours.stdout + ours.stderr,
    /script\.http:11: Error: require\("fs"\) is Node code: a script of this form has Node's crypto module only in dial's sandbox/,
  );
  assert.notEqual(ours.code, 0);
  // No file written by a repository's script.
  await assert.rejects(Deno.stat(`${dir}/TOKEN.txt`), Deno.errors.NotFound);
  const theirs = await httpyac(
    ["script.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  assert.deepEqual(echoed(theirs.stdout)[0], `POST /anything?digest=${digest}`);
});

Deno.test("httpyac sweep: a {{@streaming}} block runs while an event stream is read, and the stream ends when the block is done, as httpyac ends it", async () => {
  // An event stream that the server would end only after two minutes: who closed it is told.
  const closed: string[] = [];
  await using server = serve((request) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("event: message\ndata: one\n\n"));
        timer = setTimeout(() => {
          closed.push("server");
          controller.close();
        }, 120_000);
      },
      cancel() {
        clearTimeout(timer);
        closed.push(`client ${request.headers.get("cache-control")}`);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const dir = await project({
    // request/sse/eventSource.http, waiting 300 ms instead of 10 s.
    "events.http": `SSE ${server.origin}/server-events/5
Event: message

{{@streaming
  async function writeStream(){
    await sleep(300);
  }
  exports.waitPromise = writeStream();
}}
`,
  });
  // Ended by the block (what was printed by then depends on the machine's speed).
  const ours = await dial(["run", `${dir}/events.http`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(["events.http", "--all", "-o", "none"], { cwd: dir });
  assert.equal(theirs.code, 0, theirs.stderr);
  assert.deepEqual(closed, ["client no-cache", "client no-cache"]);
  // `dial export --to http` keeps the block, after the request.
  const exported = await dial(["export", `${dir}/events.http`, "--to", "http"]);
  assert.equal(exported.code, 0, exported.stderr);
  assert.match(
    exported.stdout,
    /\n\{\{@streaming\n {2}async function writeStream\(\)\{\n[\s\S]*\n\}\}\n$/,
  );
});

Deno.test("httpyac sweep: each {{expression}} is evaluated where it is: {{Math.random()}} twice is two values, as in httpyac", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // script/scriptReplaceInBody.http, at a fixed instant.
    "replace.http": `POST {{base}}/anything

{
  "foo": "{{new Date(0).toISOString()}}",
  "bar": {{Math.random()}},
  "foobar": "{{new Date(0).toISOString()}} and {{Math.random()}}"
}
`,
  });
  const ours = await dial(["run", `${dir}/replace.http`, "--var", `base=${httpbin.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(
    ["replace.http", "--all", "-o", "body", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  for (const stdout of [ours.stdout, theirs.stdout]) {
    // httpbin's echo of the body (its "data" string), in the tool's printed response.
    const data = /"data":\s*("(?:[^"\\]|\\.)*")/.exec(stdout)?.[1];
    assert.ok(data, stdout);
    const sent = JSON.parse(JSON.parse(data));
    assert.equal(sent.foo, "1970-01-01T00:00:00.000Z");
    const [date, random] = sent.foobar.split(" and ");
    assert.equal(date, sent.foo);
    // Two draws of Math.random() are equal once in 2^52.
    assert.notEqual(Number(random), sent.bar);
  }
});
