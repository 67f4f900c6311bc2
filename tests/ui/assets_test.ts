import { assertEquals, assertRejects } from "../assert.ts";
import { loadAssets } from "../../src/ui/assets.ts";
import { DialError, ErrorCode } from "../../src/errors.ts";
import { bundleIsStale } from "../../scripts/bundle_ui.ts";

Deno.test("assets: without a bundle, dial ui says to run deno task bundle", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const error = await assertRejects(
      () => loadAssets({ dist: new URL(`file://${dir}/`) }),
      DialError,
      "The UI bundle is missing",
    ) as DialError;
    assertEquals(error.code, ErrorCode.UiBundle);
    assertEquals(error.hint, "run `deno task bundle`");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assets: a bundle is read as built, and one newer than the sources is not stale", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const dist = new URL(`file://${dir}/`);
    assertEquals(await bundleIsStale(dist), true);
    await Deno.writeTextFile(`${dir}/app.js`, "js");
    await Deno.writeTextFile(`${dir}/app.css`, "css");
    assertEquals(await loadAssets({ dist }), { js: "js", css: "css" });
    // Dated after every source: not stale. Dated at the epoch: older than the sources.
    const future = new Date(Date.now() + 86_400_000);
    await Deno.utime(`${dir}/app.js`, future, future);
    assertEquals(await bundleIsStale(dist), false);
    await Deno.utime(`${dir}/app.js`, new Date(0), new Date(0));
    assertEquals(await bundleIsStale(dist), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
