/**
 * The UI's session seen from the browser: nothing of it reaches other local servers, a cookie
 * from another port cannot log the UI out, a launch link works once, requests can be
 * cancelled and time out, and localStorage holds no secret.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { serve, type TestServer, waitFor } from "../_helpers.ts";
import { trickleServer } from "../ui/_trickle.ts";
import { fileBrowser, openApp, uiConfigDir } from "./_browser.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { type Handover, writeHandover } from "../../src/handover.ts";

const browser = fileBrowser();

/** Every header value that reached a server. */
function headerValues(...servers: TestServer[]): string[] {
  return servers.flatMap((s) =>
    s.requests.flatMap((r) => [...r.headers].map(([n, v]) => `${n}: ${v}`))
  );
}

/** Adds a link to the UI's page (its CSP allows no inline script, so through the driver). */
async function addLink(page: Page, href: string, text: string): Promise<void> {
  await page.evaluate(`(() => {
    const link = document.createElement("a");
    link.href = ${JSON.stringify(href)};
    link.textContent = ${JSON.stringify(text)};
    document.body.append(link);
  })()`);
}

async function sendAndWait(page: Page, status: string): Promise<void> {
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByTestId("status").filter({ hasText: status }).waitFor();
}

Deno.test("browser: other servers on 127.0.0.1 and localhost never receive the UI's session, and their cookies do not log it out", async () => {
  await using target = serve(() => Response.json({ ok: true }));
  await using byName = serve(() =>
    new Response("<p>localhost page</p>", {
      headers: { "Content-Type": "text/html" },
    })
  );
  const named = `http://localhost:${byName.port}`;
  let uiPort = 0;
  await using byIp = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/redirect") return Response.redirect(`${named}/landing`, 302);
    // Cookie tossing: the names the UI used to use, and whatever looks like a session.
    const headers = new Headers({ "Content-Type": "text/html" });
    for (const name of [`dial_ui_${uiPort}`, "dial_session", "X-Dial-Session"]) {
      headers.append("Set-Cookie", `${name}=tossed; Path=/`);
    }
    return new Response("<p>127.0.0.1 page</p>", { headers });
  });
  await using app = await openApp(browser());
  uiPort = app.server.port;
  const { page } = app;
  const session = await page.evaluate(() => sessionStorage.getItem("dial.session"));
  assert.ok(session && session.length >= 40);
  const launch = app.server.url.hash.slice("#launch=".length);
  const ui = new URL("/", app.server.url).href;

  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/first`);
  await sendAndWait(page, "200");
  // Typed into the address bar, followed from a link, and through a redirect.
  await page.goto(`${byIp.origin}/typed`);
  await page.goto(ui);
  await page.getByRole("tablist").waitFor();
  await addLink(page, `${named}/link`, "elsewhere");
  await page.getByRole("link", { name: "elsewhere" }).click();
  await page.waitForURL(`${named}/link`);
  await page.goto(ui);
  await page.getByRole("tablist").waitFor();
  await addLink(page, `${byIp.origin}/redirect`, "redirected");
  await page.getByRole("link", { name: "redirected" }).click();
  await page.waitForURL(`${named}/landing`);
  // Another tab of the same browser, on both names.
  const other = await page.context().newPage();
  await other.goto(`${byIp.origin}/tab`);
  await other.goto(`${named}/tab`);
  await other.close();

  const seen = headerValues(byIp, byName);
  assert.ok(byIp.requests.length >= 3 && byName.requests.length >= 3, seen.join("\n"));
  for (const line of seen) {
    assert.ok(!line.includes(session), line);
    assert.ok(!line.includes(launch), line);
    assert.ok(!/^x-dial-session:/i.test(line), line);
  }
  // The cookies 127.0.0.1:<other> set do not log the UI out: back in the UI, requests work.
  const cookies = await page.context().cookies(`http://127.0.0.1:${uiPort}/`);
  assert.ok(cookies.some((c) => c.name === `dial_ui_${uiPort}`), "the tossed cookie is there");
  await page.goto(ui);
  await page.getByLabel("URL", { exact: true }).fill(`${target.origin}/again`);
  await sendAndWait(page, "200");
  assert.deepEqual(target.requests.map((r) => new URL(r.url).pathname), ["/first", "/again"]);
});

Deno.test("browser: a launch link opened a second time says to use the open window or relaunch", async () => {
  await using app = await openApp(browser());
  const second = await app.page.context().newPage();
  await second.goto(app.server.url.href);
  const alert = second.getByRole("alert");
  await alert.waitFor();
  assert.equal(
    await alert.textContent(),
    "This launch link was used already (each works once): use the dial window that is already open, or stop dial ui and start it again",
  );
  assert.equal(new URL(second.url()).hash, "", "the token left the address bar");
  await second.close();
});

Deno.test("browser: the link of dial ui started again on its port, opened in the tab of the one before, gives that tab its session", async () => {
  const workspace = await Deno.makeTempDir({ prefix: "dial-ui-relaunch-" });
  await Deno.writeTextFile(`${workspace}/api.http`, "### one\nGET http://127.0.0.1:9/one\n");
  const graphqlCacheDir = await Deno.makeTempDir({ prefix: "dial-ui-graphql-" });
  const options = { graphqlCacheDir, configDir: uiConfigDir(), workspace };
  const before = await startUiServer(options);
  const context = await browser().newContext();
  context.setDefaultTimeout(30_000);
  let again: Awaited<ReturnType<typeof startUiServer>> | undefined;
  try {
    const page = await context.newPage();
    await page.goto(before.url.href);
    await page.getByRole("tablist", { name: "Request kind" }).waitFor();
    await before.shutdown();
    again = await startUiServer({ ...options, port: before.port });
    // Pasted into the address bar of the open tab: only the fragment changes.
    await page.goto(again.url.href);
    await page.waitForURL((url) => url.hash === "");
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByRole("button", { name: "api.http", exact: true }).click();
    await sidebar.getByRole("button", { name: "GET one" }).waitFor();
    assert.equal(await page.getByText("has no session").count(), 0);
  } finally {
    await context.close();
    await again?.shutdown();
    await Deno.remove(graphqlCacheDir, { recursive: true });
    await Deno.remove(workspace, { recursive: true });
  }
});

/** A tab the app answered: it shows the workspace, not "no session". */
async function ready(page: Page): Promise<void> {
  await page.getByRole("tablist", { name: "Request kind" }).waitFor();
  const session = await page.evaluate(`sessionStorage.getItem("dial.session")`) as string;
  assert.ok(session.length > 20, "the tab holds its session");
}

/** Opens a tab on the bare address (typed, not the printed link). */
async function bareTab(context: BrowserContext, bare: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(bare, { waitUntil: "commit" });
  return page;
}

Deno.test("browser: a tab opened on the bare address gets a session every time: several in a row and at once, while the link's tab is still trading it, after the link was opened twice, after a reload, after every tab closed; another browser does not", async () => {
  const graphqlCacheDir = await Deno.makeTempDir({ prefix: "dial-ui-graphql-" });
  const server = await startUiServer({ graphqlCacheDir, configDir: uiConfigDir() });
  const context = await browser().newContext();
  context.setDefaultTimeout(30_000);
  const errors: string[] = [];
  context.on("page", (page) => page.on("pageerror", (error) => errors.push(error.message)));
  try {
    const bare = new URL("/", server.url).href;
    // The link's tab trades its token; the trade is held until a bare tab has started.
    let release!: () => void;
    const held = new Promise<void>((resolve) => release = resolve);
    let traded!: () => void;
    const trading = new Promise<void>((resolve) => traded = resolve);
    await context.route("**/api/session", async (route) => {
      if ((route.request().postData() ?? "").includes('"launch"')) {
        traded();
        await held;
      }
      await route.continue();
    });
    const first = await context.newPage();
    await first.goto(server.url.href, { waitUntil: "commit" });
    await trading;
    const early = await bareTab(context, bare);
    // The bare tab either gave up already or waits for the link's tab (a pending lock).
    await waitFor(async () =>
      await early.getByRole("alert").count() > 0 ||
      await first.evaluate("navigator.locks.query().then((s) => s.pending.length)") as number > 0, {
      message: "the bare tab to give up or wait",
    });
    release();
    await ready(first);
    await ready(early);
    await context.unroute("**/api/session");

    // Several in a row, and several at once.
    for (let i = 0; i < 3; i++) await ready(await bareTab(context, bare));
    const together = await Promise.all([1, 2, 3].map(() => bareTab(context, bare)));
    await Promise.all(together.map(ready));
    // It works: the server answers its calls.
    const second = together[0]!;
    await second.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:1/");
    await second.getByRole("button", { name: "Send", exact: true }).click();
    await second.getByRole("alert").filter({ hasText: /connect|refused/i }).waitFor();

    // The printed link opened again is refused, and costs no later tab its session.
    const again = await context.newPage();
    await again.goto(server.url.href);
    await again.getByRole("alert").filter({ hasText: "This launch link was used already" })
      .waitFor();
    await ready(await bareTab(context, bare));

    // A reload of the first tab, then a new tab; "New window", then a new tab.
    await first.reload();
    await ready(first);
    await ready(await bareTab(context, bare));
    const [window] = await Promise.all([
      context.waitForEvent("page"),
      first.getByRole("button", { name: "New window" }).click(),
    ]);
    await ready(window);
    await ready(await bareTab(context, bare));

    // Every tab closed, then new ones: still no link needed.
    for (const page of context.pages()) await page.close();
    for (let i = 0; i < 2; i++) await ready(await bareTab(context, bare));
    const last = await bareTab(context, bare);
    await ready(last);
    // What the browser keeps is a key no script can read, and no session secret.
    const stored = await last.evaluate(`new Promise((resolve) => {
      const open = indexedDB.open("dial", 1);
      open.onsuccess = () => {
        const get = open.result.transaction("keys").objectStore("keys").get("session");
        get.onsuccess = () => crypto.subtle.exportKey("jwk", get.result.privateKey)
          .then(() => resolve("readable"), (e) => resolve(e.name));
      };
    })`);
    assert.equal(stored, "InvalidAccessError");
    const local = await last.evaluate("JSON.stringify(localStorage)") as string;
    const session = await last.evaluate(`sessionStorage.getItem("dial.session")`) as string;
    assert.ok(!local.includes(session));
    // Another browser profile (no key) on the same address has no session.
    const other = await browser().newContext();
    try {
      const page = await other.newPage();
      await page.goto(bare);
      await page.getByRole("alert").filter({ hasText: "This page has no session of dial ui" })
        .waitFor();
    } finally {
      await other.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.shutdown();
    await Deno.remove(graphqlCacheDir, { recursive: true });
  }
});

Deno.test("browser: Cancel, leaving and closing the page close the upstream connection within a second; the tab's timeout ends a request", async () => {
  await using upstream = trickleServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByLabel("URL", { exact: true }).fill(`${upstream.origin}/slow`);
  await page.getByLabel("Timeout (seconds)").filter({ visible: true }).fill("0");
  await page.getByRole("button", { name: "Send" }).click();
  const first = await upstream.connection(1);
  const cancelledAt = performance.now();
  await page.getByRole("button", { name: "Cancel" }).click();
  assert.ok((await first.closed) - cancelledAt < 1000);
  await page.getByRole("alert").filter({ hasText: "Cancelled" }).waitFor();

  await page.getByLabel("Timeout (seconds)").filter({ visible: true }).fill("0.5");
  await page.getByRole("button", { name: "Send" }).click();
  const timedOut = page.getByRole("alert").filter({ hasText: "Timed out" });
  await timedOut.waitFor();
  assert.equal(
    await timedOut.textContent(),
    "Timed out after 0.5 s: raise Timeout in the tab (0 waits without limit)",
  );
  const second = await upstream.connection(2);
  await second.closed;

  await page.getByLabel("Timeout (seconds)").filter({ visible: true }).fill("0");
  await page.getByRole("button", { name: "Send" }).click();
  const third = await upstream.connection(3);
  const leftAt = performance.now();
  await page.goto("about:blank");
  assert.ok((await third.closed) - leftAt < 1000);

  await page.goBack();
  await page.getByLabel("URL", { exact: true }).fill(`${upstream.origin}/slow`);
  await page.getByLabel("Timeout (seconds)").filter({ visible: true }).fill("0");
  await page.getByRole("button", { name: "Send" }).click();
  const fourth = await upstream.connection(4);
  const closedPageAt = performance.now();
  await page.close();
  assert.ok((await fourth.closed) - closedPageAt < 1000);
});

Deno.test("browser: after every tab is used with secrets, localStorage holds none of them; Clear saved drafts empties it", async () => {
  await using app = await openApp(browser());
  const { page } = app;
  const secrets = {
    basic: "basic-pw-1",
    bearer: "bearer-tok-2",
    apikey: "apikey-val-3",
    oauthSecret: "oauth-secret-4",
    oauthPassword: "oauth-pw-5",
    urlQuery: "url-token-6",
    urlPassword: "url-pw-7",
    header: "hdr-secret-8",
    param: "param-key-9",
    form: "form-pw-10",
    json: "json-pw-11",
    gqlHeader: "gql-hdr-12",
    gqlVar: "gql-var-13",
    wsHeader: "ws-hdr-14",
    wsQuery: "ws-tok-15",
    sseHeader: "sse-hdr-16",
    sseBody: "sse-body-17",
  };
  const auth = page.getByLabel("Auth", { exact: true });
  await auth.selectOption("basic");
  await page.getByLabel("Username").fill("ann");
  await page.getByLabel("Password").fill(secrets.basic);
  await auth.selectOption("bearer");
  await page.getByLabel("Token", { exact: true }).fill(secrets.bearer);
  await auth.selectOption("apikey");
  await page.getByLabel("Key value").fill(secrets.apikey);
  await auth.selectOption("oauth2");
  await page.getByLabel("Flow").selectOption("password");
  await page.getByLabel("Client secret").fill(secrets.oauthSecret);
  await page.getByLabel("OAuth password").fill(secrets.oauthPassword);

  await page.getByLabel("URL", { exact: true }).fill(
    `http://ann:${secrets.urlPassword}@127.0.0.1:1/x?page=2&access_token=${secrets.urlQuery}`,
  );
  // The URL's query fills the table (two rows); a third row goes into the URL.
  await page.getByLabel("Query parameters name 3").fill("api_key");
  await page.getByLabel("Query parameters value 3").fill(secrets.param);
  await page.getByLabel("Headers name 1", { exact: true }).fill("X-Session-Id");
  await page.getByLabel("Headers value 1", { exact: true }).fill(secrets.header);
  await page.locator("summary", { hasText: /^Body$/ }).click();
  await page.getByLabel("Body type").selectOption("form");
  await page.getByLabel("Form fields name 1").fill("password");
  await page.getByLabel("Form fields value 1").fill(secrets.form);
  await page.getByLabel("Body type").selectOption("json");
  await page.getByLabel("Request body").click();
  await page.keyboard.type(`{"user": "ann", "password": "${secrets.json}"`);

  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.locator("summary:visible", { hasText: /^Headers$/ }).click();
  await page.getByLabel("GraphQL headers name 1").fill("Authorization");
  await page.getByLabel("GraphQL headers value 1").fill(`Bearer ${secrets.gqlHeader}`);
  await page.getByLabel("Variables JSON").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(`{"apiKey": "${secrets.gqlVar}"`);

  await page.getByRole("tab", { name: "WebSocket" }).click();
  await page.getByLabel("WebSocket endpoint").fill(
    `ws://127.0.0.1:1/feed?token=${secrets.wsQuery}`,
  );
  await page.locator("summary:visible", { hasText: "Handshake headers" }).click();
  await page.getByLabel("Handshake header name 1").fill("X-Auth");
  await page.getByLabel("Handshake header value 1").fill(secrets.wsHeader);

  await page.getByRole("tab", { name: "SSE" }).click();
  await page.locator("summary:visible", { hasText: "Request headers" }).click();
  await page.getByLabel("Request header name 1").fill("Cookie");
  await page.getByLabel("Request header value 1").fill(`sid=${secrets.sseHeader}`);
  await page.getByLabel("Send as").selectOption("POST");
  await page.getByLabel("SSE body", { exact: true }).click();
  await page.keyboard.type(`{"secret": "${secrets.sseBody}"`);

  const stored = await page.evaluate(() =>
    Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]))
  );
  const text = JSON.stringify(stored);
  for (const [what, value] of Object.entries(secrets)) {
    assert.ok(!text.includes(value), `${what} is stored: ${text}`);
  }
  // What is not secret is remembered.
  const draft = (key: string) => JSON.parse(stored[key] ?? "null");
  assert.equal(
    draft("dial.http.url"),
    "http://ann@127.0.0.1:1/x?page=2&access_token=&api_key=",
  );
  assert.deepEqual(JSON.parse(draft("dial.http.body")), { user: "ann", password: "" });
  assert.equal(draft("dial.ws.url"), "ws://127.0.0.1:1/feed?token=");
  assert.deepEqual(JSON.parse(draft("dial.graphql.variables")), { apiKey: "" });
  assert.deepEqual(JSON.parse(draft("dial.sse.body")), { secret: "" });
  assert.deepEqual(draft("dial.http.headers")[0], {
    name: "X-Session-Id",
    value: "",
    enabled: true,
  });

  await page.getByRole("button", { name: "Clear saved drafts" }).click();
  await page.getByRole("status").filter({ hasText: "Saved drafts cleared" }).waitFor();
  await page.getByLabel("SSE endpoint").fill("http://127.0.0.1:1/after");
  const left = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith("dial."))
  );
  assert.deepEqual(left, []);
});

Deno.test("browser: Cancel while the schema loads and Stop while a query waits close the upstream connection within a second", async () => {
  await using upstream = trickleServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL").fill(`${upstream.origin}/graphql`);
  await page.getByRole("button", { name: "Load schema" }).click();
  const schema = await upstream.connection(1);
  const cancelledAt = performance.now();
  await page.getByRole("button", { name: "Cancel" }).click();
  assert.ok((await schema.closed) - cancelledAt < 1000);
  await page.getByRole("alert").filter({ hasText: "Cancelled: the schema was not loaded" })
    .waitFor();

  await page.getByLabel("Query", { exact: true }).click();
  await page.keyboard.type("{ slow }");
  await page.getByRole("button", { name: "Run" }).click();
  const query = await upstream.connection(2);
  const stoppedAt = performance.now();
  await page.getByRole("button", { name: "Stop" }).click();
  assert.ok((await query.closed) - stoppedAt < 1000);
});

Deno.test("browser: the handover file opens the app in Chromium and is gone once the page has its session", async () => {
  await using app = await openApp(browser());
  const box: { handover?: Handover } = {};
  const handover = box.handover = await writeHandover(
    app.server.launchUrl(() => box.handover?.remove()),
  );
  const path = decodeURI(handover.fileUrl.pathname);
  const page = await app.page.context().newPage();
  await page.goto(handover.fileUrl.href);
  await page.getByRole("tablist").waitFor();
  assert.equal(page.url(), new URL("/", app.server.url).href);
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  await page.close();
});

Deno.test("browser: the GraphQL tab's timeout ends a query in words", async () => {
  await using upstream = trickleServer();
  await using app = await openApp(browser());
  const { page } = app;
  await page.getByRole("tab", { name: "GraphQL" }).click();
  await page.getByLabel("Endpoint URL").fill(`${upstream.origin}/graphql`);
  await page.getByLabel("Timeout (seconds)").filter({ visible: true }).fill("0.5");
  await page.getByLabel("Query", { exact: true }).click();
  await page.keyboard.type("{ slow }");
  await page.getByRole("button", { name: "Run" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Timed out" });
  await alert.waitFor();
  assert.match(
    await alert.textContent() ?? "",
    /Timed out after 0.5 s \(raise Timeout in the tab \(0 waits without limit\)\)/,
  );
  await (await upstream.connection(1)).closed;
});
