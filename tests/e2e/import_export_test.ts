/**
 * Import and export round trips against a recording server, with the peers as the oracle:
 * Newman runs a Postman collection, dial imports it and runs the `.http` files, dial exports
 * them back to Postman and Newman runs that; a curl command is imported, exported with
 * `--to curl` and run by real curl.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import {
  dialOutcomes,
  newman,
  outcomeLines,
  postmanCollection,
  postmanEnvironment,
  seenHeaders,
} from "./_newman.ts";
import {
  headerValues,
  jsonAnswer,
  type RawRequest,
  rawServer,
  requestPath,
} from "./_raw_server.ts";
// Puts the fixture package in the module graph, so that its files resolve to paths.
import "@readme/oas-examples/3.0/json/petstore.json" with { type: "json" };

const decoder = new TextDecoder();

/** What both runs must agree on. */
const seen = seenHeaders({
  authorization: "authorization",
  type: "content-type",
  trace: "x-trace",
});

function collection(origin: string) {
  return postmanCollection("Round trip", {
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{apiToken}}", type: "string" }] },
    variable: [{ key: "base", value: origin }],
    item: [{
      name: "Users",
      item: [
        { name: "List", request: { method: "GET", url: "{{base}}/users?page=2" } },
        {
          name: "Create",
          request: {
            method: "POST",
            header: [{ key: "X-Trace", value: "abc" }],
            body: { mode: "raw", raw: '{"name":"ann"}', options: { raw: { language: "json" } } },
            url: "{{base}}/users",
          },
        },
        {
          name: "Login",
          request: {
            method: "POST",
            auth: {
              type: "basic",
              basic: [{ key: "username", value: "ann" }, { key: "password", value: "pw" }],
            },
            body: {
              mode: "urlencoded",
              urlencoded: [{ key: "a", value: "1" }, { key: "b", value: "x y" }],
            },
            url: "{{base}}/login",
          },
        },
      ],
    }],
  });
}

const ENV = postmanEnvironment("dev", [
  { key: "apiToken", value: "t0ken", type: "secret", enabled: true },
]);

Deno.test("import/export: a Postman collection runs the same under Newman, dial run, and Newman again after export", async () => {
  await using server = rawServer(jsonAnswer("{}"));
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection(server.origin)));
  await Deno.writeTextFile(`${dir}/e.json`, JSON.stringify(ENV));
  await newman([`${dir}/c.json`, "-e", `${dir}/e.json`, "--bail"], { pass: true });
  const byNewman = server.requests.splice(0).map(seen);
  assert.equal(byNewman.length, 3);

  const imported = await dial(["import", "c.json", "e.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const http = await Deno.readTextFile(`${dir}/api/users.http`);
  assert.ok(!http.includes("t0ken") && !http.includes(":pw"), "no secret in the .http file");
  const priv = await Deno.stat(`${dir}/api/http-client.private.env.json`);
  assert.equal(priv.mode! & 0o777, 0o600);
  const ran = await dial(["run", "api/users.http", "--env", "dev"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stderr);
  const byDial = server.requests.splice(0).map(seen);
  // Newman adds a User-Agent and such; what the collection says must arrive alike.
  assert.deepEqual(byDial, byNewman);

  const exported = await dial(
    [
      "export",
      "api/users.http",
      "--to",
      "postman",
      "--out",
      "back.json",
      "--env",
      "dev",
      "--with-secrets",
    ],
    { cwd: dir },
  );
  assert.equal(exported.code, 0, exported.stderr);
  await newman([`${dir}/back.json`, "-e", `${dir}/dev.postman_environment.json`, "--bail"], {
    pass: true,
  });
  assert.deepEqual(server.requests.splice(0).map(seen), byNewman);
});

Deno.test("import/export: a curl command imported then exported --to curl reaches the server as the original", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  const original = [
    "curl",
    "-X",
    "PUT",
    `${server.origin}/items/7?x=1`,
    "-H",
    "Authorization: Bearer s3cret",
    "-H",
    "X-Trace: abc",
    "--json",
    '{"n":1}',
  ];
  const quoted = original.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
  const run = async (script: string, env: Record<string, string> = {}) => {
    const out = await new Deno.Command("bash", { args: ["-c", script], cwd: dir, env }).output();
    assert.equal(out.code, 0, decoder.decode(out.stderr));
  };
  await run(`${quoted} -sS -o /dev/null`);
  await Deno.writeTextFile(`${dir}/cmd.sh`, quoted);
  const imported = await dial(["import", "cmd.sh", "--out", "."], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".http"));
  assert.equal(files.length, 1);
  const exported = await dial(["export", files[0]!, "--to", "curl", "--env", "imported"], {
    cwd: dir,
  });
  assert.equal(exported.code, 0, exported.stderr);
  // The token is a secret: the command reads it from $TOKEN, never holds it.
  assert.ok(!exported.stdout.includes("s3cret"), exported.stdout);
  assert.match(exported.stdout, /\$\{TOKEN\}/);
  const command = exported.stdout.split("\n").find((l) => l.startsWith("curl "))!;
  await run(`${command} -sS -o /dev/null`, { TOKEN: "s3cret", PATH: Deno.env.get("PATH")! });
  const [fromCurl, roundTrip] = server.requests.map((r) => ({
    line: r.line,
    body: decoder.decode(r.body),
    authorization: headerValues(r, "authorization"),
    trace: headerValues(r, "x-trace"),
    type: headerValues(r, "content-type"),
    accept: headerValues(r, "accept"),
  }));
  assert.deepEqual(roundTrip, fromCurl);
});

Deno.test("export: curl, HTTPie, Python requests and fetch code send what dial run sends, secrets read from the environment", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/api.http`,
    [
      "@base = " + server.origin,
      "",
      "### create",
      "POST {{base}}/things?kind=pen",
      "Authorization: Bearer {{token}}",
      "Content-Type: application/json",
      "X-Trace: t-1",
      "",
      '{"name": "pen", "n": 2}',
      "",
    ].join("\n"),
  );
  await Deno.writeTextFile(`${dir}/http-client.env.json`, JSON.stringify({ dev: {} }));
  await Deno.writeTextFile(
    `${dir}/http-client.private.env.json`,
    JSON.stringify({ dev: { token: "tok-123" } }),
  );
  const ran = await dial(["run", "api.http", "--env", "dev"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stderr);
  const view = (r: RawRequest) => ({
    line: r.line,
    authorization: headerValues(r, "authorization"),
    type: headerValues(r, "content-type"),
    trace: headerValues(r, "x-trace"),
    body: decoder.decode(r.body),
  });
  const expected = view(server.requests.splice(0)[0]!);
  const env = { TOKEN: "tok-123", PATH: Deno.env.get("PATH")!, HOME: dir };
  const runners: Record<string, (file: string) => string[]> = {
    curl: (f) => ["bash", f],
    httpie: (f) => ["bash", f],
    python: (f) => ["python3", f],
    fetch: (f) => [Deno.execPath(), "run", "--allow-net", "--allow-env", f],
  };
  for (const [target, runner] of Object.entries(runners)) {
    const exported = await dial(["export", "api.http", "--to", target, "--env", "dev"], {
      cwd: dir,
    });
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok(!exported.stdout.includes("tok-123"), `${target}: ${exported.stdout}`);
    const file = `${dir}/code-${target}.${
      target === "python" ? "py" : target === "fetch" ? "mjs" : "sh"
    }`;
    await Deno.writeTextFile(file, exported.stdout);
    const [cmd, ...args] = runner(file);
    const out = await new Deno.Command(cmd!, {
      args,
      cwd: dir,
      env,
      clearEnv: true,
      stdout: "null",
    })
      .output();
    assert.equal(out.code, 0, `${target}: ${decoder.decode(out.stderr)}`);
    assert.deepEqual(view(server.requests.splice(0)[0]!), expected, target);
  }
});

Deno.test("export: a file of several requests becomes one program that sends each of them (Python, fetch)", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/api.http`,
    [
      "### one",
      `GET ${server.origin}/one`,
      "",
      "### two",
      `POST ${server.origin}/two`,
      "Content-Type: text/plain",
      "",
      "second",
      "",
    ].join("\n"),
  );
  const runners: Record<string, [string, string, string[]]> = {
    python: ["py", "python3", []],
    fetch: ["mjs", Deno.execPath(), ["run", "--allow-net"]],
  };
  for (const [target, [extension, program, flags]] of Object.entries(runners)) {
    const exported = await dial(["export", `${dir}/api.http`, "--to", target]);
    assert.equal(exported.code, 0, exported.stderr);
    const file = `${dir}/code.${extension}`;
    await Deno.writeTextFile(file, exported.stdout);
    const out = await new Deno.Command(program, { args: [...flags, file], stdout: "null" })
      .output();
    assert.equal(out.code, 0, `${target}: ${decoder.decode(out.stderr)}`);
    assert.deepEqual(server.requests.splice(0).map((r) => r.line), [
      "GET /one HTTP/1.1",
      "POST /two HTTP/1.1",
    ], target);
  }
});

Deno.test("import: never replaces a file without --force; the loss report is on stderr and atop the file", async () => {
  const dir = await Deno.makeTempDir();
  const source = JSON.stringify(postmanCollection("Lossy", {
    item: [{
      name: "Hawk",
      event: [{ listen: "prerequest", script: { exec: ["pm.variables.set('a', 1);"] } }],
      request: { method: "GET", auth: { type: "hawk" }, url: "http://127.0.0.1:9/h" },
    }],
  }));
  await Deno.writeTextFile(`${dir}/c.json`, source);
  const first = await dial(["import", "c.json"], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    /Not carried \(1\):\n {2}Hawk: auth type "hawk"/,
  );
  const written = await Deno.readTextFile(`${dir}/lossy.http`);
  assert.match(
    written,
    /^# Imported from postman by dial import\.\n# Not carried \(add by hand if you need it\):\n# {3}Hawk: auth type "hawk"/,
  );
  await Deno.writeTextFile(`${dir}/lossy.http`, "# mine\n");
  const again = await dial(["import", "c.json"], { cwd: dir });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /Not overwriting "lossy.http" in \./);
  assert.equal(await Deno.readTextFile(`${dir}/lossy.http`), "# mine\n");
  const forced = await dial(["import", "c.json", "--force"], { cwd: dir });
  assert.equal(forced.code, 0, forced.stderr);
  assert.notEqual(await Deno.readTextFile(`${dir}/lossy.http`), "# mine\n");
});

Deno.test("import: an OpenAPI operation imported from the Petstore runs against a local server", async () => {
  await using server = rawServer(jsonAnswer("{}"));
  const dir = await Deno.makeTempDir();
  const spec = import.meta.resolve("@readme/oas-examples/3.0/json/petstore.json");
  await Deno.copyFile(new URL(spec), `${dir}/petstore.json`);
  const imported = await dial(["import", "petstore.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const env = Object.keys(
    JSON.parse(await Deno.readTextFile(`${dir}/api/http-client.env.json`)),
  )[0]!;
  const ran = await dial(
    [
      "run",
      "api/pet.http",
      "getPetById",
      "--env",
      env,
      "--var",
      `baseUrl=${server.origin}`,
      "--var",
      "petId=7",
    ],
    { cwd: dir },
  );
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(server.requests.length, 1);
  assert.equal(requestPath(server.requests[0]!), "/pet/7");
  assert.deepEqual(headerValues(server.requests[0]!, "api_key"), [""]);
});

Deno.test("export --to http: an imported collection's scripts and assertions come back as written, again and again, and still run as Newman runs them", async () => {
  await using server = rawServer(jsonAnswer('{"id":7,"tags":["a","b"]}'));
  const dir = await Deno.makeTempDir();
  const tests = [
    "pm.test('status is 200', function () {",
    "  pm.response.to.have.status(200);",
    "});",
    "",
    "pm.test('id is 7', function () { pm.expect(pm.response.json().id).to.equal(7); });",
  ];
  await Deno.writeTextFile(
    `${dir}/c.json`,
    JSON.stringify(postmanCollection("Round trip scripts", {
      variable: [{ key: "base", value: server.origin }],
      item: [
        {
          name: "Get",
          event: [
            { listen: "prerequest", script: { exec: ["pm.variables.set('n', 7);", "", "// n"] } },
            { listen: "test", script: { exec: tests } },
          ],
          request: { method: "GET", url: "{{base}}/items/{{n}}" },
        },
        {
          name: "Tags",
          event: [{
            listen: "test",
            script: {
              exec: [
                "pm.test('two tags', () => pm.expect(pm.response.json().tags).to.have.lengthOf(2));",
              ],
            },
          }],
          request: { method: "GET", url: "{{base}}/tags" },
        },
      ],
    })),
  );
  const ran = await newman([`${dir}/c.json`], { report: true, pass: true });
  const byNewman = outcomeLines(ran.outcomes);
  assert.equal(byNewman.length, 3);
  const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const written = await Deno.readTextFile(`${dir}/api/round-trip-scripts.http`);
  assert.match(written, /< \{%\npm\.variables\.set\('n', 7\);\n\n\/\/ n\n%\}/);
  let previous = "api/round-trip-scripts.http";
  for (const round of [1, 2]) {
    const out = `api/round-${round}.http`;
    const exported = await dial(["export", previous, "--to", "http", "--out", out], { cwd: dir });
    assert.equal(exported.code, 0, exported.stderr);
    const text = await Deno.readTextFile(`${dir}/${out}`);
    // Only the import's own comment line atop the file is not a request's.
    assert.equal(text, written.replace(/^# Imported from postman by dial import\.\n\n/, ""));
    const tested = await dial(["test", out, "--reporter", "json"], { cwd: dir });
    assert.equal(tested.code, 0, tested.stderr);
    assert.deepEqual(
      outcomeLines(dialOutcomes(tested.stdout)).filter((l) => !/› HTTP \d+:/.test(l)),
      byNewman,
    );
    previous = out;
  }
});

Deno.test("export --to http: handler files, >> outputs and ?? assertions are carried; a one-line block stays one line", async () => {
  const dir = await Deno.makeTempDir();
  const source = [
    "### One",
    "< ./pre.js",
    "GET http://127.0.0.1:1/a",
    "",
    "> {% client.global.set('x', '1'); %}",
    "> ./after.js",
    ">>! out.json",
    "?? status == 200",
    "?? body $.id == 7",
    "",
  ].join("\n");
  await Deno.writeTextFile(`${dir}/a.http`, source);
  const once = await dial(["export", "a.http", "--to", "http"], { cwd: dir });
  assert.equal(once.code, 0, once.stderr);
  assert.equal(
    once.stdout,
    source.replace(/^### One\n/, "### One\n# @name One\n").replace(/\n\n$/, "\n"),
  );
  await Deno.writeTextFile(`${dir}/b.http`, once.stdout);
  const twice = await dial(["export", "b.http", "--to", "http"], { cwd: dir });
  assert.equal(twice.stdout, once.stdout);
});

Deno.test("export --to postman: an imported collection's scripts go back as Postman events, and Newman runs the export as it ran the original", async () => {
  await using server = rawServer(jsonAnswer('{"id":7,"tags":["a","b"]}'));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/c.json`,
      JSON.stringify(postmanCollection("Scripts back", {
        // A collection-level script: the import writes it once into scripts/.
        event: [{
          listen: "prerequest",
          script: { exec: ["pm.variables.set('stamp', 's-' + (1 + 1));"] },
        }],
        variable: [{ key: "base", value: server.origin }],
        item: [
          {
            name: "Get",
            event: [
              { listen: "prerequest", script: { exec: ["pm.environment.set('id', 7);"] } },
              {
                listen: "test",
                script: {
                  exec: [
                    "pm.test('status is 200', function () {",
                    "  pm.response.to.have.status(200);",
                    "});",
                    "pm.test('id is 7', () => pm.expect(pm.response.json().id).to.equal(pm.environment.get('id')));",
                    "pm.test('fails', () => pm.expect(pm.response.json().tags).to.have.lengthOf(3));",
                  ],
                },
              },
            ],
            request: {
              method: "GET",
              header: [{ key: "X-Stamp", value: "{{stamp}}" }],
              url: "{{base}}/items/{{id}}",
            },
          },
        ],
      })),
    );
    const original = await newman([`${dir}/c.json`], { report: true });
    const byNewman = server.requests.splice(0).map(seen);
    const outcomes = outcomeLines(original.outcomes);
    assert.equal(outcomes.length, 3);
    assert.equal(byNewman[0]?.line, "GET /items/7");

    const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
    assert.equal(imported.code, 0, imported.stderr);
    const exported = await dial(
      ["export", "api/scripts-back.http", "--to", "postman", "--out", "back.json"],
      { cwd: dir },
    );
    assert.equal(exported.code, 0, exported.stderr);
    assert.doesNotMatch(exported.stderr, /Not carried/);
    const back = await newman([`${dir}/back.json`], { report: true });
    // The collection's script (a file of the import) set it.
    assert.deepEqual(headerValues(server.requests[0]!, "x-stamp"), ["s-2"]);
    assert.deepEqual(server.requests.splice(0).map(seen), byNewman);
    assert.deepEqual(outcomeLines(back.outcomes), outcomes);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
