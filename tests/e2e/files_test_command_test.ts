import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { dial, serve } from "../_helpers.ts";
import { includes } from "../assert.ts";
import { runCli } from "../_run_cli.ts";
import { project, reportCases } from "./_files.ts";
import { startHttpbin } from "./_httpbin.ts";
import { makeCertificates, serveTls } from "./_tls.ts";
import { unusedPort } from "../_ports.ts";

function itemServer() {
  return serve((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/items") return Response.json({ id: 7, name: "pen" }, { status: 201 });
    if (url.pathname === "/items/7") return Response.json({ id: 7, name: "pen" });
    return new Response("missing", { status: 404 });
  });
}

const ITEMS = `### create
POST {{origin}}/items

> {%
  client.global.set("id", response.body.id);
  client.test("created", function () {
    client.assert(response.status === 201, "expected 201, got " + response.status);
  });
%}

### read
GET {{origin}}/items/{{id}}

> {%
  client.test("same name", function () {
    client.assert(response.body.name === "pen");
  });
  client.test("wrong on purpose", function () {
    client.assert(response.body.name === "pencil", "name is " + response.body.name);
  });
%}
`;

Deno.test("test: one line per test, a summary, and exit 11 when an assertion fails", async () => {
  await using server = itemServer();
  const dir = await project({ "items.http": ITEMS });
  const result = await dial(["test", `${dir}/items.http`, "--var", `origin=${server.origin}`]);
  assert.equal(result.code, 11, result.stderr);
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, new RegExp(`^✓ ${dir}/items\\.http › create › created \\(\\d+ ms\\)$`));
  assert.match(lines[1]!, /^✓ .* › read › same name \(\d+ ms\)$/);
  assert.match(lines[2]!, /^✗ .* › read › wrong on purpose: name is pen \(\d+ ms\)$/);
  assert.match(lines[3]!, /^2 passed, 1 failed, 0 errors \(\d+ ms\)$/);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), ["/items", "/items/7"]);
});

Deno.test("test: a JUnit report that a JUnit XML parser reads", async () => {
  await using server = itemServer();
  const dir = await project({ "items.http": ITEMS });
  const report = `${dir}/report.xml`;
  const result = await dial([
    "test",
    `${dir}/items.http`,
    "--var",
    `origin=${server.origin}`,
    "--reporter",
    "junit",
    "--report-file",
    report,
  ]);
  assert.equal(result.code, 11, result.stderr);
  includes(result.stdout, "2 passed, 1 failed, 0 errors");
  const xml = await Deno.readTextFile(report);
  assert.equal(XMLValidator.validate(xml), true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testsuite", "testcase", "failure"].includes(name),
  }).parse(xml);
  const root = parsed.testsuites;
  assert.equal(root.tests, "3");
  assert.equal(root.failures, "1");
  const suite = root.testsuite[0];
  assert.equal(suite.name, `${dir}/items.http`);
  const cases = suite.testcase.map((c: { name: string; failure?: { message: string }[] }) => [
    c.name,
    c.failure?.[0]?.message,
  ]);
  assert.deepEqual(cases, [
    ["create › created", undefined],
    ["read › same name", undefined],
    ["read › wrong on purpose", "name is pen"],
  ]);
});

Deno.test("test: TAP and JSON reporters on stdout", async () => {
  await using server = itemServer();
  const dir = await project({ "items.http": ITEMS });
  const tap = await dial([
    "test",
    `${dir}/items.http`,
    "--var",
    `origin=${server.origin}`,
    "--reporter",
    "tap",
  ]);
  assert.equal(tap.code, 11);
  const lines = tap.stdout.split("\n");
  assert.deepEqual(lines.slice(0, 2), ["TAP version 14", "1..3"]);
  assert.match(lines[2]!, /^ok 1 - .*items\.http › create › created$/);
  assert.match(
    tap.stdout,
    /\nnot ok 3 - .* › read › wrong on purpose\n {2}---\n {2}message: "name is pen"\n/,
  );
  const json = await dial([
    "test",
    `${dir}/items.http`,
    "--var",
    `origin=${server.origin}`,
    "--reporter",
    "json",
  ]);
  const data = JSON.parse(json.stdout);
  assert.deepEqual(data.summary, { total: 3, passed: 2, failed: 1, errors: 0 });
});

Deno.test("test: directories run recursively in name order; --name and --fail-fast", async () => {
  await using server = itemServer();
  const dir = await project({
    "b/second.http": `### beta\nGET {{origin}}/items/7\n`,
    "a.http": `### alpha\nGET {{origin}}/items/7\n`,
    "b/a/first.rest":
      `### gamma\nGET {{origin}}/nothing\n\n> {%\nclient.test("found", function () { client.assert(response.status === 200, "status " + response.status); });\n%}\n`,
    "notes.txt": "not a request file",
  });
  const all = await dial(["test", dir, "--var", `origin=${server.origin}`]);
  assert.equal(all.code, 11, all.stderr);
  const order = all.stdout.trimEnd().split("\n").slice(0, -1).map((l) => l.split(" › ")[1]);
  assert.deepEqual(order, ["alpha", "gamma", "beta"]);
  const filtered = await dial([
    "test",
    dir,
    "--var",
    `origin=${server.origin}`,
    "--name",
    "^(alpha|beta)$",
  ]);
  assert.equal(filtered.code, 0, filtered.stderr);
  includes(filtered.stdout, "2 passed, 0 failed, 0 errors");
  const fast = await dial(["test", dir, "--var", `origin=${server.origin}`, "--fail-fast"]);
  assert.equal(fast.code, 11);
  includes(fast.stdout, "1 passed, 1 failed, 0 errors");
});

Deno.test("test: a request that cannot be sent is an error case and ends with its exit code", async () => {
  const closed = `http://127.0.0.1:${unusedPort()}`;
  const dir = await project({
    "down.http": `### down\nGET ${closed}/\n\n### undefined\nGET ${closed}/{{nope}}\n`,
  });
  const result = await dial(["test", `${dir}/down.http`, "--reporter", "json"]);
  assert.equal(result.code, 7, result.stderr);
  const data = JSON.parse(result.stdout);
  assert.deepEqual(data.summary, { total: 2, passed: 0, failed: 0, errors: 2 });
  assert.match(data.cases[0].message, /Cannot reach 127\.0\.0\.1:\d+: connection refused/);
  assert.match(data.cases[1].message, /Undefined variable "nope" in the URL/);
});

Deno.test("test: a request whose named dependency failed is not sent and says why", async () => {
  await using server = itemServer();
  const closed = `http://127.0.0.1:${unusedPort()}`;
  const dir = await project({
    "dep.http":
      `### login\n# @name login\nPOST ${closed}/login\n\n### me\nGET ${server.origin}/items/{{login.response.body.$.id}}\n`,
  });
  const result = await dial(["test", `${dir}/dep.http`, "--reporter", "json"]);
  assert.equal(result.code, 7, result.stderr);
  const data = JSON.parse(result.stdout);
  assert.deepEqual(
    data.cases.map((c: { request: string; outcome: string }) => [c.request, c.outcome]),
    [
      ["login", "error"],
      ["me", "error"],
    ],
  );
  assert.match(data.cases[1].message, /Request "login", which me refers to, failed/);
  assert.equal(server.requests.length, 0);
});

Deno.test("test: files in subdirectories use the nearest environment files above them", async () => {
  await using server = itemServer();
  const dir = await project({
    "http-client.env.json": JSON.stringify({ dev: { origin: server.origin } }),
    "api/items/read.http": "### read\nGET {{origin}}/items/7\n",
    "api/other/http-client.env.json": JSON.stringify({ dev: { origin: "http://127.0.0.1:1" } }),
    "api/other/x.http": "### other\nGET {{origin}}/items/7\n",
  });
  const result = await dial(["test", `${dir}/api/items`, "--env", "dev"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(server.requests.length, 1);
  const nearest = await dial([
    "test",
    `${dir}/api/other/x.http`,
    "--env",
    "dev",
    "--reporter",
    "json",
  ]);
  assert.equal(nearest.code, 7);
  assert.equal(server.requests.length, 1);
});

Deno.test("test: status counts, and a run never stops early (python3-httpbin)", async () => {
  await using httpbin = await startHttpbin();
  const base = httpbin.origin;
  const dir = await project({
    "1ok.http": `GET ${base}/status/200\n`,
    "2broken.http": `GET ${base}/get\nBad header\n`,
    "3status.http": `GET ${base}/status/503\n\n###\nGET ${base}/status/404\n`,
    "4include.http": `POST ${base}/post\n\n< ./missing.json\n`,
    "5handler.http": `GET ${base}/get\n\n> {% throw new Error("boom") %}\n`,
    "6asserted.http": `GET ${base}/status/500\n\n?? status == 500\n`,
  });
  const report = `${dir}/report.json`;
  const result = await dial(["test", dir, "--reporter", "json", "--report-file", report]);
  assert.notEqual(result.code, 0);
  const cases = reportCases(await Deno.readTextFile(report));
  const seen = cases.map((c) => [c.file.slice(dir.length + 1), c.name, c.outcome]);
  assert.deepEqual(seen, [
    ["1ok.http", "HTTP 200", "passed"],
    ["2broken.http", "file", "error"],
    // Without tests of its own a request fails at 5xx; a 4xx passes without --check-status.
    ["3status.http", "HTTP 503", "failed"],
    ["3status.http", "HTTP 404", "passed"],
    ["4include.http", "request", "error"],
    ["5handler.http", "request", "error"],
    // Its own assertion decides.
    ["6asserted.http", "status == 500", "passed"],
  ]);
  assert.match(cases[1]!.message!, /2broken\.http:2:1: Cannot parse header "Bad header"/);
  assert.match(cases[4]!.message!, /4include\.http:3:1: Cannot read the body file/);
  assert.match(cases[5]!.message!, /5handler\.http:3: Error: boom/);
  // The summary is printed too.
  assert.match(result.stdout, /3 passed, 1 failed, 3 errors/);

  const strict = await dial(["test", `${dir}/3status.http`, "--check-status"]);
  assert.equal(strict.code, 11);
  assert.match(strict.stdout, /✗ .* › HTTP 404: an error status/);
  const bail = await dial(["test", dir, "--bail"]);
  assert.match(bail.stdout, /1 passed, 0 failed, 1 errors/);
});

Deno.test("test: every reporter escapes a server's control characters on a terminal", async () => {
  await using server = serve(() => new Response("pwned \x1b]52;c;aGk=\x07 \x1b[2J"));
  const dir = await project({
    "osc.http":
      `GET ${server.origin}/\n\n> {% client.test(response.body, function () { throw new Error(response.body); }); %}\n`,
  });
  for (const reporter of ["pretty", "tap", "junit", "json", "html"]) {
    const terminal = await runCli(["test", `${dir}/osc.http`, "--reporter", reporter], {
      tty: { stdout: true, stderr: true },
      env: { NO_COLOR: "1" },
    });
    assert.ok(!terminal.stdout.includes("\x1b") && !terminal.stdout.includes("\x07"), reporter);
    // Shown as escapes (JUnit drops what XML cannot hold; the HTML page shows its own escapes).
    if (reporter !== "junit") assert.match(terminal.stdout, /\\x1b\]52|\\u001b\]52/, reporter);
    // Piped, the report is byte for byte what the reporter wrote.
    const piped = await runCli(["test", `${dir}/osc.http`, "--reporter", reporter]);
    if (reporter === "pretty" || reporter === "tap") {
      assert.ok(piped.stdout.includes("\x1b]52"), reporter);
    }
  }
});

Deno.test("test: reports carry each request's phases and its scripts' log lines", async () => {
  // Deno's own server keeps connections alive (Werkzeug's httpbin closes each one).
  await using server = serve((request) => Response.json({ url: request.url }));
  const certs = await makeCertificates();
  const tls = serveTls(certs.leaf, certs.leafKey, () => Response.json({ secure: true }));
  try {
    const dir = await project({
      "phases.http": `### first\nGET ${server.origin}/get\n\n` +
        `> {% console.log("url was", response.body.url); %}\n\n` +
        `### second\nGET ${server.origin}/get?again=1\n\n?? status == 200\n\n` +
        `### secure\nGET https://127.0.0.1:${tls.addr.port}/\n\n` +
        `### by name\nGET http://localhost:${server.port}/get\n`,
    });
    const result = await dial([
      "test",
      `${dir}/phases.http`,
      ...["--cacert", certs.ca, "--reporter", "json", "--report-file", `${dir}/r.json`],
    ]);
    assert.equal(result.code, 0, result.stderr);
    type Timings = Record<string, number | boolean>;
    const cases = (JSON.parse(await Deno.readTextFile(`${dir}/r.json`)) as {
      cases: { request: string; timings?: Timings; logs?: string[] }[];
    }).cases;
    assert.deepEqual(cases.map((c) => c.request), ["first", "second", "secure", "by name"]);
    assert.deepEqual(cases[0]!.logs, [`url was ${server.origin}/get`]);
    assert.equal(cases[1]!.logs, undefined);
    const [first, second, secure, byName] = cases.map((c) => c.timings!);
    for (const t of [first!, second!, secure!, byName!]) {
      const keys = [
        "dnsMs",
        "connectMs",
        "tlsMs",
        "waitMs",
        "firstByteMs",
        "downloadMs",
        "totalMs",
      ];
      for (const key of keys) {
        assert.equal(typeof t[key], "number", `${key} in ${JSON.stringify(t)}`);
      }
      // The phases of the final hop lie inside the time to the first byte.
      const phases = (t.dnsMs as number) + (t.connectMs as number) + (t.tlsMs as number) +
        (t.waitMs as number);
      assert.ok(phases <= (t.firstByteMs as number) + 0.001, JSON.stringify(t));
    }
    assert.equal(first!.reused, false);
    // The server keeps the connection: the second request has no connect and no TLS phase.
    assert.equal(second!.reused, true);
    assert.equal(second!.dnsMs, 0);
    assert.equal(second!.connectMs, 0);
    assert.equal(second!.tlsMs, 0);
    // A new origin over TLS: a handshake happened.
    assert.equal(secure!.reused, false);
    assert.ok((secure!.tlsMs as number) > 0, JSON.stringify(secure));

    const junit = `${dir}/r.xml`;
    const html = `${dir}/r.html`;
    for (const [reporter, file] of [["junit", junit], ["html", html]]) {
      const again = await dial([
        ...["test", `${dir}/phases.http`, "--cacert", certs.ca],
        ...["--reporter", reporter!, "--report-file", file!],
      ]);
      assert.equal(again.code, 0, again.stderr);
    }
    const xml = await Deno.readTextFile(junit);
    assert.match(
      xml,
      new RegExp(
        `<system-out>DNS \\d+ ms, connect \\d+ ms, TLS \\d+ ms, wait \\d+ ms, first byte \\d+ ms, download \\d+ ms, total \\d+ ms\\nurl was ${server.origin}/get</system-out>`,
      ),
    );
    assert.match(
      xml,
      /name="second › status == 200"[^>]*>\s*<system-out>DNS 0 ms, connect 0 ms, TLS 0 ms, .* \(kept-alive\)<\/system-out>/,
    );
    const page = await Deno.readTextFile(html);
    assert.match(page, /<tr class="logs">.*<pre>url was http:\/\/127\.0\.0\.1:\d+\/get<\/pre>/);
    assert.match(page, /<div class="phases">DNS \d+ ms, connect \d+ ms, TLS \d+ ms, wait/);
  } finally {
    await tls.shutdown();
  }
});
