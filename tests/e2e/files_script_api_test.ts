/**
 * The JetBrains script API beyond `client`/`request`/`response`: `crypto`, `console.log`,
 * `Window.btoa/atob` side by side with httpyac (npm) on the same file and server, and
 * `jsonPath` (httpyac has none) against RFC 9535's own examples.
 */
import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { httpyac, project } from "./_files.ts";

const SIGNED = `< {%
  request.variables.set("h1", crypto.sha256().updateWithText("héllo").digest().toHex());
  request.variables.set("h2", crypto.md5().updateWithText("a").updateWithHex("62").digest().toBase64());
  request.variables.set("h3", crypto.hmac.sha256().withTextSecret("key").updateWithText(request.body.tryGetSubstituted()).digest().toHex());
  request.variables.set("h4", crypto.hmac.sha512().withBase64Secret("a2V5").updateWithBase64("aGk", true).digest().toBase64(true));
  request.variables.set("h5", crypto.sha1().updateWithText("x").digest().toHex());
  request.variables.set("h6", crypto.hmac.md5().withHexSecret("6b6579").updateWithText("fox").digest().toHex());
  request.variables.set("h7", crypto.sha384().updateWithBase64("aGk=").digest().toBase64());
  request.variables.set("b", Window.btoa("hi?") + "|" + Window.atob("aGk/"));
  console.log("signed", 1);
%}
POST {{origin}}/echo
X-H1: {{h1}}
X-H2: {{h2}}
X-H3: {{h3}}
X-H4: {{h4}}
X-H5: {{h5}}
X-H6: {{h6}}
X-H7: {{h7}}
X-B: {{b}}

{"a": 1}
`;

function headerRecorder() {
  return serve(() => Response.json({ ok: true, id: 7 }));
}

function signed(request: Request): Record<string, string> {
  const names = ["x-h1", "x-h2", "x-h3", "x-h4", "x-h5", "x-h6", "x-h7", "x-b"];
  return Object.fromEntries(names.map((n) => [n, request.headers.get(n) ?? "(none)"]));
}

Deno.test("script API: crypto, Window.btoa/atob and console.log as httpyac runs them", async () => {
  await using server = headerRecorder();
  const dir = await project({ "signed.http": SIGNED });
  const ours = await dial(["run", `${dir}/signed.http`, "--var", `origin=${server.origin}`]);
  assert.equal(ours.code, 0, ours.stderr);
  assert.match(ours.stderr, /signed 1/);
  const peer = await httpyac([
    "signed.http",
    "--all",
    "-o",
    "none",
    "--var",
    `origin=${server.origin}`,
  ], {
    cwd: dir,
  });
  const text = peer.stdout + peer.stderr;
  assert.equal(peer.code, 0, text);
  assert.equal(server.requests.length, 2, text);
  const [dialSent, httpyacSent] = server.requests.map(signed);
  assert.deepEqual(dialSent, httpyacSent);
  // And against known answers (FIPS 180 "abc"-style vectors are in the unit test).
  assert.equal(
    dialSent!["x-h1"],
    "3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179",
  );
  assert.equal(dialSent!["x-b"], "aGk/|hi?");
});

Deno.test("script API: digests load with the first script that names crypto; a later script may use its helper", async () => {
  await using server = headerRecorder();
  const dir = await project({
    "helper.http": `### define
GET {{origin}}/a

> {%
  globalThis.sign = function (text) { return crypto.sha256().updateWithText(text).digest().toHex(); };
%}

### use
GET {{origin}}/b

> {%
  client.test("helper", function () { client.assert(sign("héllo").length === 64); });
  client.log(sign("héllo"));
%}
`,
    "hidden.http": `### hidden
GET {{origin}}/c

> {%
  client.log(globalThis["cry" + "pto"].sha1().updateWithText("x").digest().toHex());
%}
`,
  });
  // Each in a process of its own: the digests, once loaded, stay for the process.
  const used = await dial(["test", `${dir}/helper.http`, "--var", `origin=${server.origin}`], {
    process: true,
  });
  assert.equal(used.code, 0, used.stdout + used.stderr);
  assert.match(
    used.stdout + used.stderr,
    /3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179/,
  );
  // Named only in pieces: never loaded in this process, and the message says why.
  const hidden = await dial(["test", `${dir}/hidden.http`, "--var", `origin=${server.origin}`], {
    process: true,
  });
  assert.equal(hidden.code, 1, hidden.stdout + hidden.stderr);
  assert.match(
    hidden.stdout + hidden.stderr,
    /hidden\.http:5: Error: crypto is available to a script that names crypto \(or CryptoJS\) itself/,
  );
});

Deno.test("script API: jsonPath selects from a response body with RFC 9535", async () => {
  await using server = serve(() =>
    Response.json({
      store: {
        book: [
          { author: "Nigel Rees", price: 8.95 },
          { author: "Evelyn Waugh", price: 12.99 },
          { author: "Herman Melville", price: 8.99 },
        ],
      },
    })
  );
  const dir = await project({
    "books.http": `GET {{origin}}/store

> {%
  client.test("cheap books", function () {
    var cheap = jsonPath(response.body, "$.store.book[?@.price < 10].author");
    client.assert(cheap.join() === "Nigel Rees,Herman Melville", String(cheap));
  });
  client.test("one match is the value", function () {
    client.assert(jsonPath(response.body, "$.store.book[1].price") === 12.99);
  });
  client.test("no match is null", function () {
    client.assert(jsonPath(response.body, "$.nothing") === null);
  });
  client.test("a bad expression throws", function () {
    jsonPath(response.body, "$[");
  });
%}
`,
  });
  const result = await dial(["test", dir, "--var", `origin=${server.origin}`]);
  assert.match(result.stdout, /✓ .*cheap books/);
  assert.match(result.stdout, /✓ .*one match is the value/);
  assert.match(result.stdout, /✓ .*no match is null/);
  assert.match(result.stdout, /✗ .*a bad expression throws: Invalid JSONPath "\$\[":/);
  assert.equal(result.code, 11, result.stdout);
});
