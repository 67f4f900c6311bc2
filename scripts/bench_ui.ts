/**
 * Measures the GraphQL tab on GitHub's public schema (`@octokit/graphql-schema`, 1,600+
 * types) in headless Chromium: schema received → tree painted, search keystroke → matches
 * highlighted and parents expanded, tree rows in the DOM, and introspections per session.
 * Figures go to docs/benchmarks.md ("Desktop UI"); nothing here is asserted by a test.
 *
 * Run: `deno task bench --only ui` (all the UI benchmarks), or alone:
 * `deno run -A --config tests/deno.json scripts/bench_ui.ts` (needs Debian's Chromium at
 * /usr/bin/chromium; the tests' configuration resolves Playwright and the test servers).
 * @module
 */
import { launchBrowser, openApp } from "../tests/browser/_browser.ts";
import { loadSchema } from "../tests/browser/_gql_app.ts";
import { startGraphqlServer } from "../tests/browser/_graphql_server.ts";

const RUNS = 5;
const QUERIES = ["s", "st", "sta", "star", "starg", "stargazer", "e", "re", "rep", "repo", "login"];

/**
 * Page code (a string, so this script type-checks without the DOM library): types `text` into
 * the search box and resolves with the milliseconds until a painted frame shows a highlighted
 * match revealed as the current row.
 */
function keystrokeProbe(text: string): string {
  return `(async (text) => {
    const box = document.querySelector('input[role="searchbox"]');
    const start = performance.now();
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    const shown = () =>
      [...document.querySelectorAll('[role="tree"] mark')].some((m) =>
        m.textContent.toLowerCase() === text
      ) && document.querySelector('[role="treeitem"][aria-current="true"]') !== null;
    for (let frames = 0; frames < 120; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      if (shown()) return performance.now() - start;
    }
    throw new Error("no highlighted match for " + text);
  })(${JSON.stringify(text)})`;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (n=${values.length})`;
}

await using graphql = await startGraphqlServer();
await using browser = await launchBrowser();
const paint: number[] = [];
const keystrokes: number[] = [];
let maxRows = 0;
let introspections = 0;
for (let run = 0; run < RUNS; run++) {
  await using app = await openApp(browser);
  const { page } = app;
  const before = graphql.introspections();
  await loadSchema(page, graphql.endpoint);
  await page.waitForFunction(() => performance.getEntriesByName("dial:tree-painted").length > 0);
  paint.push(
    await page.evaluate(() =>
      performance.measure("paint", "dial:schema-received", "dial:tree-painted").duration
    ),
  );
  for (const query of QUERIES) {
    const ms: unknown = await page.evaluate(keystrokeProbe(query));
    if (typeof ms !== "number") throw new Error(`no timing for ${query}`);
    keystrokes.push(ms);
    maxRows = Math.max(maxRows, await page.getByRole("treeitem").count());
  }
  // Expand a lot, scroll through it, tick and untick: still only visible rows are in the DOM.
  await page.getByRole("searchbox", { name: "Search schema" }).fill("id");
  await page.getByRole("tree").evaluate((tree) => tree.scrollTop = tree.scrollHeight / 2);
  await page.waitForTimeout(50);
  maxRows = Math.max(maxRows, await page.getByRole("treeitem").count());
  await page.getByRole("treeitem").first().getByRole("checkbox").first().click().catch(() => {});
  introspections = Math.max(introspections, graphql.introspections() - before);
}

const rows = [
  ["Schema received → tree painted", stats(paint), "< 500 ms"],
  ["Search keystroke → highlighted and expanded", stats(keystrokes), "< 100 ms"],
  ["Tree rows in the DOM (most seen)", String(maxRows), "< 500"],
  ["Introspections per loaded schema", String(introspections), "1"],
];
const table = [
  "| measure (GitHub's schema, headless Chromium) | result | goal |",
  "| --- | --- | --- |",
  ...rows.map((r) => `| ${r.join(" | ")} |`),
].join("\n");
await Deno.stdout.write(new TextEncoder().encode(`${table}\n`));
