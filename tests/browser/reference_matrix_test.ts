/**
 * Issue 36's goal "0 lost edits and 0 blanked references across reload, restart, outside edits
 * and two tabs of one file", as a matrix: an HTTP, a GraphQL, an SSE, a WebSocket and a gRPC
 * request of one file, each with credential-named references (`Authorization: Bearer
 * {{token}}`, `{{password}}` in its body or message, `{{$dotenv DOTENV_KEY}}` and
 * `{{login.response.body.$.token}}`) and literal credentials (a header, a body member), each
 * edited in its tab; then F5, "New window", a restart of `dial ui`, saves of the five tabs of
 * one file one after another, an outside edit of another request of the file, an outside edit
 * of each tab's own request, the file renamed in the sidebar, renamed outside and deleted, the
 * file (with a multipart request and its file part) moved into a subfolder in the sidebar (and a
 * restart after) and outside, and two windows editing other requests and the same request.
 * After each: every tab's text (the references as written), every tab's unsaved mark, what
 * Send/Run/Connect/Call puts on the wire (a raw loopback server that keeps the bytes, and the
 * grpc-js greeter that echoes its metadata) and what Ctrl+S writes.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { dial, tempDir, waitFor } from "../_helpers.ts";
import { type RawRequest, rawServer } from "../e2e/_raw_server.ts";
import { startGreeter } from "../e2e/_grpc.ts";
import { fileBrowser, openApp, openFromSidebar } from "./_browser.ts";

const browser = fileBrowser();
const GREETER = "greet.v1.Greeter";

/** The credential-named references every request carries. */
const REFS = `Authorization: Bearer {{token}}
X-Dotenv: {{$dotenv DOTENV_KEY}}
X-Login: {{login.response.body.$.token}}
X-Api-Key: lit-s3cr3t`;

/** A body with a reference and a literal credential (storage withholds the literal). */
const BODY = bodyWith("lit-b0dy-s3cr3t");

function bodyWith(literal: string): string {
  return `{"password": "{{password}}", "secret": "${literal}"}`;
}

/**
 * The literal credentials as a tab shows them: as the file has them, or blank (storage withheld
 * them and the tab's file is gone, so nothing can give them back).
 */
type Literals = "kept" | "withheld";

function literalOf(literals: Literals, value: string): string {
  return literals === "kept" ? value : "";
}

const FILE = `### login
# @name login
POST {{base}}/login
Content-Type: application/json

{"password": "{{password}}"}

### rest
# @name rest
POST {{base}}/rest
${REFS}
Content-Type: application/json

${BODY}

### gql
# @name gql
GRAPHQL {{base}}/graphql
${REFS}

query Q($password: String) { ok(password: $password) }

${BODY}

### events
# @name events
GET {{base}}/events
Accept: text/event-stream
${REFS}

### socket
# @name socket
WEBSOCKET {{base}}/socket
${REFS}

${BODY}

### echo
# @name echo
GRPC {{addr}}/${GREETER}/EchoMetadata
${REFS}

{"name": "{{password}}"}

### gql2
# @name gql2
GRAPHQL {{base}}/graphql2
Authorization: Bearer {{token}}

query { ok }
`;

/** What the references are worth on the wire. */
const SENT = {
  authorization: "Bearer tok-s3cr3t",
  "x-dotenv": "dv-s3cr3t",
  "x-login": "login-tok",
  "x-api-key": "lit-s3cr3t",
};

type KindName = "HTTP" | "GraphQL" | "SSE" | "WebSocket" | "gRPC";

/** One tab of the matrix: how to open, edit, read, send and save it. */
interface Kind {
  kind: KindName;
  /** The request's name in the file. */
  name: string;
  /** Its button in the sidebar. */
  button: string;
  /** Its tab strip. */
  strip: string;
  /** Its headers' (or metadata's) label: `${label} name N`, `${label} value N`. */
  rows: string;
  /** Its request line as the file has it, and as the edit makes it (`v` numbers each edit). */
  line(v?: number): string;
  /** Makes edit `v`. */
  edit(page: Page, v: number): Promise<void>;
  /** Its edited field as it should read after edit `v`. */
  edited(page: Page, v: number): Promise<void>;
  /** Its body/message text holds `{{password}}` and the literal (checked in the tab). */
  body(page: Page, literals?: Literals): Promise<void>;
  /** Sends it and checks the wire (the edit `v` in the request line). */
  send(page: Page, v: number, wire: Wire): Promise<void>;
  /** A field to focus before Ctrl+S. */
  focus(page: Page): Promise<void>;
}

interface Wire {
  raw: ReturnType<typeof rawServer>;
}

function stripOf(page: Page, kind: Kind) {
  return page.getByRole("tablist", { name: kind.strip });
}

async function show(page: Page, kind: Kind): Promise<void> {
  await page.getByRole("tablist", { name: "Request kind" })
    .getByRole("tab", { name: kind.kind, exact: true }).click();
  await page.getByRole("tab", { name: kind.kind, exact: true, selected: true }).waitFor();
}

/** Fills a single-line field of the shown panel. */
async function fill(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(text);
}

/** Waits until the field reads `text`. */
async function reads(page: Page, label: string, text: string): Promise<void> {
  await waitFor(async () => (await page.getByLabel(label, { exact: true }).inputValue()) === text, {
    message: `${label} reads ${text}`,
  });
}

/** Replaces a code editor's text (CodeMirror). */
async function typeInto(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole("textbox", { name: label }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
}

async function editorHas(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole("textbox", { name: label }).filter({ hasText: text }).waitFor();
}

/** The raw request whose request line starts so, sent after `from` requests. */
async function sentTo(wire: Wire, from: number, start: string): Promise<RawRequest> {
  let found: RawRequest | undefined;
  await waitFor(() => {
    found = wire.raw.requests.slice(from).find((r) => r.line.startsWith(start));
    return found !== undefined;
  }, { message: `a request ${start}` });
  return found!;
}

function headerOf(request: RawRequest, name: string): string | undefined {
  return request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** The references as sent: each header's value, and the body's password. */
function checkSent(request: RawRequest, body: boolean): void {
  for (const [name, value] of Object.entries(SENT)) {
    assert.equal(headerOf(request, name), value, `${name} of ${request.line}`);
  }
  if (body) {
    const text = new TextDecoder().decode(request.body);
    assert.ok(text.includes("pw-s3cr3t"), `the password in ${text}`);
    assert.ok(text.includes("lit-b0dy-s3cr3t"), `the literal in ${text}`);
  }
}

const http: Kind = {
  kind: "HTTP",
  name: "rest",
  button: "POST rest",
  strip: "Open requests",
  rows: "Headers",
  line: (v) => `POST {{base}}/rest${v ? `?edited=${v}` : ""}`,
  edit: (page, v) => fill(page, "URL", `{{base}}/rest?edited=${v}`),
  edited: (page, v) => reads(page, "URL", `{{base}}/rest?edited=${v}`),
  async body(page, literals = "kept") {
    const summary = page.locator("summary:visible", { hasText: "Body" });
    if (await page.getByRole("textbox", { name: "Request body" }).count() === 0) {
      await summary.click();
    }
    await editorHas(page, "Request body", bodyWith(literalOf(literals, "lit-b0dy-s3cr3t")));
  },
  async send(page, v, wire) {
    const from = wire.raw.requests.length;
    await page.getByRole("button", { name: "Send", exact: true }).click();
    checkSent(await sentTo(wire, from, `POST /rest?edited=${v} `), true);
    await page.getByRole("region", { name: "Response" }).getByTestId("status")
      .filter({ hasText: "200" }).waitFor();
  },
  focus: (page) => page.getByLabel("URL", { exact: true }).focus(),
};

const graphql: Kind = {
  kind: "GraphQL",
  name: "gql",
  button: "GRAPHQL gql",
  strip: "Open GraphQL requests",
  rows: "GraphQL headers",
  line: (v) => `GRAPHQL {{base}}/graphql${v ? `?edited=${v}` : ""}`,
  edit: (page, v) => fill(page, "Endpoint URL", `{{base}}/graphql?edited=${v}`),
  edited: (page, v) => reads(page, "Endpoint URL", `{{base}}/graphql?edited=${v}`),
  body: (page, literals = "kept") =>
    editorHas(page, "Variables JSON", bodyWith(literalOf(literals, "lit-b0dy-s3cr3t"))),
  async send(page, v, wire) {
    const from = wire.raw.requests.length;
    await page.getByRole("button", { name: "Run", exact: true }).click();
    checkSent(await sentTo(wire, from, `POST /graphql?edited=${v} `), true);
    await page.getByLabel("GraphQL response").getByText('"ok": true').waitFor();
  },
  focus: (page) => page.getByLabel("Endpoint URL", { exact: true }).focus(),
};

const sse: Kind = {
  kind: "SSE",
  name: "events",
  button: "GET events",
  strip: "Open SSE requests",
  rows: "Request header",
  line: (v) => `GET {{base}}/events${v ? `?edited=${v}` : ""}`,
  edit: (page, v) => fill(page, "SSE endpoint", `{{base}}/events?edited=${v}`),
  edited: (page, v) => reads(page, "SSE endpoint", `{{base}}/events?edited=${v}`),
  body: () => Promise.resolve(),
  async send(page, v, wire) {
    const from = wire.raw.requests.length;
    await page.getByLabel("Reconnect when the stream ends").uncheck();
    await page.getByRole("button", { name: "Connect" }).click();
    checkSent(await sentTo(wire, from, `GET /events?edited=${v} `), false);
    await page.getByTestId("sse-state").filter({ hasText: "Disconnected" }).waitFor();
  },
  focus: (page) => page.getByLabel("SSE endpoint", { exact: true }).focus(),
};

const socket: Kind = {
  kind: "WebSocket",
  name: "socket",
  button: "WEBSOCKET socket",
  strip: "Open WebSocket requests",
  rows: "Handshake header",
  line: (v) => `WEBSOCKET {{base}}/socket${v ? `?edited=${v}` : ""}`,
  edit: (page, v) => fill(page, "WebSocket endpoint", `{{base}}/socket?edited=${v}`),
  edited: (page, v) => reads(page, "WebSocket endpoint", `{{base}}/socket?edited=${v}`),
  async body(page, literals = "kept") {
    await page.getByRole("list", { name: "Saved messages" })
      .getByText(bodyWith(literalOf(literals, "lit-b0dy-s3cr3t"))).waitFor();
  },
  async send(page, v, wire) {
    const from = wire.raw.requests.length;
    await page.getByRole("button", { name: "Connect" }).click();
    // The raw server refuses the handshake: its bytes are what is checked.
    checkSent(await sentTo(wire, from, `GET /socket?edited=${v} `), false);
    await page.getByTestId("ws-state").filter({ hasText: "Disconnected" }).waitFor();
  },
  focus: (page) => page.getByLabel("WebSocket endpoint", { exact: true }).focus(),
};

const grpc: Kind = {
  kind: "gRPC",
  name: "echo",
  button: "GRPC echo",
  strip: "Open gRPC requests",
  rows: "Metadata",
  line: () => `GRPC {{addr}}/${GREETER}/EchoMetadata`,
  edit: (page, v) => typeInto(page, "gRPC message", `{"name": "{{password}}-${v}"}`),
  edited: (page, v) => editorHas(page, "gRPC message", `{"name": "{{password}}-${v}"}`),
  body: (page) => editorHas(page, "gRPC message", '"name": "{{password}}'),
  async send(page) {
    await page.getByRole("button", { name: "Call", exact: true }).click();
    const log = page.getByRole("list", { name: "Replies" });
    for (const [name, value] of Object.entries(SENT)) {
      await log.getByText(`${name}=${value}`).waitFor();
    }
  },
  focus: (page) => page.getByRole("textbox", { name: "gRPC message" }).focus(),
};

const KINDS = [http, graphql, sse, socket, grpc];

/** The file's text with each request's edit `v` (or as given per request). */
function fileWith(edits: Partial<Record<string, number>>, text = FILE): string {
  let out = text;
  for (const kind of KINDS) {
    const v = edits[kind.name];
    if (v === undefined) continue;
    if (kind === grpc) {
      out = out.replace('{"name": "{{password}}"}', `{"name": "{{password}}-${v}"}`);
    } else out = out.replace(`${kind.line()}\n`, `${kind.line(v)}\n`);
  }
  return out;
}

/** Each header row's name and value of the shown tab, read from its fields. */
async function rowsOf(page: Page, label: string): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (let i = 1;; i++) {
    const name = page.getByLabel(`${label} name ${i}`, { exact: true });
    if (await name.count() === 0) break;
    const key = await name.inputValue();
    if (key !== "") {
      rows.set(key, await page.getByLabel(`${label} value ${i}`, { exact: true }).inputValue());
    }
  }
  return rows;
}

/**
 * The tab of `kind` shows edit `v` with its references as written, and its unsaved mark (its
 * own, whichever tab is in front) when `unsaved`.
 */
async function checkTab(
  page: Page,
  kind: Kind,
  v: number,
  unsaved: boolean,
  literals: Literals = "kept",
): Promise<void> {
  await show(page, kind);
  const name = unsaved ? `${kind.name} •` : kind.name;
  await stripOf(page, kind).getByRole("tab", { name, exact: true }).click();
  await stripOf(page, kind).getByRole("tab", { name, exact: true, selected: true }).waitFor();
  await kind.edited(page, v);
  // The header rows may sit in a closed section: their fields are read all the same.
  await waitFor(async () => {
    const rows = await rowsOf(page, kind.rows);
    return rows.get("Authorization") === "Bearer {{token}}" &&
      rows.get("X-Dotenv") === "{{$dotenv DOTENV_KEY}}" &&
      rows.get("X-Login") === "{{login.response.body.$.token}}" &&
      rows.get("X-Api-Key") === literalOf(literals, "lit-s3cr3t");
  }, { message: `${kind.kind}'s references as written` });
  await kind.body(page, literals);
}

/** Every tab as after edit `v` (all unsaved when `unsaved`), and every tab sends it filled. */
async function checkAll(
  page: Page,
  v: number,
  wire: Wire,
  { unsaved = true, send = true } = {},
): Promise<void> {
  // Each tab's mark is checked after the other kinds were in front.
  for (const kind of KINDS) {
    await checkTab(page, kind, v, unsaved);
    if (send) await kind.send(page, v, wire);
  }
}

/** Ctrl+S in the tab of `kind`; waits for what the tab says. */
async function save(page: Page, kind: Kind, says: string | RegExp): Promise<void> {
  await show(page, kind);
  await stripOf(page, kind).getByRole("tab", { name: new RegExp(`^${kind.name}( •)?$`) }).click();
  await kind.focus(page);
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({ hasText: says }).first().waitFor();
}

async function draftsSaved(page: Page): Promise<void> {
  await page.locator('html[data-drafts="saved"]').waitFor({ state: "attached" });
}

/** Answers login with a token, GraphQL with data, /events with one event. */
function answer(request: RawRequest) {
  if (request.line.includes("/events")) {
    return {
      headers: [["Content-Type", "text/event-stream"]] as Array<[string, string]>,
      body: "data: hi\n\n",
    };
  }
  return {
    headers: [["Content-Type", "application/json"]] as Array<[string, string]>,
    body: '{"token": "login-tok", "data": {"ok": true}}',
  };
}

async function workspaceFor(raw: ReturnType<typeof rawServer>, address: string) {
  return await tempDir("dial-ui-matrix-", {
    "api.http": FILE,
    ".env": "DOTENV_KEY=dv-s3cr3t\n",
    "http-client.env.json": JSON.stringify({ dev: { base: raw.origin, addr: address } }),
    "http-client.private.env.json": JSON.stringify({
      dev: { token: "tok-s3cr3t", password: "pw-s3cr3t" },
    }),
  });
}

/** Opens the five requests from the sidebar and makes edit `v` in each. */
async function openAndEdit(page: Page, v: number): Promise<void> {
  await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Environment")
    .selectOption("dev");
  for (const kind of KINDS) {
    await openFromSidebar(page, "api.http", kind.button);
    await show(page, kind);
    await kind.body(page);
    await kind.edit(page, v);
    await stripOf(page, kind).getByRole("tab", { name: `${kind.name} •`, exact: true }).waitFor();
  }
  await draftsSaved(page);
}

Deno.test("browser: five kinds of tab of one file keep their edits and references across F5, New window, a restart and saves one after another", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  const wire = { raw };
  const path = `${dir.path}/api.http`;
  {
    await using app = await openApp(browser(), { workspace: dir.path });
    const { page } = app;
    await openAndEdit(page, 1);
    await checkAll(page, 1, wire, { send: false });

    await page.reload();
    await page.getByRole("tablist", { name: "Request kind" }).waitFor();
    await checkAll(page, 1, wire);

    const [second] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("button", { name: "New window" }).click(),
    ]);
    await second.getByRole("tablist", { name: "Request kind" }).waitFor();
    await checkAll(second, 1, wire);
    await draftsSaved(page);
  }
  assert.equal(await Deno.readTextFile(path), FILE, "nothing written by the reload and window");
  const state = await Deno.readTextFile(`${dir.path}/.dial/ui-state.json`);
  assert.ok(!state.includes("s3cr3t"), "no secret in the workspace's state");

  // A restart (another port: empty browser storage), then the five tabs of one file saved one
  // after another: each save keeps the other tabs' requests as the file has them, and the
  // other tabs keep their edits and marks.
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await checkAll(page, 1, wire);
  const saved: Record<string, number> = {};
  for (const [i, kind] of KINDS.entries()) {
    await save(page, kind, "Saved to api.http");
    saved[kind.name] = 1;
    assert.equal(await Deno.readTextFile(path), fileWith(saved), `after saving ${kind.name}`);
    await stripOf(page, kind).getByRole("tab", { name: kind.name, exact: true }).waitFor();
    for (const other of KINDS.slice(i + 1)) await checkTab(page, other, 1, true);
  }
  const stored = await page.evaluate("JSON.stringify(localStorage)") as string;
  assert.ok(!stored.includes("s3cr3t"), "no secret in browser storage");
});

/** Adds a header line after each named request's request line. */
function withHeader(text: string, names: string[], header: string): string {
  let out = text;
  for (const name of names) {
    const at = out.indexOf(`# @name ${name}\n`);
    const end = out.indexOf("\n", at + `# @name ${name}\n`.length);
    out = `${out.slice(0, end + 1)}${header}\n${out.slice(end + 1)}`;
  }
  return out;
}

Deno.test("browser: five kinds of tab of one file keep their edits and references across outside edits of another request and of their own", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  const wire = { raw };
  const path = `${dir.path}/api.http`;
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  await openAndEdit(page, 2);

  // Another request of the file changes outside: every tab keeps its edits; each save merges.
  const outside = withHeader(FILE, ["login"], "X-Outside-Login: 1");
  await Deno.writeTextFile(path, outside);
  await checkAll(page, 2, wire);
  assert.ok(
    raw.requests.some((r) => headerOf(r, "x-outside-login") === "1"),
    "login as the file has it now ran first",
  );
  const saved: Record<string, number> = {};
  for (const kind of KINDS) {
    await save(page, kind, "Saved to api.http");
    saved[kind.name] = 2;
    assert.equal(await Deno.readTextFile(path), fileWith(saved, outside), `saved ${kind.name}`);
  }

  // Each tab's own request changes outside while the tab has edits: each says so and keeps
  // them; Ctrl+S writes nothing and shows both versions; "Overwrite with mine" writes the tab's.
  for (const kind of KINDS) {
    await show(page, kind);
    await kind.edit(page, 3);
    await stripOf(page, kind).getByRole("tab", { name: `${kind.name} •`, exact: true }).waitFor();
  }
  await draftsSaved(page);
  const before = await Deno.readTextFile(path);
  const theirs = withHeader(before, KINDS.map((k) => k.name), "X-Outside: 1");
  await Deno.writeTextFile(path, theirs);
  for (const kind of KINDS) {
    await show(page, kind);
    await page.getByRole("tabpanel", { name: kind.kind })
      .getByText("api.http changed on disk; your edits are kept").waitFor();
  }
  await checkAll(page, 3, wire);
  const conflict = page.getByRole("alert", { name: "Save conflict" });
  let mine = theirs;
  for (const kind of KINDS) {
    await show(page, kind);
    await kind.focus(page);
    await page.keyboard.press("Control+s");
    await conflict.getByLabel("On disk").getByText("X-Outside: 1").waitFor();
    await conflict.getByLabel("Yours").getByText("{{token}}").first().waitFor();
    assert.equal(await Deno.readTextFile(path), mine, `${kind.name}: nothing written`);
    await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
    await page.getByRole("status").filter({ hasText: "Saved to api.http" }).first().waitFor();
    mine = fileWith(
      { [kind.name]: 3 },
      mine.replace(
        `# @name ${kind.name}\n${kind.line(2)}\nX-Outside: 1\n`,
        `# @name ${kind.name}\n${kind.line(2)}\n`,
      )
        .replace(
          `# @name ${kind.name}\n${kind.line()}\nX-Outside: 1\n`,
          `# @name ${kind.name}\n${kind.line()}\n`,
        ),
    );
    if (kind === grpc) mine = mine.replace('{{password}}-2"}', '{{password}}-3"}');
    else mine = mine.replace(`${kind.line(2)}\n`, `${kind.line(3)}\n`);
    assert.equal(await Deno.readTextFile(path), mine, `${kind.name}: the tab's request written`);
    await checkTab(page, kind, 3, false);
  }
});

/**
 * A second GraphQL tab of the file (`gql2`), edited and then hidden behind `gql`: a request tab
 * that is not the one shown.
 */
async function editHiddenTab(page: Page): Promise<void> {
  await openFromSidebar(page, "api.http", "GRAPHQL gql2");
  await show(page, graphql);
  await fill(page, "Endpoint URL", "{{base}}/graphql2?hidden=1");
  await stripOf(page, graphql).getByRole("tab", { name: "gql2 •", exact: true }).waitFor();
  await stripOf(page, graphql).getByRole("tab", { name: "gql •", exact: true }).click();
  await kindShown(page, graphql, "gql •");
}

async function kindShown(page: Page, kind: Kind, tab: string): Promise<void> {
  await stripOf(page, kind).getByRole("tab", { name: tab, exact: true, selected: true }).waitFor();
}

/**
 * Every tab shows edit 5, references as written, unsaved; its Send says its file is gone and
 * sends nothing (the tab's request has no file to be evaluated in; Save as keeps it).
 */
async function refusesSend(
  page: Page,
  raw: ReturnType<typeof rawServer>,
  literals: Literals,
): Promise<void> {
  for (const kind of KINDS) {
    await checkTab(page, kind, 5, true, literals);
    const sent = raw.requests.length;
    await page.getByRole("button", { name: /^(Send|Run|Connect|Call)$/ }).click();
    await page.getByRole("tabpanel", { name: kind.kind })
      .getByText('"renamed.http" is not in the workspace (renamed, moved or deleted)')
      .filter({ visible: true }).first().waitFor();
    assert.equal(raw.requests.length, sent, "nothing sent");
  }
}

Deno.test("browser: five kinds of tab of one file keep their edits and references when the file is renamed in the sidebar, renamed outside or deleted", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  const wire = { raw };
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  await openAndEdit(page, 4);
  await editHiddenTab(page);

  // Renamed in the sidebar: every tab follows, a hidden one too; the saves go to the new name.
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  page.once("dialog", (dialog) => void dialog.accept("renamed.http"));
  await sidebar.getByRole("button", { name: "Rename api.http" }).click();
  await sidebar.getByRole("button", { name: "renamed.http", exact: true }).waitFor();
  await checkAll(page, 4, wire);
  const renamed = `${dir.path}/renamed.http`;
  const saved: Record<string, number> = {};
  for (const kind of KINDS) {
    await save(page, kind, "Saved to renamed.http");
    saved[kind.name] = 4;
    assert.equal(await Deno.readTextFile(renamed), fileWith(saved), `saved ${kind.name}`);
  }
  await show(page, graphql);
  await stripOf(page, graphql).getByRole("tab", { name: "gql2 •", exact: true }).click();
  await reads(page, "Endpoint URL", "{{base}}/graphql2?hidden=1");
  await page.getByLabel("Endpoint URL", { exact: true }).focus();
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({ hasText: "Saved to renamed.http" }).first().waitFor();
  const all = fileWith(saved).replace("{{base}}/graphql2\n", "{{base}}/graphql2?hidden=1\n");
  assert.equal(await Deno.readTextFile(renamed), all);
  await assert.rejects(Deno.stat(`${dir.path}/api.http`), Deno.errors.NotFound);
  await stripOf(page, graphql).getByRole("tab", { name: "gql", exact: true }).click();
  await kindShown(page, graphql, "gql");

  // Renamed outside, then deleted: the tabs keep their edits, marks and references, across
  // F5 too; Send still sends them; Ctrl+S writes nothing and says why.
  for (const kind of KINDS) {
    await show(page, kind);
    await kind.edit(page, 5);
  }
  await draftsSaved(page);
  await Deno.rename(renamed, `${dir.path}/moved.http`);
  await sidebar.getByRole("button", { name: "moved.http", exact: true }).waitFor();
  await refusesSend(page, raw, "kept");
  for (const kind of KINDS) {
    await save(page, kind, /^Not saved: .*renamed\.http/);
    await checkTab(page, kind, 5, true);
  }
  await Deno.remove(`${dir.path}/moved.http`);
  await sidebar.getByRole("button", { name: "moved.http", exact: true }).waitFor({
    state: "detached",
  });
  await page.reload();
  await page.getByRole("tablist", { name: "Request kind" }).waitFor();
  // The literal credentials were withheld from storage and their file is gone: blank.
  await refusesSend(page, raw, "withheld");
  for (const kind of KINDS) await save(page, kind, /^Not saved: .*renamed\.http/);
  assert.deepEqual(
    [...Deno.readDirSync(dir.path)].map((e) => e.name).filter((n) => n.endsWith(".http")),
    [],
    "no file written back",
  );
});

Deno.test("browser: two windows of one file, each with another request edited, both save: the file has both edits; an edit another window saved is no longer unsaved", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  const path = `${dir.path}/api.http`;
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Environment")
    .selectOption("dev");
  await openFromSidebar(page, "api.http", http.button);
  await http.edit(page, 6);
  await stripOf(page, http).getByRole("tab", { name: "rest •", exact: true }).waitFor();
  await draftsSaved(page);
  const [second] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: "New window" }).click(),
  ]);
  await second.getByRole("tablist", { name: "Request kind" }).waitFor();
  await second.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  await openFromSidebar(second, "api.http", socket.button);
  await show(second, socket);
  await socket.edit(second, 6);
  await stripOf(second, socket).getByRole("tab", { name: "socket •", exact: true }).waitFor();

  // The same edit in both windows' WebSocket tab: once one saves it, neither has it unsaved.
  await show(page, socket);
  await openFromSidebar(page, "api.http", socket.button);
  await socket.edit(page, 6);
  await stripOf(page, socket).getByRole("tab", { name: "socket •", exact: true }).waitFor();
  await save(page, socket, "Saved to api.http");
  assert.equal(await Deno.readTextFile(path), fileWith({ socket: 6 }));
  await stripOf(second, socket).getByRole("tab", { name: "socket", exact: true }).waitFor();
  await socket.edited(second, 6);
  await socket.edit(second, 7);
  await stripOf(second, socket).getByRole("tab", { name: "socket •", exact: true }).waitFor();

  await save(page, http, "Saved to api.http");
  assert.equal(await Deno.readTextFile(path), fileWith({ rest: 6, socket: 6 }));
  // The other window's tab keeps its edit and mark; its save keeps the first window's.
  await checkTab(second, socket, 7, true);
  await save(second, socket, "Saved to api.http");
  assert.equal(await Deno.readTextFile(path), fileWith({ rest: 6, socket: 7 }));
  // The first window's HTTP tab stays as saved; the second window's HTTP tab follows the file.
  await checkTab(page, http, 6, false);
  await show(second, http);
  await stripOf(second, http).getByRole("tab", { name: "rest", exact: true }).click();
  await http.edited(second, 6);
  await checkTab(second, http, 6, false);
  await http.send(second, 6, { raw });
});

/** A multipart request with a reference, a literal credential and a file part. */
const UPLOAD = `
### upload
# @name upload
POST {{base}}/upload
${REFS}
Content-Type: multipart/form-data; boundary=B0undary

--B0undary
Content-Disposition: form-data; name="password"

{{password}}
--B0undary
Content-Disposition: form-data; name="api_key"

lit-form-s3cr3t
--B0undary
Content-Disposition: form-data; name="doc"; filename="doc.txt"
Content-Type: text/plain

< ./doc.txt
--B0undary--
`;

/** The multipart tab; `doc` is the text its file part sends (the file beside the request file). */
function uploadKind(doc: () => string): Kind {
  return {
    kind: "HTTP",
    name: "upload",
    button: "POST upload",
    strip: "Open requests",
    rows: "Headers",
    line: (v) => `POST {{base}}/upload${v ? `?edited=${v}` : ""}`,
    edit: (page, v) => fill(page, "URL", `{{base}}/upload?edited=${v}`),
    edited: (page, v) => reads(page, "URL", `{{base}}/upload?edited=${v}`),
    async body(page, literals = "kept") {
      if (await page.getByLabel("Form fields value 1").count() === 0) {
        await page.locator("summary:visible", { hasText: "Body" }).click();
      }
      assert.equal(await page.getByRole("combobox", { name: "Body type" }).inputValue(), "form");
      await reads(page, "Form fields value 1", "{{password}}");
      await reads(page, "Form fields value 2", literalOf(literals, "lit-form-s3cr3t"));
      await reads(page, "Form fields value 3", "< ./doc.txt");
    },
    async send(page, v, wire) {
      const from = wire.raw.requests.length;
      await page.getByRole("button", { name: "Send", exact: true }).click();
      const sent = await sentTo(wire, from, `POST /upload?edited=${v} `);
      checkSent(sent, false);
      const text = new TextDecoder().decode(sent.body);
      for (const part of ["pw-s3cr3t", "lit-form-s3cr3t", doc(), "--B0undary--"]) {
        assert.ok(text.includes(part), `${part} in ${text}`);
      }
      await page.getByRole("region", { name: "Response" }).getByTestId("status")
        .filter({ hasText: "200" }).waitFor();
    },
    focus: (page) => page.getByLabel("URL", { exact: true }).focus(),
  };
}

/** The file with edit `v` of the five kinds and of the upload request. */
function movedFile(v: number): string {
  return fileWith(Object.fromEntries(KINDS.map((k) => [k.name, v])), FILE + UPLOAD)
    .replace("POST {{base}}/upload\n", `POST {{base}}/upload?edited=${v}\n`);
}

/**
 * Edits the six tabs (edit 8), sends, reloads, then moves the file into `sub/` in the sidebar;
 * every tab follows and sends from there (`moved` switches the file part's expected text).
 */
async function editAndMove(
  page: Page,
  upload: Kind,
  all: Kind[],
  wire: Wire,
  moved: () => void,
): Promise<void> {
  await openAndEdit(page, 8);
  await openFromSidebar(page, "api.http", upload.button);
  await show(page, upload);
  await upload.body(page);
  await upload.edit(page, 8);
  await stripOf(page, upload).getByRole("tab", { name: "upload •", exact: true }).waitFor();
  await draftsSaved(page);
  for (const kind of all) {
    await checkTab(page, kind, 8, true);
    await kind.send(page, 8, wire);
  }
  await page.reload();
  await page.getByRole("tablist", { name: "Request kind" }).waitFor();
  for (const kind of all) await checkTab(page, kind, 8, true);

  // Moved into a subfolder in the sidebar: every tab follows; `< ./doc.txt` is now the file
  // beside it (as `dial run sub/api.http` reads it); the saves go to the new path.
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  page.once("dialog", (dialog) => void dialog.accept("sub/api.http"));
  await sidebar.getByRole("button", { name: "Rename api.http" }).click();
  await sidebar.getByRole("button", { name: "sub/api.http", exact: true }).waitFor();
  moved();
  for (const kind of all) {
    await checkTab(page, kind, 8, true);
    await kind.send(page, 8, wire);
  }
  await draftsSaved(page);
}

Deno.test("browser: tabs of a file moved into a subfolder, in the sidebar (then a restart) and outside, with a multipart request and its file part, keep their edits and references", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  await Deno.writeTextFile(`${dir.path}/api.http`, FILE + UPLOAD);
  await Deno.writeTextFile(`${dir.path}/doc.txt`, "doc at the top\n");
  await Deno.mkdir(`${dir.path}/sub`);
  await Deno.writeTextFile(`${dir.path}/sub/doc.txt`, "doc in sub\n");
  // A request file's environments are the env files beside it (as for `dial run`): sub/ has its
  // own, with the same values.
  for (const name of [".env", "http-client.env.json", "http-client.private.env.json"]) {
    await Deno.copyFile(`${dir.path}/${name}`, `${dir.path}/sub/${name}`);
  }
  let doc = "doc at the top";
  const upload = uploadKind(() => doc);
  const wire = { raw };
  const all = [...KINDS, upload];
  {
    await using first = await openApp(browser(), { workspace: dir.path });
    const { page } = first;
    await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
    await editAndMove(page, upload, all, wire, () => doc = "doc in sub");
  }
  // A restart after the move: the tabs are on the new path, edited and unsaved.
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  for (const kind of all) {
    await checkTab(page, kind, 8, true);
    await kind.send(page, 8, wire);
  }
  const sidebar = page.getByRole("navigation", { name: "Workspace" });
  const moved = `${dir.path}/sub/api.http`;
  for (const kind of all) await save(page, kind, "Saved to sub/api.http");
  assert.equal(await Deno.readTextFile(moved), movedFile(8));
  for (const kind of all) await checkTab(page, kind, 8, false);
  // What the tab sent is what `dial run` sends for the saved request.
  const fromUi = raw.requests.filter((r) => r.line.startsWith("POST /upload?edited=8 ")).at(-1)!;
  const before = raw.requests.length;
  const run = await dial(["run", moved, "upload", "--env", "dev"]);
  assert.equal(run.code, 0, run.stderr);
  const fromRun = raw.requests.slice(before).find((r) => r.line.startsWith("POST /upload"))!;
  assert.equal(new TextDecoder().decode(fromRun.body), new TextDecoder().decode(fromUi.body));

  // Moved into a deeper folder outside: the tabs keep their edits, marks and references (across
  // F5 too); Send and Save refuse, naming the path they had.
  for (const kind of all) {
    await show(page, kind);
    await stripOf(page, kind).getByRole("tab", { name: kind.name, exact: true }).click();
    await kind.edit(page, 9);
    await stripOf(page, kind).getByRole("tab", { name: `${kind.name} •`, exact: true }).waitFor();
  }
  await draftsSaved(page);
  await Deno.mkdir(`${dir.path}/sub/inner`);
  await Deno.rename(moved, `${dir.path}/sub/inner/api.http`);
  await sidebar.getByRole("button", { name: "sub/inner/api.http", exact: true }).waitFor();
  for (const literals of ["kept", "withheld"] as const) {
    if (literals === "withheld") {
      await page.reload();
      await page.getByRole("tablist", { name: "Request kind" }).waitFor();
    }
    for (const kind of all) {
      await checkTab(page, kind, 9, true, literals);
      const sent = raw.requests.length;
      await page.getByRole("button", { name: /^(Send|Run|Connect|Call)$/ }).click();
      await page.getByRole("tabpanel", { name: kind.kind })
        .getByText('"sub/api.http" is not in the workspace (renamed, moved or deleted)')
        .filter({ visible: true }).first().waitFor();
      assert.equal(raw.requests.length, sent, "nothing sent");
      await save(page, kind, /^Not saved: .*sub\/api\.http/);
    }
  }
  assert.equal(await Deno.readTextFile(`${dir.path}/sub/inner/api.http`), movedFile(8));
  await assert.rejects(Deno.stat(moved), Deno.errors.NotFound);
});

/** A piece of the text edit `v` writes in the request of `kind`. */
function editMark(kind: Kind, v: number): string {
  return kind === grpc ? `{{password}}-${v}` : `?edited=${v}`;
}

Deno.test("browser: two windows edit the same request of each kind: the first save wins on disk, the other window keeps its edits, shows the conflict and overwrites only when asked; the first window follows", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  const wire = { raw };
  const path = `${dir.path}/api.http`;
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  await page.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  await openAndEdit(page, 10);
  const [second] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: "New window" }).click(),
  ]);
  await second.getByRole("tablist", { name: "Request kind" }).waitFor();
  await second.locator('nav[data-watching="true"]').waitFor({ state: "attached" });
  for (const kind of KINDS) {
    await checkTab(second, kind, 10, true);
    await kind.edit(second, 11);
    await stripOf(second, kind).getByRole("tab", { name: `${kind.name} •`, exact: true }).waitFor();
  }
  await draftsSaved(second);
  // Each window keeps its own edit of each request.
  for (const kind of KINDS) await checkTab(page, kind, 10, true);

  const all10 = fileWith(Object.fromEntries(KINDS.map((k) => [k.name, 10])));
  for (const kind of KINDS) await save(page, kind, "Saved to api.http");
  assert.equal(await Deno.readTextFile(path), all10);

  const conflict = second.getByRole("alert", { name: "Save conflict" });
  let expected = all10;
  for (const kind of KINDS) {
    await show(second, kind);
    await second.getByRole("tabpanel", { name: kind.kind })
      .getByText("api.http changed on disk; your edits are kept").waitFor();
    await checkTab(second, kind, 11, true);
    await kind.send(second, 11, wire);
    await kind.focus(second);
    await second.keyboard.press("Control+s");
    await conflict.getByLabel("On disk").getByText(editMark(kind, 10)).first().waitFor();
    await conflict.getByLabel("Yours").getByText(editMark(kind, 11)).first().waitFor();
    assert.equal(await Deno.readTextFile(path), expected, `${kind.name}: nothing written`);
    await conflict.getByRole("button", { name: "Overwrite with mine" }).click();
    await second.getByRole("status").filter({ hasText: "Saved to api.http" }).first().waitFor();
    expected = fileWith(
      { [kind.name]: 11 },
      expected.replace(
        kind === grpc ? '{"name": "{{password}}-10"}' : `${kind.line(10)}\n`,
        kind === grpc ? '{"name": "{{password}}"}' : `${kind.line()}\n`,
      ),
    );
    assert.equal(await Deno.readTextFile(path), expected, `${kind.name}: the second window's`);
    await checkTab(second, kind, 11, false);
  }
  // The first window has no edits left: its tabs follow the file.
  for (const kind of KINDS) await checkTab(page, kind, 11, false);
});

/** Sets the value of the header (metadata) row named `name` of the shown tab. */
async function setRow(page: Page, kind: Kind, name: string, value: string): Promise<void> {
  for (let i = 1;; i++) {
    const row = page.getByLabel(`${kind.rows} name ${i}`, { exact: true });
    assert.ok(await row.count() > 0, `a ${name} row in ${kind.kind}`);
    if (await row.inputValue() !== name) continue;
    const field = page.getByLabel(`${kind.rows} value ${i}`, { exact: true });
    // The rows may sit in a closed section: open it as a click on its summary would.
    await field.evaluate((e) => e.closest("details")?.setAttribute("open", ""));
    await field.fill(value);
    return;
  }
}

Deno.test("browser: a file's literal credential changed in a tab of each kind is not taken back from the file after F5 or a restart: blank, unsaved, and the tab says so", async () => {
  await using raw = rawServer(answer);
  await using greeter = await startGreeter();
  await using dir = await workspaceFor(raw, greeter.address);
  {
    await using app = await openApp(browser(), { workspace: dir.path });
    const { page } = app;
    await page.getByRole("navigation", { name: "Workspace" }).getByLabel("Environment")
      .selectOption("dev");
    for (const kind of KINDS) {
      await openFromSidebar(page, "api.http", kind.button);
      await show(page, kind);
      await kind.body(page);
      await setRow(page, kind, "X-Api-Key", "typed-n3w-key");
      await stripOf(page, kind).getByRole("tab", { name: `${kind.name} •`, exact: true })
        .waitFor();
    }
    // The GraphQL one hidden behind another tab of its kind.
    await openFromSidebar(page, "api.http", "GRAPHQL gql2");
    await kindShown(page, graphql, "gql2");
    await draftsSaved(page);
    await page.reload();
    await page.getByRole("tablist", { name: "Request kind" }).waitFor();
    await checkTyped(page);
    await draftsSaved(page);
  }
  await using app = await openApp(browser(), { workspace: dir.path });
  await checkTyped(app.page);
  const stored = await app.page.evaluate("JSON.stringify(localStorage)") as string;
  assert.ok(!stored.includes("typed-n3w-key") && !stored.includes("lit-s3cr3t"), stored);
  const state = await Deno.readTextFile(`${dir.path}/.dial/ui-state.json`);
  assert.ok(!state.includes("typed-n3w-key") && !state.includes("s3cr3t"), state);
});

/** Each kind's tab: its changed literal blank (not the file's), unsaved, said; the rest back. */
async function checkTyped(page: Page): Promise<void> {
  for (const kind of KINDS) {
    await show(page, kind);
    await stripOf(page, kind).getByRole("tab", { name: `${kind.name} •`, exact: true }).click();
    await kindShown(page, kind, `${kind.name} •`);
    await page.getByRole("tabpanel", { name: kind.kind }).getByText(
      "Not kept across the reload (browser storage never holds a credential value): header x-api-key; type it again",
    ).filter({ visible: true }).first().waitFor();
    await waitFor(async () => (await rowsOf(page, kind.rows)).get("X-Api-Key") === "", {
      message: `${kind.kind}'s changed literal blank, not the file's`,
    });
    // The literals it did not change come back from the file.
    await kind.body(page);
  }
}
