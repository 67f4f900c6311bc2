import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };

/** A workspace with files, links inside and out, and a secret file beside it. */
async function workspaceWithLinks() {
  const base = await Deno.makeTempDir({ prefix: "dial-ui-ws-" });
  const root = `${base}/ws`;
  const outside = `${base}/outside`;
  await Deno.mkdir(`${root}/sub`, { recursive: true });
  await Deno.mkdir(outside);
  // dial's config directory (the base digests' key): never the person's, in a test.
  await Deno.mkdir(`${base}/config`);
  await Deno.writeTextFile(`${root}/api.http`, "GET http://127.0.0.1/a\n");
  await Deno.writeTextFile(`${root}/sub/more.rest`, "GET http://127.0.0.1/b\n");
  await Deno.writeTextFile(`${root}/notes.txt`, "not a request file\n");
  await Deno.writeTextFile(`${outside}/secret.http`, "GET http://secret/\n");
  await Deno.symlink(`${outside}/secret.http`, `${root}/out.http`);
  await Deno.symlink(outside, `${root}/linked`);
  await Deno.symlink(`${root}/api.http`, `${root}/alias.http`);
  return {
    root,
    outside,
    config: `${base}/config`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

async function call(server: UiServer, session: string, path: string, body: unknown) {
  const response = await fetch(new URL(`/api/workspace/${path}`, server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

Deno.test("ui workspace: only request files inside the folder are listed, links resolved", async () => {
  await using ws = await workspaceWithLinks();
  await using server = await startUiServer({
    assets: ASSETS,
    workspace: ws.root,
    configDir: ws.config,
  });
  const session = await sessionOf(server);
  const { status, json } = await call(server, session, "files", {});
  assert.equal(status, 200);
  assert.deepEqual(json.files.map((f: { path: string }) => f.path), [
    "alias.http",
    "api.http",
    "sub/more.rest",
  ]);
});

Deno.test("ui workspace: a path outside the folder is refused for reading and writing, links included", async () => {
  await using ws = await workspaceWithLinks();
  await using server = await startUiServer({
    assets: ASSETS,
    workspace: ws.root,
    configDir: ws.config,
  });
  const session = await sessionOf(server);
  const outsidePaths = [
    "../outside/secret.http",
    "sub/../../outside/secret.http",
    `${ws.outside}/secret.http`,
    "/etc/passwd",
    "out.http",
    "linked/secret.http",
    "..\\outside\\secret.http",
    "C:\\Windows\\win.ini",
    "",
  ];
  for (const path of outsidePaths) {
    const read = await call(server, session, "read", { path });
    assert.equal(read.status, 400, `read ${path}`);
    assert.match(read.json.error.message, /outside the workspace/, `read ${path}`);
    for (const target of [path, "linked/new.http"]) {
      const write = await call(server, session, "write", { path: target, text: "pwned\n" });
      assert.equal(write.status, 400, `write ${target}`);
    }
    const remove = await call(server, session, "delete", { path });
    assert.equal(remove.status, 400, `delete ${path}`);
    const rename = await call(server, session, "rename", { path: "api.http", to: path });
    assert.equal(rename.status, 400, `rename to ${path}`);
  }
  assert.equal(await Deno.readTextFile(`${ws.outside}/secret.http`), "GET http://secret/\n");
  assert.deepEqual((await Array.fromAsync(Deno.readDir(ws.outside))).map((e) => e.name), [
    "secret.http",
  ]);
  // A link that stays inside is followed.
  const alias = await call(server, session, "read", { path: "alias.http" });
  assert.equal(alias.json.text, "GET http://127.0.0.1/a\n");
});

Deno.test("ui workspace: write in place, refused when the file changed on disk; new, rename, delete", async () => {
  await using ws = await workspaceWithLinks();
  await using server = await startUiServer({
    assets: ASSETS,
    workspace: ws.root,
    configDir: ws.config,
  });
  const session = await sessionOf(server);
  const read = await call(server, session, "read", { path: "api.http" });
  const saved = await call(server, session, "write", {
    path: "api.http",
    text: "GET http://127.0.0.1/edited\n",
    mtime: read.json.mtime,
  });
  assert.equal(saved.status, 200);
  assert.equal(await Deno.readTextFile(`${ws.root}/api.http`), "GET http://127.0.0.1/edited\n");
  // The stale modification time of the first read no longer matches.
  await Deno.utime(`${ws.root}/api.http`, new Date(), new Date(Date.now() + 5000));
  const stale = await call(server, session, "write", {
    path: "api.http",
    text: "lost\n",
    mtime: saved.json.mtime,
  });
  assert.equal(stale.status, 409);
  assert.match(stale.json.error.message, /changed on disk/);
  const taken = await call(server, session, "write", { path: "api.http", text: "x\n" });
  assert.equal(taken.status, 409);
  const created = await call(server, session, "write", { path: "sub/new.http", text: "GET /\n" });
  assert.equal(created.status, 200);
  assert.equal((await call(server, session, "write", { path: "x.txt", text: "" })).status, 400);
  assert.equal(
    (await call(server, session, "rename", { path: "sub/new.http", to: "sub/moved.http" })).status,
    200,
  );
  assert.equal(await Deno.readTextFile(`${ws.root}/sub/moved.http`), "GET /\n");
  assert.equal((await call(server, session, "delete", { path: "sub/moved.http" })).status, 200);
  await assert.rejects(Deno.stat(`${ws.root}/sub/moved.http`), Deno.errors.NotFound);
});

Deno.test("ui workspace: an import never writes through a link out of the folder, nor over a file unasked", async () => {
  await using ws = await workspaceWithLinks();
  await using server = await startUiServer({
    assets: ASSETS,
    workspace: ws.root,
    configDir: ws.config,
  });
  const session = await sessionOf(server);
  // out.http links to a file outside: a dropped out.http must not replace that file.
  const dropped = { name: "out.http", text: "GET http://127.0.0.1/dropped\n" };
  for (const overwrite of [false, true]) {
    const { status, json } = await call(server, session, "import", {
      sources: [dropped],
      overwrite,
    });
    assert.equal(status, 400);
    assert.match(json.error.message, /outside the workspace/);
  }
  assert.equal(await Deno.readTextFile(`${ws.outside}/secret.http`), "GET http://secret/\n");
  // A folder in the name is dropped: the file lands at the top of the workspace.
  const named = { name: "../../linked/x.http", text: "GET http://127.0.0.1/x\n" };
  assert.equal((await call(server, session, "import", { sources: [named] })).status, 200);
  assert.equal(await Deno.readTextFile(`${ws.root}/x.http`), named.text);
  await assert.rejects(Deno.stat(`${ws.outside}/x.http`), Deno.errors.NotFound);
  // An existing file that would change: 409 until the page says overwrite.
  const api = { name: "api.http", text: "GET http://127.0.0.1/new\n" };
  const refused = await call(server, session, "import", { sources: [api] });
  assert.equal(refused.status, 409);
  assert.match(refused.json.error.message, /would change "api\.http"/);
  assert.equal(await Deno.readTextFile(`${ws.root}/api.http`), "GET http://127.0.0.1/a\n");
  const replaced = await call(server, session, "import", { sources: [api], overwrite: true });
  assert.equal(replaced.status, 200);
  assert.equal(await Deno.readTextFile(`${ws.root}/api.http`), api.text);
});

Deno.test("ui workspace: an imported collection's folders are made inside the workspace, never through a link", async () => {
  await using ws = await workspaceWithLinks();
  await using server = await startUiServer({
    assets: ASSETS,
    workspace: ws.root,
    configDir: ws.config,
  });
  const session = await sessionOf(server);
  const collection = (folder: string) => ({
    name: "c.postman_collection.json",
    text: JSON.stringify({
      info: {
        name: "Shop",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      item: [{
        name: folder,
        item: [
          {
            name: "Sub",
            item: [{ name: "A", request: { method: "GET", url: "http://127.0.0.1/a" } }],
          },
          { name: "B", request: { method: "GET", url: "http://127.0.0.1/b" } },
        ],
      }],
    }),
  });
  // "Linked" is the workspace's link to a folder outside it: refused, nothing written there.
  const refused = await call(server, session, "import", { sources: [collection("Linked")] });
  assert.equal(refused.status, 400);
  assert.match(refused.json.error.message, /outside the workspace/);
  assert.deepEqual([...Deno.readDirSync(ws.outside)].map((e) => e.name), ["secret.http"]);
  // Elsewhere the collection's folders become folders, in its order.
  const done = await call(server, session, "import", { sources: [collection("Orders")] });
  assert.equal(done.status, 200, JSON.stringify(done.json));
  assert.deepEqual(done.json.files.sort(), ["orders/01-sub.http", "orders/02-orders.http"]);
  assert.match(
    await Deno.readTextFile(`${ws.root}/orders/01-sub.http`),
    /GET http:\/\/127\.0\.0\.1\/a/,
  );
});
