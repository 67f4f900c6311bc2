/**
 * httpyac's `{{ … }}` script blocks (fixtures/http/httpyac_scripts.http: a block outside any
 * request, `{{+` and `{{+after`, blocks above a request line and below it, `{{@response`, an
 * awaiting block, `exports` and `$cancel`, `test(…)` and its helpers, `require("assert")`, a
 * `require` of a module dial's sandbox does not have), run by dial and by httpyac (npm) on the
 * same file against the same python3-httpbin, whose echo of each request the scripts check:
 * every test has httpyac's name and outcome.
 */
import assert from "node:assert/strict";
import { dial, dialEnv, hasScript } from "../_helpers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
import { httpyac, httpyacOutcomes, project, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";

const FIXTURE = new URL("./fixtures/http/httpyac_scripts.http", import.meta.url).pathname;

Deno.test("httpyac scripts: {{ … }} blocks run in the sandbox with httpyac's outcomes on the same server", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    ...["test", FIXTURE, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(result.code, 11, result.stderr);
  const cases = reportCases(result.stdout);
  const ours = cases.map((c) => `${c.name}: ${c.outcome === "passed"}`);

  const output = await httpyac([
    ...[FIXTURE, "--all", "-o", "none", "--json", "--var", `base=${httpbin.origin}`],
  ]);
  const report = JSON.parse(output.stdout) as {
    requests: { testResults: { message: string; status: string }[] }[];
  };
  const theirs = report.requests.flatMap((r) =>
    r.testResults.map((t) => `${t.message}: ${t.status === "SUCCESS"}`)
  );
  const expected = [
    // The block outside requests set user-derived values once; `{{+` counted the requests.
    "Basic Auth works: true",
    "the user is alice: false",
    "response status equals to 200: true",
    "response status equals to 201: false",
    "response header content-type equals application/json: true",
    "response header content-type contains json: true",
    // httpyac's own check: it fails when the value starts with the text.
    "response header content-type contains application: false",
    "response body equals nothing: false",
    "response body exists: true",
    "response body does not exists: false",
    "total time exceeded 600000: true",
    // httpbin's echo: the exports of the blocks above reached the URL, header and body.
    "what httpbin saw: true",
    "a script error fails its test: false",
  ];
  assert.deepEqual(ours.slice(0, expected.length), expected);
  assert.deepEqual(theirs.slice(0, expected.length), expected);
  // exports.$cancel: httpyac records a skipped test, dial a skipped request; neither sends it.
  assert.equal(theirs[expected.length], "request is skipped: false");
  assert.equal(cases[expected.length]!.name, "skipped");
  // {{@response and an awaiting block, then require("chai"): an error in both (httpyac finds
  // no such module; dial's sandbox runs no Node module but assert), naming the line in dial.
  assert.deepEqual(theirs.slice(expected.length + 1, expected.length + 3), [
    "slideshow: true",
    "awaited: true",
  ]);
  assert.deepEqual(ours.slice(expected.length + 1, -1), ["slideshow: true", "awaited: true"]);
  assert.match(theirs[expected.length + 3]!, /Cannot find module 'chai'/);
  // What a block below the request throws is a failed test named by the error, as in httpyac.
  assert.equal(cases.at(-1)!.outcome, "error");
  assert.match(
    cases.at(-1)!.message!,
    /httpyac_scripts\.http:99: require\("chai"\) is Node code, which dial's script sandbox does not run/,
  );
  // The `{{+after` block logged each response (the skipped request has none), as httpyac's.
  assert.deepEqual(
    cases.flatMap((c) => c.logs ?? []).filter((l) => l.startsWith("after")),
    ["after 200", "after 200", "after 200", "after 200"],
  );
});

const IMPORT = new URL("./fixtures/http/httpyac_import/main.http", import.meta.url).pathname;

Deno.test("httpyac scripts: # @import runs the imported file's named request and reads its variables, as httpyac does", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    ...["test", IMPORT, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(result.code, 0, result.stderr);
  const cases = reportCases(result.stdout);
  // The imported `login` ran once, in its own file; `unused` did not run.
  assert.deepEqual(cases.map((c) => `${c.file.replace(/.*httpyac_import\//, "")} › ${c.name}`), [
    "lib/login.http › HTTP 200",
    "main.http › status == 200",
    "main.http › body args.token == t-123",
    "main.http › body args.user == 7",
    "main.http › body args.greeting == hello",
    "main.http › body args.id == 9",
    "main.http › body args.tag == b",
  ]);
  const theirs = await httpyacOutcomes(IMPORT, httpbin.origin);
  assert.deepEqual(theirs.map((t) => t.passed), cases.slice(1).map(() => true));
});

Deno.test("httpyac scripts: # @import of a file outside the run's folders is refused, nothing sent", async () => {
  let requests = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("{}");
  });
  const dir = await project({
    "outside.http": `# @name x\nGET http://127.0.0.1:${server.addr.port}/x\n`,
    "p/main.http":
      `# @import ../outside.http\n\n###\n# @ref x\nGET http://127.0.0.1:${server.addr.port}/y\n`,
  });
  const result = await dial(["test", `${dir}/p/main.http`]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /Refused the file imported by .*main\.http:1: "\.\.\/outside\.http" is outside the run's folder/,
  );
  assert.equal(requests, 0);
});

/**
 * Runs a command on a pseudo-terminal (util-linux `script`), typing `type` once the screen shows
 * `prompt`; a last guard kills it (and the test fails) if the prompt never comes.
 */
async function onTerminal(command: string[], prompt: string, type: string, cwd: string) {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const child = new Deno.Command("/usr/bin/script", {
    args: ["-qec", command.map(quote).join(" "), "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    clearEnv: true,
    cwd,
    env: dialEnv({ TERM: "dumb" }),
  }).spawn();
  const guard = setTimeout(() => child.kill(), 120_000);
  const writer = child.stdin.getWriter();
  let screen = "";
  let typed = false;
  try {
    for await (const chunk of child.stdout) {
      screen += new TextDecoder().decode(chunk, { stream: true });
      if (!typed && screen.includes(prompt)) {
        typed = true;
        await writer.write(new TextEncoder().encode(type));
      }
    }
  } finally {
    clearTimeout(guard);
    await writer.close().catch(() => {});
    await child.status;
  }
  assert.ok(typed, `no prompt "${prompt}" on the screen: ${screen}`);
  return screen;
}

Deno.test({
  name:
    "httpyac scripts: {{$input}} and {{$pick}} ask on a terminal, as httpyac does; without one an error names the variable",
  ignore: !hasScript,
  fn: async () => {
    await using httpbin = await startHttpbin();
    const dir = await project({
      "input.http":
        `@query = {{$input input app? $value: foo}}\n\nGET ${httpbin.origin}/anything?q={{query}}\n`,
      "pick.http": `GET ${httpbin.origin}/anything?p={{$pick select app? $value: foo,bar}}\n`,
    });
    const url = (screen: string) =>
      /"url": "([^"]+)"/.exec(screen.replaceAll("\x1b", "").replace(/\[[\d;]*m/g, ""))?.[1];
    const httpyacCommand = [
      ...[Deno.execPath(), "run", "-A", "--quiet", "--no-config", "--no-lock"],
      "npm:httpyac@6.16.7",
    ];
    const dialCommand = [Deno.execPath(), "run", "-A", "--quiet", MAIN, "run"];
    // Enter takes the $value: default; the second choice of a $pick (httpyac: arrow down).
    const theirs = [
      url(
        await onTerminal(
          [...httpyacCommand, "send", "input.http", "--all", "-o", "body"],
          "input app?",
          "\r",
          dir,
        ),
      ),
      url(
        await onTerminal(
          [...httpyacCommand, "send", "pick.http", "--all", "-o", "body"],
          "select app?",
          "\x1b[B\r",
          dir,
        ),
      ),
    ];
    const ours = [
      url(await onTerminal([...dialCommand, "input.http"], "input app? [foo]: ", "\r", dir)),
      url(
        await onTerminal(
          [...dialCommand, "pick.http"],
          "select app? [1: foo, 2: bar]: ",
          "2\r",
          dir,
        ),
      ),
    ];
    assert.deepEqual(theirs, [
      `${httpbin.origin}/anything?q=foo`,
      `${httpbin.origin}/anything?p=bar`,
    ]);
    assert.deepEqual(ours, theirs);
    // Off a terminal: an error naming the variable, nothing sent; --var gives the value.
    const piped = await dial(["run", `${dir}/input.http`]);
    assert.equal(piped.code, 2);
    assert.match(
      piped.stderr,
      /input\.http:1:1: Variable "query" \(input "input app\?"\) is asked with httpyac's \$input and there is no terminal to ask on/,
    );
    const given = await dial(["run", `${dir}/input.http`, "--var", "query=baz"]);
    assert.equal(JSON.parse(given.stdout).args.q, "baz");
  },
});

Deno.test("httpyac scripts: .httpyac.json's environments ($shared without --env, a named one with it) as httpyac reads them; .httpyac.cjs is never read", async () => {
  await using httpbin = await startHttpbin();
  const environments = {
    $shared: { host: httpbin.origin, system: "none" },
    dev: { system: "dev" },
  };
  const dir = await project({
    "json/.httpyac.json": JSON.stringify({ log: { level: 10 }, environments }),
    "json/test.http": "GET /anything?q={{system}}\n",
    "js/.httpyac.cjs": `module.exports = { environments: ${JSON.stringify(environments)} };`,
    "js/test.http": "GET /anything?q={{system}}\n",
  });
  const query = (stdout: string) => /"url": ?"[^"]*\?q=([^"]*)"/.exec(stdout)?.[1];
  const ours: (string | undefined)[] = [];
  const theirs: (string | undefined)[] = [];
  for (const env of [[], ["--env", "dev"]]) {
    ours.push(query((await dial(["run", `${dir}/json/test.http`, ...env])).stdout));
    const peer = await httpyac(["test.http", "--all", "-o", "body", ...env], {
      cwd: `${dir}/json`,
    });
    theirs.push(query(peer.stdout));
  }
  assert.deepEqual(theirs, ["none", "dev"]);
  assert.deepEqual(ours, theirs);
  // A JavaScript configuration is code: dial reads none of it.
  const js = await dial(["run", `${dir}/js/test.http`]);
  assert.equal(js.code, 2);
  assert.match(js.stderr, /Undefined variable "system"/);
});

Deno.test("httpyac scripts: JavaScript in {{…}} is evaluated in the sandbox, as httpyac evaluates it; Node's Buffer.from/toString too, process is not there", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "expr.http": [
      "@user = doe",
      "@password = 12345678",
      '@pair = {{user + ":" + password}}',
      "",
      "{{",
      '  exports.one = { id: 1, name: "x" };',
      "  exports.counter = { index: 0 };",
      "}}",
      "",
      "###",
      "POST {{base}}/anything?n={{6 + counter.index}}&len={{user.length}}&up={{user.toUpperCase()}}",
      "X-Pair: {{pair}}",
      "",
      "{{JSON.stringify(one)}}",
      "",
      "?? body args.n == 6",
      "?? body args.len == 3",
      "?? body args.up == DOE",
      '?? js response.parsedBody.headers["X-Pair"] == doe:12345678',
      '?? body data == {"id":1,"name":"x"}',
      "",
      "###",
      "GET {{base}}/anything?b={{Buffer.from(user + ':' + password).toString('base64')}}",
      "",
      "?? body args.b == ZG9lOjEyMzQ1Njc4",
      "",
      "###",
      "GET {{base}}/anything?p={{process.cwd()}}",
      "",
    ].join("\n"),
  });
  const file = `${dir}/expr.http`;
  const result = await dial([
    "test",
    file,
    "--reporter",
    "json",
    "--var",
    `base=${httpbin.origin}`,
  ]);
  assert.equal(result.code, 1, result.stderr);
  const cases = reportCases(result.stdout);
  assert.deepEqual(cases.slice(0, 5).map((c) => `${c.name}: ${c.outcome}`), [
    "body args.n == 6: passed",
    "body args.len == 3: passed",
    "body args.up == DOE: passed",
    'js response.parsedBody.headers["X-Pair"] == doe:12345678: passed',
    'body data == {"id":1,"name":"x"}: passed',
  ]);
  assert.deepEqual([cases[5]!.name, cases[5]!.outcome], [
    "body args.b == ZG9lOjEyMzQ1Njc4",
    "passed",
  ]);
  assert.match(cases[6]!.message!, /expr\.http:28: ReferenceError: 'process' is not defined/);
  const output = await httpyac(
    ["expr.http", "--all", "-o", "none", "--json", "--var", `base=${httpbin.origin}`],
    { cwd: dir },
  );
  const report = JSON.parse(output.stdout) as {
    requests: { testResults: { message: string; status: string }[] }[];
  };
  assert.deepEqual(report.requests[0]!.testResults.map((t) => t.status), Array(5).fill("SUCCESS"));
  assert.deepEqual(report.requests[1]!.testResults.map((t) => t.status), ["SUCCESS"]);
});

const LOOPS = new URL("./fixtures/http/httpyac_loops.http", import.meta.url).pathname;

Deno.test("httpyac scripts: # @loop for N, for ITEM of LIST and while EXPRESSION send what httpyac sends", async () => {
  await using httpbin = await startHttpbin();
  const result = await dial([
    ...["test", LOOPS, "--reporter", "json", "--var", `base=${httpbin.origin}`],
  ]);
  assert.equal(result.code, 0, result.stderr);
  const cases = reportCases(result.stdout);
  const passes = cases.flatMap((c) => c.logs ?? []).filter((l) => l.startsWith("pass"));
  const expected = [
    ...["pass 0 alpha", "pass 1 beta", "pass 2 gamma"],
    ...["pass 0 0", "pass 1 1", "pass 2 2"],
    ...["pass 0 6", "pass 1 7", "pass 2 8"],
  ];
  assert.deepEqual(passes, expected);
  // A named loop's passes are NAME0, NAME1 … (`{{forLoop2.args.item}}` of the last request).
  assert.deepEqual(cases.slice(0, 3).map((c) => c.request), [
    "forOfLoop0",
    "forOfLoop1",
    "forOfLoop2",
  ]);
  assert.equal(cases.at(-1)!.name, "body args.result == 2");
  assert.equal(cases.at(-1)!.outcome, "passed");

  const output = await httpyac([
    ...[LOOPS, "--all", "-o", "short", "--var", `base=${httpbin.origin}`],
  ]);
  const lines = (output.stdout + output.stderr).split("\n");
  assert.deepEqual(lines.filter((l) => l.startsWith("pass")), expected);
  assert.ok(lines.includes("✓ args.result == 2"), output.stdout);
});

Deno.test("httpyac scripts: a GraphQL fragment block is sent after the query that spreads it, byte for byte as httpyac sends it", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // The shape of httpyac's examples/api/github.http.
    "gql.http": [
      "fragment IOParts on Repository {",
      "  description",
      "  diskUsage",
      "}",
      "",
      "POST {{base}}/anything",
      "Content-Type: application/json",
      "",
      "query test($name: String!, $owner: String!) {",
      "  repository(name: $name, owner: $owner) {",
      "    name",
      "    ...IOParts",
      "  }",
      "}",
      "",
      '{ "name": "vscode-httpyac", "owner": "AnWeber" }',
      "",
    ].join("\n"),
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["run", `${dir}/gql.http`, ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(["gql.http", "--all", "-o", "body", ...vars], { cwd: dir });
  const sent = (stdout: string) =>
    JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1)).data as string;
  assert.equal(sent(ours.stdout), sent(theirs.stdout));
  assert.match(JSON.parse(sent(ours.stdout)).query, /\}\nfragment IOParts on Repository \{/);
});

Deno.test("httpyac scripts: a block before the request changes request.headers as httpyac's does (set, delete, {{@request)", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "headers.http": [
      "{{",
      '  request.headers["X-Plain"] = "p-" + request.method;',
      '  delete request.headers["X-Drop"];',
      "}}",
      "GET {{base}}/anything",
      "X-Drop: gone",
      "X-Keep: k",
      "",
      "{{@request",
      '  request.headers["X-Signed"] = "sig-" + request.headers["X-Keep"];',
      "}}",
      "",
      '?? js response.parsedBody.headers["X-Plain"] == p-GET',
      '?? js response.parsedBody.headers["X-Drop"] == undefined',
      '?? js response.parsedBody.headers["X-Signed"] == sig-k',
      '?? js response.parsedBody.headers["X-Keep"] == k',
      "",
    ].join("\n"),
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["test", `${dir}/headers.http`, "--reporter", "json", ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(reportCases(ours.stdout).map((c) => c.outcome), Array(4).fill("passed"));
  const theirs = await httpyac(["headers.http", "--all", "-o", "none", "--json", ...vars], {
    cwd: dir,
  });
  const report = JSON.parse(theirs.stdout) as {
    requests: { testResults: { status: string }[] }[];
  };
  assert.deepEqual(report.requests[0]!.testResults.map((t) => t.status), Array(4).fill("SUCCESS"));
});

Deno.test("httpyac scripts: require('crypto') signs as Node's crypto does (createHash, createHmac, randomUUID, randomBytes), Buffer encodes as Node's; other modules stay errors", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // The shape of httpyac's examples/script/preRequestScript.http, with fixed inputs.
    "sign.http": [
      "{{",
      "  const crypto = require('crypto');",
      "  exports.hmac = crypto.createHmac('sha256', 'secret')",
      "    .update(`${request.method}\\u2028/anything\\u2028ü`).digest('base64');",
      "  exports.md5 = crypto.createHash('md5').update('dial').digest('hex');",
      "  exports.sha1 = crypto.createHash('SHA1').update('6469616c', 'hex').digest('base64url');",
      "  const inner = crypto.createHash('sha256').update('a').digest();",
      "  exports.chained = crypto.createHash('sha512').update(inner).digest('hex');",
      "  exports.keyed = crypto.createHmac('sha384', inner).update('x', 'latin1').digest().toString('hex');",
      "  exports.uuid = crypto.randomUUID();",
      "  exports.nonce = crypto.randomBytes(16).toString('hex');",
      "  exports.buf = Buffer.from('hé:' + Buffer.from('aGk=', 'base64')).toString('hex');",
      "}}",
      "GET {{base}}/anything",
      "X-Hmac: {{hmac}}",
      "X-Md5: {{md5}}",
      "X-Sha1: {{sha1}}",
      "X-Chained: {{chained}}",
      "X-Keyed: {{keyed}}",
      "X-Uuid: {{uuid}}",
      "X-Nonce: {{nonce}}",
      "X-Buf: {{buf}}",
      "",
    ].join("\n"),
    "fs.http": [
      "{{",
      "  const fs = require('fs');",
      "}}",
      "GET {{base}}/anything",
      "",
    ].join("\n"),
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["run", `${dir}/sign.http`, ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(["sign.http", "--all", "-o", "body", ...vars], { cwd: dir });
  const echoed = (stdout: string) =>
    JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1)).headers as Record<
      string,
      string
    >;
  const [a, b] = [echoed(ours.stdout), echoed(theirs.stdout)];
  for (const name of ["X-Hmac", "X-Md5", "X-Sha1", "X-Chained", "X-Keyed", "X-Buf"]) {
    assert.equal(a[name], b[name], name);
  }
  assert.equal(a["X-Md5"], "6de514dbc026d5badb01f8ea18ffcc9b");
  assert.equal(a["X-Buf"], "68c3a93a6869");
  for (const headers of [a, b]) {
    assert.match(
      headers["X-Uuid"]!,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.match(headers["X-Nonce"]!, /^[0-9a-f]{32}$/);
  }
  assert.notEqual(a["X-Nonce"], b["X-Nonce"]);

  const fs = await dial(["run", `${dir}/fs.http`, ...vars]);
  assert.equal(fs.code, 1);
  assert.match(
    fs.stderr,
    /fs\.http:2: require\("fs"\) is Node code, which dial's script sandbox does not run \(httpyac's scripts get Node's "assert" and "crypto" modules, and httpyac's "@xmldom\/xmldom" and "xpath", only\)/,
  );
});

Deno.test("httpyac scripts: # @disabled skips the request, # @disabled EXPRESSION when it is truthy, as httpyac does; reports mark them skipped", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    "disabled.http": [
      "{{",
      "  exports.skip = true;",
      "  exports.keep = false;",
      "}}",
      "",
      "###",
      "# @disabled",
      "GET {{base}}/anything?n=1",
      "",
      "###",
      "// @disabled",
      "GET {{base}}/anything?n=2",
      "",
      "###",
      "# @disabled skip && 1 + 1 === 2",
      "GET {{base}}/anything?n=3",
      "",
      "###",
      "# @disabled keep",
      "GET {{base}}/anything?n=4",
      "",
      "?? body args.n == 4",
      "",
      "###",
      "GET {{base}}/anything?n=5",
      "",
      "?? body args.n == 5",
      "",
    ].join("\n"),
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["test", `${dir}/disabled.http`, "--reporter", "json", ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(reportCases(ours.stdout).map((c) => `${c.request.slice(-3)} ${c.name}`), [
    "n=1 skipped",
    "n=2 skipped",
    "n=3 skipped",
    "n=4 body args.n == 4",
    "n=5 body args.n == 5",
  ]);
  assert.deepEqual(reportCases(ours.stdout).map((c) => c.skipped ?? false), [
    ...[true, true, true, false, false],
  ]);
  // JUnit's <skipped/> and TAP's # SKIP, as httpyac's JUnit counts them skipped.
  const junit = await dial(["test", `${dir}/disabled.http`, "--reporter", "junit", ...vars]);
  assert.equal(junit.stdout.match(/<skipped\/>/g)?.length, 3, junit.stdout);
  assert.match(junit.stdout, /tests="5" failures="0" errors="0" skipped="3"/);
  const tap = await dial(["test", `${dir}/disabled.http`, "--reporter", "tap", ...vars]);
  assert.deepEqual(tap.stdout.split("\n").filter((l) => l.endsWith(" # SKIP")).length, 3);
  const theirs = await httpyac(["disabled.http", "--all", "-o", "none", "--json", ...vars], {
    cwd: dir,
  });
  const report = JSON.parse(theirs.stdout) as {
    requests: { testResults: { message: string; status: string }[] }[];
  };
  assert.deepEqual(report.requests.map((r) => r.testResults.map((t) => t.message).join()), [
    "request is skipped",
    "request is skipped",
    "request is skipped",
    "args.n == 4",
    "args.n == 5",
  ]);
});

Deno.test("httpyac scripts: a GraphQL query from a file (gql NAME < ./query.gql) is sent byte for byte as httpyac sends it; a missing file is an error naming it", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // The shape of httpyac's examples/api/github.http, second request.
    "gql.http": [
      "POST {{base}}/anything",
      "Content-Type: application/json",
      "",
      "gql foo < ./query.gql",
      "",
      "{",
      '    "name": "vscode-httpyac"',
      "}",
      "",
    ].join("\n"),
    "query.gql": "query foo($name: String!) {\n  repository(name: $name) { name }\n}\n",
    "missing.http": "POST {{base}}/anything\n\ngql foo < ./nothing.gql\n",
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["run", `${dir}/gql.http`, ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(["gql.http", "--all", "-o", "body", ...vars], { cwd: dir });
  const sent = (stdout: string) =>
    JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1)).data as string;
  assert.equal(sent(ours.stdout), sent(theirs.stdout));
  assert.deepEqual(JSON.parse(sent(ours.stdout)), {
    query: "query foo($name: String!) {\n  repository(name: $name) { name }\n}\n",
    operationName: "foo",
    variables: { name: "vscode-httpyac" },
  });
  const missing = await dial(["run", `${dir}/missing.http`, ...vars]);
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /missing\.http:3:1: Cannot read the body file ".*nothing\.gql": no such file/,
  );
});

Deno.test("httpyac scripts: httpyac's client certificate header (X-ClientCert: cert: … key: …) is never sent, as httpyac does not send it; dial warns", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // The shape of httpyac's examples/project/auth/clientCertifcate.http.
    "cert.http": [
      "GET {{base}}/anything",
      "X-ClientCert: cert: ./client.pem key: ./client.key",
      "X-Kept: pfx",
      "",
    ].join("\n"),
    "client.pem": "not read by dial\n",
    "client.key": "not read by dial\n",
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["run", `${dir}/cert.http`, ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.match(
    ours.stderr,
    /cert\.http:2:1: httpyac's client certificate header "X-ClientCert" is not sent: a client certificate is given on the command line, not by a file/,
  );
  const theirs = await httpyac(["cert.http", "--all", "-o", "body", ...vars], { cwd: dir });
  for (const stdout of [ours.stdout, theirs.stdout]) {
    const headers = JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1))
      .headers as Record<string, string>;
    assert.equal(headers["X-Clientcert"], undefined, stdout);
    assert.equal(headers["X-Kept"], "pfx");
  }
});

Deno.test("httpyac scripts: {{NAMEResponse.headers.X}} and {{NAMEResponse.parsedBody.a}} read a named request's response, as httpyac reads them", async () => {
  await using httpbin = await startHttpbin();
  const dir = await project({
    // The shape of httpyac's examples/metaData/name_header.http.
    "response.http": [
      "# @name json",
      "GET {{base}}/anything?author=ann",
      "",
      "###",
      "# @ref json",
      "POST {{base}}/anything",
      "X-Author: {{jsonResponse.parsedBody.args.author}}",
      "",
      "{{jsonResponse.headers.server}}",
      "",
    ].join("\n"),
  });
  const vars = ["--var", `base=${httpbin.origin}`];
  const ours = await dial(["run", `${dir}/response.http`, ...vars]);
  assert.equal(ours.code, 0, ours.stderr);
  const theirs = await httpyac(["response.http", "--all", "-o", "body", ...vars], { cwd: dir });
  // The second response: httpbin's echo of the POST (each tool prints both bodies).
  const last = (stdout: string) => {
    const start = stdout.lastIndexOf("{", stdout.lastIndexOf('"args"'));
    const echo = JSON.parse(stdout.slice(start, stdout.lastIndexOf("}") + 1));
    return [echo.headers["X-Author"], echo.data];
  };
  assert.deepEqual(last(ours.stdout), last(theirs.stdout));
  assert.equal(last(ours.stdout)[0], "ann");
  assert.match(last(ours.stdout)[1], /^Werkzeug\//);
});

Deno.test({
  name:
    "httpyac scripts: # @note asks for confirmation on a terminal (Enter sends, n skips), as httpyac does; without one an error names it",
  ignore: !hasScript,
  fn: async () => {
    const seen: string[] = [];
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (r) => {
      seen.push(`${r.method} ${new URL(r.url).pathname}`);
      return new Response("ok\n");
    });
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const dir = await project({
      // httpyac.github.io's examples/metaData/note.http.
      "yes.http": `# @note Are you sure?\nDELETE ${origin}/yes\n`,
      "no.http": `# @note Are you sure?\nDELETE ${origin}/no\n`,
    });
    const httpyacCommand = [
      ...[Deno.execPath(), "run", "-A", "--quiet", "--no-config", "--no-lock"],
      ...["npm:httpyac@6.16.7", "send", "--all", "-o", "none"],
    ];
    const dialCommand = [Deno.execPath(), "run", "-A", "--quiet", MAIN, "run"];
    await onTerminal([...httpyacCommand, "yes.http"], "Are you sure?", "\r", dir);
    await onTerminal([...httpyacCommand, "no.http"], "Are you sure?", "n\r", dir);
    const theirs = seen.splice(0);
    await onTerminal([...dialCommand, "yes.http"], "Are you sure? (Y/n): ", "\r", dir);
    await onTerminal([...dialCommand, "no.http"], "Are you sure? (Y/n): ", "n\r", dir);
    assert.deepEqual(theirs, ["DELETE /yes"]);
    assert.deepEqual(seen.splice(0), ["DELETE /yes"]);

    const result = await dial(["run", `${dir}/yes.http`]);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /yes\.http:1:1: DELETE .*\/yes asks for confirmation with # @note and there is no terminal to ask on/,
    );
    assert.deepEqual(seen, []);
  },
});
