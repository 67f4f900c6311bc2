/**
 * The README's `deno install` line gives a `dial` command that resolves its npm packages from any
 * directory.
 */
import assert from "node:assert/strict";
import { dialEnv, serve } from "../_helpers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The README's `deno install …` command, as arguments after `deno`. */
async function readmeInstall(): Promise<string[]> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const lines = readme.split("\n").filter((line) => line.startsWith("deno install "));
  assert.equal(lines.length, 1, `deno install lines in the README: ${lines.join("\n")}`);
  return lines[0]!.replace(/#.*/, "").trim().split(/\s+/).slice(1);
}

Deno.test("install: the README's deno install line gives a dial that runs dial graphql from another directory", async () => {
  const args = await readmeInstall();
  assert.deepEqual(args.slice(0, 2), ["install", "-g"]);
  const root = await Deno.makeTempDir({ prefix: "dial-install-" });
  const cwd = await Deno.makeTempDir();
  await using server = serve(() => Response.json({ data: { __typename: "Query" } }));
  try {
    const install = await new Deno.Command(Deno.execPath(), {
      args: [...args.slice(0, 2), "--root", root, ...args.slice(2)],
      cwd: ROOT,
      clearEnv: true,
      env: dialEnv(),
    }).output();
    assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
    // The installed script runs `deno` from PATH.
    const path = `${Deno.execPath().replace(/\/[^/]*$/, "")}:${dialEnv().PATH}`;
    const run = await new Deno.Command(`${root}/bin/dial`, {
      args: ["graphql", `${server.origin}/graphql`, "-q", "{ __typename }"],
      cwd,
      clearEnv: true,
      env: dialEnv({ PATH: path }),
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, stderr);
    assert.match(new TextDecoder().decode(run.stdout), /"__typename": ?"Query"/);
    assert.equal(server.requests.length, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});
