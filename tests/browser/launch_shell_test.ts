import assert from "node:assert/strict";
import { fileBrowser } from "./_browser.ts";
import { startUiServer } from "../../src/ui/server.ts";

const browser = fileBrowser();

/** 100 files of 10 named requests each: the 1,000-request workspace of the issue. */
async function bigWorkspace(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-shell-" });
  for (let f = 0; f < 100; f++) {
    const requests = [];
    for (let r = 0; r < 10; r++) {
      const n = f * 10 + r;
      requests.push(`### item-${n}\n# @name item-${n}\nGET http://127.0.0.1:9/items/${n}\n`);
    }
    await Deno.writeTextFile(`${dir}/api-${String(f).padStart(3, "0")}.http`, requests.join("\n"));
  }
  return dir;
}

/**
 * Page code, before the page's own: records, in every animation frame from the start, how many
 * app roots the page holds (the server's shell, the app's) and how many tree rows, until
 * `globalThis.__stopFrames()`.
 */
const RECORD_FRAMES = `globalThis.__frames = [];
  globalThis.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => globalThis.__violations.push(e.violatedDirective));
  let recording = true;
  globalThis.__stopFrames = () => { recording = false; return globalThis.__frames; };
  const frame = () => {
    if (!recording) return;
    globalThis.__frames.push({
      shells: document.querySelectorAll("#app > .app[data-shell]").length,
      apps: document.querySelectorAll("#app > .app:not([data-shell])").length,
      rows: document.querySelectorAll('[role="tree"] [role="treeitem"]').length,
    });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);`;

/** Page code: each tree row's box in the page, by its position among the files. */
const ROW_BOXES = `[...document.querySelectorAll('[role="tree"] [role="treeitem"]')].map((row) => {
  const box = row.getBoundingClientRect();
  return [row.getAttribute("aria-posinset"), row.querySelector("button.file")?.textContent, box.x, box.y, box.width, box.height];
})`;

/** Page code: the sidebar's box and the selected request kind, shell's or app's. */
const SHELL_FACTS = `(() => {
  const nav = document.querySelector("nav.sidebar").getBoundingClientRect();
  const tab = document.querySelector('header [role="tab"][aria-selected="true"]');
  return [nav.x, nav.y, nav.width, nav.height, tab.textContent, tab.getBoundingClientRect().x];
})()`;

for (
  const [colorScheme, state] of [
    ["light", undefined],
    // A width and a kind kept by an earlier session: the page shows them as the app will.
    ["dark", { "layout.sidebar": "312", "tab": '"graphql"' }],
  ] as const
) {
  Deno.test(
    `browser: the launch paints the served file list before the app, which takes it over in place (${colorScheme}${
      state ? ", a kept sidebar width and kind" : ""
    })`,
    async () => {
      const workspace = await bigWorkspace();
      if (state) {
        await Deno.mkdir(`${workspace}/.dial`);
        await Deno.writeTextFile(
          `${workspace}/.dial/ui-state.json`,
          JSON.stringify({ values: state }),
        );
      }
      const server = await startUiServer({ workspace });
      const context = await browser().newContext({
        viewport: { width: 1280, height: 860 },
        colorScheme,
      });
      try {
        await context.addInitScript(RECORD_FRAMES);
        const page = await context.newPage();
        // The app's script waits until the served list has been looked at.
        let release = () => {};
        let released = new Promise<void>((resolve) => release = resolve);
        await page.route("**/app.js", async (route) => {
          await released;
          await route.continue();
        });
        const trades: string[] = [];
        page.on("request", (request) => {
          if (new URL(request.url()).pathname.startsWith("/api/session")) {
            trades.push(request.url());
          }
        });
        const opened = await page.goto(server.url.href, { waitUntil: "commit" });
        // The page as served holds no file name: the bootstrap fetched them with the session.
        const served = await opened!.text();
        assert.ok(served.includes("data-shell") && !served.includes("api-0"), served);
        const shellTree = page.locator('.app[data-shell] [role="tree"]');
        await shellTree.locator('[role="treeitem"][aria-posinset="1"][aria-setsize="100"]')
          .waitFor();
        assert.ok(await shellTree.locator("text=api-000.http").isVisible());
        // A picture: out of the accessibility tree and of reach (the app's tree is the live one).
        assert.equal(await page.getByRole("tree", { name: "Request files" }).count(), 0);
        assert.equal(await page.locator(".app[data-shell]").getAttribute("inert"), "");
        const before = await page.evaluate(ROW_BOXES) as unknown[][];
        assert.equal(before.length, 40);
        const shellFacts = await page.evaluate(SHELL_FACTS) as unknown[];
        assert.equal(shellFacts[2], state ? 312 : 240);

        release();
        await page.getByRole("tablist", { name: "Request kind" }).waitFor();
        const tree = page.getByRole("tree", { name: "Request files" });
        await tree.locator('[role="treeitem"][aria-posinset="1"][aria-setsize="100"]').waitFor();
        assert.equal(await page.locator(".app[data-shell]").count(), 0);
        assert.deepEqual(await page.evaluate(SHELL_FACTS), shellFacts);
        // Each row the app drew is where the served one was, with the same file.
        const after = await page.evaluate(ROW_BOXES) as unknown[][];
        const shellRows = new Map(before.map((row) => [row[0], row]));
        assert.ok(after.length >= 26, `${after.length} rows`);
        for (const row of after) {
          const was = shellRows.get(row[0]);
          if (!was) continue; // an overscan row beyond the served 40
          assert.deepEqual([row[1], row[2], row[3], row[5]], [was[1], was[2], was[3], was[5]]);
        }
        // No frame showed both, none lost the list once it was painted.
        const frames = await page.evaluate("globalThis.__stopFrames()") as Array<
          { shells: number; apps: number; rows: number }
        >;
        const first = frames.findIndex((f) => f.rows > 0);
        assert.ok(first >= 0);
        for (const f of frames.slice(first)) {
          assert.equal(f.shells + f.apps, 1, JSON.stringify(f));
          assert.ok(f.rows >= 26, JSON.stringify(f));
        }
        assert.ok(frames.at(-1)!.apps === 1);
        // One trade of the link, by the bootstrap (its script ran by its hash: no violation); the
        // app took its session over. The address bar lost the token; no session in localStorage.
        assert.deepEqual(trades.map((url) => new URL(url).pathname), ["/api/session"]);
        assert.deepEqual(await page.evaluate("globalThis.__violations"), []);
        assert.equal(new URL(page.url()).hash, "");
        const token = server.url.hash.slice("#launch=".length);
        const [session, stored] = await page.evaluate(`[sessionStorage.getItem("dial.session"),
          Object.values(localStorage).join("\\n") + document.cookie]`) as [string, string];
        assert.equal(session.length, 43);
        assert.ok(!stored.includes(session) && !stored.includes(token));

        // The adopted tree is the app's: a click unfolds, keys move, Enter opens.
        await tree.getByRole("button", { name: "api-000.http", exact: true }).click();
        await tree.getByRole("button", { name: "GET item-0", exact: true }).waitFor();
        await page.keyboard.press("ArrowDown");
        assert.equal(await page.locator(":focus").textContent(), "GET item-0");
        await page.keyboard.press("Enter");
        await page.getByRole("tablist", { name: "Open requests" }).getByRole("tab", {
          name: /item-0/,
        }).waitFor();

        // A reload has its session (sessionStorage): the bootstrap asks for the list with it.
        released = new Promise<void>((resolve) => release = resolve);
        trades.length = 0;
        const asked: string[] = [];
        page.on("request", (request) => asked.push(new URL(request.url()).pathname));
        await page.reload({ waitUntil: "commit" });
        await shellTree.locator('[role="treeitem"][aria-posinset="1"][aria-setsize="100"]')
          .waitFor();
        assert.deepEqual(trades, []);
        assert.ok(asked.includes("/api/workspace/shell"), asked.join(" "));
        release();
        await tree.locator('[role="treeitem"][aria-posinset="1"][aria-setsize="100"]').waitFor();
      } finally {
        await context.close();
        await server.shutdown();
        await Deno.remove(workspace, { recursive: true });
      }
    },
  );
}
