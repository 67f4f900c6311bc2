/**
 * Import fidelity, Newman as the oracle: one collection holding each case real collections
 * broke on (a URL with `&` in its path, empty form bodies, CR LF and XML raw bodies, a raw body
 * without a language, a request's own Authorization beside an auth, a token-only OAuth 2.0, a
 * variable name with spaces, `:id` path variables, the Postman API's `{"collection": …}` shape,
 * a GET's body pruned as Postman prunes it unless told not to, a `{{variable}}` nothing defines)
 * is run by Newman and, imported, by `dial test` against one recording server; every request
 * must arrive the same (method, target, headers but the clients' own, body).
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { newman, postmanCollection, seenRequest } from "./_newman.ts";
import { rawServer } from "./_raw_server.ts";

const SOAP = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/">',
  '<Header xmlns="urn:x">',
  "# not a comment",
  "// nor this",
  "</Header>",
  "</SOAP-ENV:Envelope>",
].join("\n");

function collection(base: string) {
  const get = (name: string, request: Record<string, unknown>) => ({ name, request });
  return postmanCollection("Fidelity", {
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{access_token}}" }] },
    variable: [
      { key: "base", value: base },
      { key: "access_token", value: "colTok" },
      { key: "client id", value: "abc-1" },
    ],
    item: [
      get("amp path", { method: "GET", url: "{{base}}/d&x=1" }),
      // Nothing defines {{order_id}} (a script of a real collection would have): sent as written.
      get("undefined variable", {
        method: "GET",
        header: [{ key: "X-Order", value: "{{order_id}}" }],
        url: "{{base}}/orders/{{order_id}}?q={{order_id}}",
      }),
      get("empty form on GET", {
        method: "GET",
        body: { mode: "formdata", formdata: [] },
        url: "{{base}}/form",
      }),
      get("empty urlencoded", {
        method: "POST",
        body: { mode: "urlencoded", urlencoded: [] },
        url: "{{base}}/urlenc",
      }),
      get("crlf", {
        method: "POST",
        body: { mode: "raw", raw: "a\r\nb\r\n" },
        url: "{{base}}/crlf",
      }),
      get("soap", {
        method: "POST",
        body: { mode: "raw", raw: SOAP, options: { raw: { language: "xml" } } },
        url: "{{base}}/soap",
      }),
      get("own header, inherited auth", {
        method: "GET",
        header: [{ key: "Authorization", value: "Basic dXNlcjpwdw==" }],
        url: "{{base}}/own",
      }),
      get("own header, own auth", {
        method: "GET",
        auth: { type: "bearer", bearer: [{ key: "token", value: "reqTok" }] },
        header: [{ key: "Authorization", value: "Basic dXNlcjpwdw==" }],
        url: "{{base}}/ownauth",
      }),
      get("token-only oauth2", {
        method: "GET",
        auth: {
          type: "oauth2",
          oauth2: [
            { key: "accessToken", value: "savedTok" },
            { key: "addTokenTo", value: "header" },
          ],
        },
        url: "{{base}}/oauth",
      }),
      get("GET body pruned", {
        method: "GET",
        body: { mode: "raw", raw: '{"a":1}', options: { raw: { language: "json" } } },
        url: "{{base}}/pruned",
      }),
      {
        ...get("GET body kept", {
          method: "GET",
          body: { mode: "raw", raw: '{"a":1}', options: { raw: { language: "json" } } },
          url: "{{base}}/kept",
        }),
        protocolProfileBehavior: { disableBodyPruning: true },
      },
      get("DELETE body", {
        method: "DELETE",
        body: { mode: "raw", raw: "x" },
        url: "{{base}}/delete",
      }),
      get("spaces", {
        method: "GET",
        auth: { type: "noauth" },
        header: [{ key: "X-Client", value: "{{client id}}" }],
        url: {
          raw: "{{base}}/users/:id/items?client={{client id}}",
          host: ["{{base}}"],
          path: ["users", ":id", "items"],
          query: [{ key: "client", value: "{{client id}}" }],
          variable: [{ key: "id", value: "42" }],
        },
      }),
    ],
  });
}

Deno.test("import: what real collections broke on arrives as Newman sends it", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  // The Postman API's shape: the collection inside {"collection": …}.
  const text = JSON.stringify({ collection: collection(server.origin) });
  await Deno.writeTextFile(`${dir}/c.json`, text);
  await newman([`${dir}/c.json`], { pass: true });
  const byNewman = server.requests.splice(0).map(seenRequest);
  assert.equal(byNewman.length, 13);
  assert.ok(
    byNewman.some((r) => r.line === "GET /orders/%7B%7Border_id%7D%7D?q={{order_id}} HTTP/1.1"),
  );

  const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  // Reported: the renamed variable and the inherited auth the request's own header replaces.
  assert.match(imported.stderr, /"client id" renamed \{\{client_id\}\}/);
  assert.match(imported.stderr, /the inherited bearer auth: the request's own Authorization/);
  const http = await Deno.readTextFile(`${dir}/api/fidelity.http`);
  assert.match(http, /^GET \{\{base\}\}\/d&x=1$/m);
  assert.match(http, /^<@? \.\/bodies\/fidelity-soap\.xml$/m);
  assert.equal(await Deno.readTextFile(`${dir}/api/bodies/fidelity-soap.xml`), SOAP);
  const ran = await dial(["test", "api", "--env", "imported"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const byDial = server.requests.map(seenRequest);
  // The one chosen difference: a request's own Authorization wins over the inherited auth
  // (Newman sends the inherited one whenever its token is set, its own header while it is empty).
  const own = byDial.findIndex((r) => r.line.startsWith("GET /own "));
  assert.deepEqual(byDial[own]!.headers, ["authorization: Basic dXNlcjpwdw=="]);
  assert.deepEqual(byNewman[own]!.headers, ["authorization: Bearer colTok"]);
  byDial.splice(own, 1);
  byNewman.splice(own, 1);
  assert.deepEqual(byDial, byNewman);
});
