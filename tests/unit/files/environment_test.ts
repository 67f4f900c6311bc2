import assert from "node:assert/strict";
import { loadEnvironment, parseVarFlags } from "../../../src/files/environment.ts";
import { whenResolved } from "../../../src/files/trust_rule.ts";
import { Secret } from "../../../src/secret.ts";

async function dirWith(files: Record<string, unknown>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-env-" });
  for (const [name, data] of Object.entries(files)) {
    await Deno.writeTextFile(
      `${dir}/${name}`,
      typeof data === "string" ? data : JSON.stringify(data),
    );
  }
  return dir;
}

Deno.test("environment: private values override public ones and are secrets; $shared applies to all", async () => {
  const dir = await dirWith({
    "http-client.env.json": {
      $shared: { version: "v1" },
      dev: {
        host: "localhost",
        token: "public-placeholder",
        Security: { Auth: { a: { "Client ID": "app", "Token URL": "http://t" } } },
      },
      prod: { host: "example.com" },
    },
    "http-client.private.env.json": {
      dev: { token: "s3cret", Security: { Auth: { a: { "Client Secret": "cs" } } } },
    },
  });
  const env = await loadEnvironment(dir, { name: "dev" });
  assert.equal(env.variables.get("host"), "localhost");
  assert.equal(env.variables.get("version"), "v1");
  const token = env.variables.get("token");
  assert.ok(token instanceof Secret);
  assert.equal(token.reveal(), "s3cret");
  assert.deepEqual(env.auth.get("a"), {
    "Client ID": "app",
    "Token URL": "http://t",
    "Client Secret": "cs",
  });
  assert.equal(env.privateFile, `${dir}/http-client.private.env.json`);
});

Deno.test("environment: an unknown environment names the ones defined", async () => {
  const dir = await dirWith({ "http-client.env.json": { dev: {}, prod: {} } });
  await assert.rejects(
    loadEnvironment(dir, { name: "stage" }),
    /Unknown environment "stage": .* define "dev", "prod"/,
  );
  const empty = await dirWith({});
  await assert.rejects(
    loadEnvironment(empty, { name: "dev" }),
    /no http-client\.env\.json or http-client\.private\.env\.json/,
  );
  assert.equal((await loadEnvironment(empty)).variables.size, 0);
});

Deno.test("environment: --env-file is read after the files beside, references are resolved as secrets", async () => {
  const dir = await dirWith({
    "http-client.env.json": { dev: { host: "a", key: "@env:DIAL_TEST_KEY", at: "@@handle" } },
    "extra.env.json": { dev: { host: "b" } },
  });
  const read: string[] = [];
  const env = await loadEnvironment(dir, {
    name: "dev",
    envFiles: [`${dir}/extra.env.json`],
    resolve: (value) => {
      read.push(value);
      return Promise.resolve(value === "@env:DIAL_TEST_KEY" ? "resolved" : "?");
    },
  });
  assert.equal(env.variables.get("host"), "b");
  // Read when used, not when loaded (trust_rule.ts).
  assert.deepEqual(read, []);
  const key = env.variables.get("key");
  assert.ok(key instanceof Secret);
  assert.equal(await whenResolved(() => key.reveal()), "resolved");
  assert.deepEqual(read, ["@env:DIAL_TEST_KEY"]);
  assert.equal(env.variables.get("at"), "@handle");
  await assert.rejects(
    loadEnvironment(dir, { envFiles: [`${dir}/missing.json`] }),
    /Cannot read environment file .*missing\.json: no such file/,
  );
  const bad = await dirWith({ "http-client.env.json": "{not json" });
  await assert.rejects(loadEnvironment(bad), /not JSON/);
});

Deno.test("environment: --var NAME=VALUE", () => {
  assert.deepEqual([...parseVarFlags(["a=1", "b=x=y", "c="])], [["a", "1"], ["b", "x=y"], [
    "c",
    "",
  ]]);
  assert.throws(
    () => parseVarFlags(["novalue"]),
    /Cannot parse variable "novalue": expected NAME=VALUE/,
  );
});
