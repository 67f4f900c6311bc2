/**
 * The files that ship dial outside a checkout (the Dockerfile, the release workflow) agree with
 * the scripts they call: the same Deno as CI, the same install command as `deno task install`,
 * every target `deno task compile` builds checksummed.
 */
import assert from "node:assert/strict";
import { outputPath, type TargetName, TARGETS, V8_FLAGS } from "../../scripts/compile.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

Deno.test("release: the Dockerfile, the release workflow and CI pin one Deno version", async () => {
  const ci = /^DENO_VERSION=(\S+)$/m.exec(await read(".ci/run"))?.[1];
  const docker = /^ARG DENO_VERSION=(\S+)$/m.exec(await read("Dockerfile"))?.[1];
  const workflow = /deno-version: (\S+)/.exec(await read(".github/workflows/release.yml"))?.[1];
  assert.ok(ci);
  assert.deepEqual([docker, workflow], [ci, ci]);
});

Deno.test("release: the Dockerfile builds, then installs the build as deno task install does", async () => {
  const docker = await read("Dockerfile");
  const tasks = JSON.parse(await read("deno.json")).tasks;
  assert.match(docker, /^RUN deno task build$/m);
  const install = /deno install (.+) dist\/cli\/dial\.js$/.exec(tasks.install)?.[1];
  assert.ok(install, tasks.install);
  assert.ok(install.includes(` ${V8_FLAGS} `), "the install runs with the build's V8 flags");
  const flags = install.replace(/-n dial/, "").trim();
  assert.match(
    docker,
    new RegExp(`deno install ${flags} --root /usr/local -n dial /opt/dial/dial\\.js`),
  );
  assert.match(docker, /^COPY --from=build \/src\/dist\/cli \/opt\/dial$/m);
  assert.match(docker, /^ENTRYPOINT \["dial"\]$/m);
});

Deno.test("release: the workflow compiles every target and checksums each binary", async () => {
  const workflow = await read(".github/workflows/release.yml");
  assert.match(workflow, /run: deno task compile$/m);
  const summed = /run: sha256sum (.+) > SHA256SUMS/.exec(workflow)?.[1]?.split(" ");
  const names = (Object.keys(TARGETS) as TargetName[]).map((t) => outputPath(t, "dist").slice(5));
  assert.deepEqual(summed, names);
});
