/**
 * A HAR saved by Chromium (Playwright's recorder) while a page calls an API: dial imports the
 * page's API calls (not the browser's loading of the page) and `dial run` sends them again, as
 * Chromium sent them.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { headerValues, rawServer, requestPath } from "../e2e/_raw_server.ts";
import { fileBrowser } from "./_browser.ts";

const browser = fileBrowser();

const decoder = new TextDecoder();

Deno.test("browser: a HAR recorded by Chromium imports into .http files that dial runs the same", async () => {
  const page = `<!doctype html><script>
    fetch("/api/items?q=1", { headers: { "X-Trace": "abc" } })
      .then(() => fetch("/api/items", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"pen"}' }))
      .then(() => { document.title = "done"; });
  </script>`;
  await using server = rawServer((r) =>
    requestPath(r) === "/"
      ? { headers: [["Content-Type", "text/html"]], body: page }
      : { headers: [["Content-Type", "application/json"]], body: "{}" }
  );
  const dir = await Deno.makeTempDir();
  const context = await browser().newContext({ recordHar: { path: `${dir}/page.har` } });
  try {
    const tab = await context.newPage();
    await tab.goto(`${server.origin}/`);
    await tab.waitForFunction("document.title === 'done'");
  } finally {
    await context.close(); // writes the HAR
  }
  const api = server.requests.splice(0).filter((r) => requestPath(r).startsWith("/api/"));
  assert.equal(api.length, 2);

  const imported = await dial(["import", "page.har", "--out", "."], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  // Only the page's API calls: the document the browser loaded is skipped, and said so.
  assert.match(imported.stderr, /Imported 2 requests/);
  assert.match(imported.stderr, /request\(s\) the browser made for the page itself/);
  const http = [...Deno.readDirSync(dir)].find((e) => e.name.endsWith(".http"))!.name;
  const ran = await dial(["run", http], { cwd: dir });
  assert.equal(ran.code, 0, ran.stderr);
  const again = server.requests.filter((r) => requestPath(r).startsWith("/api/"));
  const view = (r: typeof api[number]) => ({
    line: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    trace: headerValues(r, "x-trace"),
    type: headerValues(r, "content-type"),
    body: decoder.decode(r.body),
  });
  assert.deepEqual(again.map(view), api.map(view));
});
