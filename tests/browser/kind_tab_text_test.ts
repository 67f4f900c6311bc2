/**
 * The gRPC and WebSocket request tabs are their text: edited tabs of one file keep their edits
 * and their `{{references}}` (credential-named ones too) across a reload, "New window", a
 * restart and an outside edit of the file, each tab with its own unsaved mark; what they send is
 * filled on the server (checked on the grpc-js greeter's and a WebSocket server's side), what
 * they save is the text, and browser storage and the workspace state hold no secret.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { serve, tempDir, waitFor } from "../_helpers.ts";
import { fileBrowser, openApp, openRequest, uiConfigDir } from "./_browser.ts";
import { startGreeter } from "../e2e/_grpc.ts";
import { violations } from "./_axe.ts";
import { parseHttpFile } from "../../src/files/parse_http_file.ts";
import { draftOfRequest } from "../../src/ui/web/workspace/request_edit.ts";
import { withheldDraft } from "../../src/ui/web/workspace/draft_secrets.ts";

const browser = fileBrowser();
const GREETER = "greet.v1.Greeter";

const FILE = `### echo
# @name echo
GRPC {{addr}}/${GREETER}/EchoMetadata
Authorization: Bearer {{token}}
X-Api-Key: {{apiKey}}
X-Session-Key: lit-s3cr3t

{"name": "{{user}}"}

### hello
# @name hello
GRPC {{addr}}/${GREETER}/SayHello

{"name": "from the file"}

### feed
# @name feed
WEBSOCKET {{ws}}/feed
Authorization: Bearer {{token}}

{"password": "{{password}}"}
===
{"token": "lit-s3cr3t"}
`;

/** A WebSocket server that keeps each handshake's Authorization and each text message. */
function socketServer() {
  const handshakes: Array<string | null> = [];
  const received: string[] = [];
  const server = serve((request) => {
    handshakes.push(request.headers.get("authorization"));
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => {
      received.push(String(event.data));
      socket.send(`echo: ${event.data}`);
    };
    return response;
  });
  return Object.assign(server, { handshakes, received });
}

/** Runs `action`, then waits until every draft it changed has reached the workspace. */
async function saved(page: Page, action: () => Promise<void>): Promise<void> {
  await action();
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
}

function strip(page: Page, kind: "gRPC" | "WebSocket") {
  return page.getByRole("tablist", { name: `Open ${kind} requests` });
}

async function showKind(page: Page, kind: "gRPC" | "WebSocket"): Promise<void> {
  await page.getByRole("tab", { name: kind }).click();
  await page.getByRole("tab", { name: kind, selected: true }).waitFor();
}

/** The edited gRPC tab: its text as edited, references kept, and Call fills them. */
async function checkEcho(page: Page, greeterAddress: string): Promise<void> {
  await showKind(page, "gRPC");
  await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).click();
  await page.getByRole("textbox", { name: "gRPC message" })
    .filter({ hasText: '{"name": "{{user}}-edited"}' }).waitFor();
  assert.equal(await page.getByLabel("Server").inputValue(), "{{addr}}");
  const metadata = page.locator("details", {
    has: page.locator("summary", { hasText: "Metadata" }),
  });
  if (await metadata.first().getAttribute("open") === null) {
    await page.locator("summary:visible", { hasText: "Metadata" }).click();
  }
  assert.equal(await page.getByLabel("Metadata value 1").inputValue(), "Bearer {{token}}");
  assert.equal(await page.getByLabel("Metadata value 2").inputValue(), "{{apiKey}}");
  // A literal credential of the file is not in storage: the tab has it back from the file (once
  // the file is read again).
  await waitFor(
    async () => (await page.getByLabel("Metadata value 3").inputValue()) === "lit-s3cr3t",
    { message: "the literal metadata back from the file" },
  );
  await page.getByRole("button", { name: "Call", exact: true }).click();
  const log = page.getByRole("list", { name: "Replies" });
  await log.getByText("authorization=Bearer tok-s3cr3t").waitFor();
  await log.getByText("x-api-key=key-s3cr3t").waitFor();
  await log.getByText("x-session-key=lit-s3cr3t").waitFor();
  assert.ok(greeterAddress);
}

/** The edited WebSocket tab: its URL as edited, header and messages verbatim, sent filled. */
async function checkFeed(page: Page, ws: ReturnType<typeof socketServer>): Promise<void> {
  await showKind(page, "WebSocket");
  await strip(page, "WebSocket").getByRole("tab", { name: /^feed/ }).click();
  assert.equal(await page.getByLabel("WebSocket endpoint").inputValue(), "{{ws}}/feed?edited=1");
  assert.equal(await page.getByLabel("Handshake header value 1").inputValue(), "Bearer {{token}}");
  const handshakes = ws.handshakes.length;
  const received = ws.received.length;
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByTestId("ws-state").filter({ hasText: "Connected" }).waitFor();
  assert.equal(ws.handshakes[handshakes], "Bearer tok-s3cr3t");
  await page.getByRole("button", { name: "Send saved message 1" }).click();
  await page.getByText('echo: {"password": "pw-s3cr3t"}').waitFor();
  assert.equal(ws.received[received], '{"password": "pw-s3cr3t"}');
  // A literal credential of the file is not in storage: the tab has it back from the file.
  await page.getByRole("button", { name: "Send saved message 2" }).click();
  await page.getByText('echo: {"token": "lit-s3cr3t"}').waitFor();
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("button", { name: "Connect" }).waitFor();
}

Deno.test("browser: gRPC and WebSocket tabs of one file are their text across reload, New window, restart and an outside edit", async () => {
  await using greeter = await startGreeter();
  await using ws = socketServer();
  await using dir = await tempDir("dial-ui-kind-text-", {
    "api.http": FILE,
    "http-client.env.json": JSON.stringify({
      dev: { addr: greeter.address, ws: `ws://127.0.0.1:${ws.port}`, user: "ann" },
    }),
    "http-client.private.env.json": JSON.stringify({
      dev: { token: "tok-s3cr3t", apiKey: "key-s3cr3t", password: "pw-s3cr3t" },
    }),
  });
  const workspace = dir.path;
  {
    await using app = await openApp(browser(), { workspace });
    const { page } = app;
    const sidebar = await openRequest(page, "api.http", "GRPC echo", "dev");
    const message = page.getByRole("textbox", { name: "gRPC message" });
    await message.filter({ hasText: '{"name": "{{user}}"}' }).waitFor();
    await message.click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('{"name": "{{user}}-edited"}');
    await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).waitFor();
    // A second gRPC request of the file: the edited one keeps its mark behind it.
    await sidebar.getByRole("button", { name: "GRPC hello" }).click();
    await strip(page, "gRPC").getByRole("tab", { name: "hello", exact: true }).waitFor();
    await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).waitFor();
    // Edited too (it holds no literal credential: its file state is stored whole).
    await message.filter({ hasText: "from the file" }).click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('{"name": "from the tab"}');
    await strip(page, "gRPC").getByRole("tab", { name: "hello •" }).waitFor();
    // The open gRPC requests are a tab list: the arrow keys move between them (and show them).
    await strip(page, "gRPC").getByRole("tab", { name: "hello •", selected: true }).focus();
    await page.keyboard.press("ArrowLeft");
    await strip(page, "gRPC").getByRole("tab", { name: "echo •", selected: true }).waitFor();
    await message.filter({ hasText: '{"name": "{{user}}-edited"}' }).waitFor();
    await page.keyboard.press("ArrowRight");
    await strip(page, "gRPC").getByRole("tab", { name: "hello •", selected: true }).waitFor();
    await message.filter({ hasText: '{"name": "from the tab"}' }).waitFor();
    // Alt+[ and Alt+] step through the shown kind's request tabs, not the HTTP tab's.
    await page.keyboard.press("Alt+BracketLeft");
    await strip(page, "gRPC").getByRole("tab", { name: "echo •", selected: true }).waitFor();
    await page.keyboard.press("Alt+BracketRight");
    await strip(page, "gRPC").getByRole("tab", { name: "hello •", selected: true }).waitFor();
    await message.filter({ hasText: '{"name": "from the tab"}' }).waitFor();
    // Alt+N opens a new tab of the shown kind, Alt+W closes it.
    const open = await strip(page, "gRPC").getByRole("tab").count();
    await page.keyboard.press("Alt+KeyN");
    await strip(page, "gRPC").getByRole("tab", { name: "Untitled", selected: true }).waitFor();
    await page.keyboard.press("Alt+KeyW");
    await strip(page, "gRPC").getByRole("tab", { name: "hello •", selected: true }).waitFor();
    assert.equal(await strip(page, "gRPC").getByRole("tab").count(), open);
    await page.getByRole("tab", { name: "gRPC", selected: true }).waitFor();
    await sidebar.getByRole("button", { name: "WEBSOCKET feed" }).click();
    await page.getByLabel("WebSocket endpoint").fill("{{ws}}/feed?edited=1");
    await saved(
      page,
      () => strip(page, "WebSocket").getByRole("tab", { name: "feed •" }).waitFor(),
    );

    await page.reload();
    await page.getByRole("tablist", { name: "Request kind" }).waitFor();
    await checkFeed(page, ws);
    await checkEcho(page, greeter.address);

    const [second] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("button", { name: "New window" }).click(),
    ]);
    await second.getByRole("tablist", { name: "Request kind" }).waitFor();
    await checkEcho(second, greeter.address);
    await checkFeed(second, ws);
    await saved(page, () => showKind(page, "gRPC"));
  }
  const state = await Deno.readTextFile(`${workspace}/.dial/ui-state.json`);
  assert.ok(state.includes("Bearer {{token}}"), "the reference is stored");
  assert.ok(!state.includes("s3cr3t"), "no secret is stored");

  // Outside edits of the edited `hello` (a hidden tab) and `feed` (a shown one) requests while
  // dial ui is closed, then a restart (another origin: empty browser storage).
  const outside = FILE.replace('{"name": "from the file"}', '{"name": "from outside"}');
  const feed = "WEBSOCKET {{ws}}/feed\nAuthorization: Bearer {{token}}\n";
  const onDisk = outside.replace(feed, `${feed}X-Outside: 1\n`);
  await Deno.writeTextFile(`${workspace}/api.http`, onDisk);
  await using app = await openApp(browser(), { workspace });
  const { page } = app;
  const message = page.getByRole("textbox", { name: "gRPC message" });
  await checkEcho(page, greeter.address);
  await checkFeed(page, ws);
  // A restored tab's save compares with its request as the file had it before the restart
  // (kept as its fields, literal credential values withheld): the outside edit is not lost.
  await showKind(page, "gRPC");
  await strip(page, "gRPC").getByRole("tab", { name: "hello •" }).click();
  await message.filter({ hasText: "from the tab" }).waitFor();
  await page.getByRole("tabpanel", { name: "gRPC" })
    .getByText("api.http changed on disk; your edits are kept").waitFor();
  await message.click();
  await page.keyboard.press("Control+s");
  const conflict = page.getByRole("alert", { name: "Save conflict" });
  await conflict.getByLabel("On disk").getByText("from outside").waitFor();
  await conflict.getByLabel("Yours").getByText("from the tab").waitFor();
  await conflict.getByRole("button", { name: "Cancel" }).click();
  assert.equal(await Deno.readTextFile(`${workspace}/api.http`), onDisk, "nothing written");
  await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).click();
  // Another request changed on disk: the save merges.
  await message.filter({ hasText: "-edited" }).click();
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({ hasText: "Saved to api.http" }).waitFor();
  await strip(page, "gRPC").getByRole("tab", { name: "echo", exact: true }).waitFor();
  await showKind(page, "WebSocket");
  await page.getByLabel("WebSocket endpoint").focus();
  await page.keyboard.press("Control+s");
  await conflict.getByLabel("On disk").getByText("X-Outside: 1").waitFor();
  const merged = await Deno.readTextFile(`${workspace}/api.http`);
  assert.ok(merged.includes("X-Outside: 1"), "nothing written");
  await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
  await strip(page, "WebSocket").getByRole("tab", { name: "feed", exact: true }).waitFor();
  assert.equal(
    await Deno.readTextFile(`${workspace}/api.http`),
    outside.replace('{"name": "{{user}}"}', '{"name": "{{user}}-edited"}')
      .replace("WEBSOCKET {{ws}}/feed\n", "WEBSOCKET {{ws}}/feed?edited=1\n"),
  );
  const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
  assert.ok(!stored.includes("s3cr3t"), stored);
});

Deno.test("browser: a save of a gRPC or WebSocket tab never overwrites its request changed on disk; a tab without edits follows the file", async () => {
  await using greeter = await startGreeter();
  await using ws = socketServer();
  await using dir = await tempDir("dial-ui-kind-conflict-", {
    "api.http": FILE,
    "http-client.env.json": JSON.stringify({
      dev: { addr: greeter.address, ws: `ws://127.0.0.1:${ws.port}`, user: "ann" },
    }),
  });
  const path = `${dir.path}/api.http`;
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  const sidebar = await openRequest(page, "api.http", "GRPC echo", "dev");
  const message = page.getByRole("textbox", { name: "gRPC message" });
  await message.filter({ hasText: '{"name": "{{user}}"}' }).waitFor();
  await message.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText('{"name": "{{user}}-edited"}');
  await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).waitFor();

  // The request changes on disk behind the edited tab: Ctrl+S writes nothing and shows both.
  const outside = FILE.replace('{"name": "{{user}}"}', '{"name": "{{user}}-outside"}');
  await Deno.writeTextFile(path, outside);
  await page.getByText("api.http changed on disk; your edits are kept").waitFor();
  await message.click();
  await page.keyboard.press("Control+s");
  const conflict = page.getByRole("alert", { name: "Save conflict" });
  await conflict.getByLabel("On disk").getByText('{"name": "{{user}}-outside"}').waitFor();
  await conflict.getByLabel("Yours").getByText('{"name": "{{user}}-edited"}').waitFor();
  assert.equal(await Deno.readTextFile(path), outside, "nothing written");
  assert.deepEqual(await violations(page), []);
  await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
  await page.getByRole("status").filter({ hasText: "Saved to api.http" }).waitFor();
  const mine = outside.replace("-outside", "-edited");
  assert.equal(await Deno.readTextFile(path), mine);
  assert.equal(await conflict.count(), 0);

  // A WebSocket tab without edits follows the file; with edits, a changed request conflicts
  // and "Take theirs" shows the file's.
  await sidebar.getByRole("button", { name: "WEBSOCKET feed" }).click();
  const endpoint = page.getByLabel("WebSocket endpoint");
  await Deno.writeTextFile(path, mine.replace("{{ws}}/feed", "{{ws}}/feed2"));
  await page.getByText("Reloaded: api.http changed on disk").waitFor();
  assert.equal(await endpoint.inputValue(), "{{ws}}/feed2");
  await endpoint.fill("{{ws}}/feed3");
  const theirs = mine.replace("{{ws}}/feed", "{{ws}}/feed4");
  await Deno.writeTextFile(path, theirs);
  await page.getByText("api.http changed on disk; your edits are kept").waitFor();
  await endpoint.focus();
  await page.keyboard.press("Control+s");
  await conflict.getByLabel("On disk").getByText("WEBSOCKET {{ws}}/feed4").waitFor();
  assert.equal(await Deno.readTextFile(path), theirs, "nothing written");
  await conflict.getByRole("button", { name: "Take theirs (drop my edits)" }).click();
  await page.getByText("Reloaded from api.http: your edits were dropped").waitFor();
  assert.equal(await endpoint.inputValue(), "{{ws}}/feed4");
  await strip(page, "WebSocket").getByRole("tab", { name: "feed", exact: true }).waitFor();
  assert.equal(await Deno.readTextFile(path), theirs);

  // Two windows on one request: the later save finds the earlier one's and writes nothing.
  const [second] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: "New window" }).click(),
  ]);
  await second.getByRole("tablist", { name: "Request kind" }).waitFor();
  await showKind(second, "gRPC");
  await second.locator("summary:visible", { hasText: "Metadata" }).click();
  // The literal value storage withheld is back from the file: the window has read it.
  await waitFor(
    async () => (await second.getByLabel("Metadata value 3").inputValue()) === "lit-s3cr3t",
    { message: "the second window read the file" },
  );
  const secondMessage = second.getByRole("textbox", { name: "gRPC message" });
  await secondMessage.click();
  await second.keyboard.press("ControlOrMeta+a");
  await second.keyboard.insertText('{"name": "second window"}');
  await showKind(page, "gRPC");
  await message.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText('{"name": "first window"}');
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({ hasText: "Saved to api.http" }).waitFor();
  const first = await Deno.readTextFile(path);
  assert.ok(first.includes('{"name": "first window"}'), first);
  await secondMessage.click();
  await second.keyboard.press("Control+s");
  const secondConflict = second.getByRole("alert", { name: "Save conflict" });
  await secondConflict.getByLabel("On disk").getByText("first window").waitFor();
  assert.equal(await Deno.readTextFile(path), first, "nothing written");

  // "Keep both": the first window's request stays, the second's is added under a new name, and
  // the tab now holds that one (its next save goes there, with no conflict).
  assert.deepEqual(await violations(second), []);
  await secondConflict.getByRole("button", { name: "Keep both" }).click();
  await second.getByRole("status").filter({
    hasText: "Saved to api.http as a new request, echo-mine",
  })
    .waitFor();
  const both = await Deno.readTextFile(path);
  assert.ok(both.startsWith(first.trimEnd()), both);
  assert.match(
    both.slice(first.trimEnd().length),
    new RegExp(
      `# @name echo-mine\nGRPC \{\{addr\}\}/${GREETER}/EchoMetadata\n[^]*\{"name": "second window"\}`,
    ),
  );
  await strip(second, "gRPC").getByRole("tab", { name: "echo-mine", exact: true }).waitFor();
  await secondMessage.click();
  await second.keyboard.press("ControlOrMeta+a");
  await second.keyboard.insertText('{"name": "second window, again"}');
  await second.keyboard.press("Control+s");
  await second.getByRole("status").filter({ hasText: /^Saved to api\.http$/ }).waitFor();
  const again = await Deno.readTextFile(path);
  assert.equal(again, both.replace("second window", "second window, again"));
  assert.equal(await secondConflict.count(), 0);
});

Deno.test("browser: an outside edit of only a literal credential or only whitespace while dial ui was closed conflicts with a restored tab's save; storage holds a keyed digest, never the value", async () => {
  await using greeter = await startGreeter();
  await using ws = socketServer();
  await using dir = await tempDir("dial-ui-kind-digest-", {
    "api.http": FILE,
    "http-client.env.json": JSON.stringify({
      dev: { addr: greeter.address, ws: `ws://127.0.0.1:${ws.port}`, user: "ann" },
    }),
  });
  const path = `${dir.path}/api.http`;
  {
    await using app = await openApp(browser(), { workspace: dir.path });
    const { page } = app;
    const sidebar = await openRequest(page, "api.http", "GRPC echo", "dev");
    const message = page.getByRole("textbox", { name: "gRPC message" });
    await message.filter({ hasText: '{"name": "{{user}}"}' }).click();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.insertText('{"name": "{{user}}-edited"}');
    await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).waitFor();
    await sidebar.getByRole("button", { name: "WEBSOCKET feed" }).click();
    await page.getByLabel("WebSocket endpoint").fill("{{ws}}/feed?edited=1");
    await saved(
      page,
      () => strip(page, "WebSocket").getByRole("tab", { name: "feed •" }).waitFor(),
    );
  }
  // While dial ui is closed: echo's literal credential is rotated (nothing else of it changes),
  // and feed's header gets two more spaces (its value, as parsed, is the same).
  const onDisk = FILE.replace("X-Session-Key: lit-s3cr3t", "X-Session-Key: lit-r0tat3d")
    .replace(
      "WEBSOCKET {{ws}}/feed\nAuthorization: Bearer",
      "WEBSOCKET {{ws}}/feed\nAuthorization:   Bearer",
    );
  await Deno.writeTextFile(path, onDisk);
  const key = await Deno.readTextFile(`${uiConfigDir()}/ui-base-digest.key`);
  const state = await Deno.readTextFile(`${dir.path}/.dial/ui-state.json`);
  for (const secret of ["s3cr3t", key.trim()]) assert.ok(!state.includes(secret), secret);

  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  const conflict = page.getByRole("alert", { name: "Save conflict" });
  await showKind(page, "WebSocket");
  await page.getByRole("tabpanel", { name: "WebSocket" })
    .getByText("api.http changed on disk; your edits are kept").waitFor();
  await page.getByLabel("WebSocket endpoint").focus();
  await page.keyboard.press("Control+s");
  await conflict.getByLabel("On disk").getByText("Authorization:   Bearer {{token}}").waitFor();
  assert.equal(await Deno.readTextFile(path), onDisk, "nothing written");
  await conflict.getByRole("button", { name: "Cancel" }).click();

  await showKind(page, "gRPC");
  await strip(page, "gRPC").getByRole("tab", { name: "echo •" }).click();
  await page.getByRole("tabpanel", { name: "gRPC" })
    .getByText("api.http changed on disk; your edits are kept").waitFor();
  await page.getByRole("textbox", { name: "gRPC message" }).filter({ hasText: "-edited" }).click();
  await page.keyboard.press("Control+s");
  await conflict.getByLabel("On disk").getByText("X-Session-Key: lit-r0tat3d").waitFor();
  assert.equal(await Deno.readTextFile(path), onDisk, "nothing written");
  const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
  for (const secret of ["s3cr3t", "r0tat3d", key.trim()]) {
    assert.ok(!stored.includes(secret), secret);
  }
});

/**
 * Rewrites a workspace's stored UI state as session 9 stored a kind tab's base: its request's
 * fields as JSON, literal credential values withheld, in place of every keyed digest.
 */
async function asSession9State(workspace: string, legacy: string): Promise<void> {
  const path = `${workspace}/.dial/ui-state.json`;
  const state = JSON.parse(await Deno.readTextFile(path));
  let replaced = 0;
  const swap = (value: unknown): unknown => {
    if (typeof value === "string" && /^[0-9a-f]{32}$/.test(value)) {
      replaced++;
      return legacy;
    }
    if (Array.isArray(value)) return value.map(swap);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    }
    return value;
  };
  for (const key of Object.keys(state.values)) {
    state.values[key] = JSON.stringify(swap(JSON.parse(state.values[key])));
  }
  assert.ok(replaced > 0, "the state held a digest");
  await Deno.writeTextFile(path, JSON.stringify(state));
}

Deno.test("browser: a kind tab restored from a session-9 state takes the digest silently when its request is as stored, and conflicts when it changed", async () => {
  await using ws = socketServer();
  await using dir = await tempDir("dial-ui-kind-legacy-", {
    "api.http": FILE,
    "http-client.env.json": JSON.stringify({ dev: { ws: `ws://127.0.0.1:${ws.port}` } }),
  });
  const path = `${dir.path}/api.http`;
  const feed = parseHttpFile(FILE, "api.http").requests.find((r) => r.name === "feed")!;
  const legacy = JSON.stringify(withheldDraft(draftOfRequest(feed)).draft);
  const conflict = (page: Page) => page.getByRole("alert", { name: "Save conflict" });
  const open = async () => {
    await using app = await openApp(browser(), { workspace: dir.path });
    const { page } = app;
    await openRequest(page, "api.http", "WEBSOCKET feed", "dev");
    await page.getByLabel("WebSocket endpoint").fill("{{ws}}/feed?edited=1");
    await saved(
      page,
      () => strip(page, "WebSocket").getByRole("tab", { name: "feed •" }).waitFor(),
    );
  };
  await open();
  await asSession9State(dir.path, legacy);
  {
    // The request is as the old base says: no note, and Ctrl+S saves without a conflict.
    await using app = await openApp(browser(), { workspace: dir.path });
    const { page } = app;
    await showKind(page, "WebSocket");
    const panel = page.getByRole("tabpanel", { name: "WebSocket" });
    await strip(page, "WebSocket").getByRole("tab", { name: "feed •" }).waitFor();
    await page.getByLabel("WebSocket endpoint").focus();
    await page.keyboard.press("Control+s");
    await page.getByRole("status").filter({ hasText: "Saved to api.http" }).waitFor();
    assert.equal(await panel.getByText("changed on disk").count(), 0);
    assert.equal(await conflict(page).count(), 0);
    assert.equal(
      await Deno.readTextFile(path),
      FILE.replace("WEBSOCKET {{ws}}/feed\n", "WEBSOCKET {{ws}}/feed?edited=1\n"),
    );
  }
  // Back to the file as it was, an edited tab again, then an old base and an outside edit.
  await Deno.writeTextFile(path, FILE);
  await open();
  await asSession9State(dir.path, legacy);
  const onDisk = FILE.replace("{{ws}}/feed\n", "{{ws}}/feed\nX-Outside: 1\n");
  await Deno.writeTextFile(path, onDisk);
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await showKind(page, "WebSocket");
  await page.getByRole("tabpanel", { name: "WebSocket" })
    .getByText("api.http changed on disk; your edits are kept").waitFor();
  await page.getByLabel("WebSocket endpoint").focus();
  await page.keyboard.press("Control+s");
  await conflict(page).getByLabel("On disk").getByText("X-Outside: 1").waitFor();
  assert.equal(await Deno.readTextFile(path), onDisk, "nothing written");
});
