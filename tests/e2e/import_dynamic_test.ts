/**
 * Postman's dynamic variables in an imported collection: every one of Postman's documented set
 * that dial provides resolves when the request is sent, with values of the shape Newman sends
 * (checked side by side against one recording server); one dial does not know is reported by
 * the import instead of failing at run time.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { newman, postmanCollection } from "./_newman.ts";
import { rawServer } from "./_raw_server.ts";
import { POSTMAN_DYNAMIC_VARIABLES } from "../../src/files/postman_dynamic.ts";

const decoder = new TextDecoder();

/** The shape of each value, as Newman (faker) makes it. */
const SHAPES: Record<string, RegExp> = {
  $guid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  $randomUUID: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  $timestamp: /^\d{10}$/,
  $isoTimestamp: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
  $randomInt: /^\d{1,4}$/,
  $randomFirstName: /^[A-Z][A-Za-z' -]+$/,
  $randomLastName: /^[A-Z][A-Za-z' -]+$/,
  $randomEmail: /^[^@\s]+@[^@\s]+\.[a-z]+$/i,
  $randomBoolean: /^(true|false)$/,
  $randomIP: /^\d{1,3}(\.\d{1,3}){3}$/,
  $randomHexColor: /^#[0-9a-f]{6}$/i,
  $randomCountryCode: /^[A-Z]{2}$/,
  $randomUrl: /^https?:\/\/\S+$/,
  $randomAlphaNumeric: /^[a-z0-9]$/i,
};

Deno.test("import: Postman's dynamic variables resolve under dial test with the shapes Newman sends", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  const names = Object.keys(SHAPES);
  const body = Object.fromEntries(names.map((n) => [n, `{{${n}}}`]));
  const collection = postmanCollection("Dynamic", {
    item: [{
      name: "all",
      request: {
        method: "POST",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: JSON.stringify(body), options: { raw: { language: "json" } } },
        url: `${server.origin}/dyn`,
      },
    }],
  });
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection));
  await newman([`${dir}/c.json`], { pass: true });
  const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const ran = await dial(["test", "api"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const [byNewman, byDial] = server.requests.map((r) => JSON.parse(decoder.decode(r.body)));
  for (const name of names) {
    assert.match(byNewman[name], SHAPES[name]!, `Newman's ${name}: ${byNewman[name]}`);
    assert.match(byDial[name], SHAPES[name]!, `dial's ${name}: ${byDial[name]}`);
  }
});

Deno.test("import: every Postman dynamic variable dial provides resolves in a request file; an unknown one is reported at import", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  const names = POSTMAN_DYNAMIC_VARIABLES.filter((n) => !/Image|DataUri/.test(n));
  assert.ok(names.length > 80, String(names.length));
  const body = names.map((n) => `[${n}]{{${n}}}[/${n}]`).join("");
  const collection = postmanCollection("All", {
    item: [{
      name: "every",
      request: { method: "POST", body: { mode: "raw", raw: body }, url: `${server.origin}/all` },
    }, {
      name: "unknown",
      request: { method: "GET", url: `${server.origin}/u?x={{$randomNoSuchThing}}` },
    }],
  });
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection));
  const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /unknown: the dynamic variable \{\{\$randomNoSuchThing\}\}/);
  const ran = await dial(["run", "api/all.http", "every"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stderr);
  const sent = decoder.decode(server.requests[0]!.body);
  for (const name of names) {
    const value = new RegExp(`\\[\\${name}\\]([\\s\\S]*?)\\[/\\${name}\\]`).exec(sent)?.[1];
    assert.ok(value && !value.includes("{{"), `${name}: ${value}`);
  }
});
