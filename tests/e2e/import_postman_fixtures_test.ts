/**
 * Postman collections nobody here wrote: the v2.0 and v2.1 exports that the npm package
 * `postman-to-openapi` (1.7.3) ships as its test input, read from the package. Every one
 * imports whole; several run under Newman and, imported, under `dial test` against one
 * raw-recording server (their `https://api.io` hosts pointed at it in memory) and must send the
 * same requests in the same order.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { readImport } from "../../src/import/read_import.ts";
import { newman, NEWMAN_HEADERS, otherHeaders } from "./_newman.ts";
import { headerValues, type RawRequest, rawServer, requestPath } from "./_raw_server.ts";
// Puts the fixture package in the module graph, so that its files resolve to paths.
import "postman-to-openapi/package.json" with { type: "json" };

const decoder = new TextDecoder();
const INPUT = new URL(
  "./test/resources/input/",
  import.meta.resolve("postman-to-openapi/package.json"),
);

type Json = Record<string, unknown>;

function fixtures(version: "v2" | "v21"): string[] {
  return [...Deno.readDirSync(new URL(`${version}/`, INPUT))].map((e) => e.name)
    .filter((n) => n.endsWith(".json")).sort();
}

function load(version: string, name: string): Json {
  return JSON.parse(Deno.readTextFileSync(new URL(`${version}/${name}`, INPUT)));
}

/** The collection's requests, folders walked. */
function requestsOf(items: unknown): Json[] {
  return (items as Json[]).flatMap((i) => Array.isArray(i.item) ? requestsOf(i.item) : [i]);
}

for (const version of ["v2", "v21"] as const) {
  Deno.test(`import: every Postman ${version} export shipped by postman-to-openapi imports whole`, async () => {
    const names = fixtures(version);
    assert.ok(names.length >= 15, names.join());
    for (const name of names) {
      const collection = load(version, name);
      const result = await readImport([{ name, text: JSON.stringify(collection) }]);
      const items = requestsOf(collection.item);
      assert.equal(result.requests.length, items.length, name);
      // Everything is carried, the test scripts as # @postman handlers.
      assert.deepEqual(result.losses, [], name);
      assert.equal(result.counts.scriptsCarried, result.counts.scripts, name);
    }
  });
}

/** Points every URL of a collection at a local origin (in memory; the file stays as shipped). */
function pointAt(collection: Json, origin: string): Json {
  const local = new URL(origin);
  const text = JSON.stringify(collection).replace(/https:\/\/api\.io(?::\d+)?/g, origin);
  const copy = JSON.parse(text) as Json;
  for (const item of requestsOf(copy.item)) {
    const url = (item.request as Json).url;
    if (typeof url !== "object" || url === null) continue;
    Object.assign(url, { protocol: "http", host: local.hostname.split("."), port: local.port });
  }
  return copy;
}

/** Headers each tool adds of its own accord. */
const OWN = new Set([...NEWMAN_HEADERS, "transfer-encoding"]);

function seen(r: RawRequest) {
  return {
    line: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    headers: otherHeaders(r.headers, OWN),
    accept: headerValues(r, "accept").filter((v) => v !== "*/*"),
    body: decoder.decode(r.body),
  };
}

const RUN = [
  "AuthBasic.json",
  "AuthBearer.json",
  "FolderCollection.json",
  "GetMethods.json",
  "Headers.json",
  "PathParams.json",
];

Deno.test("import: Postman exports from postman-to-openapi send under dial test what they send under Newman, in its order", async () => {
  await using server = rawServer(() => ({
    headers: [["Content-Type", "application/json"]],
    body: "{}",
  }));
  const dir = await Deno.makeTempDir({ prefix: "dial-postman-fixtures-" });
  for (const name of RUN) {
    const collection = pointAt(load("v21", name), server.origin);
    const text = JSON.stringify(collection);
    const vars = [...new Set([...text.matchAll(/\{\{([\w-]+)\}\}/g)].map((m) => m[1]!))]
      .map((v) => `${v}=v-${v}`);
    const path = `${dir}/${name}`;
    await Deno.writeTextFile(path, text);
    await newman([path, ...vars.flatMap((v) => ["--env-var", v])], { pass: true });
    const byNewman = server.requests.splice(0).map(seen);
    assert.equal(byNewman.length, requestsOf(collection.item).length, name);
    const out = `${dir}/${name.replace(".json", "")}`;
    const imported = await dial(["import", path, "--out", out]);
    assert.equal(imported.code, 0, imported.stderr);
    const varFlags = vars.flatMap((v) => ["--var", v]);
    const env = Deno.readDirSync(out).some((e) => e.name === "http-client.env.json")
      ? ["--env", "imported"]
      : [];
    // The import keeps the collection's order and folders: `dial test` of the folder sends
    // the requests in Newman's order.
    const ran = await dial(["test", out, ...env, ...varFlags]);
    assert.equal(ran.code, 0, `${name}: ${ran.stdout}${ran.stderr}`);
    const byDial = server.requests.splice(0).map(seen);
    assert.deepEqual(byDial, byNewman, name);
  }
});
