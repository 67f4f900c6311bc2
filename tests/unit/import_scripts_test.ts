/**
 * Postman scripts carried into request files as they are: the request gets `# @postman`
 * (dial's sandbox then gives its scripts Postman's `pm` API), pre-request scripts run before it
 * in Postman's order (collection, folder, request), test scripts after it in the same order; a
 * collection's or folder's script is written once in `scripts/` beside the request files, a
 * request's own in place (in a file when it holds `%}`); the migration report counts them.
 * @module
 */
import assert from "node:assert/strict";
import { readImport } from "../../src/import/read_import.ts";
import { importFiles } from "../../src/import/write_import.ts";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";

const event = (listen: string, ...exec: string[]) => ({ listen, script: { exec } });

const COLLECTION = {
  info: {
    name: "Shop",
    schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
  },
  event: [
    event("prerequest", "pm.variables.set('stamp', Date.now());"),
    event("test", "pm.test('not 5xx', () => pm.expect(pm.response.code).to.be.below(500));"),
  ],
  item: [{
    name: "Users",
    event: [event("prerequest", "pm.collectionVariables.set('folder', 'users');")],
    item: [
      {
        name: "List",
        event: [event(
          "test",
          "pm.test('ok', function () {",
          "  pm.response.to.have.status(200);",
          "});",
          'tests["has body"] = responseBody.length > 0;',
        )],
        request: { method: "GET", url: "http://127.0.0.1:9/users" },
      },
      {
        name: "Odd",
        event: [
          event("test", "const s = '%}';", "pm.test('s', () => pm.expect(s).to.equal('%}'));"),
        ],
        request: { method: "GET", url: "http://127.0.0.1:9/odd" },
      },
      { name: "Plain", request: { method: "GET", url: "http://127.0.0.1:9/plain" } },
    ],
  }],
};

Deno.test("import: Postman scripts are carried as # @postman handlers in Postman's order", async () => {
  const result = await readImport([{ name: "c.json", text: JSON.stringify(COLLECTION) }]);
  assert.deepEqual(result.counts, {
    requests: 3,
    scripts: 5,
    scriptsCarried: 5,
    assertions: 4,
    assertionsCarried: 4,
  });
  assert.ok(!result.losses.some((l) => /script/.test(l.what)), JSON.stringify(result.losses));
  const files = new Map(importFiles(result).map((f) => [f.name, f.text]));
  const http = files.get("users.http")!;
  assert.equal(
    files.get("scripts/shop-pre-request.js"),
    "pm.variables.set('stamp', Date.now());\n",
  );
  assert.equal(
    files.get("scripts/shop-users-pre-request.js"),
    "pm.collectionVariables.set('folder', 'users');\n",
  );
  assert.match(files.get("scripts/shop-test.js")!, /not 5xx/);
  const list = http.slice(http.indexOf("### List"), http.indexOf("### Odd"));
  assert.equal(
    list,
    [
      "### List",
      "# @name List",
      "# @postman",
      "< ./scripts/shop-pre-request.js",
      "< ./scripts/shop-users-pre-request.js",
      "GET http://127.0.0.1:9/users",
      "",
      "> ./scripts/shop-test.js",
      "> {%",
      "pm.test('ok', function () {",
      "  pm.response.to.have.status(200);",
      "});",
      'tests["has body"] = responseBody.length > 0;',
      "%}",
      "",
      "",
    ].join("\n"),
  );
  // A script holding "%}" cannot be written in place: it is a file.
  assert.match(http, /> \.\/scripts\/odd-test\.js/);
  assert.match(files.get("scripts/odd-test.js")!, /to\.equal\('%\}'\)/);
  // A request without scripts of its own still runs the collection's and folder's.
  assert.match(
    http,
    /# @postman\n< \.\/scripts\/shop-pre-request\.js\n< \.\/scripts\/shop-users-pre-request\.js\nGET http:\/\/127\.0\.0\.1:9\/plain\n\n> \.\/scripts\/shop-test\.js/,
  );
  // The file reads back: each request with its pre-request scripts and handlers, in order.
  const parsed = parseHttpFile(http, "users.http");
  assert.deepEqual(
    parsed.requests.map((r) => ({
      name: r.name,
      directives: r.directives.map((d) => d.name),
      pre: r.preScripts.map((s) => s.kind === "file" ? s.path : "inline"),
      handlers: r.handlers.map((s) => s.kind === "file" ? s.path : "inline"),
    })),
    [
      {
        name: "List",
        directives: ["name", "postman"],
        pre: ["./scripts/shop-pre-request.js", "./scripts/shop-users-pre-request.js"],
        handlers: ["./scripts/shop-test.js", "inline"],
      },
      {
        name: "Odd",
        directives: ["name", "postman"],
        pre: ["./scripts/shop-pre-request.js", "./scripts/shop-users-pre-request.js"],
        handlers: ["./scripts/shop-test.js", "./scripts/odd-test.js"],
      },
      {
        name: "Plain",
        directives: ["name", "postman"],
        pre: ["./scripts/shop-pre-request.js", "./scripts/shop-users-pre-request.js"],
        handlers: ["./scripts/shop-test.js"],
      },
    ],
  );
});
