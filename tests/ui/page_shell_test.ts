import assert from "node:assert/strict";
import { startUiServer } from "../../src/ui/server.ts";
import { SHELL_ROWS } from "../../src/ui/page.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

/** @returns the tree rows' file names of a page, as a browser reads them (entities decoded) */
function rowsOf(html: string): Array<{ name: string; position: number; setSize: number }> {
  const rows = [...html.matchAll(
    /<li role="treeitem" aria-level="1" aria-posinset="(\d+)" aria-setsize="(\d+)"[^>]*><button type="button" class="file"[^>]*>([^<]*)<\/button><\/li>/g,
  )];
  return rows.map(([, position, setSize, name]) => ({
    name: name!.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))),
    position: Number(position),
    setSize: Number(setSize),
  }));
}

Deno.test("ui page: a workspace's page carries its first files, at most a screen's worth, in the order the app lists them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    for (let f = 0; f < 100; f++) {
      await Deno.writeTextFile(`${dir}/api-${String(f).padStart(3, "0")}.http`, "GET http://a/\n");
    }
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const html = await (await fetch(new URL("/", server.url))).text();
    const rows = rowsOf(html);
    assert.equal(rows.length, SHELL_ROWS);
    // The same list, in the same order, as the session's own call gives.
    const session = await sessionOf(server);
    const listed = await (await fetch(new URL("/api/workspace/files", server.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: "{}",
    })).json();
    const paths: string[] = listed.files.map((f: { path: string }) => f.path);
    assert.equal(paths.length, 100);
    assert.deepEqual(rows.map((r) => r.name), paths.slice(0, SHELL_ROWS));
    assert.deepEqual(rows.map((r) => r.position), paths.slice(0, SHELL_ROWS).map((_, i) => i + 1));
    assert.ok(rows.every((r) => r.setSize === 100));
    // The tree is as tall as the app's (24 px a row): the sidebar scrolls the same.
    assert.match(
      html,
      /<ul role="tree" aria-label="Request files" class="file-tree" style="height: 2400px;">/,
    );
    // A picture of the app, out of reach until the app replaces it; no secret, no path.
    assert.match(html, /<div class="app" data-shell inert aria-hidden="true">/);
    assert.ok(!html.includes(dir), "the workspace's folder is not in the page");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ui page: every file name is escaped in the page (text and attributes)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    const names = [`<img src=x onerror=alert(1)>.http`, `a"b'c&d.http`, `é – ✓.http`];
    await Deno.mkdir(`${dir}/sub`);
    for (const name of names) await Deno.writeTextFile(`${dir}/sub/${name}`, "GET http://a/\n");
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const html = await (await fetch(new URL("/", server.url))).text();
    assert.ok(!html.includes("<img"), "no markup from a name");
    assert.ok(!html.includes(`a"b`), "no quote from a name");
    assert.deepEqual(
      rowsOf(html).map((r) => r.name).sort(),
      names.map((n) => `sub/${n}`).sort(),
    );
    for (const name of names) {
      assert.ok(
        html.includes(
          `data-path="sub/${name.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}"`,
        ),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ui page: an empty workspace's page says so; without a workspace the page has no shell", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const html = await (await fetch(new URL("/", server.url))).text();
    assert.equal(rowsOf(html).length, 0);
    assert.match(html, /<p class="muted">No .http files in this folder yet: use Save as.<\/p>/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await using plain = await startUiServer({ assets: ASSETS });
  assert.match(
    await (await fetch(new URL("/", plain.url))).text(),
    /<body><div id="app"><\/div><\/body>/,
  );
});
