/**
 * Newman's command line on `dial test`, Newman as the oracle: the same collection, environment,
 * globals and data file run by `newman run c.json -e … -g … -d … --folder … -n …` and by
 * `dial test c.json` with the same flags against one recording server send the same requests in
 * the same order and reach the same assertion outcomes; the flags also apply to an imported
 * folder; a folder the collection does not have is a usage error before anything is sent.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { reportCases } from "./_files.ts";
import { newman } from "./_newman.ts";
import { jsonAnswer, type RawRequest, rawServer, requestPath } from "./_raw_server.ts";

const decoder = new TextDecoder();

async function byNewman(args: string[], cwd: string): Promise<string[]> {
  const { outcomes } = await newman(args, { cwd, report: true });
  return outcomes.map((o) => `${o.request} › ${o.test}: ${o.outcome}`);
}

function seen(r: RawRequest) {
  return {
    line: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    stage: r.headers.find(([n]) => n.toLowerCase() === "x-stage")?.[1],
    body: decoder.decode(r.body),
  };
}

function collection() {
  const request = (name: string, path: string) => ({
    name,
    event: [{
      listen: "test",
      script: {
        exec: [
          'pm.test("status 200", () => pm.response.to.have.status(200));',
          'pm.test("stage is staging", () => pm.expect(pm.environment.get("stage")).to.equal("staging"));',
        ],
      },
    }],
    request: {
      method: "POST",
      header: [{ key: "X-Stage", value: "{{stage}}" }],
      body: { mode: "raw", raw: "{{who}} via {{shared}}" },
      url: `{{base}}${path}`,
    },
  });
  return {
    info: { name: "flags", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
    item: [
      request("Ping", "/ping"),
      { name: "Users", item: [request("List users", "/users"), request("Add user", "/users/add")] },
      { name: "Orders", item: [request("List orders", "/orders")] },
    ],
  };
}

async function fixture(origin: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-newman-flags-" });
  const values = (pairs: Record<string, string>) =>
    Object.entries(pairs).map(([key, value]) => ({ key, value, enabled: true }));
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection()));
  await Deno.writeTextFile(
    `${dir}/e.json`,
    JSON.stringify({ name: "staging", values: values({ base: origin, stage: "staging" }) }),
  );
  await Deno.writeTextFile(
    `${dir}/g.json`,
    JSON.stringify({
      name: "globals",
      _postman_variable_scope: "globals",
      values: values({ shared: "globals" }),
    }),
  );
  await Deno.writeTextFile(`${dir}/rows.csv`, "who\nann\nbob\n");
  return dir;
}

Deno.test("dial test c.json -e -g -d --folder -n sends and asserts what newman run does with them", async () => {
  await using server = rawServer();
  const dir = await fixture(server.origin);
  const flags = ["-e", "e.json", "-g", "g.json", "-d", "rows.csv", "--folder", "Users", "-n", "3"];

  const outcomes = await byNewman(["c.json", ...flags], dir);
  const sentByNewman = server.requests.splice(0).map(seen);
  // Three iterations of the folder's two requests; the third reuses the last row.
  assert.equal(sentByNewman.length, 6);
  assert.deepEqual(sentByNewman.map((r) => r.body), [
    "ann via globals",
    "ann via globals",
    "bob via globals",
    "bob via globals",
    "bob via globals",
    "bob via globals",
  ]);

  const ran = await dial(["test", "c.json", ...flags, "--reporter", "json"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(server.requests.splice(0).map(seen), sentByNewman);
  const byDial = reportCases(ran.stdout).map((c) => `${c.request} › ${c.name}: ${c.outcome}`);
  assert.deepEqual(byDial, outcomes);
  assert.equal(byDial.length, 12);
  // The temporary import is gone.
  assert.doesNotMatch(ran.stderr, /Not overwriting/);
});

Deno.test("dial test DIR -e --folder on an imported folder; an unknown folder sends nothing", async () => {
  await using server = rawServer();
  const dir = await fixture(server.origin);
  const imported = await dial(["import", "c.json", "g.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const ran = await dial([
    "test",
    "api",
    "-e",
    "e.json",
    "--folder",
    "Orders",
    "-d",
    "rows.csv",
  ], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(server.requests.splice(0).map(seen), [
    { line: "POST /orders", stage: "staging", body: "ann via globals" },
    { line: "POST /orders", stage: "staging", body: "bob via globals" },
  ]);
  assert.match(ran.stdout, /List orders › stage is staging \(/);

  for (const args of [["c.json"], ["api"]]) {
    const refused = await dial(["test", ...args, "-e", "e.json", "--folder", "Nope"], {
      cwd: dir,
    });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /No folder "Nope" in (c\.json|api)/);
  }
  assert.equal(server.requests.length, 0);
});

/** What a request's test script does next: `postman.setNextRequest` of a name or null, or a script. */
type Next = string | null | { script: string };

/**
 * A collection of folders whose requests test their status and may call
 * `postman.setNextRequest(next)` (a name, or null), run by Newman and by `dial test c.json` with
 * `-n 2` against one server.
 *
 * @returns the paths each sent, in order
 */
async function controlFlow(
  folders: Array<{ name: string; item: Array<string | [string, Next]> }>,
): Promise<{ newman: string[]; dial: string[]; stdout: string }> {
  await using server = rawServer();
  const dir = await Deno.makeTempDir({ prefix: "dial-newman-flow-" });
  const request = (entry: string | [string, Next]) => {
    const [name, next] = typeof entry === "string" ? [entry, undefined] : entry;
    return {
      name,
      event: [{
        listen: "test",
        script: {
          exec: [
            "pm.test('status', function () { pm.response.to.have.status(200); });",
            ...(next === undefined
              ? []
              : typeof next === "object" && next !== null
              ? [next.script]
              : [`postman.setNextRequest(${JSON.stringify(next)});`]),
          ],
        },
      }],
      request: { method: "GET", url: `${server.origin}/${name}` },
    };
  };
  await Deno.writeTextFile(
    `${dir}/c.json`,
    JSON.stringify({
      info: { name: "flow", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
      item: folders.map((f) => ({ name: f.name, item: f.item.map(request) })),
    }),
  );
  await newman(["c.json", "-n", "2"], { cwd: dir, report: true });
  const byNewman = server.requests.splice(0).map((r) => requestPath(r));
  const ran = await dial(["test", "c.json", "-n", "2"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  return { newman: byNewman, dial: server.requests.map((r) => requestPath(r)), stdout: ran.stdout };
}

Deno.test("postman.setNextRequest(null) ends the iteration across the imported files, as in Newman", async () => {
  const sent = await controlFlow([
    { name: "A", item: ["a1", ["a2", null]] },
    { name: "B", item: ["b1"] },
    { name: "C", item: ["c1", "c2"] },
  ]);
  assert.deepEqual(sent.newman, ["/a1", "/a2", "/a1", "/a2"]);
  assert.deepEqual(sent.dial, sent.newman);
  assert.match(sent.stdout, /4 passed, 0 failed/);
});

Deno.test("postman.setNextRequest(name) jumps to a later file of the collection; an unknown name ends the iteration, as in Newman", async () => {
  const sent = await controlFlow([
    { name: "A", item: [["a1", "c1"], "a2"] },
    { name: "B", item: ["b1"] },
    { name: "C", item: ["c1", ["c2", "nowhere"]] },
    { name: "D", item: ["d1"] },
  ]);
  assert.deepEqual(sent.newman, ["/a1", "/c1", "/c2", "/a1", "/c1", "/c2"]);
  assert.deepEqual(sent.dial, sent.newman);
  assert.match(sent.stdout, /6 passed, 0 failed/);
});

Deno.test("postman.setNextRequest(name) back to a request of an earlier file goes on there, as in Newman", async () => {
  // c1 goes back to b2 (the second request of an earlier file) twice in each iteration, counting
  // in a global that keeps its number type across requests and iterations.
  const loop = "var k = (pm.globals.get('k') || 0) + 1; pm.globals.set('k', k); " +
    "if (k % 3 !== 0) postman.setNextRequest('b2');";
  const sent = await controlFlow([
    { name: "A", item: ["a1"] },
    { name: "B", item: ["b1", "b2"] },
    { name: "C", item: [["c1", { script: loop }], "c2"] },
    { name: "D", item: ["d1"] },
  ]);
  const once = ["/a1", "/b1", "/b2", "/c1", "/b2", "/c1", "/b2", "/c1", "/c2", "/d1"];
  assert.deepEqual(sent.newman, [...once, ...once]);
  assert.deepEqual(sent.dial, sent.newman);
  assert.match(sent.stdout, /20 passed, 0 failed/);
});

Deno.test("postman.setNextRequest back to an earlier file is refused under --jobs 2, with the reason", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir({ prefix: "dial-newman-flow-" });
  try {
    const request = (name: string, exec: string[] = []) => ({
      name,
      event: [{ listen: "test", script: { exec } }],
      request: { method: "GET", url: `${server.origin}/${name}` },
    });
    await Deno.writeTextFile(
      `${dir}/c.json`,
      JSON.stringify({
        info: { name: "flow", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
        item: [
          { name: "A", item: [request("a1")] },
          { name: "B", item: [request("b1", ["postman.setNextRequest('a1');"])] },
        ],
      }),
    );
    const ran = await dial(["test", "c.json", "--jobs", "2"], { cwd: dir });
    assert.equal(ran.code, 2, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /goes back to an earlier file, which --jobs 2 cannot do/);
    assert.deepEqual(server.requests.map((r) => requestPath(r)).sort(), ["/a1", "/b1"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dial test c.json names files by the collection and its folders in every report, as Newman names them", async () => {
  await using server = rawServer((r) =>
    jsonAnswer(requestPath(r) === "/broken" ? "{not json" : '{"ok":true}')()
  );
  const test = (code: string) => [{ listen: "test", script: { exec: [code] } }];
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/c.json`,
      JSON.stringify({
        info: { name: "Named", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
        variable: [{ key: "base", value: server.origin }],
        item: [
          {
            name: "Auth",
            item: [
              {
                name: "Login",
                event: test("pm.test('ok', () => pm.response.to.have.status(200));"),
                request: { method: "GET", url: "{{base}}/login" },
              },
              {
                name: "Admin users",
                item: [{
                  name: "Broken body",
                  event: test("pm.test('parses', () => pm.response.json());"),
                  request: { method: "GET", url: "{{base}}/broken" },
                }],
              },
            ],
          },
          {
            name: "Top",
            event: test("pm.test('is 201', () => pm.response.to.have.status(201));"),
            request: { method: "GET", url: "{{base}}/top" },
          },
        ],
      }),
    );
    const junit = `${dir}/n.xml`;
    await newman(["c.json", "-r", "junit", "--reporter-junit-export", junit], { cwd: dir });
    // Newman's suites: "folder / … / request".
    const newmanSuites = [
      ...(await Deno.readTextFile(junit)).matchAll(/<testsuite name="([^"]+)"/g),
    ]
      .map((m) => m[1]);
    assert.deepEqual(newmanSuites, ["Auth / Login", "Auth / Admin users / Broken body", "Top"]);

    const pretty = await dial(["test", "c.json"], { cwd: dir });
    assert.equal(pretty.code, 11, pretty.stderr);
    assert.deepEqual(
      pretty.stdout.split("\n").filter((l) => /^[✓✗!]/.test(l)).map((l) =>
        l.replace(/ \(\d+ ms\)$/, "").replace(/: .*/, "")
      ),
      [
        "✓ c.json › Auth › Login › ok",
        "✗ c.json › Auth / Admin users › Broken body › parses",
        "✗ c.json › Top › is 201",
      ],
    );
    const cases = reportCases(
      (await dial(["test", "c.json", "--reporter", "json"], { cwd: dir })).stdout,
    );
    // The file and request make Newman's suite name.
    assert.deepEqual(
      cases.map((c) =>
        [c.file.replace(/^c\.json( › )?/, ""), c.request].filter(Boolean).join(" / ")
      ),
      newmanSuites,
    );
    for (const reporter of ["junit", "html", "tap"]) {
      const out = `${dir}/report.${reporter}`;
      const ran = await dial(["test", "c.json", "--reporter", reporter, "--report-file", out], {
        cwd: dir,
      });
      assert.equal(ran.code, 11, ran.stderr);
      const text = await Deno.readTextFile(out);
      assert.ok(text.includes("c.json › Auth / Admin users"), `${reporter}: ${text}`);
      // Nothing of the temporary folder the collection was imported into.
      assert.doesNotMatch(text + ran.stdout + ran.stderr, /dial-collection-|\.http\b/, reporter);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
