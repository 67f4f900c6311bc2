/**
 * `dial ui` run from the sources builds the UI bundle itself when it is missing or stale, as
 * `deno task test` does: a copy of the checkout without `src/ui/web/dist/`.
 */
import assert from "node:assert/strict";
import { firstLine } from "../_helpers.ts";
import { spawnDial } from "./_spawn.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Copies the files `deno run main.ts` needs, without the UI bundle. */
async function copyCheckout(from: string, to: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    const source = `${from}/${entry.name}`;
    if (source === `${ROOT}src/ui/web/dist`) continue;
    if (entry.isDirectory) {
      await Deno.mkdir(`${to}/${entry.name}`);
      await copyCheckout(source, `${to}/${entry.name}`);
    } else if (entry.isFile) {
      await Deno.copyFile(source, `${to}/${entry.name}`);
    }
  }
}

Deno.test("ui: dial ui from a checkout without the bundle builds it, then serves it", async () => {
  const copy = await Deno.makeTempDir({ prefix: "dial-checkout-" });
  try {
    for (const dir of ["src", "scripts"]) {
      await Deno.mkdir(`${copy}/${dir}`);
      await copyCheckout(`${ROOT}${dir}`, `${copy}/${dir}`);
    }
    for (const file of ["main.ts", "deno.json", "deno.lock"]) {
      await Deno.copyFile(`${ROOT}${file}`, `${copy}/${file}`);
    }
    const child = spawnDial(["ui", "--no-open"], {
      main: `${copy}/main.ts`,
      cwd: copy,
      stdin: "null",
    });
    const { line, cancel } = await firstLine(child.stdout);
    try {
      const app = await fetch(new URL("/app.js", line.trim()));
      assert.equal(app.status, 200);
      const served = await app.text();
      assert.equal(served, await Deno.readTextFile(`${copy}/src/ui/web/dist/app.js`));
      assert.ok(served.length > 10_000, `${served.length} bytes`);
    } finally {
      child.kill("SIGINT");
      await child.status;
      await cancel();
      await child.stderr.cancel();
    }
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
