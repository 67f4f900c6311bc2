import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { SHELL_ROWS } from "../../src/ui/page.ts";
import { apiHeaders, sessionOf } from "./_session.ts";
import { waitFor } from "../_helpers.ts";
import { openWorkspace } from "../../src/ui/workspace_path.ts";
import { listRequestFiles } from "../../src/ui/api/request_file_list.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

/**
 * @param server a UI server
 * @param session the session to send (none: as anyone on this machine)
 * @returns the answer of the shell's list call
 */
function shellCall(server: UiServer, session?: string): Promise<Response> {
  return fetch(new URL("/api/workspace/shell", server.url), {
    method: "POST",
    headers: session ? apiHeaders(session) : { "Content-Type": "application/json" },
    body: "{}",
  });
}

/** @returns the shell's list, as the page's bootstrap gets it with its session */
async function shellOf(server: UiServer): Promise<string> {
  const response = await shellCall(server, await sessionOf(server, server.launchUrl()));
  assert.equal(response.status, 200);
  return (await response.json()).html;
}

/** @returns the tree rows' file names of a list, as a browser reads them (entities decoded) */
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

Deno.test("ui page: a workspace's page holds no file name; the session's shell call gives its first files, a screen's worth, in the order the app lists them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    for (let f = 0; f < 100; f++) {
      await Deno.writeTextFile(`${dir}/api-${String(f).padStart(3, "0")}.http`, "GET http://a/\n");
    }
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    // Anyone on this machine can load the page: the shell's frame, no name, no count.
    const page = await (await fetch(new URL("/", server.url))).text();
    assert.match(page, /<div class="app" data-shell inert aria-hidden="true">/);
    assert.match(page, /<meta name="dial-shell">/);
    assert.match(page, /<template data-shell-list><\/template>/);
    assert.ok(!page.includes("api-0"), "no file name in the page");
    assert.ok(!page.includes("treeitem") && !page.includes("aria-setsize"), page);
    // Nor does the shell's call answer without the session.
    const refused = await shellCall(server);
    assert.equal(refused.status, 401);
    assert.ok(!(await refused.text()).includes("api-0"));
    const html = await shellOf(server);
    const rows = rowsOf(html);
    assert.equal(rows.length, SHELL_ROWS);
    // The same list, in the same order, as the session's own call gives.
    const session = await sessionOf(server, server.launchUrl());
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
    assert.ok(!html.includes(dir), "the workspace's folder is not in the list");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ui page: a launch's trade answers the shell's list with the session when asked; a refused trade answers no name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    await Deno.writeTextFile(`${dir}/secret-project.http`, "GET http://a/\n");
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const trade = (launch: URL, shell?: boolean) =>
      fetch(new URL("/api/session", server.url), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          launch: new URLSearchParams(launch.hash.slice(1)).get("launch"),
          ...(shell === undefined ? {} : { shell }),
        }),
      });
    const launch = server.launchUrl();
    const answer = await (await trade(launch, true)).json();
    assert.equal(typeof answer.session, "string");
    assert.deepEqual(rowsOf(answer.shell).map((r) => r.name), ["secret-project.http"]);
    assert.equal(answer.shell, await shellOf(server));
    // Used, or not asked: no list.
    const used = await trade(launch, true);
    assert.equal(used.status, 401);
    assert.ok(!(await used.text()).includes("secret-project"));
    assert.deepEqual(Object.keys(await (await trade(server.launchUrl())).json()), ["session"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // Without a workspace there is no list to give.
  await using plain = await startUiServer({ assets: ASSETS });
  const token = new URLSearchParams(plain.url.hash.slice(1)).get("launch");
  const answer = await (await fetch(new URL("/api/session", plain.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ launch: token, shell: true }),
  })).json();
  assert.deepEqual(Object.keys(answer), ["session"]);
});

Deno.test("ui page: the bootstrap is the page's one inline script, allowed by the hash of its text", async () => {
  const boot = `void fetch("/api/session"); // "quotes" & <b>`;
  await using server = await startUiServer({ assets: { ...ASSETS, boot } });
  const response = await fetch(new URL("/", server.url));
  const page = await response.text();
  assert.equal(page.match(/<script>/g)?.length, 1);
  assert.ok(page.includes(`<script>${boot}</script>`));
  // Before the style sheet: a script after it would wait for it.
  assert.ok(page.indexOf("<script>") < page.indexOf(`<link rel="stylesheet"`));
  assert.match(page, /<script type="module" src="\/app.js">/);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(boot));
  const policy = response.headers.get("content-security-policy") ?? "";
  assert.ok(
    policy.endsWith(`; script-src 'self' 'sha256-${new Uint8Array(digest).toBase64()}'`),
    policy,
  );
  assert.ok(!/script-src[^;]*unsafe-inline/.test(policy), policy);
  // Other answers keep the policy without it.
  const js = await fetch(new URL("/app.js", server.url));
  await js.body?.cancel();
  assert.ok(!js.headers.get("content-security-policy")?.includes("sha256"));
});

Deno.test("ui page: every file name is escaped in the page (text and attributes)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    const names = [`<img src=x onerror=alert(1)>.http`, `a"b'c&d.http`, `é – ✓.http`];
    await Deno.mkdir(`${dir}/sub`);
    for (const name of names) await Deno.writeTextFile(`${dir}/sub/${name}`, "GET http://a/\n");
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const html = await shellOf(server);
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

Deno.test("ui page: an empty workspace's shell says so; without a workspace the page has no shell", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  try {
    await using server = await startUiServer({ assets: ASSETS, workspace: dir });
    const html = await shellOf(server);
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

Deno.test("ui page: the listing is kept while no folder changed (one stat per folder, no entries read); any entry added, removed or renamed is seen", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-shell-" });
  const readDir = Deno.readDir;
  const reads: string[] = [];
  try {
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/a.http`, "GET http://a/\n");
    await Deno.writeTextFile(`${dir}/sub/b.http`, "GET http://a/\n");
    const workspace = await openWorkspace(dir, []);
    (Deno as { readDir: typeof Deno.readDir }).readDir = (path) => {
      reads.push(String(path));
      return readDir(path);
    };
    // Folders changed in the last two seconds (a coarse clock's tick) are read every time.
    assert.deepEqual(await listRequestFiles(workspace), ["a.http", "sub/b.http"]);
    assert.deepEqual(await listRequestFiles(workspace), ["a.http", "sub/b.http"]);
    assert.equal(reads.length, 4);
    // Once they are older, the listing is kept: no folder is read again.
    await waitFor(async () => {
      const times = await Promise.all([dir, `${dir}/sub`].map((f) => Deno.stat(f)));
      return times.every((t) =>
        Date.now() - Math.max(t.mtime!.getTime(), t.ctime!.getTime()) > 2_100
      );
    }, { timeout: 10_000 });
    assert.deepEqual(await listRequestFiles(workspace), ["a.http", "sub/b.http"]);
    reads.length = 0;
    assert.deepEqual(await listRequestFiles(workspace), ["a.http", "sub/b.http"]);
    assert.deepEqual(reads, []);
    // dial ui reads the listing as it starts, while the browser starts: the shell's is a stat.
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir });
      await waitFor(() => reads.length === 2, { timeout: 10_000 });
      const html = await shellOf(server);
      assert.deepEqual(rowsOf(html).map((r) => r.name), ["a.http", "sub/b.http"]);
      assert.equal(reads.length, 2);
    }
    // A file added, even with its folder's modification time set back, is seen.
    const { mtime } = await Deno.stat(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/sub/c.http`, "GET http://a/\n");
    await Deno.utime(`${dir}/sub`, mtime!, mtime!);
    assert.deepEqual(await listRequestFiles(workspace), ["a.http", "sub/b.http", "sub/c.http"]);
    await Deno.rename(`${dir}/a.http`, `${dir}/z.http`);
    assert.deepEqual(await listRequestFiles(workspace), ["sub/b.http", "sub/c.http", "z.http"]);
    await Deno.remove(`${dir}/sub/b.http`);
    assert.deepEqual(await listRequestFiles(workspace), ["sub/c.http", "z.http"]);
  } finally {
    (Deno as { readDir: typeof Deno.readDir }).readDir = readDir;
    await Deno.remove(dir, { recursive: true });
  }
});
