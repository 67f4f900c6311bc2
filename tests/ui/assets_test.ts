import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { loadAssets } from "../../src/ui/assets.ts";
import { DialError, ErrorCode } from "../../src/errors/mod.ts";
import { bundleIsStale } from "../../scripts/bundle_ui.ts";

Deno.test("assets: without a bundle, dial ui says to run deno task bundle", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => loadAssets({ dist: new URL(`file://${dir}/`) }),
      (error: unknown) => {
        assert.ok(error instanceof DialError, `expected a DialError, got ${error}`);
        includes(error.message, "The UI bundle is missing");
        assert.equal(error.code, ErrorCode.UiBundle);
        assert.equal(error.hint, "run `deno task bundle` in dial's checkout");
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assets: a bundle is read as built, and one newer than the sources is not stale", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const dist = new URL(`file://${dir}/`);
    assert.equal(await bundleIsStale(dist), true);
    await Deno.writeTextFile(`${dir}/app.js`, "js");
    await Deno.writeTextFile(`${dir}/app.css`, "css");
    await Deno.writeTextFile(`${dir}/json_worker.js`, "worker");
    assert.equal(await bundleIsStale(dist), true, "no bootstrap yet");
    await Deno.writeTextFile(`${dir}/boot.js`, "boot");
    assert.deepEqual(await loadAssets({ dist }), {
      js: "js",
      css: "css",
      worker: "worker",
      boot: "boot",
    });
    // Dated after every source: not stale. Dated at the epoch: older than the sources.
    const future = new Date(Date.now() + 86_400_000);
    await Deno.utime(`${dir}/app.js`, future, future);
    assert.equal(await bundleIsStale(dist), false);
    await Deno.utime(`${dir}/app.js`, new Date(0), new Date(0));
    assert.equal(await bundleIsStale(dist), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
